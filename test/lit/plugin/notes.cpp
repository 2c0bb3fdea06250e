// sonde's own notes (a site it had to skip) show the line the user wrote,
// not the instrumented one, at the user's line and column.
//
// RUN: %spec
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "loop > $x"

int loop(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += i;
  // CHECK: notes.cpp:[[@LINE-1]]:12: warning: probe 'loop > $x' skipped: 'i' is declared {{.*}}[sonde-unsupported]
  // CHECK-NEXT: {{^ *}}[[@LINE-2]] |   for (int i = 0; i < n; ++i) s += i;{{$}}
  return s;
}

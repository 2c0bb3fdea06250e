// C-style code: a variadic function's va_start/va_end are macros (their
// builtin calls are skipped with a note, the va_list is not watched: it is
// not initialized by a declaration), and setjmp is a macro too: never
// wrapped in a lambda (it must return to the frame that called it).
// A write inside va_arg's expansion is a macro's: skipped.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > *"

#include <csetjmp>
#include <cstdarg>

int sum(int n, ...) {
  va_list ap;
  // CHECK: {{^}}  va_list ap;{{$}}
  va_start(ap, n);
  // CHECK: {{^}}  va_start(ap, n);{{$}}
  // DIAG-DAG: varargs-setjmp.cpp:[[@LINE-2]]:3: warning: probe '* > *()' skipped: call of '__builtin_va_start' is a macro expansion [sonde-macro]
  int total = 0;
  for (int i = 0; i < n; ++i) {
    int v = va_arg(ap, int);
    // CHECK: {{^}}    int v = va_arg(ap, int); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, v);
    total += v;
  }
  va_end(ap);
  return total;
}

static std::jmp_buf env;
int jumps() {
  int got = setjmp(env);
  // CHECK: {{^}}  int got = setjmp(env); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, got);
  // DIAG-DAG: varargs-setjmp.cpp:[[@LINE-2]]:13: warning: probe '* > *()' skipped: call of '_setjmp' is a macro expansion [sonde-macro]
  if (got == 0)
    std::longjmp(env, 2);
  return got;
}

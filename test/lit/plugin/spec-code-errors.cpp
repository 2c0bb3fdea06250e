// Spec-borne code (`when`, `args`) that does not compile is reported at the
// spec's line and column, not inside an instrumented line.
//
// RUN: %spec
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_step"
// SPEC:     args: {lr: "learning_rate * 2"}
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "stpe % 10 == 0"

float train(int n) {
  float loss = 0;
  for (int step = 0; step < n; ++step)
    loss += 1.0f / (step + 1);
  return loss;
}

// The spec's lines are those of %t.yaml (the SPEC lines above).
// CHECK-DAG: {{.*}}.yaml:4:17: error: use of undeclared identifier 'learning_rate' (in {{.*}}spec-code-errors.cpp:18)
// CHECK-DAG: {{.*}}.yaml:7:12: error: use of undeclared identifier 'stpe' (in {{.*}}spec-code-errors.cpp:16)
// CHECK-DAG: {{.*}}.yaml:7:12: error: use of undeclared identifier 'stpe' (in {{.*}}spec-code-errors.cpp:18)
// CHECK-NOT: spec-code-errors.cpp:{{[0-9]+}}:{{[0-9]+}}: error

// Code that comes from the spec (`when`, `args`) and does not compile is
// the spec's error: sonde-rewrite reports it at the spec's own line and
// exits 1, instead of leaving the compiler to blame a rewritten line.
//
// RUN: %spec
// RUN: %not %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > /dev/null 2> %t.err
// RUN: FileCheck %s --input-file %t.err
// RUN: sh -c '%sonde-rewrite --spec %t.yaml %s -- -std=c++17 > /dev/null 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=EXIT
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "epoch % 2 == 0"
// SPEC:   - at: "train > lr"
// SPEC:     args: {rate: "lr * undefined_scale"}

// Parameters are watched at entry, so this error comes first.
// CHECK: spec-code-errors.cpp.tmp.yaml:6:24: error: use of undeclared identifier 'undefined_scale'
// The first write of `loss` is outside the loop, where `epoch` is unknown.
// CHECK: spec-code-errors.cpp.tmp.yaml:4:12: error: use of undeclared identifier 'epoch'{{.*}}
// CHECK-NEXT: when: "epoch % 2 == 0"
// CHECK-NEXT: {{^}}           ^
// EXIT: exit 1

void train(int epochs, float lr) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += lr;
}

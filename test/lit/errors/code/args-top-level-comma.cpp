// Two expressions for one arg: a top-level ',' is the comma operator, which
// would drop the left side (and break a -Werror build with -Wunused-value).
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train"
// SPEC:     args: {range: "epochs, 2 * epochs"}

float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    loss += 1.0f / (epoch + 1);
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}args-top-level-comma.cpp.tmp.yaml:4:26: error: ',' outside brackets makes two expressions, of which the first is discarded; arg 'range' is one C++ expression (put a template's argument list in parentheses)
// CHECK-NEXT:     args: {range: "epochs, 2 * epochs"}
// CHECK-NEXT:                          ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}args-top-level-comma.cpp.tmp.yaml:4:26: error: ',' outside brackets makes two expressions, of which the first is discarded; arg 'range' is one C++ expression (put a template's argument list in parentheses)
// CHECK-NEXT:     args: {range: "epochs, 2 * epochs"}
// CHECK-NEXT:                          ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}args-top-level-comma.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end

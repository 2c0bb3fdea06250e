// An unquoted lambda in 'when' is a YAML list (found: "anchor not found
// after &").
//
// RUN: %spec
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: [&]{ return true; }()

void step(int n) {}
float train(int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    loss += 1.0f / (epoch + 1);
    step(epoch);
  }
  return loss;
}

// CHECK: rewrite: exit 1
// CHECK-NEXT: {{.*}}when-lambda.cpp.tmp.yaml:4:13: error: invalid YAML: anchor not found after &; '&' here starts a YAML anchor: write the value in quotes
// CHECK-NEXT:     when: [&]{ return true; }()
// CHECK-NEXT:             ^
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}when-lambda.cpp.tmp.yaml:4:13: error: invalid YAML: anchor not found after &; '&' here starts a YAML anchor: write the value in quotes
// CHECK-NEXT:     when: [&]{ return true; }()
// CHECK-NEXT:             ^
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}when-lambda.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end

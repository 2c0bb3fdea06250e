// Nesting beyond yaml-cpp's depth limit (found: "invalid YAML: bad file").
//
// RUN: %python -c "print('version: 1\nprobes:\n  - at: train\n    args: ' + '{a: ' * 600 + 'x' + '}' * 600)" > %t.yaml
// RUN: %refused 1 %t.yaml %s | FileCheck %s --match-full-lines

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
// CHECK-NEXT: {{.*}}too-deep.cpp.tmp.yaml:4:{{[0-9]+}}: error: invalid YAML: nested more than 500 levels deep (a probe spec needs 4)
// CHECK-NEXT: {{ *args: {a: {a: .*}}
// CHECK-NEXT: {{ *\^}}
// CHECK-NEXT: plugin: exit 1
// CHECK-NEXT: {{.*}}too-deep.cpp.tmp.yaml:4:{{[0-9]+}}: error: invalid YAML: nested more than 500 levels deep (a probe spec needs 4)
// CHECK-NEXT: {{ *args: {a: {a: .*}}
// CHECK-NEXT: {{ *\^}}
// CHECK-NEXT: error: sonde: invalid probe spec '{{.*}}too-deep.cpp.tmp.yaml'
// CHECK-NEXT: 1 error generated.
// CHECK-NEXT: end

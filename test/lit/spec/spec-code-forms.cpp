// Spec code that looks like it escapes its parentheses but does not, and
// YAML forms that are odd but fine: all accepted, compiled where they are
// inserted, and every line keeps its number (%instrument checks that the
// result is insertions only, and compiles it with clang++ and g++).
//
// - a ';' and braces inside a lambda, a statement expression;
// - ')' and '//' inside string literals, a '/* */' comment;
// - `enabled: True` (YAML's capitalized boolean), an anchored selector
//   reused through an alias with another name, a flow-style probe.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: &loss "train > loss"
// SPEC:     when: "[&] { int q = 0; for (int i = 0; i < 2; ++i) q += i; return q > 0; }()"
// SPEC:     args: {s: "sizeof(\")//\")", c: "epochs /* the count */"}
// SPEC:   - at: *loss
// SPEC:     name: loss_again
// SPEC:     when: "({ int z = 1; z; }) > 0"
// SPEC:     enabled: True
// SPEC: probes: [{at: "train > #loop_epoch", category: pipeline.epoch}]

void step(int n) {}
float train(int epochs) {
  float loss = 0;
  // CHECK: {{^}}  float loss = 0; if (([&] { int q = 0; for (int i = 0; i < 2; ++i) q += i; return q > 0; }())) ::sonde::watchArgs({{.*}}, loss, (sizeof(")//")), (epochs /* the count */)); if ((({ int z = 1; z; }) > 0)) ::sonde::watch{{.*}}
  for (int epoch = 0; epoch < epochs; ++epoch) {
    loss += 1.0f / (epoch + 1);
    step(epoch);
  }
  return loss;
}

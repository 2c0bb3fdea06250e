// `model:` of a state entry is spec code, like `when` and `args`: when it
// does not compile where the state is recorded, sonde-rewrite says so at
// the spec's own line and exits 1.
//
// RUN: %spec
// RUN: %not %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > /dev/null 2> %t.err
// RUN: FileCheck %s --input-file %t.err
//
// SPEC: version: 1
// SPEC: state:
// SPEC:   - at: "train > *::step()"
// SPEC:     model: "*modle"
// SPEC: apis:
// SPEC:   - call: "*::step"
// SPEC:     when: "stpe > 0"

// The api's guard comes first in the rewritten line.
// CHECK: state-model-error.cpp.tmp.yaml:7:12: error: use of undeclared identifier 'stpe' (in {{.*}}state-model-error.cpp)
// CHECK-NEXT: when: "stpe > 0"
// CHECK-NEXT: {{^}}           ^
// CHECK: state-model-error.cpp.tmp.yaml:4:14: error: use of undeclared identifier 'modle'{{(; did you mean 'model'\?)?}} (in {{.*}}state-model-error.cpp)
// CHECK-NEXT: model: "*modle"
// CHECK-NEXT: {{^}}             ^

struct Net {};
struct Opt {
  void step() {}
};

void train(Net *model, Opt &opt, int step) {
  opt.step();
}

// `$x` and `*` match every local (recorded under its own name); `:TYPE`
// filters by the declared type, written or canonical, through typedefs and
// namespaces (`:torch::Tensor` matches `at::Tensor`).
//
// RUN: %instrument
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "step > $t:torch::Tensor"
// SPEC:     summary: shape
// SPEC:   - at: "step > *:float"
// SPEC:   - at: "count > *"

namespace at {
struct Tensor {
  float V = 0;
};
} // namespace at
namespace torch {
using namespace at;
}

float step(at::Tensor input, float lr) {
  auto out = input;
  torch::Tensor grad{lr};
  float scaled = grad.V * lr;
  int steps = 1;
  return scaled + out.V + steps;
}

int count(int n) {
  int a = n, b = 2;
  return a + b;
}

// SITES: watch user input {{.*}}any-local-and-type.cpp:25 step input :at::Tensor
// SITES-NEXT: watch user lr {{.*}}:25 step lr :float
// SITES-NEXT: watch user out {{.*}}:26 step out :at::Tensor
// SITES-NEXT: watch user grad {{.*}}:27 step grad :torch::Tensor
// SITES-NEXT: watch user scaled {{.*}}:28 step scaled :float
// SITES-NEXT: watch user n {{.*}}:33 count n :int
// SITES-NEXT: watch user a {{.*}}:34 count a :int
// SITES-NEXT: watch user b {{.*}}:34 count b :int
// SITES-NOT: steps

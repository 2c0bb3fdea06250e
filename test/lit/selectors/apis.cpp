// apis: each selected call runs inside sonde::api, and each argument that
// can pass through unchanged goes through the call's ApiCall::arg. A callee
// glob matches the function's qualified name or the name as written at the
// call (`torch::relu` below is `at::relu`). A tensor argument or result
// makes the file need sonde/torch.h.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
// RUN: FileCheck %s --check-prefix=NOTES --input-file %t.err
//
// SPEC: version: 1
// SPEC: apis:
// SPEC:   - call: "torch::*"
// SPEC:     within: "train > step"
// SPEC:     args: stats
// SPEC:   - call: "*::zero_grad"
// SPEC:     args: none
// SPEC:   - call: "*::update"
// SPEC:     enabled: false
// SPEC:   - call: "torch::check_failed"
// SPEC:     within: train

namespace at {
struct Tensor {
  float V = 0;
};
Tensor relu(const Tensor &X) { return X; }
Tensor add(const Tensor &A, const Tensor &B, float Alpha = 1) { return A; }
} // namespace at
namespace torch {
using namespace at;
} // namespace torch
struct Opt {
  bool Broken = false;
  void zero_grad(bool SetToNone) {}
};
struct Pair {
  at::Tensor A, B;
};

at::Tensor step(Opt &opt, at::Tensor x) {
  opt.zero_grad(true);
  // CHECK: {{^}}  ::sonde::api(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], 1, 0, [&](::sonde::ApiCall &) -> decltype(auto) { return opt.zero_grad(true); });
  at::Tensor y = torch::relu(x);
  // CHECK: {{^}}  at::Tensor y = ::sonde::api(::sonde::inFrame(::sonde_ctx::frame_{{[0-9a-f]+}}), sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], 1, 1, [&](::sonde::ApiCall &sonde_api_[[S:[0-9a-f]+]]) -> decltype(auto) { return torch::relu(sonde_api_[[S]].arg(0, x)); });
  at::Tensor z = torch::add(y, torch::relu(y), 0.5f);
  // CHECK: {{^}}  at::Tensor z = ::sonde::api({{.*}}return torch::add(sonde_api_[[A:[0-9a-f]+]].arg(0, y), sonde_api_[[A]].arg(1, ::sonde::api({{.*}}return torch::relu(sonde_api_{{[0-9a-f]+}}.arg(0, y)); })), sonde_api_[[A]].arg(2, 0.5f)); });
  auto [a, b] = Pair{y, z};
  at::Tensor w = torch::add(a, b);
  // Unchanged: a lambda cannot capture a structured binding in C++17.
  // CHECK: {{^}}  at::Tensor w = torch::add(a, b);
  return at::relu(w);
  // Unchanged: written `at::relu`, and the function is `at::relu`.
  // CHECK: {{^}}  return at::relu(w);
}

[[noreturn]] void fail();
namespace torch {
[[noreturn]] inline void check_failed() { fail(); }
} // namespace torch

at::Tensor train(Opt &opt) {
  if (opt.Broken)
    torch::check_failed();
  // Unchanged: a call that does not return has no post record.
  // CHECK: {{^}}    torch::check_failed();
  return step(opt, at::Tensor{});
}

// Inside a template the callee is known by name: its arguments are not
// recorded.
template <class O> void update(O &o) { o.update(1); }
// CHECK: {{^}}template <class O> void update(O &o) { {{.*}}::sonde::api(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], 1, 0, [&](::sonde::ApiCall &) -> decltype(auto) { return o.update(1); }); }

// SITES:      # headers: sonde/sonde.h sonde/torch.h
// SITES-NEXT: api api Opt::zero_grad {{.*}}apis.cpp:44 step zero_grad() :void args=SetToNone
// SITES-NEXT: api api at::relu {{.*}}apis.cpp:46 step relu() :Tensor args=X
// SITES-NEXT: api api at::relu {{.*}}apis.cpp:48 step relu() :Tensor args=X
// SITES-NEXT: api api at::add {{.*}}apis.cpp:48 step add() :Tensor args=A,B,Alpha
// SITES-NEXT: api api (dependent)::update {{.*}}apis.cpp:74 update update() :<dependent type> args=arg0
// SITES-NOT:  {{.}}

// NOTES: apis.cpp:51:18: warning: probe 'train > step > torch::*()' skipped: call of 'add' cannot be traced: it names a structured binding or __func__ [sonde-unsupported]
// NOTES: apis.cpp:66:5: warning: probe 'train > torch::check_failed()' skipped: call of 'check_failed' cannot be traced: it does not return [sonde-unsupported]

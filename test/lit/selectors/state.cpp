// state: records the model after a point: after the statement that makes a
// selected call, at #enter, at #exit, at the start or the end of each
// iteration of a loop. The model expression is spec code (checked at the
// spec's line), and the file then needs sonde/torch.h, which declares
// sonde::recordState.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: state:
// SPEC:   - at: "train_epoch > *::step()"
// SPEC:     model: "model"
// SPEC:     every: 10
// SPEC:   - at: "train > #exit"
// SPEC:     model: "*net"
// SPEC:     summary: hash
// SPEC:     name: final
// SPEC:   - at: "train > #endloop_epoch"
// SPEC:     model: "*net"
// SPEC:     when: "epoch % 2 == 0"
// SPEC:   - at: "train > #enter"
// SPEC:     model: "*net"

namespace torch {
namespace nn {
struct Module {};
} // namespace nn
} // namespace torch
struct Net : torch::nn::Module {};
struct Opt {
  bool step() { return true; }
};
// What sonde/torch.h declares (this test compiles with sonde.h only).
#ifdef SONDE_SONDE_H
namespace sonde {
template <class M> void recordState(const Site &, const M &Model) noexcept;
} // namespace sonde
#endif

void train_epoch(Net &model, Opt &opt) {
  opt.step();
  // CHECK: {{^}}  opt.step(); if (::sonde::every(sonde_every_{{[0-9a-f]+}}, 10)) ::sonde::recordState(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (model));
  bool ok = opt.step();
  // CHECK: {{^}}  bool ok = opt.step(); if (::sonde::every(sonde_every_{{[0-9a-f]+}}, 10)) ::sonde::recordState(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (model));
  if (ok && opt.step())
    return;
  // A call in a condition is not a statement of its own: skipped (see the
  // notes below), and the code is unchanged.
  // CHECK: {{^}}  if (ok && opt.step())
}

void train(Net *net, Opt &opt) {
  // CHECK: {{^}}void train(Net *net, Opt &opt) { static ::sonde::SiteTable {{.*}}\n6\n{{.*}}\nstate\nfinal\n{{.*}} ::sonde::OnExit sonde_state_{{[0-9a-f]+}}([&] { ::sonde::recordState(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (*net)); }); ::sonde::recordState(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (*net));
  for (int epoch = 0; epoch < 3; ++epoch) {
    train_epoch(*net, opt);
  }
  // CHECK: {{^}}    train_epoch(*net, opt);
  // CHECK-NEXT: {{^}}   if ((epoch % 2 == 0)) ::sonde::recordState(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (*net));}
}

// SITES:      # headers: sonde/sonde.h sonde/torch.h
// SITES-NEXT: state state model {{.*}}state.cpp:44 train_epoch model
// SITES-NEXT: state state model {{.*}}state.cpp:46 train_epoch model
// SITES-NEXT: state state final {{.*}}state.cpp:55 train *net
// SITES-NEXT: state state state {{.*}}state.cpp:55 train *net
// SITES-NEXT: state state state {{.*}}state.cpp:57 train *net
// SITES-NOT:  {{.}}
//
// RUN: FileCheck %s --check-prefix=NOTES --input-file %t.err
// NOTES: state.cpp:48:13: warning: probe 'train_epoch > *::step()' skipped: call of 'step' is not a statement of its own (state is recorded after the statement that makes the call) [sonde-unsupported]

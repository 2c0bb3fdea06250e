// Probe fields: when, every, args, context, enabled, mode, summary, name.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites --format json %s -- \
// RUN:   -std=c++17 | FileCheck %s --check-prefix=JSON
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:     args: {epoch: epoch, lr: "lr * 2"}
// SPEC:   - at: "save"
// SPEC:     category: checkpoint.capture
// SPEC:     enabled: false
// SPEC:     mode: instant
// SPEC:   - at: "forward"
// SPEC:     category: compute.forward
// SPEC:     name: fwd
// SPEC:     args: {n: n}
// SPEC:     context: true
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     when: "lr > 0"
// SPEC:     every: 10
// SPEC:     summary: stats

void save(int) {}
// CHECK: {{^}}void save(int) { static ::sonde::SiteTable sonde_sites_[[S:[0-9a-f]+]]({{.*}}\nsave\n1\n3\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncheckpoint.capture\ncapture\n\n\n"); ::sonde::InstantRegion sonde_region_{{[0-9a-f]+}}(sonde_sites_[[S]][0]);}
float forward(int n) { return n; }
// CHECK: {{^}}float forward(int n) { static ::sonde::SiteTable sonde_sites_[[F:[0-9a-f]+]]({{.*}}\nforward\n1\n4\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncompute.forward\nfwd\nn\n\n"); ::sonde::InsertedRegion sonde_region_[[F]](sonde_sites_[[F]][0], (n)); return n; }

void train(int epochs, float lr) {
  // CHECK: {{^}}void train(int epochs, float lr) { static ::sonde::SiteTable sonde_sites_{{[0-9a-f]+}}({{.*}}\ntrain\n4\n4\n{{[0-9]+}}\n{{[0-9a-f]+}}\npipeline.epoch\nepoch.block\nepoch,lr\n\n3\n24\n{{[0-9]+}}\n{{[0-9a-f]+}}\nuser\nloss\n\nfloat\n3\n24\n{{[0-9]+}}\n{{[0-9a-f]*}}[[W:[0-9a-f]{8}]]\nuser\nloss\n\nfloat\n"); static thread_local ::std::uint32_t sonde_every_{{[0-9a-f]+}} = 0; static thread_local ::std::uint32_t sonde_every_[[W]] = 0;
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    // CHECK: {{^}}  { ::sonde::Loop sonde_loop_[[L:[0-9a-f]+]](sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); for (int epoch = 0; epoch < epochs; ++epoch) { ::sonde::CondIteration sonde_iter_[[L]](true, sonde_loop_[[L]], (epoch), (lr * 2));
    loss = forward(epoch);
    // CHECK: {{^}}    loss = forward(epoch); if ((lr > 0) && ::sonde::every(sonde_every_[[W]], 10)) ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, loss);
    save(epoch);
  }
}

// JSON: "args": "n",
// JSON: "at": "forward",
// JSON: "category": "compute.forward",
// JSON: "flags": 4,
// JSON: "kind": "region",
// JSON: "name": "fwd",

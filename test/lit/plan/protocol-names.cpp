// The site protocol is defined once, in sonde/site.h. Context-frame
// descriptors name its kinds (`::sonde::SiteKind::Frame`); a function's site
// table holds, per site, the numbers the engine took from sonde/site.h
// (TableField order: kind, flags, line, id, category, name, args, type),
// after SiteTableVersion, which libsonde checks, so a renumbering there
// cannot leave inserted code misread. The plan keeps the same numbers
// (`flags` in JSON).
//
// RUN: %instrument
// RUN: grep -o '::sonde::Site [a-z_0-9]*([^;]*;' %t.cpp > %t.sites
// RUN: grep -o '::sonde::SiteTable [a-z_0-9]*([^;]*;' %t.cpp >> %t.sites
// RUN: FileCheck %s --input-file %t.sites
// Every descriptor a frame naming its kind, or a table:
// RUN: %not grep -vE '^::sonde::(Site [a-z_0-9]+\(::sonde::SiteKind::[A-Z][a-z]+, |SiteTable sonde_sites_)' %t.sites
// Still constant expressions: the descriptors are constant-initialized (no
// guard variable):
// RUN: %cxx -std=c++17 -include sonde/sonde.h -I%sonde-include -S -o - %t.cpp \
// RUN:   | %not grep __cxa_guard
// RUN: %sonde-rewrite --spec %t.yaml --list-sites --format json %s -- \
// RUN:   -std=c++17 | FileCheck %s --check-prefix=JSON
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "save"
// SPEC:     category: checkpoint.capture
// SPEC:     enabled: false
// SPEC:     mode: instant
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC:     args: {n: n}
// SPEC:     context: false
// SPEC:   - at: "evaluate > Net::forward"
// SPEC:     category: compute.forward
// SPEC:     name: eval_forward
// SPEC:   - at: "train > #enter"
// SPEC:     category: checkpoint.restart
// SPEC:   - at: "train > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:     args: {epoch: epoch}
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     summary: stats
// SPEC: apis:
// SPEC:   - call: "*::update"
// SPEC:     within: train

struct Opt {
  void update(int Step) {}
};
void save(int) {}
struct Net {
  float forward(int n) { return n; }
};
float evaluate(Net &N, int n) { return N.forward(n); }
void train(Net &N, Opt &O, int epochs) {
  float loss = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    loss = N.forward(epoch);
    O.update(epoch);
    save(epoch);
  }
}

// CHECK: {{^}}::sonde::Site frame_{{[0-9a-f]+}}(::sonde::SiteKind::Frame, "", "evaluate", "", 0, "evaluate", 0x{{[0-9a-f]+}}ull);
// Region (1), OffByDefault | InstantMode (3):
// CHECK: {{^}}::sonde::SiteTable sonde_sites_{{[0-9a-f]+}}("{{[0-9]+}}\n1\n{{.*}}\nsave\n1\n3\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncheckpoint.capture\ncapture\n\n\n");
// No flags, but args; then a second region of the same function:
// CHECK: {{^}}::sonde::SiteTable sonde_sites_{{[0-9a-f]+}}("{{[0-9]+}}\n2\n{{.*}}\nNet::forward\n1\n0\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncompute.forward\nforward\nn\n\n1\n0\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncompute.forward\neval_forward\n\n\n");
// Instant (2); Loop (4) with ContextArgs (4); Watch (3) with
// summaryFlags(Stats) (24); Api (7) with summaryFlags(Shape) (16):
// CHECK: {{^}}::sonde::SiteTable sonde_sites_{{[0-9a-f]+}}("{{[0-9]+}}\n5\n{{.*}}\ntrain\n2\n0\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncheckpoint.restart\nrestart\n\n\n4\n4\n{{[0-9]+}}\n{{[0-9a-f]+}}\npipeline.epoch\nepoch.block\nepoch\n\n3\n24\n{{[0-9]+}}\n{{[0-9a-f]+}}\nuser\nloss\n\nfloat\n3\n24\n{{[0-9]+}}\n{{[0-9a-f]+}}\nuser\nloss\n\nfloat\n7\n16\n{{[0-9]+}}\n{{[0-9a-f]+}}\napi\nOpt::update\nStep\nvoid\n");

// JSON-DAG: "flags": 3,
// JSON-DAG: "flags": 4,
// JSON-DAG: "flags": 24,
// JSON-DAG: "flags": 16,

// The site protocol is defined once, in sonde/site.h: the descriptors the
// engine inserts name its kinds and flags (`::sonde::SiteKind::Region`,
// `::sonde::OffByDefault`, `::sonde::summaryFlags(::sonde::Summary::Stats)`)
// and never restate a number of it, so a renumbering there cannot leave
// inserted code behind. The plan keeps the numbers (`flags` in JSON).
//
// RUN: %instrument
// RUN: grep -o '::sonde::Site [a-z_0-9]*([^;]*;' %t.cpp > %t.sites
// RUN: FileCheck %s --input-file %t.sites
// Every kind by name:
// RUN: %not grep -vE '^::sonde::Site [a-z_0-9]+\(::sonde::SiteKind::[A-Z][a-z]+, ' %t.sites
// No number where the flags go (right after the id):
// RUN: %not grep -E 'ull, [0-9]' %t.sites
// Names, but still constant expressions: the descriptors are constant-
// initialized (no guard variable):
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
// CHECK: (::sonde::SiteKind::Region, "checkpoint.capture", "capture", {{.*}}ull, ::sonde::OffByDefault | ::sonde::InstantMode);
// No flags, but args: `{}`, no number.
// CHECK: (::sonde::SiteKind::Region, "compute.forward", "forward", {{.*}}ull, {}, "n");
// CHECK: (::sonde::SiteKind::Region, "compute.forward", "eval_forward", {{.*}}ull);
// CHECK: (::sonde::SiteKind::Instant, "checkpoint.restart", {{.*}}ull);
// CHECK: (::sonde::SiteKind::Loop, "pipeline.epoch", "epoch.block", {{.*}}ull, ::sonde::ContextArgs, "epoch");
// CHECK: (::sonde::SiteKind::Watch, "user", "loss", {{.*}}ull, ::sonde::summaryFlags(::sonde::Summary::Stats), "", "float");
// CHECK: (::sonde::SiteKind::Api, "api", "Opt::update", {{.*}}ull, ::sonde::summaryFlags(::sonde::Summary::Shape), "Step", "void");

// JSON-DAG: "flags": 3,
// JSON-DAG: "flags": 4,
// JSON-DAG: "flags": 24,
// JSON-DAG: "flags": 16,

// Context frames `A > B > x`: x fires in B only while A is active on the
// thread. A gets a sonde::Frame; the check is sonde::inFrame on a
// namespace-scope descriptor shared by every file (an inline variable).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "evaluate > Net::forward"
// SPEC:     category: compute.forward
// SPEC:     name: eval_forward
// SPEC: watches:
// SPEC:   - at: "train > step > loss"

// CHECK: {{^}}namespace sonde_ctx { inline ::sonde::Site frame_[[TRAIN:[0-9a-f]+]]({{.*}}"train"{{.*}}); inline ::sonde::Site frame_[[EVAL:[0-9a-f]+]](::sonde::SiteKind::Frame, "", "evaluate", "", 0, "evaluate", 0x[[EVAL]]ull); } struct Net {
struct Net {
  float forward(float x) { return x; }
  // CHECK: {{^}}  float forward(float x) { static ::sonde::SiteTable {{.*}}\neval_forward\n{{.*}}; ::sonde::CondRegion sonde_region_{{[0-9a-f]+}}(::sonde::inFrame(::sonde_ctx::frame_[[EVAL]]), sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]); return x; }
};

float step(Net &net, float x) {
  float loss = net.forward(x);
  // CHECK: {{^}}  float loss = net.forward(x); if (::sonde::inFrame(::sonde_ctx::frame_[[TRAIN]])) ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, loss);
  return loss;
}

float train(Net &net) { return step(net, 1); }
// CHECK: {{^}}float train(Net &net) { ::sonde::Frame sonde_frame_[[TRAIN]](::sonde_ctx::frame_[[TRAIN]]); return step(net, 1); }
float evaluate(Net &net) { return step(net, 2); }
// CHECK: {{^}}float evaluate(Net &net) { ::sonde::Frame sonde_frame_[[EVAL]](::sonde_ctx::frame_[[EVAL]]); return step(net, 2); }

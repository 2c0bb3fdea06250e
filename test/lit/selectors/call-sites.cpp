// F() call sites: free functions, methods, calls through templates. A call
// that is its whole statement gets a temporary region; a call nested in a
// larger expression runs inside sonde::call, which times exactly the call.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "step > *::backward()"
// SPEC:     category: compute.backward
// SPEC:   - at: "step > criterion()"
// SPEC:     category: compute
// SPEC:   - at: "step > *::forward()"
// SPEC:     category: compute.forward
// SPEC:   - at: "generic > *::forward()"
// SPEC:     category: compute.forward

struct Loss {
  void backward() {}
  float value = 1;
};
struct Net {
  float forward(float x) { return x; }
};
Loss criterion(float out, float target) { return Loss{out - target}; }
float weight(float x) { return x; }

float step(Net &net, float x) {
  Loss loss = criterion(net.forward(x), 1.0f);
  // CHECK: {{^}}  Loss loss = ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), criterion(::sonde::call(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return net.forward(x); }), 1.0f));
  loss.backward();
  // CHECK: {{^}}  ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), loss.backward());
  return weight(loss.value);
  // Unchanged: weight() is not selected.
  // CHECK: {{^}}  return weight(loss.value);
}

// Calls through templates: the callee is known by name.
template <class M> float generic(M &model, float x) {
  return model.forward(x);
  // CHECK: {{^}}  return ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), model.forward(x));
}
float useGeneric(Net &n) { return generic(n, 2.0f); }

// SITES: region compute criterion {{.*}}call-sites.cpp:32 step criterion()
// SITES-NEXT: region compute.forward forward {{.*}}call-sites.cpp:32 step forward()
// SITES-NEXT: region compute.backward backward {{.*}}call-sites.cpp:34 step backward()
// SITES-NEXT: region compute.forward forward {{.*}}call-sites.cpp:43 generic forward()

// A variable focus fires after every write: a declaration with an
// initializer, `=`, compound assignment, `++`/`--`; parameters at entry.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:   - at: "train > lr as rate"
// SPEC:   - at: "train > steps"

float compute(float x) { return x / 2; }

float train(float lr, int steps) {
  // CHECK: {{^}}float train(float lr, int steps) { static ::sonde::SiteTable {{.*}} ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lr); ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, steps);
  float loss = compute(lr);
  // CHECK: {{^}}  float loss = compute(lr); ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, loss);
  loss = loss * 2;
  // CHECK: {{^}}  loss = loss * 2; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, loss);
  loss += 1;
  // CHECK: {{^}}  loss += 1; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, loss);
  ++steps;
  // CHECK: {{^}}  ++steps; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, steps);
  steps--;
  // CHECK: {{^}}  steps--; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, steps);
  for (int i = 0; i < 3; ++i, steps++)
    lr *= 0.5f;
  // CHECK: {{^}}  for (int i = 0; i < 3; ++i, steps++, ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, steps))
  // CHECK: {{^}}    { lr *= 0.5f; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, lr); }
  while ((loss = compute(loss)) > 1) {
  // CHECK: {{^}}  while ((::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], loss = compute(loss))) > 1) {
  }
  // Unchanged: reads are not writes.
  float copy = loss + lr;
  // CHECK: {{^}}  float copy = loss + lr;
  return copy;
}

// SITES: watch user rate {{.*}}variable-writes.cpp:17 train lr :float
// SITES-NEXT: watch user steps {{.*}}:17 train steps :int
// SITES-NEXT: watch user loss {{.*}}:19 train loss :float
// SITES-NEXT: watch user loss {{.*}}:21 train loss :float
// SITES-NEXT: watch user loss {{.*}}:23 train loss :float
// SITES-NEXT: watch user steps {{.*}}:25 train steps :int
// SITES-NEXT: watch user steps {{.*}}:27 train steps :int
// SITES-NEXT: watch user steps {{.*}}:29 train steps :int
// SITES-NEXT: watch user rate {{.*}}:30 train lr :float
// SITES-NEXT: watch user loss {{.*}}:33 train loss :float
// SITES-NOT: watch

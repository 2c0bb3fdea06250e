// What goes at the start of a body, or right before a statement, comes
// after the braces that enclose it and before the openers of constructs
// inside the statement. Found on the trace reader (issue 3): the
// unbraced range-for body `Sorted.push_back(...)` became
// `{ ((void)::sonde::Region(..), ::sonde::watchAny(.., K); Sorted.push_back(..)); }`,
// and a body written without a space (`{return g(v);}`) put the call's
// opener before the site descriptors.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: user.all
// SPEC:   - at: "* > *::push_back()"
// SPEC:     category: user.push
// SPEC:   - at: "* > g()"
// SPEC:     category: user.g
// SPEC: watches:
// SPEC:   - at: "* > $x"

#include <vector>

int g(int v) { return v + 1; }

void sorted(std::vector<int> &Out, const std::vector<int> &In) {
  for (const int &K : In)
    Out.push_back(K);
  // CHECK: {{^}}    { ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, K); ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), Out.push_back(K)); }
  for (int I = 0; I < 2; ++I)
    g(I);
  // CHECK: {{^}}    ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), g(I));
}

int compact(int v) {return g(v);}
// CHECK: {{^}}int compact(int v) { static ::sonde::SiteTable {{.*}}::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, v);return ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), g(v));}


void compact2(int v) {g(v);}
// CHECK: {{^}}void compact2(int v) { static ::sonde::SiteTable {{.*}}::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, v);((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), g(v));}

// A loop whose body is entered by a jump from outside it (Duff's device:
// `case` labels inside a do-while; a goto to a label in a loop body) cannot
// hold the declarations a loop probe puts at the start of its body (the
// jump would bypass their initialization, which does not compile; it once
// broke the build). Such a loop is skipped with a note; watches, which add
// statements only, are kept.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "* > #loop"
// SPEC:     category: user.loop
// SPEC:   - at: "into(!#loop_i, !!#endloop_i)"
// SPEC:     category: user.body
// SPEC: watches:
// SPEC:   - at: "into > s"

void copy(int *to, const int *from, int count) {
  int n = (count + 3) / 4;
  switch (count % 4) {
  case 0: do { *to++ = *from++;
  // CHECK: {{^}}  case 0: do { *to++ = *from++;{{$}}
  // DIAG: loops-jumped-into.cpp:[[@LINE-2]]:11: warning: probe '* > #loop' skipped: a 'case' or label inside the loop is jumped to from outside it [sonde-unsupported]
  case 3:      *to++ = *from++;
  case 2:      *to++ = *from++;
  case 1:      *to++ = *from++;
          } while (--n > 0);
  }
}

int into(int k) {
  int s = 0;
  int i = 0;
  if (k > 2)
    goto inside;
  for (i = 0; i < k; ++i) {
    // CHECK: {{^}}  for (i = 0; i < k; ++i) {{[{]$}}
    // DIAG: loops-jumped-into.cpp:[[@LINE-2]]:3: warning: probe '* > #loop' skipped: a 'case' or label inside the loop is jumped to from outside it [sonde-unsupported]
    // DIAG: loops-jumped-into.cpp:[[@LINE-3]]:3: warning: probe 'into(!#loop_i, !!#endloop_i)' skipped: a 'case' or label inside the loop is jumped to from outside it [sonde-unsupported]
    s += i;
    // CHECK: {{^}}    s += i; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, s);
  inside:
    s += 100;
  }
  for (int j = 0; j < 2; ++j)
    s += j;
  // CHECK: {{^}}  { ::sonde::Loop sonde_loop_{{[0-9a-f]+}}
  return s;
}

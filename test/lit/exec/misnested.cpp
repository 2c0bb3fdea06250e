// Regions that do not nest, in instrumented code: a hand-written begin()
// left without its end() inside an instrumented function is closed with the
// function's region (recorded once, ending with it), and an instrumented
// loop iteration that the end() of a begin() around it closed records
// nothing more when it ends. The regions after both are at level 0 again, and
// each misuse is said once on stderr, naming the sites.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 -I%sonde-include > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file %t.out
// RUN: FileCheck %s --check-prefix=ERR --input-file %t.err
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "leaves_one_open"
// SPEC:     category: compute.forward
// SPEC:   - at: "closed_from_inside > #loop_step"
// SPEC:     category: compute.step
// SPEC:   - at: "after"
// SPEC:     category: compute.backward

#include <sonde/sonde.h>

#include <cstdio>

static sonde::Site Began(sonde::SiteKind::Region, "user.test", "began",
                         "misnested.cpp", 1, "leaves_one_open");

int leaves_one_open(int v) {
  sonde::begin(Began); // its end() is missing
  return v + 1;
}

int closed_from_inside(int n) {
  int sum = 0;
  sonde::RegionHandle H = sonde::begin(Began);
  for (int step = 0; step < n; ++step) {
    sum += step;
    if (step == 1)
      sonde::end(H); // closes the iteration's region too
  }
  return sum;
}

int after(int v) { return v * 2; }

int main() {
  int A = leaves_one_open(1);
  int B = closed_from_inside(3);
  int C = after(4);
  std::printf("%d %d %d\n", A, B, C);
  return 0;
}

// OUT: 2 3 8

// ERR:      sonde: region 'began' (misnested.cpp:1) was still open when region 'forward' ({{.*}}misnested.cpp:32) around it ended (a begin() without its end()?); it is recorded as ending there
// ERR-NEXT: sonde: region 'step.block' ({{.*}}misnested.cpp:40) was closed before its own end, by the end() of a begin() opened around it; it is recorded as ending there
// ERR-NOT:  sonde:

// The begin() inside leaves_one_open ends with it, one level in.
// CHECK:      region compute/forward level=0 line=32 func=leaves_one_open
// CHECK-NEXT: region user/began level=1 line=1 func=leaves_one_open
// In closed_from_inside, the end() closes iteration 1 with `began` (as a
// plain region: end() closes what is open, without its loop's index); the
// iteration's own exit records nothing more, and iteration 2 is at level 0.
// CHECK-NEXT: region user/began level=0 line=1 func=leaves_one_open
// CHECK-NEXT: region compute/step.block level=1 iter=0 line=40 func=closed_from_inside
// CHECK-NEXT: region compute/step.block level=1 line=40 func=closed_from_inside
// CHECK-NEXT: region compute/step.block level=0 iter=2 line=40 func=closed_from_inside
// CHECK-NEXT: region compute/backward level=0 line=48 func=after
// CHECK-NOT: {{.}}

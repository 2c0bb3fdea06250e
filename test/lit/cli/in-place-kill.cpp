// A kill -9 during a batch --in-place rewrite leaves every file either
// original or fully instrumented (a temporary and a rename per file), six
// times at random moments: three anywhere in the run, three inside the
// write phase. Inputs/kill_in_place.py says how.
//
// RUN: %python %S/Inputs/kill_in_place.py %sonde-rewrite-test-hooks %S/Inputs/probes.yaml %t 40 6 | FileCheck %s
// CHECK: round 1: killed {{.*}} 0 partial
// CHECK: round 2: killed {{.*}} 0 partial
// CHECK: round 6: killed {{.*}} 0 partial
// CHECK: partial files: 0

// sonde check and sonde infer on damaged traces. They check each record as
// they read it (TraceStream's CheckAsRead), so a file's problems are known
// once its records were read: each is still said once, as one warning
// naming the file, what its outline showed (a tear) and what its records
// did (a value that cannot be decoded), and the command reads what it can.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sonde-trace infer %S/../../../fuzz/corpus/trace/threads.sonde -o %t/inv.yaml 2>&1 | FileCheck %s --check-prefix=LEARN
// LEARN: sonde: note: 4 invariants from 1 trace
// RUN: sh -c '%sonde-trace check --invariants %t/inv.yaml %S/../../../fuzz/corpus/trace/torn.sonde %S/../../../fuzz/corpus/trace/regress-huge-site-id 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=CHECK
// CHECK: sonde: warning: {{.*}}torn.sonde: the file ends inside a block of 121 bytes (54 present); records before the tear are kept; corrupt: byte 592: a watch whose value cannot be decoded (site 6 ('loss')); the rest of each such block was skipped; read up to there
// CHECK-NEXT: sonde: warning: {{.*}}regress-huge-site-id: corrupt: byte 436: a record of a site no Site block defined (site 2147483604) (and 1 more); the rest of each such block was skipped; read up to there
// CHECK-NEXT: sonde check: 0 of 4 invariants violated in 2 traces (48 records)
// CHECK: exit 0
// RUN: sh -c '%sonde-trace infer %S/../../../fuzz/corpus/trace/torn.sonde -o %t/torn.yaml 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=INFER
// INFER: sonde: warning: {{.*}}torn.sonde: the file ends inside a block of 121 bytes (54 present); records before the tear are kept; corrupt: byte 592: a watch whose value cannot be decoded (site 6 ('loss')); the rest of each such block was skipped; read up to there
// INFER-NOT: warning
// INFER: exit 0

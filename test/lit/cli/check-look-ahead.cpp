// sonde check and sonde infer put each trace's records in the order the
// program made them (a region before what it holds), holding at most
// --look-ahead records (default 1048576) to do it. A region that holds more
// (a training loop inside `train`, in a run of days) lets records go out
// before it: such a region's iterations are then judged by no relation
// (they saw only part of what they hold), and each command says so once
// per file, with the count; a larger look-ahead holds them all.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sonde-trace infer %S/../../../fuzz/corpus/trace/threads.sonde -o %t/inv.yaml 2>&1 | FileCheck %s --check-prefix=FITS
// FITS-NOT: warning
// FITS: sonde: note: 4 invariants from 1 trace
// RUN: sh -c '%sonde-trace check --invariants %t/inv.yaml %S/../../../fuzz/corpus/trace/threads.sonde --look-ahead 1 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=LATE
// LATE: sonde: warning: {{.*}}threads.sonde: 34 events were given before an earlier one: a region held, or a thread stayed silent for, more than the look-ahead of 1 events; the order and containment invariants are not checked over the iterations of such a region (--look-ahead N holds more, about 120 bytes each; docs/invariants.md, "Long traces")
// LATE-NOT: warning
// LATE: sonde check: 0 of 4 invariants violated in 1 trace (52 records)
// LATE: exit 0
// RUN: sh -c '%sonde-trace check --invariants %t/inv.yaml %S/../../../fuzz/corpus/trace/threads.sonde --look-ahead=52 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=HELD
// HELD-NOT: warning
// HELD: exit 0
// RUN: sh -c '%sonde-trace infer %S/../../../fuzz/corpus/trace/threads.sonde --look-ahead 1 -o %t/late.yaml 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=LATEINFER
// LATEINFER: sonde: warning: {{.*}}threads.sonde: 34 events were given before an earlier one
// LATEINFER: exit 0
//
// The value is a number of records, 1 or more, as for the other commands.
// RUN: sh -c '%sonde-trace check --invariants %t/inv.yaml %t --look-ahead 0 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=ZERO
// ZERO: sonde: error: '--look-ahead' takes a number of events (1 or more), not '0'
// ZERO: exit 2
// RUN: sh -c '%sonde-trace infer %t --look-ahead=many 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=WORD
// WORD: sonde: error: '--look-ahead' takes a number of events (1 or more), not 'many'
// WORD: exit 2
//
// --help says so too: infer's and check's usage, with their options'
// defaults and exit status, on standard output; it wins over anything else
// on the line, as for every command.
// RUN: sh -c '%sonde-trace check --help; echo "exit $?"' | FileCheck %s --check-prefix=CHELP
// CHELP: usage: sonde check TRACE... --invariants FILE [--json]
// CHELP: [--look-ahead N]
// CHELP: Exit status: 0 none, 1 a violation, 2 a usage error or an input
// CHELP: --look-ahead N (default 1048576)
// CHELP: exit 0
// RUN: sh -c '%sonde-trace infer --bogus -h; echo "exit $?"' | FileCheck %s --check-prefix=IHELP
// IHELP: usage: sonde infer TRACE... [-o FILE] [--min-support N] [--range-margin X]
// IHELP: --min-support N (default 10)
// IHELP: exit 0

// The `sonde` trace tool follows the command-line conventions (issue 12
// items 8 and 9), on a fixed trace of the fuzzer's corpus.
//
// Every command takes --help (its usage, on stdout, exit 0) and --version.
// RUN: sh -c '%sonde-trace summary --help; echo "exit $?"' | FileCheck %s --check-prefix=HELP
// HELP: usage: sonde summary [options] TRACE... [--json] [--warmup N] [--look-ahead N]
// HELP: exit 0
// RUN: sh -c '%sonde-trace report --help 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=RHELP
// RHELP: usage: sonde report [options] TRACE... -o report.html [--step NAME] [--title TEXT]
// RHELP: exit 0
// RUN: sh -c '%sonde-trace export %S/../../../fuzz/corpus/trace/threads.sonde --version; echo "exit $?"' | FileCheck %s --check-prefix=VERSION
// VERSION: sonde {{[0-9]+\.[0-9]+\.[0-9]+}} (trace format {{[0-9]+\.[0-9]+}})
// VERSION: exit 0
//
// '--' ends the options: a directory named '-run' is read, '--json' after
// it is a path.
// RUN: rm -rf %t && mkdir -p %t/-run && cp %S/../../../fuzz/corpus/trace/threads.sonde %t/-run/a.sonde
// RUN: cd %t && %sonde-trace info -- -run | FileCheck %s --check-prefix=DASHDASH
// DASHDASH: -run/a.sonde: t pid 29021 rank 0 host vm, exit, 0 dropped, 6 sites, 2 threads
// RUN: sh -c '%sonde-trace info -- --json 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NOTOPT
// NOTOPT: sonde: error: --json: No such file or directory
// NOTOPT-NEXT: exit 1
//
// Errors: 'sonde: error:' once, no color when stderr is not a terminal.
// RUN: sh -c '%sonde-trace info --bogus %t/-run 2>&1; echo "exit $?"' | tr '\033' '@' | FileCheck %s --check-prefix=ERR
// ERR-NOT: @[
// ERR: {{^}}sonde: error: unknown option '--bogus' for 'info'
// ERR-NOT: sonde: error
// ERR: exit 2
//
// An option of another command names the commands that take it; '--json'
// takes no value.
// RUN: sh -c '%sonde-trace export %t/-run --json 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NOTHIS
// NOTHIS: sonde: error: '--json' is an option of 'summary' and 'info', not of 'export'
// NOTHIS: exit 2
// RUN: sh -c '%sonde-trace info %t/-run -f jsonl 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NOFMT
// NOFMT: sonde: error: '--format' is an option of 'export' and 'merge', not of 'info'
// NOFMT: exit 2
// RUN: sh -c '%sonde-trace summary %t/-run --title=x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NOTITLE
// NOTITLE: sonde: error: '--title' is an option of 'report', not of 'summary'
// NOTITLE: exit 2
// RUN: sh -c '%sonde-trace summary %t/-run --json=yes 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=JSONVAL
// JSONVAL: sonde: error: '--json' takes no value
// JSONVAL: exit 2
//
// The look-ahead (docs/exports.md, "Order"): a number of events, 1 or more;
// when a region holds more, what goes out early is said, with the count.
// RUN: sh -c '%sonde-trace summary %t/-run --look-ahead 0 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=LOOKZERO
// LOOKZERO: sonde: error: '--look-ahead' takes a number of events (1 or more), not '0'
// LOOKZERO: exit 2
// RUN: sh -c '%sonde-trace summary %t/-run --look-ahead=-3 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=LOOKNEG
// LOOKNEG: sonde: error: '--look-ahead' takes a number of events (1 or more), not '-3'
// LOOKNEG: exit 2
// The report streams its traces too, so it takes the look-ahead and says
// when a region held more; info reads no event and refuses it.
// RUN: sh -c '%sonde-trace report %t/-run -o %t/la.html --look-ahead 0 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=RLOOKZERO
// RLOOKZERO: sonde: error: '--look-ahead' takes a number of events (1 or more), not '0'
// RLOOKZERO: exit 2
// RUN: sh -c '%sonde-trace info %t/-run --look-ahead 5 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=ILOOK
// ILOOK: sonde: error: '--look-ahead' is an option of 'summary', 'export', 'merge', 'report', 'dump', 'infer' and 'check', not of 'info'
// ILOOK: exit 2
// The warm-up steps the rates keep apart (docs/rates.md): 0 or more.
// RUN: sh -c '%sonde-trace summary %t/-run --warmup=-1 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=WARMNEG
// WARMNEG: sonde: error: '--warmup' takes a number of steps (0 or more), not '-1'
// WARMNEG: exit 2
// RUN: sh -c '%sonde-trace export %t/-run --format jsonl --warmup 2 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=WARMEXPORT
// WARMEXPORT: sonde: error: '--warmup' is an option of 'summary' and 'report', not of 'export'
// WARMEXPORT: exit 2
// RUN: sh -c '%sonde-trace dump %t/-run/a.sonde --look-ahead 1 2>&1 >/dev/null; echo "exit $?"' | FileCheck %s --check-prefix=LOOKLATE
// LOOKLATE: sonde: note: {{.*}}a.sonde: 34 events were given before an earlier one: a region held, or a thread stayed silent for, more than the look-ahead of 1 events (--look-ahead;
// LOOKLATE: exit 0
// RUN: sh -c '%sonde-trace dump %t/-run/a.sonde 2>&1 >/dev/null; echo "exit $?"' | FileCheck %s --check-prefix=LOOKFITS
// LOOKFITS-NOT: note
// LOOKFITS: exit 0
//
// In a directory, a file that is not a trace and a subdirectory named
// x.sonde are skipped with a warning each; the rest is read.
// RUN: mkdir -p %t/mixed/x.sonde && cp %S/../../../fuzz/corpus/trace/threads.sonde %t/mixed/a.sonde
// RUN: echo 'not a trace' > %t/mixed/b.sonde
// RUN: sh -c '%sonde-trace info %t/mixed 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=MIXED
// MIXED-DAG: sonde: warning: {{.*}}mixed/x.sonde: not a regular file; skipped
// MIXED-DAG: sonde: warning: {{.*}}mixed/b.sonde: not a sonde trace (bad magic); skipped
// MIXED-DAG: {{.*}}mixed/a.sonde: t pid 29021 rank 0 host vm, exit
// MIXED: exit 0
//
// A failed write is an error (exit 1), with the errno.
// RUN: sh -c '%sonde-trace export %t/-run --format jsonl > /dev/full; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: sonde: error: standard output: write failed: No space left on device
// FULL: exit 1
//
// JSONL times count from the origin the start record gives, as a string;
// site ids are hex strings. Chrome: the origin in otherData, M events with
// a cat.
// RUN: %sonde-trace export %t/-run --format jsonl | FileCheck %s --check-prefix=JSONL
// JSONL: {"kind":"process","event":"start","ts":0,"origin_unix_ns":"1795659735054267756",
// JSONL-NEXT: {"kind":"region","cat":"compute","name":"step","ts":119333025,"dur":22532,{{.*}},"site":1,"site_id":"750e9e37e3548580",
// RUN: %sonde-trace export %t/-run --format chrome | FileCheck %s --check-prefix=CHROME
// CHROME: {"displayTimeUnit":"ms","otherData":{"origin_unix_ns":"1795659735054267756",
// CHROME-NEXT: {"ph":"M","cat":"__metadata","name":"process_name",
// CHROME: {"ph":"X","dur":22.532,"name":"step","cat":"compute.step","ts":119333.025,

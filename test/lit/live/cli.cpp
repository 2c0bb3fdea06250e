// `sonde live` on its command line (docs/live.md): every bad --fail-on
// condition, interval or option is refused before anything is read, with
// where it is wrong; finished traces are followed to their End record and
// the command exits by itself.
//
// RUN: sh -c '%sonde-trace live --fail-on "loss: nann" x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NANN
// NANN: sonde: error: --fail-on 'loss: nann': 'nann' is not nan or inf
// NANN-NEXT: {{^}}  loss: nann
// NANN-NEXT: {{^}}        ^
// NANN: exit 2
// RUN: sh -c '%sonde-trace live --fail-on "loss <" x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=NONUM
// NONUM: --fail-on 'loss <': expected a number after the comparison
// NONUM: exit 2
// RUN: sh -c '%sonde-trace live --fail-on "rate.speed < 100" x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=RATE
// RATE: 'rate.speed < 100': 'rate.speed' is no training rate; the rates are rate.train, rate.loading and rate.compute
// RATE: exit 2
// RUN: sh -c '%sonde-trace live --fail-on "rate.train: nan" x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=RATENAN
// RATENAN: 'rate.train: nan': a rate is never nan or inf; compare it with a number (as in 'rate.train < 100')
// RATENAN: exit 2
// RUN: sh -c '%sonde-trace live --interval 0 x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=INTERVAL
// INTERVAL: sonde: error: '--interval 0': expected a number of seconds, more than 0 and at most 3600
// INTERVAL: exit 2
// RUN: sh -c '%sonde-trace live --jsonl --plain x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=BOTH
// BOTH: sonde: error: '--jsonl' and '--plain' cannot be used together
// BOTH: exit 2
// RUN: sh -c '%sonde-trace live --follow x 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: sonde: error: unknown option '--follow' for 'live'
// UNKNOWN: usage: sonde live
// UNKNOWN: exit 2
// RUN: sh -c '%sonde-trace live --help; echo "exit $?"' | FileCheck %s --check-prefix=HELP
// HELP: usage: sonde live [options] [DIR|FILE...] [--jsonl|--plain] [--fail-on COND]
// HELP: exit 0
//
// A finished trace: its records as JSON lines, from the process start to
// its end, then exit 0.
// RUN: sh -c '%sonde-trace live --jsonl %S/../../../fuzz/corpus/trace/threads.sonde; echo "exit $?"' | FileCheck %s --check-prefix=JSONL
// JSONL: {"kind":"process","event":"start","ts":0,
// JSONL: {"kind":"watch","cat":"user","name":"loss",
// JSONL: {"kind":"process","event":"end",{{.*}}"how":"exit","dropped":0}
// JSONL-NEXT: exit 0
//
// Not a tty: plain lines. A condition on a watch the run never recorded is
// said, once.
// RUN: sh -c '%sonde-trace live --fail-on "nothing < 1" %S/../../../fuzz/corpus/trace/every-kind.sonde 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=PLAIN
// PLAIN: [0:00:00] epoch 1 | loss 0.3333 | pipeline 55% compute 45% | drops 0 | 0/1 running
// PLAIN: sonde: warning: --fail-on 'nothing < 1': no watch named 'nothing' was recorded, so it was never tested
// PLAIN: exit 0
//
// A file that is not a trace: said, and exit 1 (nothing else to wait for).
// RUN: rm -rf %t && mkdir -p %t && echo text > %t/bad.sonde
// RUN: sh -c '%sonde-trace live --plain %t 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=BAD
// BAD: sonde: warning: {{.*}}bad.sonde: not a sonde trace (bad magic)
// BAD: exit 1

// sonde check takes the files of a job (one directory) as one part when an
// invariant compares ranks (ranks.equal); with a core left idle, it decodes
// each next file of 1 MB or more on a thread of its own while it checks the
// one before (TraceStream::walkAhead). The report is the one the files give
// checked in parts, one after another: the same records, the same
// violations; an unreadable next file is said after the one before, as
// without. (sonde infer, which reads its files on one core, decodes the
// next one ahead the same way: the invariants below are learned so.)
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.job %t.bad && mkdir -p %t.job %t.bad
// RUN: env SONDE_OUTPUT=%t.job/a %t.gcc 80000 1 > /dev/null
// RUN: env SONDE_OUTPUT=%t.job/b %t.gcc 80000 1 > /dev/null
// RUN: env SONDE_OUTPUT=%t.job/c %t.gcc 80000 7 > /dev/null
// RUN: mv %t.job/a/*.sonde %t.job/1.sonde && mv %t.job/b/*.sonde %t.job/2.sonde && mv %t.job/c/*.sonde %t.job/3.sonde
// RUN: %python -c "import os,sys; sys.exit(0 if os.path.getsize(sys.argv[1]) >= 1 << 20 else 'a trace under 1 MB: ' + sys.argv[1])" %t.job/2.sonde
// RUN: %sonde-trace infer %t.job/1.sonde %t.job/2.sonde -o %t.inv.yaml
// RUN: cp %t.inv.yaml %t.ranks.yaml
// RUN: printf '  - family: ranks\n    relation: equal\n    subject: "no such stream"\n    support: 10\n    text: "no such stream is equal on every rank"\n' >> %t.ranks.yaml
//
// Without ranks.equal: files in parts on every core. With it: one part.
// RUN: sh -c '%sonde-trace check --json --invariants %t.inv.yaml %t.job; echo "exit $?"' > %t.parts.json
// RUN: sh -c '%sonde-trace check --json --invariants %t.ranks.yaml %t.job; echo "exit $?"' > %t.ahead.json
// RUN: FileCheck %s --input-file %t.parts.json
// RUN: FileCheck %s --input-file %t.ahead.json --check-prefixes=CHECK,AHEAD
// CHECK: {"traces":3,"records":[[RECORDS:[0-9]+]],
// AHEAD-SAME: "unexercised":1,
// CHECK-SAME: "violations":[{"family":"value"
// CHECK-SAME: "subject":"user.loss/loss in train
// CHECK: exit 1
// The same violations, word for word, but for the count of invariants.
// RUN: sed 's/"invariants":[0-9]*,"unexercised":[0-9]*,//' %t.parts.json > %t.parts.cmp
// RUN: sed 's/"invariants":[0-9]*,"unexercised":[0-9]*,//' %t.ahead.json > %t.ahead.cmp
// RUN: diff %t.parts.cmp %t.ahead.cmp
//
// A next file that is not a trace: the one before is checked, then it is
// said, and the check fails as it does without.
// RUN: cp %t.job/1.sonde %t.bad/1.sonde && head -c 2000000 /dev/zero > %t.bad/2.sonde
// RUN: sh -c '%sonde-trace check --invariants %t.ranks.yaml %t.bad 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=BAD
// BAD: sonde: error: {{.*}}2.sonde: not a sonde trace (bad magic)
// BAD-NOT: sonde check:
// BAD: exit 2
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_step"
// SPEC:     category: compute.step
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     category: user.loss

#include <cstdio>
#include <cstdlib>

double train(int Steps, int Scale) {
  double total = 0;
  for (int step = 0; step < Steps; ++step) {
    double loss = Scale * (1.0 + (step % 7) * 0.125);
    total += loss;
  }
  return total;
}

int main(int argc, char **argv) {
  int Steps = argc > 1 ? std::atoi(argv[1]) : 10;
  int Scale = argc > 2 ? std::atoi(argv[2]) : 1;
  std::printf("%f\n", train(Steps, Scale));
  return 0;
}

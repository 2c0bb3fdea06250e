// `check: finite` on a watch: the site carries CheckFinite, and when the
// watched double turns NaN or infinite the trace gets an alarm record right
// after the watch record, with the value and the context in force. The
// program itself is unchanged (SONDE_ON_CHECK=record, the default); with
// SONDE_ON_CHECK=abort it says so once, writes its trace (ended as
// check:finite, the alarm in it) and aborts. A refused value is said once.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.cpp --check-prefix=CODE
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
// RUN: %sonde-trace summary %t.dir | FileCheck %s --check-prefix=SUMMARY
// RUN: %sonde-trace dump %t.dir/*.sonde | FileCheck %s --check-prefix=DUMP
//
// RUN: rm -rf %t.abort && env SONDE_OUTPUT=%t.abort SONDE_ON_CHECK=abort %not --crash %t.gcc > %t.abort.out 2> %t.abort.err
// RUN: FileCheck %s --check-prefix=ABORT --input-file %t.abort.err
// RUN: %sonde-trace export %t.abort --format jsonl | FileCheck %s --check-prefix=ABORT-TRACE
//
// RUN: rm -rf %t.bad && env SONDE_OUTPUT=%t.bad SONDE_ON_CHECK=stop %t.gcc 2> %t.bad.err > /dev/null
// RUN: FileCheck %s --check-prefix=REFUSED --input-file %t.bad.err
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_step"
// SPEC:     category: compute.step
// SPEC:     args: {step: step}
// SPEC:     context: true
// SPEC: watches:
// SPEC:   - at: "train > loss"
// SPEC:     check: finite

#include <cmath>
#include <cstdio>
#include <limits>

double train(int steps) {
  double loss = 4.0;
  // CODE: {{^}}double train(int steps) { static ::sonde::SiteTable sonde_sites_{{[0-9a-f]+}}({{.*}}\n3\n64\n{{[0-9]+}}\n{{[0-9a-f]+}}\nuser\nloss\n\ndouble\n
  for (int step = 0; step < steps; ++step) {
    loss = step == 2 ? std::numeric_limits<double>::quiet_NaN() : loss / 2;
    std::printf("step %d\n", step);
  }
  return loss;
}

int main() {
  train(4);
  return 0;
}

// CHECK:      watch user/loss value=4 line=41 func=train
// CHECK-NEXT: region compute/step.block level=0 iter=0 line=43 func=train args={"step": 0}
// CHECK-NEXT: watch user/loss value=2 line=44 func=train args={"step": 0}
// CHECK-NEXT: region compute/step.block level=0 iter=1 line=43 func=train args={"step": 1}
// CHECK-NEXT: watch user/loss value=1 line=44 func=train args={"step": 1}
// CHECK-NEXT: region compute/step.block level=0 iter=2 line=43 func=train args={"step": 2}
// CHECK-NEXT: watch user/loss value="NaN" line=44 func=train args={"step": 2}
// CHECK-NEXT: alarm user/loss value="NaN" line=44 func=train args={"step": 2}
// CHECK-NEXT: region compute/step.block level=0 iter=3 line=43 func=train args={"step": 3}
// CHECK-NEXT: watch user/loss value="NaN" line=44 func=train args={"step": 3}
// CHECK-NEXT: alarm user/loss value="NaN" line=44 func=train args={"step": 3}
// CHECK-NOT:  {{.}}

// SUMMARY: loss       4 -> nan (5 records)
// SUMMARY: alarm      loss in train ({{.*}}check-finite.cpp:44): 2 non-finite values, the first nan step 2

// DUMP: alarm {{.*}} loss check finite failed: "NaN" args {"step":2}

// ABORT: sonde: check: finite failed: watch 'loss' in train ({{.*}}check-finite.cpp:44) is nan; SONDE_ON_CHECK=abort: writing the trace and aborting
// ABORT-TRACE: "kind":"alarm"
// ABORT-TRACE: "how":"check:finite"

// REFUSED: sonde: SONDE_ON_CHECK=stop is not 'record' or 'abort'; using record

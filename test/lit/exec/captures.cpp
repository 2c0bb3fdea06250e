// Captures and args ride along with point events (watches, instants) in
// their `args`, under their recorded names, and with nothing else.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train_epoch(epoch) > #exit"
// SPEC:     category: user.done
// SPEC: watches:
// SPEC:   - at: "train_epoch(inp as batch) > #endloop_inp as step"
// SPEC:   - at: "train_epoch > loss"
// SPEC:     args: {twice: "loss * 2"}

int train_epoch(int epoch) {
  int loss = 0;
  for (int inp = 10; inp < 12; ++inp)
    loss += inp;
  return loss + epoch;
}

int main() { return train_epoch(7) > 0 ? 0 : 1; }

// CHECK:      watch user/loss value=0 line=20 func=train_epoch args={"twice": 0}
// CHECK-NEXT: watch user/loss value=10 line=22 func=train_epoch args={"twice": 20}
// CHECK-NEXT: watch user/step value=0 line=21 func=train_epoch args={"batch": 10}
// CHECK-NEXT: watch user/loss value=21 line=22 func=train_epoch args={"twice": 42}
// CHECK-NEXT: watch user/step value=1 line=21 func=train_epoch args={"batch": 11}
// CHECK-NEXT: instant user/done line=19 func=train_epoch args={"epoch": 7}
// CHECK-NOT:  {{.}}

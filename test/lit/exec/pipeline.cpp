// End to end: the rewritten source is built by clang++ and by g++, run, and
// its records (sonde export --format jsonl) are checked exactly: counts,
// names, values, nesting levels, iterations and args. The program's stdout
// is the same with and without instrumentation.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
//
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.clang.dir && env SONDE_OUTPUT=%t.clang.dir %t.clang > %t.clang.out
// RUN: diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.clang.dir --format jsonl | %records | FileCheck %s
//
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.gcc.dir && env SONDE_OUTPUT=%t.gcc.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.gcc.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:     args: {epoch: epoch}
// SPEC:   - at: "train_epoch > #loop_batch"
// SPEC:     category: dataloader.fetch
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC:   - at: "train_epoch > *::backward()"
// SPEC:     category: compute.backward
// SPEC:   - at: "evaluate > Net::forward"
// SPEC:     category: pipeline.evaluate
// SPEC:     name: eval_forward
// SPEC:   - at: "load > #exit"
// SPEC:     category: checkpoint.restart
// SPEC:   - at: "load > #error"
// SPEC:     category: checkpoint.restart
// SPEC: watches:
// SPEC:   - at: "train_epoch > loss"
// SPEC:     every: 2
// SPEC:   - at: "Net::forward > #value as out"
// SPEC:     when: "x > 2"

#include <cstdio>
#include <stdexcept>
#include <vector>

struct Loss {
  float Value;
  void backward() {}
};

struct Net {
  float W = 0.5f;
  float forward(float x) { return x * W; }
};

std::vector<float> batches(int epoch) {
  return {1.0f + epoch, 2.0f + epoch, 3.0f + epoch};
}

float train_epoch(Net &net, int epoch) {
  float loss = 0;
  for (float batch : batches(epoch)) {
    if (batch > 4)
      break;
    Loss l{net.forward(batch)};
    l.backward();
    loss = loss + l.Value;
  }
  return loss;
}

float evaluate(Net &net) { return net.forward(10); }

int load(int code) {
  if (code < 0)
    throw std::runtime_error("bad checkpoint");
  return code;
}

void train(Net &net, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch)
    std::printf("epoch %d loss %.2f\n", epoch, train_epoch(net, epoch));
}

int main() {
  Net net;
  load(1);
  try {
    load(-1);
  } catch (const std::exception &E) {
    std::printf("caught %s\n", E.what());
  }
  train(net, 2);
  std::printf("eval %.2f\n", evaluate(net));
  return 0;
}

// The checkpoint loads: #exit on both calls, #error only when it throws.
// CHECK:      instant checkpoint/restart line=76 func=load
// CHECK-NEXT: instant checkpoint/restart line=76 func=load
// CHECK-NEXT: instant checkpoint/restart line=76 func=load
// Epoch 0: the loop region carries `epoch` as context args to everything
// nested; batches 1, 2, 3 each give fetch.iter, fetch.block, forward and
// backward; `loss` fires on every 2nd write of each site; `out` when x > 2.
// CHECK-NEXT: region pipeline/epoch.block level=0 iter=0 line=83 func=train args={"epoch": 0}
// CHECK-NEXT: watch user/loss value=0 line=63 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=0 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=0 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 0}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: watch user/loss value=0.5 line=69 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=1 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=1 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 0}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=2 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=2 line=64 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 0}
// CHECK-NEXT: watch user/out value=1.5 line=55 func=Net::forward args={"epoch": 0}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 0}
// CHECK-NEXT: watch user/loss value=3 line=69 func=train_epoch args={"epoch": 0}
// Epoch 1: batches 2, 3, 4.
// CHECK-NEXT: region pipeline/epoch.block level=0 iter=1 line=83 func=train args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=0 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=0 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 1}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=1 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=1 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 1}
// CHECK-NEXT: watch user/out value=1.5 line=55 func=Net::forward args={"epoch": 1}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: watch user/loss value=2.5 line=69 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.iter level=1 iter=2 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region dataloader/fetch.block level=1 iter=2 line=64 func=train_epoch args={"epoch": 1}
// CHECK-NEXT: region compute/forward level=2 line=55 func=Net::forward args={"epoch": 1}
// CHECK-NEXT: watch user/out value=2 line=55 func=Net::forward args={"epoch": 1}
// CHECK-NEXT: region compute/backward level=2 line=68 func=train_epoch args={"epoch": 1}
// evaluate: Net::forward twice (its own probe, and the one in context
// `evaluate`), and no epoch args outside the loop.
// CHECK-NEXT: region compute/forward level=0 line=55 func=Net::forward
// CHECK-NEXT: region pipeline/eval_forward level=1 line=55 func=Net::forward
// CHECK-NEXT: watch user/out value=5 line=55 func=Net::forward
// CHECK-NOT: {{.}}

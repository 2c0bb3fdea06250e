// apis: a pre and a post record per call (an error record when the call
// throws), with a call id shared by the pair, the arguments that can pass
// through unchanged, the return value, and the context (epoch) of the loop
// probe around them.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: %build-clang %s -o %t.plain
// RUN: %t.plain > %t.plain.out && rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out && diff %t.plain.out %t.gcc.out
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.clang > %t.clang.out && diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train > #loop_epoch"
// SPEC:     category: pipeline.epoch
// SPEC:     args: {epoch: epoch}
// SPEC: apis:
// SPEC:   - call: "nn::*"
// SPEC:     within: train
// SPEC:   - call: "*::step"
// SPEC:   - call: "*::zero_grad"
// SPEC:     when: "epoch > 0"

#include <cstdio>
#include <stdexcept>

namespace nn {
struct T {
  float V;
};
T relu(const T &X) { return T{X.V > 0 ? X.V : 0}; }
float mse(const T &A, const T &B, int Scale = 1) {
  return (A.V - B.V) * (A.V - B.V) * Scale;
}
void fill(T &Out, float V) { Out.V = V; }
T byValue(T X) { return X; }
float &at(T &X) { return X.V; }
} // namespace nn

// A recorded value type of the test: {v: float} (the instrumented build
// includes sonde.h; the parse that plans it does not need this).
#ifdef SONDE_SONDE_H
template <> struct sonde::ValueTraits<nn::T> {
  static constexpr size_t MaxBytes = 3 + 9 + 9;
  static void write(ValueWriter &W, const nn::T &X) noexcept {
    W.object(1);
    W.key("v");
    W.floating(X.V);
  }
};
#endif

struct Opt {
  int Steps = 0;
  int step() {
    if (++Steps == 2)
      throw std::runtime_error("diverged");
    return Steps;
  }
  void zero_grad() {}
};

float train(Opt &O) {
  float Loss = 0;
  for (int epoch = 0; epoch < 2; ++epoch) {
    nn::T Y = nn::relu(nn::T{-1.5f + epoch});
    nn::fill(Y, 0);
    Loss += nn::mse(Y, nn::byValue(nn::relu(Y)), 2);
    nn::at(Y) = 3;
    O.zero_grad();
    try {
      O.step();
    } catch (const std::exception &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  return Loss;
}

int main() {
  Opt O;
  std::printf("%g\n", train(O));
}

// Records come in time order; a region is placed at its start.
// CHECK:      region pipeline/epoch.block level=0 iter=0 line=70 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::relu phase="pre" call=1 call_args={"X": {"v": -1.5}} line=71 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::relu phase="post" call=1 ret={"v": 0} line=71 func=train args={"epoch": 0}
// A float parameter given the literal 0 (a null pointer constant) is not
// passed through: null.
// CHECK-NEXT: api api/nn::fill phase="pre" call=2 call_args={"Out": {"v": 0}, "V": null} line=72 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::fill phase="post" call=2 line=72 func=train args={"epoch": 0}
// byValue's argument is a temporary given to a by-value parameter: not
// passed through (that would cost a move), so byValue's pre comes before it.
// CHECK-NEXT: api api/nn::byValue phase="pre" call=3 call_args={"X": null} line=73 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::relu phase="pre" call=4 call_args={"X": {"v": 0}} line=73 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::relu phase="post" call=4 ret={"v": 0} line=73 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::byValue phase="post" call=3 ret={"v": 0} line=73 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::mse phase="pre" call=5 call_args={"A": {"v": 0}, "B": {"v": 0}, "Scale": 2} line=73 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::mse phase="post" call=5 ret=0 line=73 func=train args={"epoch": 0}
// A reference result passes through (the assignment writes Y after it).
// CHECK-NEXT: api api/nn::at phase="pre" call=6 call_args={"X": {"v": 0}} line=74 func=train args={"epoch": 0}
// CHECK-NEXT: api api/nn::at phase="post" call=6 ret=0 line=74 func=train args={"epoch": 0}
// CHECK-NEXT: api api/Opt::step phase="pre" call=7 call_args={} line=77 func=train args={"epoch": 0}
// CHECK-NEXT: api api/Opt::step phase="post" call=7 ret=1 line=77 func=train args={"epoch": 0}
// CHECK-NEXT: region pipeline/epoch.block level=0 iter=1 line=70 func=train args={"epoch": 1}
// CHECK-NEXT: api api/nn::relu phase="pre" call=8 call_args={"X": {"v": -0.5}} line=71 func=train args={"epoch": 1}
// CHECK:      api api/nn::at phase="post" call=13 ret=0 line=74 func=train args={"epoch": 1}
// `when: epoch > 0`: zero_grad is traced in the second epoch only.
// CHECK-NEXT: api api/Opt::zero_grad phase="pre" call=14 call_args={} line=75 func=train args={"epoch": 1}
// CHECK-NEXT: api api/Opt::zero_grad phase="post" call=14 line=75 func=train args={"epoch": 1}
// The second step throws: an error record instead of a post.
// CHECK-NEXT: api api/Opt::step phase="pre" call=15 call_args={} line=77 func=train args={"epoch": 1}
// CHECK-NEXT: api api/Opt::step phase="error" call=15 line=77 func=train args={"epoch": 1}
// CHECK-NOT:  {{.}}

// Constructs met in public libtorch programs (pytorch/examples' mnist and
// regression, docs/reliability.md "Issue 19: public libtorch programs"),
// without libtorch: a loop `while (++batch_idx)` left by `break`, two
// declarators in one declaration each with a probed call, a post-increment
// inside an `if` condition, a probed call inside an assert-like macro, and
// `auto main() -> int`. Each is instrumented, or skipped with a warning.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=WARN
// RUN: %cxx -std=c++17 -O1 %s -o %t.plain && %t.plain > %t.plain.out
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: rm -rf %t.gcc.dir && env SONDE_OUTPUT=%t.gcc.dir %t.gcc > %t.gcc.out
// RUN: diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.gcc.dir --format jsonl | %records | cut -d' ' -f1,2 | sort | uniq -c | FileCheck %s
//
// WARN-DAG: warning: probe 'main > batch_idx' skipped: 'batch_idx++' inside an expression yields the old value [sonde-unsupported]
// WARN-DAG: warning: probe 'main > *::check()' skipped: call of 'check' is a macro expansion [sonde-macro]
//
// Five iterations: batch_idx 1, 3, .., 9 in the body (++ in the condition,
// ++ in the `if`), loss = 1 / (2.5 batch_idx) and the fifth breaks. loss:
// its declaration and five writes; batch_idx: its declaration and the five
// writes of the condition (the `++` in the `if` is skipped); targets: one
// per iteration; to() twice an iteration; check() inside CHECK never.
// CHECK:      5 region compute/iteration.block
// CHECK-NEXT: 10 region device/transfer
// CHECK-NEXT: 6 watch user/batch_idx
// CHECK-NEXT: 6 watch user/loss
// CHECK-NEXT: 5 watch user/targets
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > #loop"
// SPEC:     category: compute
// SPEC:     name: iteration
// SPEC:   - at: "main > *::to()"
// SPEC:     category: device.transfer
// SPEC:   - at: "main > *::check()"
// SPEC:     category: compute
// SPEC:     name: check
// SPEC: watches:
// SPEC:   - at: "main > loss"
// SPEC:   - at: "main > batch_idx"
// SPEC:   - at: "main > targets"

#include <cstdio>
#include <cstdlib>

struct Batch {
  double data, target;
  double to(double scale) const { return data * scale; }
  bool check() const { return data == data; }
};

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond))                                                                                                       \
      std::abort();                                                                                                    \
  } while (0)

auto main() -> int {
  float loss = 0;
  long batch_idx = 0;
  while (++batch_idx) {
    Batch batch{static_cast<double>(batch_idx), 1.0};
    auto data = batch.to(2.0), targets = batch.to(0.5);
    CHECK(batch.check());
    loss = static_cast<float>(1.0 / (data + targets));
    if (batch_idx++ % 4 == 1)
      std::printf("%ld %.4f\n", batch_idx, loss);
    if (loss < 0.05f)
      break;
  }
  std::printf("stopped at %ld\n", batch_idx);
  return 0;
}

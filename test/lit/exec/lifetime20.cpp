// A coroutine's get_return_object under `#value` (issue 12 item 2): it
// returns a prvalue Task that owns the coroutine frame; passValue copied it
// and both copies destroyed the frame (ASan: heap-use-after-free on
// resume). A move-only Counted returned as `return R;` of an rvalue
// reference did not compile (passValue took it by copy). Now skipped with a
// warning; the program runs as it does plain. In C++20 `return R;` of an
// rvalue reference moves: watched before the return, it moves once, as
// it does plain.
//
// STD: c++20
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++20 > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %build-clang -std=c++20 %t.cpp -o %t.clang %sonde-link
// RUN: %build-gcc -std=c++20 %t.cpp -o %t.gcc %sonde-link
// RUN: %build-clang -std=c++20 -O0 -fsanitize=address %t.cpp -o %t.asan %sonde-link
// RUN: %build-clang -std=c++20 %s -o %t.plain
// RUN: %t.plain > %t.plain.out && FileCheck %s --input-file %t.plain.out --check-prefix=OUT
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.asan > %t.asan.out && diff %t.plain.out %t.asan.out
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out && diff %t.plain.out %t.gcc.out
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.clang > %t.clang.out && diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "* > #value"

#include <coroutine>
#include <cstdio>
#include <utility>

struct Task {
  struct promise_type {
    int Value = 0;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    // DIAG: lifetime20.cpp:[[@LINE-2]]:7: warning: probe '* > #value' skipped: the returned 'Task' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int V) { Value = V; }
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> H;
  explicit Task(std::coroutine_handle<promise_type> H) : H(H) {}
  Task(const Task &O) : H(O.H) {} // a copy shares the frame (the bug)
  ~Task() {
    if (H)
      H.destroy();
  }
  int get() {
    H.resume();
    return H.promise().Value;
  }
};

Task answer(int X) { co_return X * 2; }

struct Counted {
  static int Moves;
  int V;
  explicit Counted(int V) : V(V) {}
  Counted(Counted &&O) noexcept : V(O.V) { ++Moves; }
};
int Counted::Moves = 0;

#ifdef SONDE_SONDE_H
template <> struct sonde::ValueTraits<Counted> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, const Counted &X) noexcept {
    W.integer(X.V);
  }
};
#endif

Counted pass(Counted &&R) { return R; }

int main() {
  Task T = answer(21);
  std::printf("%d\n", T.get());
  Counted C = pass(Counted(3));
  std::printf("%d moves=%d\n", C.V, Counted::Moves);
}

// OUT:      42
// OUT-NEXT: 3 moves=1

// CHECK:      watch user/value value=42 line=53 func=Task::get
// CHECK-NEXT: watch user/value value=3 line=76 func=pass
// CHECK-NOT:  {{.}}

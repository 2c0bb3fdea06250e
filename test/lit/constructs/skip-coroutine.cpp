// Coroutines are skipped: their body is not a plain function body.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++20 > %t.cpp 2> %t.err
// RUN: %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.err
// RUN: diff %s %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "gen"
// SPEC:     category: data.item

#include <coroutine>

struct Task {
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
};

Task gen() { co_return; }
// CHECK: skip-coroutine.cpp:[[@LINE-1]]:6: warning: probe 'gen' skipped: 'gen': function is a coroutine [sonde-coroutine]

//===- sonde/detail/Clock.h - The raw timestamp of a record -----*- C++ -*-===//
//
// `sonde::now()`: the cycle counter where there is one (rdtsc, cntvct_el0),
// read inline on every record. libsonde converts it to nanoseconds off the hot
// path, with the clock anchors the writer puts in the trace.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_CLOCK_H
#define SONDE_DETAIL_CLOCK_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

#include "Compiler.h"

#include <cstdint>

namespace sonde {
namespace rt {
namespace detail {
/// Nanoseconds from CLOCK_MONOTONIC where there is no cycle counter.
uint64_t clockFallback() noexcept;
} // namespace detail
} // namespace rt

/// The raw timestamp: the TSC where there is one. Converted to nanoseconds
/// off the hot path, with anchors the writer records in the trace.
SONDE_ALWAYS_INLINE uint64_t now() noexcept {
#if defined(SONDE_TEST_CLOCK)
  // Tests only (test/programs/ProgramOrder.cpp): the program's records take
  // their time from a function it defines, to force equal or backward
  // times. No library or tool is built with it.
  return SONDE_TEST_CLOCK();
#elif defined(__x86_64__) || defined(__i386__)
  // The builtin, not <x86intrin.h>: that header costs every instrumented
  // translation unit about 0.35 s of compile time.
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  uint64_t V;
  asm volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
#else
  return rt::detail::clockFallback();
#endif
}

} // namespace sonde

#endif // SONDE_DETAIL_CLOCK_H

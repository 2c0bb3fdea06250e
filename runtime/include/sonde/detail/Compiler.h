//===- sonde/detail/Compiler.h - Hot-path compiler hints --------*- C++ -*-===//
//
// The branch hints and inlining attributes every part of sonde.h uses on the
// hot path, with plain fallbacks for compilers without them.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_COMPILER_H
#define SONDE_DETAIL_COMPILER_H

#if !defined(SONDE_HEADER_WARNINGS) && defined(__GNUC__)
#pragma GCC system_header
#endif

/// On the code sonde.h inlines into the instrumented program: no debug
/// info of its own (clang's `nodebug`; g++ has no such attribute). A
/// debugger steps over it, the user's line staying the line, and the
/// compiler carries none of its scopes and variables through its passes:
/// 69 M instructions (0.3 %) of the instrumented MNIST example's -O2 -g
/// compile, the same code (docs/plugin.md, "Cost").
#if defined(__clang__)
#define SONDE_NODEBUG __attribute__((nodebug))
#else
#define SONDE_NODEBUG
#endif

#if defined(__GNUC__)
#define SONDE_LIKELY(X) __builtin_expect(!!(X), 1)
#define SONDE_UNLIKELY(X) __builtin_expect(!!(X), 0)
#define SONDE_ALWAYS_INLINE inline __attribute__((always_inline)) SONDE_NODEBUG
#define SONDE_NOINLINE __attribute__((noinline))
/// A function called only when something is wrong: kept out of the hot
/// path's code and its branch predicted not taken.
#define SONDE_COLD __attribute__((cold, noinline))
#define SONDE_ASSUME(X)                                                        \
  do {                                                                         \
    if (!(X))                                                                  \
      __builtin_unreachable();                                                 \
  } while (0)
#else
#define SONDE_LIKELY(X) (X)
#define SONDE_UNLIKELY(X) (X)
#define SONDE_ALWAYS_INLINE inline SONDE_NODEBUG
#define SONDE_NOINLINE
#define SONDE_COLD
#define SONDE_ASSUME(X) ((void)0)
#endif

#endif // SONDE_DETAIL_COMPILER_H

//===- sonde/detail/WatchTrampoline.h - A watch without a call --*- C++ -*-===//
//
// Shared by the inline asm of inserted watches (sonde/detail/Inserted.h)
// and the trampoline it calls (recorder/WatchTrampoline.S): only #defines,
// so that the assembler reads the same numbers.
//
// At g++ -O2 a call per watch site costs the compiler three to four times
// what the instrumented statements cost it (docs/reliability.md, "The cost
// of instrumented code"): a call clobbers every caller-saved register, and
// the register allocator pays for that at each site. An asm that pushes
// its three inputs and calls the trampoline clobbers nothing: the
// trampoline saves every register that it, or what it calls, may change.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_DETAIL_WATCHTRAMPOLINE_H
#define SONDE_DETAIL_WATCHTRAMPOLINE_H

// Inserted code compiled by g++ for x86-64 ELF with optimization reaches
// its scalar watches through the trampoline; elsewhere, and with
// SONDE_NO_WATCH_TRAMPOLINE defined, through a call.
#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__) &&          \
    defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__) &&       \
    !defined(SONDE_NO_WATCH_TRAMPOLINE)
#define SONDE_WATCH_TRAMPOLINE 1
#else
#define SONDE_WATCH_TRAMPOLINE 0
#endif

// The asm first steps over the caller's red zone (a leaf function may keep
// values in the 128 bytes below its stack pointer), then pushes the site
// table's address, the packed site index and tag, and the value's 8 bytes,
// in that order, and calls.
#define SONDE_TRAMPOLINE_RED_ZONE 128
#define SONDE_TRAMPOLINE_PUSHED 24
// From the trampoline's stack pointer at entry to the caller's before its
// asm: the return address, the pushed words, the red zone.
#define SONDE_TRAMPOLINE_CFA 160
// The packed word: the site's index in its table above the tag's 8 bits.
#define SONDE_TRAMPOLINE_TAG_BITS 8

#endif // SONDE_DETAIL_WATCHTRAMPOLINE_H

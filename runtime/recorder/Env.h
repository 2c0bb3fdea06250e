//===- Env.h - Parsing libsonde's environment values exactly ----*- C++ -*-===//
//
// The environment variables libsonde reads (docs/runtime.md, "Control") are
// parsed here, whole: a value with anything left over, or one that does not
// fit, is refused, and the caller says so on stderr and uses its default.
// Header-only so the unit tests check the same code libsonde runs.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_LIB_ENV_H
#define SONDE_LIB_ENV_H

#include <cstddef>
#include <cstdint>

namespace sonde::rt::env {

/// The bounds of SONDE_BUFFER_SIZE, a ring per thread: every thread that
/// records gets one, and touches all of it at once.
constexpr uint64_t MinRingBytes = uint64_t(64) << 10;
constexpr uint64_t MaxRingBytes = uint64_t(256) << 20;
/// The least SONDE_MAX_BYTES: below it not even a trace's preamble and one
/// block of records would fit.
constexpr uint64_t MinMaxBytes = uint64_t(64) << 10;
/// The largest rank a file name takes.
constexpr uint64_t MaxRank = 0x7fffffff;
/// The bounds and default of SONDE_FLUSH_DELAY, in ns: how long after a
/// record is made it reaches the file at most. Below 50 ms the writer would
/// chase the producers' lines; above an hour nobody follows the file.
constexpr uint64_t MinFlushDelayNs = uint64_t(50) * 1000000;
constexpr uint64_t MaxFlushDelayNs = uint64_t(3600) * 1000000000;
constexpr uint64_t DefaultFlushDelayNs = uint64_t(500) * 1000000;

/// The binary unit suffixes, in order of their power of 1024 (1 to 6).
constexpr char UnitLetters[] = "KMGTPE";

/// Parses decimal digits into `Out`; false if there are none or on overflow.
/// `End` is left after the last digit.
inline bool parseDigits(const char *S, const char *&End, uint64_t &Out) {
  uint64_t V = 0;
  const char *P = S;
  for (; *P >= '0' && *P <= '9'; ++P) {
    uint64_t D = static_cast<uint64_t>(*P - '0');
    if (V > (UINT64_MAX - D) / 10)
      return false;
    V = V * 10 + D;
  }
  End = P;
  Out = V;
  return P != S;
}

/// A byte count: decimal digits and an optional binary unit, `K`, `M`, `G`,
/// `T`, `P` or `E` (either case), optionally followed by `B` or `iB`
/// (`64K`, `4MiB`, `1gb`). False for anything else (a sign, a space, a
/// fraction, an unknown unit) and for a value that does not fit 64 bits.
inline bool parseBytes(const char *S, uint64_t &Out) {
  if (!S)
    return false;
  const char *P = nullptr;
  uint64_t V = 0;
  if (!parseDigits(S, P, V))
    return false;
  if (*P == '\0') {
    Out = V;
    return true;
  }
  char U = *P >= 'a' && *P <= 'z' ? static_cast<char>(*P - 'a' + 'A') : *P;
  unsigned Power = 0;
  for (unsigned I = 0; UnitLetters[I]; ++I)
    if (UnitLetters[I] == U)
      Power = I + 1;
  if (Power == 0)
    return false;
  ++P;
  if ((P[0] == 'i' || P[0] == 'I') && (P[1] == 'B' || P[1] == 'b'))
    P += 2;
  else if (P[0] == 'B' || P[0] == 'b')
    ++P;
  if (*P != '\0')
    return false;
  for (unsigned I = 0; I < Power; ++I) {
    if (V > (UINT64_MAX >> 10))
      return false;
    V <<= 10;
  }
  Out = V;
  return true;
}

/// A rank: decimal digits only, at most MaxRank.
inline bool parseRank(const char *S, uint64_t &Out) {
  if (!S)
    return false;
  const char *P = nullptr;
  uint64_t V = 0;
  if (!parseDigits(S, P, V) || *P != '\0' || V > MaxRank)
    return false;
  Out = V;
  return true;
}

/// A duration: decimal digits and an optional unit, `ms` (the default) or
/// `s` (`500`, `500ms`, `2s`), into ns. False for anything else (a sign, a
/// space, a fraction, another unit) and for a value that does not fit.
inline bool parseMillis(const char *S, uint64_t &OutNs) {
  if (!S)
    return false;
  const char *P = nullptr;
  uint64_t V = 0;
  if (!parseDigits(S, P, V))
    return false;
  uint64_t Scale = 1000000; // ms
  if (P[0] == 's' && P[1] == '\0')
    Scale = 1000000000;
  else if (!(P[0] == '\0' || (P[0] == 'm' && P[1] == 's' && P[2] == '\0')))
    return false;
  if (V > UINT64_MAX / Scale)
    return false;
  OutNs = V * Scale;
  return true;
}

/// The ring size for an accepted SONDE_BUFFER_SIZE: rounded up to a power
/// of two, within the bounds (`Clamped` says whether a bound applied).
inline uint64_t ringBytes(uint64_t V, bool &Clamped) {
  Clamped = V < MinRingBytes || V > MaxRingBytes;
  uint64_t P = MinRingBytes;
  while (P < V && P < MaxRingBytes)
    P <<= 1;
  return P;
}

/// Writes `V` bytes as the shortest exact form with a unit (`64K`, `4M`,
/// `1536K`, `100`) into `Buf` (at least 24 bytes).
inline void formatBytes(uint64_t V, char *Buf) {
  unsigned Power = 0;
  while (V != 0 && Power < 6 && (V & 1023) == 0) {
    V >>= 10;
    ++Power;
  }
  char Digits[24];
  int N = 0;
  do
    Digits[N++] = static_cast<char>('0' + V % 10);
  while ((V /= 10) != 0);
  char *P = Buf;
  while (N > 0)
    *P++ = Digits[--N];
  if (Power)
    *P++ = UnitLetters[Power - 1];
  *P = '\0';
}

} // namespace sonde::rt::env

#endif // SONDE_LIB_ENV_H

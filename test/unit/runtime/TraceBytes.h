//===- TraceBytes.h - Trace files byte by byte, for unit tests -*- C++ -*-===//
//
// The pieces the reader's tests build files from with the format's own
// encoders (TraceFormat.h): varints, strings, blocks, a file's header and a
// site, so that each test says only what its file holds.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TEST_UNIT_RUNTIME_TRACEBYTES_H
#define SONDE_TEST_UNIT_RUNTIME_TRACEBYTES_H

#include "TraceFormat.h"
#include "sonde/site.h"

#include <cstdint>
#include <string>

namespace tracebytes {

inline std::string vi(uint64_t V) {
  char Buf[10];
  return std::string(Buf, sonde::format::putVarint(Buf, V));
}
inline std::string str(const std::string &S) { return vi(S.size()) + S; }

/// Appends a block of type `B` holding `Payload`.
inline void block(std::string &Bytes, sonde::format::Block B,
                  const std::string &Payload) {
  Bytes += char(static_cast<uint8_t>(B));
  auto Len = static_cast<uint32_t>(Payload.size());
  for (int I = 0; I < 4; ++I)
    Bytes += char((Len >> (8 * I)) & 0xff);
  Bytes += Payload;
}

/// A file of format 1.`Minor`: its header, a process and a clock anchor
/// at tick 0 (1 ns a tick, from 1 s after the epoch).
inline std::string header(uint16_t Minor) {
  using sonde::format::Block;
  std::string B(sonde::format::Magic, 8);
  B += std::string{1, 0, static_cast<char>(Minor), 0, 0, 0, 0, 0};
  block(B, Block::Process,
        vi(42) + vi(1) + vi(0) + str("host") + str("prog") + vi(1000000000) +
            str("boot"));
  block(B, Block::Clock, vi(0) + vi(1000000000) + vi(1000000000));
  return B;
}

/// Appends a Site block: site `Id` of kind `K` with `Flags`, category and
/// name, its args' names comma-separated.
inline void site(std::string &Bytes, uint32_t Id, sonde::SiteKind K,
                 uint8_t Flags, const std::string &Category,
                 const std::string &Name, const std::string &Args = "") {
  block(Bytes, sonde::format::Block::Site,
        vi(Id) + char(static_cast<uint8_t>(K)) + char(Flags) + vi(Id) + vi(0) +
            str(Category) + str(Name) + str("f.cpp") + str("fn") + str(Args) +
            str(""));
}

} // namespace tracebytes

#endif // SONDE_TEST_UNIT_RUNTIME_TRACEBYTES_H

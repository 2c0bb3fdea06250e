//===- WatchTrampolineSlow.cpp - A scalar watch the fast half left --------===//
//
// The slow half behind sonde_watch_trampoline (WatchTrampoline.h): the
// vector state is saved by then, and the watch is recorded as inserted
// code records it without the trampoline (watchSharedAt, of the type it
// is written as), so that both give the same records.
//
//===----------------------------------------------------------------------===//

#include "WatchTrampoline.h"

#include <cstring>

using namespace sonde;
using namespace sonde::rt;
using namespace sonde::rt::detail;

extern "C" void sonde_watch_slow(const SiteTable *Table, uint64_t Packed,
                                 uint64_t Bits, int Answer) noexcept {
  auto Index = static_cast<uint32_t>(Packed >> SONDE_TRAMPOLINE_TAG_BITS);
  auto Tag = static_cast<ValueTag>(Packed & 0xff);
  if (Answer == NeedsAlarm) { // recorded: only `check: finite` is left
    const Site &S = (*Table)[Index];
    checkFailed(thread(), activeId(S), Bits);
    return;
  }
  switch (Tag) {
  case ValueTag::Float: {
    double D;
    std::memcpy(&D, &Bits, 8);
    watchSharedAt(*Table, Index, D);
    return;
  }
  case ValueTag::Int:
    watchSharedAt(*Table, Index, static_cast<int64_t>(Bits));
    return;
  case ValueTag::UInt:
    watchSharedAt(*Table, Index, Bits);
    return;
  case ValueTag::True:
  case ValueTag::False:
    watchSharedAt(*Table, Index, Tag == ValueTag::True);
    return;
  default: // no tag scalarBits() gives
    return;
  }
}

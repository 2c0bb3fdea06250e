//===- CheckSplit.cpp - The check walk in two parts, on two cores ---------===//
//
// The check (walk 2, Decoder.h) reads every record before the first event
// is given. On a long file it is a fifth of what `sonde summary` costs, and
// it splits: each Events block reads alone (its time base, its watches'
// differences and its nesting level start in it), so the blocks after the
// file's middle can be checked on another core by a copy of the decoder,
// and what that copy found taken in afterwards as if one decoder had walked
// every block in file order:
//
//  - counts, extreme times and the latest tick add up or compare;
//  - the first corruption is the one at the lowest offset, and the rest are
//    counted, as corrupt() does record by record;
//  - where each corrupt block stops is per block;
//  - the context in force at the end (the args of regions still open) is a
//    stack per thread: the later part's pushes go on top of the earlier
//    part's, and a pop the later part cannot match pops the innermost push
//    of its site the earlier part left, in order, which is what one walk
//    does. A part keeps at most MaxMissed of those; past that, the earlier
//    decoder walks the later blocks again itself.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>
#include <iterator>

namespace sonde::trace::detail {

// Below 4 MiB (about a million small records) the walk takes a few
// milliseconds, less than it is worth to start a thread.
uint64_t ParallelCheckMinBytes = uint64_t(4) << 20;

bool Decoder::popContext(ThreadDecode &TD, uint32_t Site) {
  for (auto It = TD.Ctx.rbegin(); It != TD.Ctx.rend(); ++It)
    if (It->Site == Site) {
      // The pushes above it keep arg sets made with it below them.
      auto Erased = TD.Ctx.erase(std::next(It).base());
      for (; Erased != TD.Ctx.end(); ++Erased)
        Erased->forgetSets();
      TD.Valid = false;
      return true;
    }
  return false;
}

void Decoder::noteMissedPop(ThreadDecode &TD, uint32_t Site) {
  if (++MissedPops > MaxMissed) {
    TooManyMissed = true;
    return;
  }
  TD.Missed.push_back(Site);
}

std::unique_ptr<Decoder> Decoder::laterPart() const {
  auto Part = std::make_unique<Decoder>(*this);
  Part->Later = true;
  Part->CorruptAt = ~uint64_t(0);
  Part->Corrupt.clear();
  Part->MoreCorrupt = 0;
  Part->StopAt.clear();
  Part->forgetRecords();
  Part->MissedPops = 0;
  Part->TooManyMissed = false;
  return Part;
}

bool Decoder::absorb(Decoder &P) {
  if (P.TooManyMissed || P.TimesOneByOne != TimesOneByOne)
    return false;
  Records += P.Records;
  // The later part's values come after this part's: the order holds.
  Extents.insert(Extents.end(), P.Extents.begin(), P.Extents.end());
  MaxTsc = std::max(MaxTsc, P.MaxTsc);
  MinTick = std::min(MinTick, P.MinTick);
  MaxTick = std::max(MaxTick, P.MaxTick);
  AnyTick |= P.AnyTick;
  if (!P.Corrupt.empty()) {
    if (Corrupt.empty()) {
      CorruptAt = P.CorruptAt;
      Corrupt = std::move(P.Corrupt);
      MoreCorrupt = P.MoreCorrupt;
    } else {
      MoreCorrupt += 1 + P.MoreCorrupt;
      if (P.CorruptAt < CorruptAt) {
        CorruptAt = P.CorruptAt;
        Corrupt = std::move(P.Corrupt);
      }
    }
  }
  StopAt.insert(P.StopAt.begin(), P.StopAt.end());
  for (auto &[Thread, Part] : P.Threads) {
    ThreadDecode &TD = Threads[Thread];
    for (uint32_t Site : Part.Missed)
      popContext(TD, Site);
    for (CtxEntry &E : Part.Ctx) {
      E.forgetSets(); // made over the later part's pushes alone
      TD.Ctx.push_back(std::move(E));
    }
    TD.Valid = false;
  }
  return true;
}

} // namespace sonde::trace::detail

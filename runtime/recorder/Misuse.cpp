//===- Misuse.cpp - What the runtime says when regions do not nest --------===//
//
// Regions are opened and closed by RAII objects, by begin()/end() pairs,
// and by inserted code. Three things can go wrong, and none may go unsaid
// (a trace whose regions silently vanish or end elsewhere is a wrong
// trace):
//
//  - a region left open inside another (a begin() without its end()) when
//    the outer one ends: it is closed there, recorded as ending with it;
//  - a region already closed when its owner ends it (the end() of a
//    begin() around it closed it first): nothing more is recorded;
//  - a region opened deeper than a thread's shadow stack (MaxDepth): it is
//    not recorded, nor are its args.
//
// Each is said once per process, on stderr, naming the site. Out of line
// and cold: the hot path pays one compare for the first two and nothing for
// the third.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <atomic>
#include <cstdio>

namespace sonde::rt::detail {

namespace {

/// `'name' (file:line)`, or what is known when the id names no site (0:
/// its owner did not keep it, and the shadow stack no longer has it).
void describe(uint32_t Id, char *Buf, size_t Size) noexcept {
  const Site *S = Id && Id <= siteCount() ? siteById(Id) : nullptr;
  if (S)
    std::snprintf(Buf, Size, "'%s' (%s:%u)", S->Name, S->File, S->Line);
  else if (Id)
    std::snprintf(Buf, Size, "of site %u", Id);
  else
    std::snprintf(Buf, Size, "of an instrumented function or loop");
}

std::atomic<bool> SaidLeftOpen{false}, SaidClosedTwice{false},
    SaidTooDeep{false};

} // namespace

void openedTooDeep(uint32_t Id) noexcept {
  if (SaidTooDeep.exchange(true, std::memory_order_relaxed))
    return;
  char Site[512];
  describe(Id, Site, sizeof(Site));
  std::fprintf(stderr,
               "sonde: region %s opened %u regions deep on one thread: regions "
               "deeper than %u are not recorded (nor their args); the ones "
               "around them are\n",
               Site, MaxDepth + 1, MaxDepth);
}

bool closeLeftOpen(ThreadState *T, uint32_t D, uint32_t Id,
                   uint64_t End) noexcept {
  // An owner that keeps no site: the stack entry at D is its region's
  // while that is open.
  if (!Id && T->Depth > D && D < MaxDepth)
    Id = T->Stack[D].Site;
  // Formatted only the once it is said: a program that misuses the API in
  // a loop pays the compare and the closes, not the text.
  char Outer[512], Inner[512];
  if (T->Depth <= D) {
    if (!SaidClosedTwice.exchange(true, std::memory_order_relaxed)) {
      describe(Id, Outer, sizeof(Outer));
      std::fprintf(stderr,
                   "sonde: region %s was closed before its own end, by the "
                   "end() of a begin() opened around it; it is recorded as "
                   "ending there\n",
                   Outer);
    }
    return false;
  }
  if (!SaidLeftOpen.exchange(true, std::memory_order_relaxed)) {
    uint32_t InnerAt = D + 1;
    describe(Id, Outer, sizeof(Outer));
    describe(InnerAt < MaxDepth ? T->Stack[InnerAt].Site : 0, Inner,
             sizeof(Inner));
    std::fprintf(stderr,
                 "sonde: region %s%s was still open when region %s around it "
                 "ended (a begin() without its end()?); it is recorded as "
                 "ending there\n",
                 Inner, T->Depth - D > 2 ? " (and the ones inside it)" : "",
                 Outer);
  }
  while (T->Depth > D + 1)
    close(T, End);
  return true;
}

} // namespace sonde::rt::detail

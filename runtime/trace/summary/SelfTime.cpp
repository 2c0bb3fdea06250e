//===- SelfTime.cpp - Time per category, nothing counted twice -----------===//
//
// SelfTimeCounter (SelfTime.h): a stack of open regions per thread. Events
// come in start order, a parent before what it holds, so a region's parent
// is the innermost open region it starts in, one nesting level up; its time
// is added to its own category and taken from its parent's.
//
// Except past the look-ahead: a region that holds more events than the
// reader may wait for (a `train` region around a day's run) comes after
// what it holds (docs/exports.md, "Order"). Its children then find no
// parent one level up: their time is kept per level until the next region
// of the level above comes, which is their parent when it holds them (no
// other region of that level can end between them and it), and takes their
// time from its own; the regions it holds already on the stack leave it.
// So the self times are those of the events in program order.
//
//===----------------------------------------------------------------------===//

#include "SelfTime.h"

#include <algorithm>

namespace sonde::trace {

void SelfTimeCounter::beginTrace(const Trace &T) {
  Current = &T;
  Threads.clear();
  SiteCat.assign(T.Sites.size(), 0);
  for (size_t I = 0; I < T.Sites.size(); ++I) {
    auto [It, New] = Index.emplace(T.Sites[I].topCategory(), Names.size());
    if (New) {
      Names.push_back(It->first);
      Self.push_back(0);
      Seen.push_back(false);
    }
    SiteCat[I] = It->second;
  }
}

void SelfTimeCounter::add(const Event &E) {
  if (E.Kind != EventKind::Region || !Current || E.Site >= SiteCat.size())
    return;
  ThreadState &TS = Threads[E.Thread];
  std::vector<Open> &Stack = TS.Stack;
  int64_t End = E.Ts + E.Dur;
  // Whether the reader gave anything out of order yet: until it does, each
  // region's parent is what it starts in, whatever its level says (a torn
  // or a hand-made file may skip a level).
  bool OutOfOrder = outOfOrder(*Current);
  // What ended leaves; so does what this region holds, when it comes after
  // it (deeper, and starting in it).
  while (!Stack.empty() && (Stack.back().End <= E.Ts ||
                            (OutOfOrder && Stack.back().Level > E.Level &&
                             Stack.back().Start >= E.Ts)))
    Stack.pop_back();
  size_t Cat = SiteCat[E.Site];
  if (!Stack.empty() && (!OutOfOrder || Stack.back().Level + 1 >= E.Level)) {
    Self[Stack.back().Cat] -= std::min(End, Stack.back().End) - E.Ts;
  } else if (OutOfOrder && E.Level > 0) { // its parent comes after it
    if (TS.Orphaned.size() <= E.Level)
      TS.Orphaned.resize(E.Level + 1);
    TS.Orphaned[E.Level] += E.Dur;
  }
  Self[Cat] += E.Dur;
  // The regions one level down given before it are its children: no
  // other region of its level can end between them and it.
  if (E.Level + 1 < TS.Orphaned.size()) {
    Self[Cat] -= TS.Orphaned[E.Level + 1];
    TS.Orphaned[E.Level + 1] = 0;
  }
  Seen[Cat] = true;
  Stack.push_back({E.Ts, End, Cat, E.Level});
}

std::vector<std::pair<std::string, int64_t>>
SelfTimeCounter::byCategory() const {
  std::vector<std::pair<std::string, int64_t>> Out;
  for (size_t I = 0; I < Names.size(); ++I)
    if (Seen[I])
      Out.emplace_back(Names[I], std::max<int64_t>(0, Self[I]));
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });
  return Out;
}

} // namespace sonde::trace

//===- SelfTime.cpp - Time per category, nothing counted twice -----------===//
//
// SelfTimeCounter (SelfTime.h): a stack of open regions per thread. Events
// come in start order, a parent before what it holds, so a region's parent
// is the innermost open region it starts in; its time is added to its own
// category and taken from its parent's.
//
//===----------------------------------------------------------------------===//

#include "SelfTime.h"

#include <algorithm>

namespace sonde::trace {

void SelfTimeCounter::beginTrace(const Trace &T) {
  Current = &T;
  Stacks.clear();
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
  std::vector<Open> &Stack = Stacks[E.Thread];
  while (!Stack.empty() && Stack.back().End <= E.Ts)
    Stack.pop_back();
  int64_t End = E.Ts + E.Dur;
  if (!Stack.empty())
    Self[Stack.back().Cat] -= std::min(End, Stack.back().End) - E.Ts;
  size_t Cat = SiteCat[E.Site];
  Self[Cat] += E.Dur;
  Seen[Cat] = true;
  Stack.push_back({End, Cat});
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

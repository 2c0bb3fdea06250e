//===- Order.cpp - Events in program order, in bounded memory -------------===//
//
// See Order.h. Each thread's pending records form a list in program order
// and a stack of roots (the subtrees no region has taken yet), as the
// whole-file reader built them; what can no longer move leaves the list for
// the thread's final queue, and the queues are merged by time.
//
//===----------------------------------------------------------------------===//

#include "Order.h"

#include <algorithm>

namespace sonde::trace::detail {

Order::Order(std::vector<Pending> Open,
             const std::unordered_map<uint32_t, size_t> &BlocksOf,
             size_t LookAhead)
    : LookAhead(LookAhead) {
  for (const auto &[Thread, N] : BlocksOf)
    of(Thread).BlocksLeft = N;
  // Outermost first: a thread's regions open at the end are nested, level
  // 0 outside.
  std::sort(Open.begin(), Open.end(), [](const Pending &A, const Pending &B) {
    return A.E.Level != B.E.Level ? A.E.Level < B.E.Level : A.Seq < B.Seq;
  });
  for (Pending &P : Open) {
    ThreadOrder &TO = of(P.E.Thread);
    fresh() = std::move(P);
    TO.OpenNodes.push_back(Filling);
    Filling = None;
  }
}

Order::ThreadOrder &Order::slowOf(uint32_t Thread) {
  auto [It, New] = Slot.try_emplace(Thread, Threads.size());
  HaveLast = true;
  LastThread = Thread;
  LastSlot = It->second;
  if (New)
    Threads.emplace_back();
  return Threads[It->second];
}

void Order::push(ThreadOrder &TO, uint32_t I) {
  // A region goes before the run of roots just before it that are nested
  // deeper than it: the records it holds.
  const Pending &R = at(I);
  auto Inside = [&](uint32_t Node) {
    const Pending &N = at(Node);
    if (N.OrderLevel != Decoder::NoLevel)
      return N.OrderLevel > R.E.Level;
    return N.E.Ts >= R.E.Ts; // format 1.1: a tie goes inside
  };
  uint32_t Adopted = None;
  if (R.E.Kind == EventKind::Region)
    while (!TO.Roots.empty() && Inside(TO.Roots.back().Node)) {
      Adopted = TO.Roots.back().First;
      TO.Roots.pop_back();
    }
  Node &N = Nodes[I];
  if (Adopted == None) { // at the end of the list
    N.Prev = TO.Tail;
    if (TO.Tail != None)
      Nodes[TO.Tail].Next = I;
    else
      TO.Head = I;
    TO.Tail = I;
  } else { // before its first nested record
    N.Prev = Nodes[Adopted].Prev;
    N.Next = Adopted;
    if (N.Prev != None)
      Nodes[N.Prev].Next = I;
    else
      TO.Head = I;
    Nodes[Adopted].Prev = I;
  }
  // The common case first: a record outside every region, nothing pending.
  if (R.OrderLevel == 0 && Adopted == None && TO.Roots.empty()) {
    TO.Head = TO.Tail = None;
    appendFinal(TO, I, I);
    return;
  }
  TO.Roots.push_back({I, I});
  // Final when nothing still to come can hold it: every region around it
  // is one that stays open to the end (those went out, or go out, first).
  uint32_t Level = R.OrderLevel;
  if (Level == Decoder::NoLevel)
    return;
  size_t Known = 0;
  while (Known < TO.OpenNodes.size() && Known < Level &&
         at(TO.OpenNodes[Known]).E.Ts <= R.E.Ts)
    ++Known;
  if (Level <= Known)
    finalize(TO, false);
}

void Order::finalize(ThreadOrder &TO, bool AtEnd) {
  // Every root, in order; before the first record inside a region open to
  // the end, that region.
  for (size_t R = 0; R < TO.Roots.size(); ++R) {
    uint32_t First = TO.Roots[R].First;
    uint32_t Last =
        R + 1 < TO.Roots.size() ? Nodes[TO.Roots[R + 1].First].Prev : TO.Tail;
    const Pending &Q = at(TO.Roots[R].Node);
    uint32_t Level = Q.OrderLevel == Decoder::NoLevel ? 0 : Q.OrderLevel;
    while (!AtEnd && TO.OpenGiven < TO.OpenNodes.size() &&
           TO.OpenGiven < Level &&
           at(TO.OpenNodes[TO.OpenGiven]).E.Ts <= Q.E.Ts) {
      uint32_t O = TO.OpenNodes[TO.OpenGiven++];
      appendFinal(TO, O, O);
    }
    appendFinal(TO, First, Last);
  }
  TO.Roots.clear();
  TO.Head = TO.Tail = None;
}

void Order::finish(ThreadOrder &TO) {
  if (TO.Done)
    return;
  // The regions open at the end that did not go out yet take, innermost
  // first, the records after them, as the whole-file reader had them.
  size_t From = TO.OpenGiven;
  TO.OpenGiven = TO.OpenNodes.size();
  for (size_t I = TO.OpenNodes.size(); I-- > From;)
    push(TO, TO.OpenNodes[I]);
  finalize(TO, true);
  TO.Done = true;
}

void Order::threadDone(uint32_t Thread) {
  ThreadOrder &TO = of(Thread);
  if (TO.BlocksLeft && --TO.BlocksLeft == 0)
    finish(TO);
}

void Order::endOfFile() {
  Ended = true;
  for (ThreadOrder &TO : Threads)
    finish(TO);
}

void Order::giveWay() {
  // What a region still to come would have gone before goes out now.
  for (ThreadOrder &TO : Threads) {
    if (TO.Done)
      continue;
    for (size_t R = 0; R < TO.Roots.size(); ++R)
      if (at(TO.Roots[R].Node).OrderLevel != 0)
        for (uint32_t I = TO.Roots[R].First;
             I != None &&
             (R + 1 == TO.Roots.size() || I != TO.Roots[R + 1].First);
             I = Nodes[I].Next)
          ++Late;
    finalize(TO, false);
  }
  GaveWay = true;
}

Pending *Order::merge() {
  for (;;) {
    ThreadOrder *Best = nullptr;
    bool Blocked = false;
    for (ThreadOrder &TO : Threads) {
      if (TO.FinalHead == None) {
        Blocked |= !TO.Done;
        continue;
      }
      if (!Best)
        Best = &TO;
      else {
        const Pending &A = at(TO.FinalHead), &B = at(Best->FinalHead);
        if (A.E.Ts != B.E.Ts ? A.E.Ts < B.E.Ts : A.Seq < B.Seq)
          Best = &TO;
      }
    }
    if (Blocked) {
      // A thread that may still have earlier records holds the rest back,
      // up to the look-ahead.
      if (GaveWay && Held <= LookAhead / 2)
        GaveWay = false;
      if (!GaveWay) {
        if (Held <= LookAhead)
          return nullptr;
        giveWay();
        continue;
      }
    }
    if (!Best)
      return nullptr;
    if (Blocked)
      ++Late;
    return take(*Best);
  }
}

} // namespace sonde::trace::detail

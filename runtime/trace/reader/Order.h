//===- Order.h - Events in program order, in bounded memory ---*- C++ -*-===//
//
// The events walk gives each thread's records in file order, which is the
// order they were completed: a region comes after everything nested in it.
// Order turns each thread's records around into the order the program made
// them (a region before what it holds, docs/trace-format.md "Order") and
// merges the threads by start time, holding only what may still move:
//
//  - a thread's records are *pending* until no region still to come can
//    hold them: a record at nesting level L is final once a record at a
//    level <= the number of that thread's regions known to stay open to the
//    end (Unfinished blocks) follows it;
//  - a final record waits until every thread that may still have records
//    has a final one too, then the earliest goes out (time, then file
//    order).
//
// The result is the order the whole-file reader gave. A trace that holds
// more than the look-ahead (a region open for millions of records, a
// thread that records nothing for a long time) is read on in bounded
// memory: what waits longest goes out, and a region that then ends goes out
// after what it holds; Late counts those.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_ORDER_H
#define SONDE_TRACE_READER_ORDER_H

#include "ChunkedPool.h"
#include "Decoder.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sonde::trace::detail {

class Order final : public RecordSink {
public:
  /// `Open`: the regions open at the end (converted to events by the
  /// caller, Seq after every record). `BlocksOf`: per thread, its Events
  /// blocks. `LookAhead`: the events held before order gives way.
  Order(std::vector<Pending> Open,
        const std::unordered_map<uint32_t, size_t> &BlocksOf, size_t LookAhead);

  // Inline, as the events walk's common case: a node from the free list,
  // filled, and given to its thread's final queue when it is outside every
  // region with nothing pending before it.
  Pending &fresh() override {
    ++Held;
    if (!Free.empty()) {
      Filling = Free.back();
      Free.pop_back();
    } else {
      Nodes.emplace_back();
      Filling = static_cast<uint32_t>(Nodes.size() - 1);
    }
    Nodes[Filling].Next = Nodes[Filling].Prev = None;
    return Nodes[Filling].P;
  }
  void commit() override {
    uint32_t I = Filling;
    Filling = None;
    ThreadOrder &TO = of(Nodes[I].P.E.Thread);
    if (Nodes[I].P.OrderLevel == 0 && TO.Roots.empty())
      appendFinal(TO, I, I); // push()'s first case, without the call
    else
      push(TO, I);
  }
  /// The last Events block of `Thread` was decoded.
  void threadDone(uint32_t Thread);
  /// Every block was decoded.
  void endOfFile();

  /// The next event in order, or null when more blocks must be decoded
  /// first (or, after endOfFile(), when there is none). Valid until the
  /// next call.
  Pending *next() {
    if (Given != None) {
      // Its event is overwritten when the node is used again.
      Free.push_back(Given);
      Given = None;
      --Held;
    }
    // One thread with an event final (a single-threaded trace, most of the
    // time): nothing to merge or wait for.
    if (Threads.size() == 1 && Threads[0].FinalHead != None)
      return take(Threads[0]);
    return merge();
  }

  size_t held() const { return Held; }
  /// Events that went out before a region that holds them, or before an
  /// earlier event of another thread, because the look-ahead was full.
  uint64_t Late = 0;

private:
  static constexpr uint32_t None = ~0u;
  struct Node {
    Pending P;
    uint32_t Next = None, Prev = None;
  };
  struct Root {
    uint32_t First; ///< the first node of its subtree in the list
    uint32_t Node;
  };
  struct ThreadOrder {
    /// Pending nodes, in the order the program made them so far.
    uint32_t Head = None, Tail = None;
    std::vector<Root> Roots;
    /// Final nodes, waiting for the merge.
    uint32_t FinalHead = None, FinalTail = None;
    /// Its regions open at the end, outermost first, and how many of them
    /// went out already.
    std::vector<uint32_t> OpenNodes;
    size_t OpenGiven = 0;
    size_t BlocksLeft = 0;
    bool Done = false;
  };

  const Pending &at(uint32_t I) const { return Nodes[I].P; }
  void push(ThreadOrder &TO, uint32_t I);
  void finalize(ThreadOrder &TO, bool Everything);
  void appendFinal(ThreadOrder &TO, uint32_t First, uint32_t Last) {
    Nodes[First].Prev = TO.FinalTail;
    if (TO.FinalTail != None)
      Nodes[TO.FinalTail].Next = First;
    else
      TO.FinalHead = First;
    Nodes[Last].Next = None;
    TO.FinalTail = Last;
  }
  void finish(ThreadOrder &TO);
  /// Gives way when the look-ahead is full: the thread holding the most
  /// finalizes what it holds.
  void giveWay();
  /// Gives `TO`'s first final event.
  Pending *take(ThreadOrder &TO) {
    Given = TO.FinalHead;
    TO.FinalHead = Nodes[Given].Next;
    if (TO.FinalHead == None)
      TO.FinalTail = None;
    return &Nodes[Given].P;
  }
  /// next() when threads must be merged or waited for.
  Pending *merge();

  ChunkedPool<Node> Nodes; ///< never moved: a held event stays where it is
  std::vector<uint32_t> Free;
  uint32_t Given = None;   ///< the node next() returned last
  uint32_t Filling = None; ///< the node fresh() gave
  std::vector<ThreadOrder> Threads;
  std::unordered_map<uint32_t, size_t> Slot; ///< thread index -> Threads
  ThreadOrder &of(uint32_t Thread) {
    if (HaveLast && Thread == LastThread) // records come in blocks of a thread
      return Threads[LastSlot];
    return slowOf(Thread);
  }
  ThreadOrder &slowOf(uint32_t Thread);
  bool HaveLast = false;
  uint32_t LastThread = 0;
  size_t LastSlot = 0;
  size_t Held = 0;
  size_t LookAhead;
  bool Ended = false;
  bool GaveWay = false;
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_ORDER_H

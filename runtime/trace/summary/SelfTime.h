//===- SelfTime.h - Time per category, nothing counted twice --*- C++ -*-===//
//
// Self time per top category (`compute`, `dataloader`, ...): a region's
// duration less the time of the regions nested in it on its thread, so the
// categories add up to the time spent in regions at all, and a forward pass
// inside an epoch counts once, as `compute`. Fed event by event in a
// trace's order (events(T)), as RateCounter is.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_SUMMARY_SELFTIME_H
#define SONDE_TRACE_SUMMARY_SELFTIME_H

#include "sonde/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sonde::trace {

/// Whether `T`'s reader has given events out of order yet (past the
/// look-ahead): the self-time counters' rule for late regions applies from
/// then on (SelfTime.cpp).
inline bool outOfOrder(const Trace &T) {
  return T.Stream && T.Stream->late() != 0;
}

class SelfTimeCounter {
public:
  /// The events that follow are `T`'s.
  void beginTrace(const Trace &T);
  /// One event of the current trace, in the trace's order.
  void add(const Event &E);
  /// Self time (ns) per top category, largest first.
  std::vector<std::pair<std::string, int64_t>> byCategory() const;

private:
  /// A region still open at the events read.
  struct Open {
    int64_t Start, End;
    size_t Cat;
    uint32_t Level;
  };
  struct ThreadState {
    std::vector<Open> Stack;
    /// Per nesting level, the time of the regions given before the region
    /// that holds them (one that held more than the look-ahead:
    /// docs/exports.md, "Order"), which that region takes from its own
    /// when it comes.
    std::vector<int64_t> Orphaned;
  };
  const Trace *Current = nullptr;
  std::vector<size_t> SiteCat; ///< per site of Current: an index in Names
  std::vector<std::string> Names;
  std::map<std::string, size_t> Index;
  std::vector<int64_t> Self; ///< per index in Names
  std::vector<bool> Seen;    ///< per index in Names: a region was read
  std::map<uint32_t, ThreadState> Threads; ///< per thread of Current
};

} // namespace sonde::trace

#endif // SONDE_TRACE_SUMMARY_SELFTIME_H

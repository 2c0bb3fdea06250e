//===- IterationRecorder.cpp - The records of a wrapped range-for ---------===//
//
// sonde::rt::IterationRecorder (sonde/detail/Iterate.h): the fetch and body
// regions of each iteration of a loop wrapped by sonde::iterate or by the
// engine. Compiled once, here: inlined into each Iterated<R>, they were
// compiled and optimized again for every wrapped loop of every instrumented
// translation unit (docs/plugin.md, "Cost").
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

namespace sonde::rt {

void IterationRecorder::begin() noexcept {
  // The first record of a run starts libsonde (the environment, this
  // thread's ring, the trace file: milliseconds); neither region of the
  // first iteration may contain it. startFetch starts it before it takes
  // the fetch's time; a body without a fetch is timed from the time
  // fetched() takes first, so it is started here.
  startFetch();
  if (!FetchThread && On && Body && detail::activeId(*Body))
    detail::thread();
}

void IterationRecorder::startFetch() noexcept {
  if (!On)
    return;
  if (uint32_t Id = detail::activeId(Fetch)) {
    FetchThread = detail::thread();
    FetchMark = FetchThread->Published.load(detail::MemOrder::Relaxed);
    detail::open(FetchThread, Id, now());
  }
}

void IterationRecorder::fetched() noexcept {
  if (!On)
    return;
  uint64_t Tsc = now();
  if (FetchThread) {
    detail::close(FetchThread, Tsc, Index);
    FetchThread = nullptr;
  }
  if (!Body)
    return;
  if (uint32_t Id = detail::activeId(*Body)) {
    BodyThread = detail::thread();
    detail::open(BodyThread, Id, Tsc);
  }
}

void IterationRecorder::advance() noexcept {
  closeBody();
  startFetch();
}

void IterationRecorder::endFetch() noexcept {
  if (!FetchThread)
    return;
  if (FetchThread->Published.load(detail::MemOrder::Relaxed) != FetchMark)
    detail::close(FetchThread, now(), Index);
  else
    detail::discard(FetchThread);
  FetchThread = nullptr;
}

void IterationRecorder::closeBody() noexcept {
  if (BodyThread) {
    detail::close(BodyThread, now(), Index);
    BodyThread = nullptr;
  }
  ++Index;
}

void IterationRecorder::finish() noexcept {
  endFetch();
  closeBody();
}

} // namespace sonde::rt

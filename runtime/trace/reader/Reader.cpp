//===- Reader.cpp - Reading a .sonde file whole or as a stream ------------===//
//
// readTrace and readTraceBytes read every event into Trace::Events (tests,
// the fuzzer, small files); openTrace leaves them in a TraceStream that
// events() reads as they are used, which every `sonde` command does.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

namespace sonde::trace {
namespace {

bool readWhole(TraceStream &S, bool Ok, Trace &Out, bool Events) {
  if (!Ok)
    return false;
  Trace &T = S.trace();
  if (Events) {
    S.setLookAhead(SIZE_MAX); // all of it is held anyway
    T.Events.reserve(T.EventCount);
    while (Event *E = S.next())
      T.Events.push_back(std::move(*E));
  }
  Out = std::move(T);
  return true;
}

} // namespace

bool readTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events) {
  TraceStream S;
  Out = Trace();
  return readWhole(S, S.open(Path, Error, Events), Out, Events);
}

bool readTraceBytes(const uint8_t *Data, size_t Size, const std::string &Path,
                    Trace &Out, std::string &Error, bool Events) {
  TraceStream S;
  Out = Trace();
  return readWhole(S, S.openBytes(Data, Size, Path, Error, Events), Out,
                   Events);
}

bool openTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events) {
  auto S = std::make_shared<TraceStream>();
  Out = Trace();
  if (!S->open(Path, Error, Events))
    return false;
  // The stream keeps its own copy of the outline (sites, threads) for the
  // events it decodes; `Out` is the caller's, which merge may change.
  copyOutline(S->trace(), Out);
  Out.Stream = std::move(S);
  return true;
}

void copyOutline(const Trace &T, Trace &Out) {
  Out = Trace();
  Out.Path = T.Path;
  Out.VersionMajor = T.VersionMajor;
  Out.VersionMinor = T.VersionMinor;
  Out.Process = T.Process;
  Out.Sites = T.Sites;
  Out.Threads = T.Threads;
  Out.NsPerTick = T.NsPerTick;
  Out.Anchors = T.Anchors;
  Out.Sync = T.Sync;
  Out.Complete = T.Complete;
  Out.StoppedAt = T.StoppedAt;
  Out.Problem = T.Problem;
  Out.EventCount = T.EventCount;
  Out.EarliestNs = T.EarliestNs;
}

void EventRange::iterator::load() {
  if (!T) {
    E = nullptr;
    return;
  }
  if (!T->Stream) {
    E = I < T->Events.size() ? &T->Events[I] : nullptr;
    return;
  }
  Event *Next = T->Stream->next();
  if (Next && T->TimeMap) {
    int64_t Start = T->TimeMap(Next->Ts);
    if (Next->Kind == EventKind::Region)
      Next->Dur = T->TimeMap(Next->Ts + Next->Dur) - Start;
    Next->Ts = Start;
  }
  E = Next;
}

EventRange::iterator EventRange::begin() const {
  if (T.Stream)
    T.Stream->rewind();
  return iterator(&T, 0);
}

} // namespace sonde::trace

//===- ExportCommon.cpp - What the export formats share -------------------===//
//
// The helpers of ExportCommon.h and the shared ones Export.h declares: the
// name an event is shown under, the number a watched value stands for, the
// time origin of the JSONL and Chrome exports, the host hash of DFTracer.
//
//===----------------------------------------------------------------------===//

#include "ExportCommon.h"

#include <algorithm>
#include <fmt/format.h>

namespace sonde::trace {

std::string_view eventSuffix(const Event &E) {
  switch (E.Ph) {
  case Event::Phase::Start:
    return ".start";
  case Event::Phase::Stop:
    return ".stop";
  case Event::Phase::None:
    break;
  }
  return "";
}

std::string_view topCategoryOf(const SiteInfo &S) {
  return std::string_view(S.Category).substr(0, S.Category.find('.'));
}

std::string eventName(const Trace &T, const Event &E) {
  return T.site(E.Site).Name + std::string(eventSuffix(E));
}

const Value *scalarOf(const Value &V) {
  if (V.isNumber())
    return &V;
  if (V.K != Value::Kind::Object)
    return nullptr;
  const Value *Numel = V.get("numel"), *Scalar = V.get("value");
  if (!Numel || !Numel->isNumber() || Numel->number() != 1 || !Scalar ||
      !Scalar->isNumber())
    return nullptr;
  return Scalar;
}

int64_t timeOrigin(const std::vector<Trace> &Traces) {
  bool Any = false;
  int64_t Origin = 0;
  auto Take = [&](int64_t Ts) {
    Origin = Any ? std::min(Origin, Ts) : Ts;
    Any = true;
  };
  for (const Trace &T : Traces) {
    if (T.Process.StartNs)
      Take(T.Process.StartNs);
    if (!T.Stream)
      for (const Event &E : T.Events)
        Take(E.Ts);
    else if (T.EventCount) // known before the events are read
      Take(T.TimeMap ? T.TimeMap(T.EarliestNs) : T.EarliestNs);
  }
  return Origin;
}

uint32_t stringHash(std::string_view S) {
  uint32_t H = 2166136261u; // FNV-1a
  for (unsigned char C : S) {
    H ^= C;
    H *= 16777619u;
  }
  return H;
}

const char *kindName(EventKind K) {
  switch (K) {
  case EventKind::Region:
    return "region";
  case EventKind::Instant:
    return "instant";
  case EventKind::Watch:
    return "watch";
  }
  return "?";
}

const char *kindName(const Event &E) {
  return E.Alarm ? "alarm" : kindName(E.Kind);
}

std::string stableIdText(uint64_t Id) { return fmt::format("{:016x}", Id); }

std::string unixNsText(int64_t Origin) { return std::to_string(Origin); }

std::string apiPhase(const Value &V) {
  const Value *P = V.get("phase");
  return P ? P->str() : std::string();
}
uint64_t apiCall(const Value &V) {
  const Value *C = V.get("call");
  if (!C)
    return 0;
  return C->K == Value::Kind::UInt ? C->U : static_cast<uint64_t>(C->I);
}

int64_t microsFloor(int64_t Ns) {
  return Ns >= 0 ? Ns / 1000 : -((-Ns + 999) / 1000);
}

} // namespace sonde::trace

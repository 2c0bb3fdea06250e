//===- FuzzTrace.cpp - libFuzzer target: the trace reader and commands ----===//
//
// Any bytes as a .sonde file: readTraceBytes must read what it can and say
// why it stopped, never crash, hang or read out of bounds. What it read then
// goes through every trace command's library entry point, in process, as
// `sonde` runs them: summary (text and JSON), info, dump, every export
// (jsonl, chrome, dftracer, traincheck, csv), merge (two processes aligned
// on one timeline, then exported) and report. Then as `sonde check` and
// `sonde infer` read it (values kept encoded in the bytes, each record
// checked as the events walk reads it, and decoded ahead on a thread,
// TraceStream::walkAhead): the events and problems must be those of the
// check made first (else abort: a finding), and inference
// from it and a check of it against what was learned must not fail.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "EventText.h"
#include "Export.h"
#include "invariants/Invariants.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace sonde::trace;

namespace {

std::FILE *sink() {
  static std::FILE *F = std::fopen("/dev/null", "w");
  return F;
}

using Bytes = std::shared_ptr<const std::vector<uint8_t>>;

/// A stream over the bytes as sonde check opens them; null when they are
/// not a trace.
std::unique_ptr<TraceStream> openAsCheck(const Bytes &B, bool AsRead) {
  auto S = std::make_unique<TraceStream>();
  std::string Error;
  if (!S->openBytes(B->data(), B->size(), "fuzz.sonde", Error, true, B, AsRead))
    return nullptr;
  S->setEncodedValues(true);
  return S;
}

/// The events as text, then what the trace says of itself once they were
/// read.
std::string eventsText(TraceStream &S) {
  std::string Out;
  while (const Event *E = S.next())
    Out += eventText(*E);
  const Trace &T = S.trace();
  return Out + T.Problem + "|" + std::to_string(T.EventCount) + "|" +
         std::to_string(T.EarliestNs);
}

void asCheckReadsIt(const uint8_t *Data, size_t Size) {
  auto B = std::make_shared<const std::vector<uint8_t>>(Data, Data + Size);
  auto First = openAsCheck(B, false), AsRead = openAsCheck(B, true),
       Ahead = openAsCheck(B, true);
  if (!First || !AsRead || !Ahead)
    return;
  std::string Events = eventsText(*First);
  if (Events != eventsText(*AsRead))
    std::abort();     // the one walk reads another trace than the two
  Ahead->walkAhead(); // decoded on a thread before the first next()
  if (Events != eventsText(*Ahead))
    std::abort(); // records decoded ahead give another trace
  inv::InferOptions O;
  O.MinSupport = 2; // a small input still learns something to check
  inv::Inferrer In(O);
  while (const Event *E = AsRead->next())
    In.observe(AsRead->trace(), *E);
  std::vector<inv::Invariant> Invs = In.finish();
  inv::Checker C(Invs);
  while (const Event *E = AsRead->next())
    C.observe(AsRead->trace(), *E);
  C.finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::FILE *Out = sink();
  if (!Out)
    return 0;
  std::vector<Trace> One(1);
  std::string Error;
  if (!readTraceBytes(Data, Size, "fuzz.sonde", One[0], Error))
    return 0;
  printSummary(One, Out);
  printSummaryJson(One, Out);
  dumpTrace(One[0], Out);
  exportJsonl(One, Out);
  exportChrome(One, Out);
  exportDftracer(One, Out);
  exportTraincheck(One, Out);
  exportCsv(One, Out);

  // merge and report: the same process twice (same pid, same boot), as two
  // ranks of a job would be.
  std::vector<Trace> Two(2);
  readTraceBytes(Data, Size, "a.sonde", Two[0], Error);
  readTraceBytes(Data, Size, "b.sonde", Two[1], Error);
  alignClocks(Two);
  exportChrome(Two, Out);
  exportJsonl(Two, Out);
  ReportOptions O;
  writeReport(Two, O, Out, Error);

  std::vector<Trace> Headers(1);
  readTraceBytes(Data, Size, "fuzz.sonde", Headers[0], Error,
                 /*Events=*/false);
  printInfo(Headers, false, Out);
  printInfo(Headers, true, Out);

  asCheckReadsIt(Data, Size);
  return 0;
}

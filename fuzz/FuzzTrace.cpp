//===- FuzzTrace.cpp - libFuzzer target: the trace reader and commands ----===//
//
// Any bytes as a .sonde file: readTraceBytes must read what it can and say
// why it stopped, never crash, hang or read out of bounds. What it read then
// goes through every trace command's library entry point, in process, as
// `sonde` runs them: summary (text and JSON), info, dump, every export
// (jsonl, chrome, dftracer, traincheck, csv), merge (two processes aligned
// on one timeline, then exported) and report.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include "Export.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace sonde::trace;

namespace {

std::FILE *sink() {
  static std::FILE *F = std::fopen("/dev/null", "w");
  return F;
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
  return 0;
}

//===- Report.cpp - `sonde report`: one self-contained HTML page ----------===//
//
// The tool computes everything the page shows (the training rates, self
// time by category and name, the spans of one step, each numeric watch's
// points, the per-epoch table) and embeds it as JSON into a template
// (report/report.html, compiled in) whose small hand-written script draws SVG.
// No network, no framework: the file opens anywhere, offline, and stays a few
// hundred kilobytes. Each part of the data has its own writer (ReportData.h).
//
//===----------------------------------------------------------------------===//

#include "ProcessFields.h"
#include "ReportData.h"
#include "summary/Ranks.h"
#include "summary/SummaryStats.h"

namespace sonde::trace {
namespace {

const char Template[] =
#include "ReportTemplate.inc"
    ;

/// The data the page draws, in the order its script reads it.
void writeData(JsonOut &J, const std::vector<Trace> &Traces,
               const ReportOptions &O, std::string &Error) {
  using namespace report;
  J.open();
  J.key("title").str(O.Title);
  // --- processes
  J.key("processes").openArray();
  for (const Trace &T : Traces) {
    J.item().open();
    processFields(J, T,
                  {ProcessField::Program, ProcessField::Pid, ProcessField::Rank,
                   ProcessField::Host, ProcessField::HowShown,
                   ProcessField::StartNs, ProcessField::DurNs,
                   ProcessField::Events, ProcessField::Dropped,
                   ProcessField::File});
    J.close();
  }
  J.closeArray();

  // Every part is fed event by event: a first pass over every trace gives
  // the rates, the time tables, the per-epoch table (first trace) and the
  // counts that the second pass needs (the watches' lengths, the regions
  // per site from which the step is chosen). A third, partial pass writes
  // the step's spans. Memory stays bounded by what the page holds.
  RateCounter Rates(O.Warmup);
  TimeTables Times;
  WatchPlots Watches;
  EpochTable Epochs;
  StepFinder Step(O.Step);
  for (size_t TI = 0; TI < Traces.size(); ++TI) {
    const Trace &T = Traces[TI];
    Rates.beginTrace(T);
    Times.beginTrace(T);
    Watches.beginCount(TI, T);
    if (TI == 0)
      Epochs.beginTrace(T);
    for (const Event &E : events(T)) {
      Rates.add(E);
      Times.add(E);
      Watches.count(E);
      if (TI == 0) {
        Epochs.add(E);
        Step.count(E);
      }
    }
    Times.endTrace();
    Watches.endCount();
    if (TI == 0)
      Epochs.endTrace();
  }
  Rates.finish();
  bool StepKnown = Traces.empty() || Step.endCount(Traces[0], Error);
  for (size_t TI = 0; TI < Traces.size(); ++TI) {
    const Trace &T = Traces[TI];
    Watches.beginPoints(TI, T);
    for (const Event &E : events(T)) {
      Watches.point(E);
      if (TI == 0 && StepKnown && !Step.done())
        Step.candidate(E);
    }
  }

  summary::writeRates(J, Rates.table());
  static const Trace NoTrace;
  Times.write(J);
  writeStep(J, Traces.empty() ? NoTrace : Traces[0], Step);
  Watches.write(J, Traces);
  Epochs.write(J, Traces, Step);
  ranks::writeRanksJson(J, ranks::rankTable(Traces));
  J.close();
}

} // namespace

bool writeReport(const std::vector<Trace> &Traces, const ReportOptions &O,
                 std::FILE *Out, std::string &Error) {
  std::string_view Page(Template);
  const std::string_view Slot = "/*SONDE_DATA*/";
  size_t At = Page.find(Slot);
  if (At == std::string_view::npos) {
    Error = "the report template has no data slot";
    return false;
  }
  std::fwrite(Page.data(), 1, At, Out);
  {
    char *Buf = nullptr;
    size_t Len = 0;
    std::FILE *M = open_memstream(&Buf, &Len);
    {
      // The data sits in a script element: no '<' in it may end it.
      JsonOut J(M, /*ScriptSafe=*/true);
      writeData(J, Traces, O, Error);
    }
    std::fclose(M);
    if (Error.empty())
      std::fwrite(Buf, 1, Len, Out);
    std::free(Buf);
    if (!Error.empty())
      return false;
  }
  Page.remove_prefix(At + Slot.size());
  std::fwrite(Page.data(), 1, Page.size(), Out);
  return true;
}

} // namespace sonde::trace

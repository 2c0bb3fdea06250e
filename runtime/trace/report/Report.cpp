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

  // --- the training rates, as `sonde summary --json` gives them
  {
    RateCounter Rates(O.Warmup);
    for (const Trace &T : Traces) {
      Rates.beginTrace(T);
      for (const Event &E : events(T))
        Rates.add(E);
    }
    Rates.finish();
    summary::writeRates(J, Rates.table());
  }

  std::vector<std::vector<int64_t>> Selfs;
  for (const Trace &T : Traces)
    Selfs.push_back(selfTimes(T));
  int64_t StepIndex =
      Traces.empty() ? -1 : chooseStep(Traces[0], O.Step, Error);

  // The step and the per-epoch table are the first process's.
  static const Trace NoTrace;
  static const std::vector<int64_t> NoSelf;
  writeTimeTables(J, Traces, Selfs);
  writeStep(J, Traces.empty() ? NoTrace : Traces[0], StepIndex);
  writeWatches(J, Traces);
  writeEpochs(J, Traces, Selfs.empty() ? NoSelf : Selfs[0], StepIndex);
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

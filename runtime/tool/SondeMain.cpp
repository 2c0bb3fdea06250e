//===- SondeMain.cpp - The `sonde` trace tool -----------------------------===//
//
//   sonde summary TRACE... [--json]
//   sonde export  TRACE... --format jsonl|chrome|dftracer|traincheck|csv [-o
//   FILE] sonde merge   TRACE... -o FILE [--format F] sonde report  TRACE... -o
//   report.html [--step NAME] [--title TEXT] sonde dump    TRACE sonde info
//   TRACE... [--json]
//
// TRACE is a .sonde file or a directory of them. Exit status: 0 done,
// 1 a trace could not be read or the output not written, 2 usage errors.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "sonde/trace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace sonde::trace;

namespace {

const char Usage[] =
    "usage: sonde <command> [options] TRACE...\n"
    "\n"
    "commands:\n"
    "  summary TRACE... [--json]   time per category and name, watches\n"
    "  export  TRACE... --format FORMAT [-o FILE]\n"
    "                              jsonl: records as JSON lines; chrome: for\n"
    "                              Perfetto (ui.perfetto.dev); dftracer: .pfw\n"
    "                              for DFAnalyzer; traincheck: TrainCheck's\n"
    "                              JSONL; csv: the watched values\n"
    "  merge   TRACE... -o FILE [--format FORMAT]\n"
    "                              several processes or ranks on one timeline\n"
    "                              (format from FILE: .json chrome, .jsonl,\n"
    "                              .pfw dftracer, .csv; .gz compresses)\n"
    "  report  TRACE... -o report.html [--step NAME] [--title TEXT]\n"
    "                              one self-contained HTML page: time by\n"
    "                              category and name, one step, the watches\n"
    "  dump    TRACE               every record, readable\n"
    "  info    TRACE... [--json]   process, end, drops, sites; no events read\n"
    "\n"
    "TRACE is a .sonde file or a directory of them.\n";

int usageError(const std::string &Msg) {
  std::fprintf(stderr, "sonde: error: %s\n%s", Msg.c_str(), Usage);
  return 2;
}

struct Options {
  std::string Command;
  std::vector<std::string> Inputs;
  std::string Format;
  std::string Output;
  std::string Step, Title;
  bool Json = false;
};

const char *const Formats[] = {"jsonl", "chrome", "dftracer", "traincheck",
                               "csv"};

bool knownFormat(const std::string &F) {
  for (const char *K : Formats)
    if (F == K)
      return true;
  return false;
}

bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

/// merge's format from its output name: trace.json, run.pfw(.gz)...
std::string formatFromName(std::string Name) {
  if (endsWith(Name, ".gz"))
    Name.resize(Name.size() - 3);
  if (endsWith(Name, ".jsonl"))
    return "jsonl";
  if (endsWith(Name, ".json"))
    return "chrome";
  if (endsWith(Name, ".pfw"))
    return "dftracer";
  if (endsWith(Name, ".csv"))
    return "csv";
  return "";
}

void exportAs(const std::string &Format, const std::vector<Trace> &Traces,
              std::FILE *Out) {
  if (Format == "jsonl")
    exportJsonl(Traces, Out);
  else if (Format == "chrome")
    exportChrome(Traces, Out);
  else if (Format == "dftracer")
    exportDftracer(Traces, Out);
  else if (Format == "traincheck")
    exportTraincheck(Traces, Out);
  else
    exportCsv(Traces, Out);
}

bool loadAll(const Options &O, std::vector<Trace> &Traces,
             bool Events = true) {
  std::vector<std::string> Files;
  std::string Error;
  if (!expandInputs(O.Inputs, Files, Error)) {
    std::fprintf(stderr, "sonde: error: %s\n", Error.c_str());
    return false;
  }
  for (const std::string &F : Files) {
    Trace T;
    if (!readTrace(F, T, Error, Events)) {
      std::fprintf(stderr, "sonde: error: %s\n", Error.c_str());
      return false;
    }
    if (!T.Problem.empty())
      std::fprintf(stderr, "sonde: warning: %s: %s%s\n", F.c_str(),
                   T.Complete ? "" :
                   ("stopped at byte " + std::to_string(T.StoppedAt) + ": ").c_str(),
                   T.Problem.c_str());
    Traces.push_back(std::move(T));
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return usageError("no command");
  Options O;
  O.Command = Argv[1];
  if (O.Command == "-h" || O.Command == "--help" || O.Command == "help") {
    std::fputs(Usage, stdout);
    return 0;
  }
  if (O.Command == "--version") {
    std::puts("sonde 0.1.0 (trace format 1.1)");
    return 0;
  }
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Flag) -> bool {
      if (I + 1 >= Argc)
        return false;
      (void)Flag;
      return true;
    };
    if (A == "--json") {
      O.Json = true;
    } else if (A == "--format" || A == "-f") {
      if (!Value("--format"))
        return usageError("'" + A + "' needs a value");
      O.Format = Argv[++I];
    } else if (A.rfind("--format=", 0) == 0) {
      O.Format = A.substr(9);
    } else if (A == "-o" || A == "--output") {
      if (!Value("-o"))
        return usageError("'" + A + "' needs a value");
      O.Output = Argv[++I];
    } else if (A == "--step" || A == "--title") {
      if (O.Command != "report")
        return usageError("'" + A + "' is an option of 'report', not of '" +
                          O.Command + "'");
      if (!Value(A.c_str()))
        return usageError("'" + A + "' needs a value");
      (A == "--step" ? O.Step : O.Title) = Argv[++I];
    } else if (A.size() > 1 && A[0] == '-') {
      return usageError("unknown option '" + A + "' for '" + O.Command + "'");
    } else {
      O.Inputs.push_back(A);
    }
  }
  bool Known = O.Command == "summary" || O.Command == "export" ||
               O.Command == "dump" || O.Command == "info" ||
               O.Command == "merge" || O.Command == "report";
  if (!Known)
    return usageError("unknown command '" + O.Command + "'");
  if (O.Inputs.empty())
    return usageError("'" + O.Command + "' needs a trace file or directory");
  bool TakesFormat = O.Command == "export" || O.Command == "merge";
  if (!O.Format.empty() && !TakesFormat)
    return usageError("'--format' is an option of 'export' and 'merge', not "
                      "of '" +
                      O.Command + "'");
  if (O.Json && O.Command != "summary" && O.Command != "info")
    return usageError(
        "'--json' is an option of 'summary' and 'info', not of '" + O.Command +
        "'");
  if ((O.Command == "merge" || O.Command == "report") && O.Output.empty())
    return usageError("'" + O.Command + "' needs -o FILE" +
                      (O.Command == "report" ? " (an .html file)" : ""));
  if (O.Command == "merge" && O.Format.empty()) {
    O.Format = formatFromName(O.Output);
    if (O.Format.empty())
      return usageError("cannot tell the format from '" + O.Output +
                        "' (.json, .jsonl, .pfw, .pfw.gz, .csv); give "
                        "--format jsonl|chrome|dftracer|traincheck|csv");
  }
  if (O.Command == "export" && O.Format.empty())
    return usageError(
        "'export' needs --format jsonl|chrome|dftracer|traincheck|csv");
  if (TakesFormat && !knownFormat(O.Format))
    return usageError(
        "unknown export format '" + O.Format +
        "' (expected jsonl, chrome, dftracer, traincheck or csv)");
  if (O.Command == "dump" && O.Inputs.size() != 1)
    return usageError("'dump' reads one trace");

  std::vector<Trace> Traces;
  if (!loadAll(O, Traces, O.Command != "info"))
    return 1;

  if (O.Command == "merge" || O.Command == "report") {
    for (const std::string &Note : alignClocks(Traces))
      std::fprintf(stderr, "sonde: note: %s\n", Note.c_str());
  }

  std::FILE *Out = stdout;
  bool ToFile = !O.Output.empty() && O.Output != "-";
  if (ToFile) {
    std::string Error;
    Out = openOutput(O.Output, Error);
    if (!Out) {
      std::fprintf(stderr, "sonde: error: %s\n", Error.c_str());
      return 1;
    }
  }
  if (O.Command == "report") {
    std::string Error;
    if (O.Title.empty()) {
      O.Title = Traces.empty() ? "sonde report"
                               : Traces[0].Process.Program + ": sonde report";
    }
    ReportOptions RO{O.Title, O.Step};
    if (!writeReport(Traces, RO, Out, Error)) {
      if (ToFile) {
        std::fclose(Out);
        std::remove(O.Output.c_str());
      }
      std::fprintf(stderr, "sonde: error: %s\n", Error.c_str());
      return 1;
    }
  } else if (O.Command == "summary") {
    if (O.Json)
      printSummaryJson(Traces, Out);
    else
      printSummary(Traces, Out);
  } else if (O.Command == "export" || O.Command == "merge") {
    exportAs(O.Format, Traces, Out);
  } else if (O.Command == "info") {
    printInfo(Traces, O.Json, Out);
  } else {
    for (const Trace &T : Traces)
      dumpTrace(T, Out);
  }
  if (ToFile ? std::fclose(Out) != 0 : std::fflush(Out) != 0) {
    std::fprintf(stderr, "sonde: error: %s: write failed: %s\n",
                 ToFile ? O.Output.c_str() : "standard output",
                 std::strerror(errno));
    return 1;
  }
  return 0;
}

//===- SondeMain.cpp - The `sonde` trace tool -----------------------------===//
//
//   sonde summary TRACE... [--json]
//   sonde export  TRACE... --format jsonl|chrome [-o FILE]
//   sonde dump    TRACE
//   sonde info    TRACE... [--json]
//
// TRACE is a .sonde file or a directory of them. Exit status: 0 done,
// 1 a trace could not be read, 2 usage errors.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "sonde/trace.h"

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
    "  export  TRACE... --format jsonl|chrome [-o FILE]\n"
    "                              records as JSON lines, or a Chrome trace\n"
    "                              for Perfetto (ui.perfetto.dev: Open trace)\n"
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
  bool Json = false;
};

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
    std::puts("sonde 0.1.0 (trace format 1)");
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
    } else if (A.size() > 1 && A[0] == '-') {
      return usageError("unknown option '" + A + "' for '" + O.Command + "'");
    } else {
      O.Inputs.push_back(A);
    }
  }
  bool Known = O.Command == "summary" || O.Command == "export" ||
               O.Command == "dump" || O.Command == "info";
  if (!Known)
    return usageError("unknown command '" + O.Command + "'");
  if (O.Inputs.empty())
    return usageError("'" + O.Command + "' needs a trace file or directory");
  if (O.Command == "export" && O.Format.empty())
    return usageError("'export' needs --format jsonl|chrome");
  if (O.Command == "export" && O.Format != "jsonl" && O.Format != "chrome")
    return usageError("unknown export format '" + O.Format +
                      "' (expected jsonl or chrome)");
  if (O.Command == "dump" && O.Inputs.size() != 1)
    return usageError("'dump' reads one trace");

  std::vector<Trace> Traces;
  if (!loadAll(O, Traces, O.Command != "info"))
    return 1;

  std::FILE *Out = stdout;
  if (!O.Output.empty()) {
    Out = std::fopen(O.Output.c_str(), "wb");
    if (!Out) {
      std::fprintf(stderr, "sonde: error: %s: cannot write: %s\n",
                   O.Output.c_str(), std::strerror(errno));
      return 1;
    }
  }
  if (O.Command == "summary") {
    if (O.Json)
      printSummaryJson(Traces, Out);
    else
      printSummary(Traces, Out);
  } else if (O.Command == "export") {
    if (O.Format == "jsonl")
      exportJsonl(Traces, Out);
    else
      exportChrome(Traces, Out);
  } else if (O.Command == "info") {
    printInfo(Traces, O.Json, Out);
  } else {
    for (const Trace &T : Traces)
      dumpTrace(T, Out);
  }
  if (Out != stdout && std::fclose(Out) != 0) {
    std::fprintf(stderr, "sonde: error: %s: write failed\n", O.Output.c_str());
    return 1;
  }
  return 0;
}

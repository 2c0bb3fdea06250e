//===- SondeMain.cpp - The `sonde` trace tool -----------------------------===//
//
// sonde summary|export|merge|report|dump|info|live TRACE... [options]: the
// commands and their options are the table `Commands` below (`sonde
// --help`, docs/exports.md). TRACE is a .sonde file or a directory of
// them. Exit status: 0 done (also --help and --version), 1 a trace could
// not be read or the output not written, 2 usage errors.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "TraceFormat.h"
#include "invariants/Invariants.h"
#include "live/LiveCommand.h"
#include "sonde/trace.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sonde::trace;

namespace {

/// One subcommand: its arguments and what it does (for --help).
struct Command {
  const char *Name, *Args, *Help;
};

const Command Commands[] = {
    {"summary", "TRACE... [--json] [--warmup N] [--look-ahead N]",
     "steps, items/s, loss; time per category\nand name, watches"},
    {"export", "TRACE... --format FORMAT [-o FILE] [--look-ahead N]",
     "jsonl: records as JSON lines; chrome: for\n"
     "Perfetto (ui.perfetto.dev); dftracer: .pfw\n"
     "for DFAnalyzer; traincheck: TrainCheck's\n"
     "JSONL; csv: the watched values"},
    {"merge", "TRACE... -o FILE [--format FORMAT] [--look-ahead N]",
     "several processes or ranks on one timeline\n"
     "(format from FILE: .json chrome, .jsonl,\n"
     ".pfw dftracer, .csv; .gz compresses)"},
    {"report",
     "TRACE... -o report.html [--step NAME] [--title TEXT] [--warmup N] "
     "[--look-ahead N]",
     "one self-contained HTML page: time by\n"
     "category and name, one step, the watches"},
    {"dump", "TRACE [--look-ahead N]", "every record, readable"},
    {"info", "TRACE... [--json]", "process, end, drops, sites; no events read"},
    {"infer",
     "TRACE... [-o FILE] [--min-support N] [--range-margin X] "
     "[--look-ahead N]",
     "invariants of good runs, as YAML\n(docs/invariants.md)"},
    {"check", "TRACE... --invariants FILE [--json] [--follow] [--look-ahead N]",
     "violations of those invariants; exit 1"},
    {"live", "[DIR|FILE...] [--jsonl|--plain] [--fail-on COND]",
     "follow a running job's traces: a dashboard,\n"
     "--plain lines or --jsonl records; exit 3\n"
     "when a condition holds (docs/live.md)"},
};

const Command *findCommand(const std::string &Name) {
  for (const Command &C : Commands)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

/// One command's lines of the usage: name and arguments, then its help
/// indented under them.
std::string commandUsage(const Command &C) {
  std::string Line = std::string("  ") + C.Name;
  Line.resize(std::max<size_t>(Line.size() + 1, 10), ' ');
  Line += C.Args;
  std::string Out;
  const char *H = C.Help;
  bool First = true;
  while (*H) {
    const char *Nl = std::strchr(H, '\n');
    std::string Part(H, Nl ? Nl - H : std::strlen(H));
    if (First && Line.size() + 2 <= 30) {
      Line.resize(30, ' ');
      Out += Line + Part + "\n";
    } else {
      if (First)
        Out += Line + "\n";
      Out += std::string(30, ' ') + Part + "\n";
    }
    First = false;
    H = Nl ? Nl + 1 : H + Part.size();
  }
  return Out;
}

const char Common[] =
    "\n"
    "TRACE is a .sonde file or a directory of them (files in a directory\n"
    "that cannot be read as traces are skipped with a warning). '--' ends\n"
    "the options. Every command takes --help and --version.\n";

std::string usage(const Command *Only = nullptr) {
  if (Only)
    return std::string("usage: sonde ") + Only->Name + " [options] " +
           Only->Args + "\n\n" + commandUsage(*Only) + Common;
  std::string U = "usage: sonde <command> [options] TRACE...\n\ncommands:\n";
  for (const Command &C : Commands)
    U += commandUsage(C);
  return U + Common;
}

/// `sonde --version`: the tool's version and the trace format it writes.
std::string version() {
  return std::string("sonde ") + SONDE_VERSION_STRING + " (trace format " +
         std::to_string(sonde::format::Major) + "." +
         std::to_string(sonde::format::Minor) + ")";
}

/// Diagnostics as clang prints them: `sonde: error: ...`, with the level
/// in bold color and the message in bold when stderr is a terminal and
/// NO_COLOR (no-color.org) is not set.
void diag(const char *Level, const std::string &Msg) {
  static const bool Color = isatty(STDERR_FILENO) && !std::getenv("NO_COLOR");
  const char *Hue = std::strcmp(Level, "error") == 0     ? "\033[0;1;31m"
                    : std::strcmp(Level, "warning") == 0 ? "\033[0;1;35m"
                                                         : "\033[0;1;30m";
  if (Color)
    std::fprintf(stderr, "sonde: %s%s: \033[0m\033[1m%s\033[0m\n", Hue, Level,
                 Msg.c_str());
  else
    std::fprintf(stderr, "sonde: %s: %s\n", Level, Msg.c_str());
}

int usageError(const std::string &Msg, const Command *C = nullptr) {
  diag("error", Msg);
  std::fputs(usage(C).c_str(), stderr);
  return 2;
}

struct Options {
  std::string Command;
  std::vector<std::string> Inputs;
  std::string Format;
  std::string Output;
  std::string Step, Title;
  bool Json = false;
  /// Events a trace's ordering may hold (docs/exports.md, "Order").
  size_t LookAhead = size_t(1) << 20;
  /// The first steps of each process the rates keep apart (docs/rates.md).
  unsigned Warmup = DefaultWarmupSteps;
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

bool isDirectory(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

/// Reads every trace. A file named on the command line that cannot be read
/// is an error; one found in a directory is skipped with a warning, and
/// the rest of the directory is read.
bool loadAll(const Options &O, std::vector<Trace> &Traces, bool Events = true) {
  std::string Error;
  for (const std::string &In : O.Inputs) {
    std::vector<std::string> Files, Skipped;
    if (!expandInputs({In}, Files, Error, &Skipped)) {
      diag("error", Error);
      return false;
    }
    for (const std::string &Why : Skipped)
      diag("warning", Why);
    bool FromDir = isDirectory(In);
    size_t Read = 0;
    // Files are independent: they are opened (outline and check) on every
    // core, then taken in order, so messages come as they would one by one.
    std::vector<Trace> Opened(Files.size());
    std::vector<std::string> Errors(Files.size());
    std::vector<char> Oks(Files.size(), 0);
    std::atomic<size_t> Next{0};
    auto Open = [&] {
      for (size_t I; (I = Next++) < Files.size();)
        // Every command reads its traces as streams: the events are decoded
        // as they are used, in bounded memory.
        Oks[I] = openTrace(Files[I], Opened[I], Errors[I], Events);
    };
    std::vector<std::thread> Pool;
    unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned C = 1; C < Cores && C < Files.size(); ++C)
      Pool.emplace_back(Open);
    Open();
    for (std::thread &Th : Pool)
      Th.join();
    for (size_t I = 0; I < Files.size(); ++I) {
      const std::string &F = Files[I];
      Trace &T = Opened[I];
      Error = Errors[I];
      if (!Oks[I]) {
        if (!FromDir) {
          diag("error", Error);
          return false;
        }
        diag("warning", Error + "; skipped");
        continue;
      }
      ++Read;
      if (T.Stream)
        T.Stream->setLookAhead(O.LookAhead);
      if (!T.Problem.empty())
        diag("warning",
             F + ": " +
                 (T.Complete ? std::string()
                             : "stopped at byte " +
                                   std::to_string(T.StoppedAt) + ": ") +
                 T.Problem);
      Traces.push_back(std::move(T));
    }
    if (FromDir && !Read) {
      diag("error", In + ": no readable trace in this directory");
      return false;
    }
  }
  return true;
}

/// Whether the command takes the option (--help and --version aside): the
/// one place that says which options there are.
bool takes(const std::string &Command, const std::string &Option) {
  if (Option == "--json")
    return Command == "summary" || Command == "info";
  if (Option == "--format")
    return Command == "export" || Command == "merge";
  if (Option == "-o")
    return true;
  if (Option == "--look-ahead")
    return Command == "summary" || Command == "export" || Command == "merge" ||
           Command == "report" || Command == "dump" || Command == "infer" ||
           Command == "check";
  if (Option == "--step" || Option == "--title")
    return Command == "report";
  if (Option == "--warmup")
    return Command == "summary" || Command == "report";
  return false;
}

/// The commands that take `Option`, as messages name them ("'summary' and
/// 'info'"); empty for an unknown option.
std::string commandsTaking(const std::string &Option) {
  std::vector<std::string> Names;
  for (const Command &C : Commands)
    if (takes(C.Name, Option))
      Names.push_back(std::string("'") + C.Name + "'");
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " and " : ", ") + Names[I];
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return usageError("no command");
  Options O;
  O.Command = Argv[1];
  if (O.Command == "-h" || O.Command == "--help" || O.Command == "help") {
    const Command *C = Argc > 2 ? findCommand(Argv[2]) : nullptr;
    std::fputs(usage(C).c_str(), stdout);
    return 0;
  }
  if (O.Command == "--version") {
    std::puts(version().c_str());
    return 0;
  }
  const Command *Cmd = findCommand(O.Command);
  if (!Cmd)
    return usageError("unknown command '" + O.Command + "'");
  // --help and --version win over anything else on the line.
  for (int I = 2; I < Argc && std::strcmp(Argv[I], "--") != 0; ++I) {
    if (!std::strcmp(Argv[I], "--help") || !std::strcmp(Argv[I], "-h")) {
      // infer and check say more than their line of the table: their
      // options' defaults, their exit status (invariants/Commands.cpp).
      if (O.Command == "infer" || O.Command == "check")
        sonde::trace::inv::printInvariantUsage(O.Command);
      else
        std::fputs(usage(Cmd).c_str(), stdout);
      return 0;
    }
    if (!std::strcmp(Argv[I], "--version")) {
      std::puts(version().c_str());
      return 0;
    }
  }
  // infer and check parse their own options (invariants/Commands.cpp).
  if (O.Command == "infer" || O.Command == "check")
    return sonde::trace::inv::runInvariantCommand(Argc, Argv);
  if (O.Command == "live") // live/LiveCommand.cpp
    return sonde::trace::live::runLiveCommand(Argc, Argv, usage(Cmd));
  bool OptionsEnded = false;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (OptionsEnded || A == "-" || A.empty() || A[0] != '-') {
      O.Inputs.push_back(A);
      continue;
    }
    if (A == "--") {
      OptionsEnded = true;
      continue;
    }
    std::string Flag = A, Inline;
    bool HasInline = false;
    if (size_t Eq = A.find('='); A.rfind("--", 0) == 0 && Eq != A.npos) {
      Flag = A.substr(0, Eq);
      Inline = A.substr(Eq + 1);
      HasInline = true;
    }
    if (Flag == "-f")
      Flag = "--format";
    if (Flag == "--output")
      Flag = "-o";
    std::string Takers = commandsTaking(Flag);
    if (Takers.empty())
      return usageError("unknown option '" + A + "' for '" + O.Command + "'",
                        Cmd);
    if (!takes(O.Command, Flag))
      return usageError("'" + Flag + "' is an option of " + Takers +
                            ", not of '" + O.Command + "'",
                        Cmd);
    if (Flag == "--json") {
      if (HasInline)
        return usageError("'--json' takes no value", Cmd);
      O.Json = true;
      continue;
    }
    std::string Value;
    if (HasInline) {
      Value = Inline;
    } else {
      if (I + 1 >= Argc)
        return usageError("'" + A + "' needs a value", Cmd);
      Value = Argv[++I];
    }
    if (Flag == "--look-ahead") {
      std::string Why;
      if (!TraceStream::parseLookAhead(Value, O.LookAhead, Why))
        return usageError(Why, Cmd);
      continue;
    }
    if (Flag == "--warmup") {
      char *End = nullptr;
      errno = 0;
      unsigned long long N = std::strtoull(Value.c_str(), &End, 10);
      if (Value.empty() || *End || errno || Value[0] == '-' ||
          N > 1000000000ull)
        return usageError("'--warmup' takes a number of steps (0 or more), "
                          "not '" +
                              Value + "'",
                          Cmd);
      O.Warmup = static_cast<unsigned>(N);
      continue;
    }
    (Flag == "--format" ? O.Format
     : Flag == "-o"     ? O.Output
     : Flag == "--step" ? O.Step
                        : O.Title) = Value;
  }
  if (O.Inputs.empty())
    return usageError("'" + O.Command + "' needs a trace file or directory",
                      Cmd);
  bool TakesFormat = takes(O.Command, "--format");
  if ((O.Command == "merge" || O.Command == "report") && O.Output.empty())
    return usageError("'" + O.Command + "' needs -o FILE" +
                          (O.Command == "report" ? " (an .html file)" : ""),
                      Cmd);
  if (O.Command == "merge" && O.Format.empty()) {
    O.Format = formatFromName(O.Output);
    if (O.Format.empty())
      return usageError("cannot tell the format from '" + O.Output +
                            "' (.json, .jsonl, .pfw, .pfw.gz, .csv); give "
                            "--format jsonl|chrome|dftracer|traincheck|csv",
                        Cmd);
  }
  if (O.Command == "export" && O.Format.empty())
    return usageError(
        "'export' needs --format jsonl|chrome|dftracer|traincheck|csv", Cmd);
  if (TakesFormat && !knownFormat(O.Format))
    return usageError(
        "unknown export format '" + O.Format +
            "' (expected jsonl, chrome, dftracer, traincheck or csv)",
        Cmd);
  if (O.Command == "dump" && O.Inputs.size() != 1)
    return usageError("'dump' reads one trace", Cmd);

  std::vector<Trace> Traces;
  if (!loadAll(O, Traces, O.Command != "info"))
    return 1;

  if (O.Command == "merge" || O.Command == "report") {
    for (const std::string &Note : alignClocks(Traces))
      diag("note", Note);
  }

  std::FILE *Out = stdout;
  bool ToFile = !O.Output.empty() && O.Output != "-";
  if (ToFile) {
    std::string Error;
    Out = openOutput(O.Output, Error);
    if (!Out) {
      diag("error", Error);
      return 1;
    }
  }
  // A failed output leaves no partial file behind (a regular file: never
  // a device such as /dev/full).
  auto RemoveOutput = [&] {
    struct stat St;
    if (lstat(O.Output.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      std::remove(O.Output.c_str());
  };
  auto Fail = [&](const std::string &Msg) {
    if (ToFile) {
      std::fclose(Out);
      RemoveOutput();
    }
    diag("error", Msg);
    return 1;
  };
  // A write that fails sets errno; what it was is read after the output.
  errno = 0;
  if (O.Command == "report") {
    std::string Error;
    if (O.Title.empty()) {
      O.Title = Traces.empty() ? "sonde report"
                               : Traces[0].Process.Program + ": sonde report";
    }
    ReportOptions RO{O.Title, O.Step, O.Warmup};
    if (!writeReport(Traces, RO, Out, Error))
      return Fail(Error);
  } else if (O.Command == "summary") {
    if (O.Json)
      printSummaryJson(Traces, Out, O.Warmup);
    else
      printSummary(Traces, Out, O.Warmup);
  } else if (O.Command == "export" || O.Command == "merge") {
    exportAs(O.Format, Traces, Out);
  } else if (O.Command == "info") {
    printInfo(Traces, O.Json, Out);
  } else {
    for (const Trace &T : Traces)
      dumpTrace(T, Out);
  }
  // Never silent: what could not be read again, or put in order.
  for (const Trace &T : Traces)
    if (std::string Unread = T.Stream ? T.Stream->unreadText() : "";
        !Unread.empty())
      diag("warning", T.Path + ": " + Unread +
                          "; their events are missing from the output");
  for (const Trace &T : Traces)
    if (std::string Late = T.Stream ? T.Stream->lateText() : ""; !Late.empty())
      diag("note", T.Path + ": " + Late +
                       " (--look-ahead; docs/exports.md, \"Order\")");
  // Every write: a failed one sets the stream's error flag, which the
  // final flush alone would not report (its data was already dropped).
  std::string Where = ToFile ? O.Output : "standard output";
  int Err = errno;
  bool Failed = std::ferror(Out);
  if (std::fflush(Out) != 0) {
    Failed = true;
    Err = errno;
  }
  if (Failed)
    return Fail(Where + ": write failed" +
                (Err ? std::string(": ") + std::strerror(Err) : ""));
  if (ToFile && std::fclose(Out) != 0) {
    Err = errno;
    RemoveOutput();
    diag("error", Where + ": write failed: " + std::strerror(Err));
    return 1;
  }
  return 0;
}

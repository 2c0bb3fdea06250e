//===- Commands.cpp - `sonde infer` and `sonde check` ---------------------===//
//
//   sonde infer TRACE... [-o invariants.yaml] [--min-support N]
//                        [--range-margin X] [--look-ahead N]
//   sonde check TRACE... --invariants invariants.yaml [--json]
//                        [--follow [--interval S] [--idle S]]
//                        [--look-ahead N]
//
// Both read each trace and hand its events, one at a time and in order, to
// an Inferrer or a Checker (Invariants.h), from each trace read as a
// stream: infer in readEach(), one file after the other; check in
// checkAll(), in parts on every core (checkParts()), the reports merged in
// order (--follow: Follow.cpp). Exit status: 0 done and (check) no
// violation, 1 a violation (check) or an output that could not be written,
// 2 a usage error or an input that cannot be read.
//
//===----------------------------------------------------------------------===//

#include "Export.h"
#include "Follow.h"
#include "Invariants.h"
#include "Json.h"

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

namespace sonde::trace::inv {
namespace {

void diag(const char *Level, const std::string &Msg) {
  std::fprintf(stderr, "sonde: %s: %s\n", Level, Msg.c_str());
}

const char InferUsage[] =
    "usage: sonde infer TRACE... [-o FILE] [--min-support N] "
    "[--range-margin X]\n"
    "                   [--look-ahead N]\n\n"
    "Learns invariants from traces of runs known to be good and writes them\n"
    "as YAML (to standard output without -o). --min-support N (default 10):\n"
    "keep an invariant only when it held N times; --range-margin X (default\n"
    "0.5): widen each value range seen by X times its width on each side.\n"
    "--look-ahead N (default 1048576): records held to put a trace in\n"
    "order. See docs/invariants.md.\n";

const char CheckUsage[] =
    "usage: sonde check TRACE... --invariants FILE [--json]\n"
    "                   [--follow [--interval S] [--idle S]] [--look-ahead "
    "N]\n\n"
    "Checks traces against invariants learned by 'sonde infer': each\n"
    "violation in words, with the first record that breaks it and how many\n"
    "do. Exit status: 0 none, 1 a violation, 2 a usage error or an input\n"
    "that cannot be read. --follow: check the traces while they are\n"
    "written, again every time they grow (polled every --interval S\n"
    "seconds, default 1), until every one has ended or none grew for\n"
    "--idle S seconds (default 60). --look-ahead N (default 1048576):\n"
    "records held to put a trace in order. See docs/invariants.md.\n";

int usage(bool Infer, const std::string &Msg) {
  diag("error", Msg);
  std::fputs(Infer ? InferUsage : CheckUsage, stderr);
  return 2;
}

/// Below this, a file is not decoded ahead: a thread a file and the
/// events read from the other core's cache cost more than its reading
/// saves (30 files of 200 KB: +19 % CPU for 9 % less time; 4 of 10 MB:
/// the same CPU, 30 % less time).
constexpr uint64_t DecodeAheadFrom = uint64_t(1) << 20;

uint64_t fileSize(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 ? uint64_t(St.st_size) : 0;
}

/// Each of `Files` in turn, opened with openTraceWhole and given to
/// `Use(T, Path)`. With `DecodeAhead` (a core would idle otherwise), each
/// next file of DecodeAheadFrom bytes or more is opened and its records
/// decoded on a thread of its own while `Use` has the one before
/// (TraceStream::walkAhead). False at the first file that cannot be
/// opened, its error in `Error`, said after the files before it were used.
bool eachTrace(const std::vector<std::string> &Files, size_t LookAhead,
               bool DecodeAhead,
               const std::function<void(Trace &, const std::string &)> &Use,
               std::string &Error) {
  if (Files.empty())
    return true;
  auto Cur = std::make_unique<Trace>(), Coming = std::make_unique<Trace>();
  if (!openTraceWhole(Files[0], *Cur, Error, LookAhead))
    return false;
  for (size_t F = 0; F < Files.size(); ++F) {
    bool Last = F + 1 == Files.size();
    bool Ahead =
        DecodeAhead && !Last && fileSize(Files[F + 1]) >= DecodeAheadFrom;
    std::string ComingError;
    bool ComingOpened = false;
    if (Ahead) {
      ComingOpened =
          openTraceWhole(Files[F + 1], *Coming, ComingError, LookAhead);
      if (ComingOpened)
        Coming->Stream->walkAhead();
    }
    Use(*Cur, Files[F]);
    if (Last)
      break;
    if (Ahead) {
      std::swap(Cur, Coming);
      *Coming = Trace(); // the file just used is let go
    } else {
      // Let go first: the next file reuses its memory, still in cache
      // (opened while it was held, 7 % more time on small files).
      *Cur = Trace();
      ComingOpened = openTraceWhole(Files[F + 1], *Cur, ComingError, LookAhead);
    }
    if (!ComingOpened) {
      Error = ComingError;
      return false;
    }
  }
  return true;
}

/// Reads each trace and feeds its events in order. A file that is not a
/// trace is an error; a torn one is read as far as it goes, with a warning.
bool readEach(const std::vector<std::string> &Inputs, size_t LookAhead,
              std::vector<std::string> &Files,
              const std::function<void(const Trace &, const Event &)> &Observe,
              const std::function<void()> &EndTrace) {
  std::string Error;
  std::vector<std::string> Skipped;
  if (!expandInputs(Inputs, Files, Error, &Skipped)) {
    diag("error", Error);
    return false;
  }
  for (const std::string &Why : Skipped)
    diag("warning", Why);
  // One core reads: the other, if any, decodes the next file meanwhile.
  bool Ahead = std::thread::hardware_concurrency() >= 2;
  auto Use = [&](Trace &T, const std::string &F) {
    for (const Event &E : events(T))
      Observe(T, E);
    EndTrace();
    for (const std::string &W : readWarnings(T, F))
      diag("warning", W);
  };
  if (!eachTrace(Files, LookAhead, Ahead, Use, Error)) {
    diag("error", Error);
    return false;
  }
  return true;
}

/// `sonde check` on every core: the files, in parts (checkParts(): runs of
/// about equal bytes, or a job's directory when ranks.equal compares its
/// traces), are checked part by part by as many threads as there are
/// cores, each part by its own Checker; the reports are merged in the
/// parts' order, so the result is the one a single Checker over the files
/// in order gives. Messages come in the files' order too. False (said)
/// when a file cannot be read.
bool checkAll(const std::vector<std::string> &Inputs, size_t LookAhead,
              std::vector<std::string> &Files,
              const std::vector<Invariant> &Invs, CheckReport &Out) {
  std::string Error;
  std::vector<std::string> Skipped;
  if (!expandInputs(Inputs, Files, Error, &Skipped)) {
    diag("error", Error);
    return false;
  }
  for (const std::string &Why : Skipped)
    diag("warning", Why);
  unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<uint64_t> Sizes;
  for (const std::string &F : Files)
    Sizes.push_back(fileSize(F));
  // Two parts a core: a thread that ends early takes another.
  std::vector<std::vector<std::string>> Groups =
      checkParts(Files, Sizes, Invs, size_t(Cores) * 2);
  struct Part {
    CheckReport Report;
    std::vector<std::string> Warnings;
    std::string Error;
  };
  std::vector<Part> Parts(Groups.size());
  std::atomic<size_t> Next{0};
  // Fewer parts than cores (the ranks of one job are one part): a core
  // would idle, so each part decodes its next file meanwhile.
  bool Ahead = Groups.size() < Cores;
  auto Work = [&] {
    for (size_t I; (I = Next++) < Groups.size();) {
      Part &P = Parts[I];
      Checker C(Invs);
      eachTrace(
          Groups[I], LookAhead, Ahead,
          [&](Trace &T, const std::string &F) {
            for (const Event &E : events(T))
              C.observe(T, E);
            C.endTrace();
            for (std::string &W : readWarnings(T, F))
              P.Warnings.push_back(std::move(W));
          },
          P.Error);
      P.Report = C.finish();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned C = 1; C < Cores && C < Groups.size(); ++C)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &Th : Pool)
    Th.join();
  std::vector<CheckReport> Reports;
  for (Part &P : Parts) {
    for (const std::string &W : P.Warnings)
      diag("warning", W);
    if (!P.Error.empty()) {
      diag("error", P.Error);
      return false;
    }
    Reports.push_back(std::move(P.Report));
  }
  Out = mergeReports(std::move(Reports), Invs.size());
  return true;
}

std::string seconds(int64_t Ns) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.6f s", static_cast<double>(Ns) / 1e9);
  return Buf;
}

void printText(const CheckReport &R, std::FILE *Out) {
  std::fprintf(Out,
               "sonde check: %zu of %zu invariants violated in %zu trace%s "
               "(%" PRIu64 " records)\n",
               R.Violations.size(), R.Invariants, R.Traces,
               R.Traces == 1 ? "" : "s", R.Records);
  for (const Violation &V : R.Violations) {
    const Invariant &I = *V.Inv;
    const Where &W = V.First;
    std::fprintf(Out, "\nviolated %" PRIu64 " time%s: %s\n", V.Count,
                 V.Count == 1 ? "" : "s", I.Text.c_str());
    std::fprintf(Out, "  invariant: %s.%s (support %" PRIu64 ", line %u)\n",
                 I.Family.c_str(), I.Relation.c_str(), I.Support, I.Line);
    std::fprintf(Out, "  first: %s at %s, rank %" PRId64 ", thread %u, %s:%u\n",
                 W.TracePath.c_str(), seconds(W.Since).c_str(), W.Rank,
                 W.Thread, W.File.c_str(), W.Line);
    std::fprintf(Out, "  record: %s: %s\n", W.Site.c_str(), W.Detail.c_str());
  }
  if (R.Unexercised)
    std::fprintf(Out,
                 "\nnote: %zu invariant%s had no record to check in these "
                 "traces\n",
                 R.Unexercised, R.Unexercised == 1 ? "" : "s");
}

void printJson(const CheckReport &R, std::FILE *Out) {
  JsonOut J(Out);
  J.open();
  J.key("traces").num(uint64_t(R.Traces));
  J.key("records").num(R.Records);
  J.key("invariants").num(uint64_t(R.Invariants));
  J.key("unexercised").num(uint64_t(R.Unexercised));
  J.key("violations").openArray();
  for (const Violation &V : R.Violations) {
    const Invariant &I = *V.Inv;
    const Where &W = V.First;
    J.item().open();
    J.key("family").str(I.Family);
    J.key("relation").str(I.Relation);
    J.key("invariant").str(I.Text);
    J.key("line").num(uint64_t(I.Line));
    J.key("scope").str(I.Scope);
    J.key("subject").str(I.Subject);
    if (!I.Other.empty())
      J.key("other").str(I.Other);
    J.key("support").num(I.Support);
    J.key("count").num(V.Count);
    J.key("first").open();
    J.key("trace").str(W.TracePath);
    J.key("time_ns").num(W.Ts);
    J.key("since_start_ns").num(W.Since);
    J.key("rank").num(W.Rank);
    J.key("thread").num(uint64_t(W.Thread));
    J.key("site").str(W.Site);
    J.key("file").str(W.File);
    J.key("line").num(uint64_t(W.Line));
    J.key("detail").str(W.Detail);
    J.close();
    J.close();
  }
  J.closeArray();
  J.close();
  J.raw("\n");
}

/// Closes the output and says so when a write failed.
bool finishOutput(std::FILE *Out, const std::string &Name, bool ToFile) {
  bool Failed = std::ferror(Out) || std::fflush(Out) != 0;
  int Err = errno;
  if (ToFile && std::fclose(Out) != 0) {
    Failed = true;
    Err = errno;
  }
  if (Failed) {
    diag("error", Name + ": write failed: " + std::strerror(Err));
    if (ToFile)
      std::remove(Name.c_str());
  }
  return !Failed;
}

} // namespace

void printInvariantUsage(const std::string &Command) {
  std::fputs(Command == "infer" ? InferUsage : CheckUsage, stdout);
}

int runInvariantCommand(int Argc, char **Argv) {
  bool Infer = std::strcmp(Argv[1], "infer") == 0;
  std::vector<std::string> Inputs;
  std::string Output, InvPath;
  bool Json = false, Ended = false, Follow = false;
  InferOptions Opt;
  FollowOptions FOpt;
  size_t LookAhead = 0; ///< 0: the stream's default
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (Ended || A.empty() || A[0] != '-' || A == "-") {
      Inputs.push_back(A);
      continue;
    }
    if (A == "--") {
      Ended = true;
      continue;
    }
    if (A == "-h" || A == "--help") {
      std::fputs(Infer ? InferUsage : CheckUsage, stdout);
      return 0;
    }
    std::string Flag = A, Value;
    bool Inline = false;
    if (size_t Eq = A.find('='); A.rfind("--", 0) == 0 && Eq != A.npos) {
      Flag = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
      Inline = true;
    }
    if (!Infer && (Flag == "--json" || Flag == "--follow")) {
      if (Inline)
        return usage(Infer, "'" + Flag + "' takes no value");
      (Flag == "--json" ? Json : Follow) = true;
      continue;
    }
    bool Known = Flag == "--look-ahead" ||
                 (Infer ? (Flag == "-o" || Flag == "--output" ||
                           Flag == "--min-support" || Flag == "--range-margin")
                        : (Flag == "--invariants" || Flag == "--interval" ||
                           Flag == "--idle"));
    if (!Known)
      return usage(Infer, "unknown option '" + A + "' for '" + Argv[1] + "'");
    if (!Inline) {
      if (I + 1 >= Argc)
        return usage(Infer, "'" + A + "' needs a value");
      Value = Argv[++I];
    }
    char *End = nullptr;
    if (std::string Why; Flag == "--look-ahead") {
      if (!TraceStream::parseLookAhead(Value, LookAhead, Why))
        return usage(Infer, Why);
    } else if (Flag == "--min-support") {
      errno = 0;
      unsigned long long N = std::strtoull(Value.c_str(), &End, 10);
      if (Value.empty() || *End || errno || N == 0 || Value[0] == '-')
        return usage(Infer, "'--min-support' needs a positive count, not '" +
                                Value + "'");
      Opt.MinSupport = N;
    } else if (Flag == "--range-margin") {
      double X = std::strtod(Value.c_str(), &End);
      if (Value.empty() || *End || !(X >= 0 && X < 1e6))
        return usage(Infer, "'--range-margin' needs a number >= 0, not '" +
                                Value + "'");
      Opt.RangeMargin = X;
    } else if (Flag == "--interval" || Flag == "--idle") {
      double X = std::strtod(Value.c_str(), &End);
      if (Value.empty() || *End || !(X > 0 && X <= 86400))
        return usage(Infer, "'" + Flag +
                                "' needs a number of seconds in (0, 86400], "
                                "not '" +
                                Value + "'");
      (Flag == "--interval" ? FOpt.IntervalSeconds : FOpt.IdleSeconds) = X;
    } else if (Flag == "--invariants") {
      InvPath = Value;
    } else {
      Output = Value;
    }
  }
  if (Inputs.empty())
    return usage(Infer, std::string("'") + Argv[1] +
                            "' needs a trace file or directory");
  std::vector<std::string> Files;
  if (Infer) {
    Inferrer In(Opt);
    if (!readEach(
            Inputs, LookAhead, Files,
            [&](const Trace &T, const Event &E) { In.observe(T, E); },
            [&] { In.endTrace(); }))
      return 2;
    std::vector<Invariant> Invs = In.finish();
    for (const std::string &N : In.notes())
      diag("warning", N);
    bool ToFile = !Output.empty() && Output != "-";
    std::FILE *Out = stdout;
    if (ToFile) {
      std::string Error;
      Out = openOutput(Output, Error);
      if (!Out) {
        diag("error", Error);
        return 1;
      }
    }
    writeInvariants(Invs, Files, Opt, Out);
    if (!finishOutput(Out, ToFile ? Output : "standard output", ToFile))
      return 1;
    diag("note", std::to_string(Invs.size()) + " invariants from " +
                     std::to_string(Files.size()) + " trace" +
                     (Files.size() == 1 ? "" : "s"));
    return 0;
  }
  if (InvPath.empty())
    return usage(Infer, "'check' needs --invariants FILE");
  std::vector<Invariant> Invs;
  std::string Error;
  if (!readInvariants(InvPath, Invs, Error)) {
    diag("error", Error);
    return 2;
  }
  CheckReport R;
  if (Follow) {
    FOpt.LookAhead = LookAhead;
    if (!followCheck(Inputs, Invs, FOpt, R))
      return 2;
  } else if (!checkAll(Inputs, LookAhead, Files, Invs, R)) {
    return 2;
  }
  for (const std::string &N : R.Notes)
    diag("warning", N);
  if (Json)
    printJson(R, stdout);
  else
    printText(R, stdout);
  if (!finishOutput(stdout, "standard output", false))
    return 2;
  return R.Violations.empty() ? 0 : 1;
}

} // namespace sonde::trace::inv

//===- SondePlugin.cpp - The -fplugin front door --------------------------===//
//
//   clang++-19 -fplugin=<prefix>/lib/sonde/sonde-plugin-clang19.so
//              -fplugin-arg-sonde-spec=probes.yaml -c train.cpp
//
// A thin adapter over the engine, as sonde-rewrite is: it reads its
// arguments and the spec, runs the Instrumenter before the main action, and
// writes the plan when asked. Nothing about probes is decided here.
//
// Arguments (-fplugin-arg-sonde-NAME[=VALUE]):
//   spec=FILE             the probe spec (required)
//   strict                warnings about skipped sites are errors
//   list-sites=FILE       write the plan's sites (text; JSON if FILE ends in
//                         .json); a FILE ending in `/` is a directory that
//                         gets one file per translation unit
//   runtime-include=DIR   where sonde/sonde.h is (default: found next to
//                         the plugin, installed or in its build tree)
//   spec-sha256=HEX       the spec must hash to HEX (build systems pass it
//                         so that compiler caches see spec changes)
//   match-dir=DIR         write this translation unit's match summary into
//                         DIR: a build reports the probes that match nothing
//                         in a whole target from them (`sonde-rewrite
//                         --report-unmatched`), not once per file
//   nested-parse          compute the plan in a nested parse before the real
//                         one, never in a split compile (SplitCompile.h)
//   no-prewarm            in a split compile, load nothing from a PCH before
//                         the fork (SplitCompile.cpp, prewarm())
//
//===----------------------------------------------------------------------===//

#include "Instrumenter.h"

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Spec.h"
#include "sonde/rewriter/Unmatched.h"
#include "sonde/rewriter/frontdoor/RuntimeInclude.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace clang;
using namespace llvm;
using namespace sonde;

namespace {

unsigned errorID(DiagnosticsEngine &D) {
  return D.getCustomDiagID(DiagnosticsEngine::Error, "%0");
}

/// sonde/sonde.h: given, installed next to the plugin, or in the source
/// tree the plugin was built from. Empty if none exists.
std::string runtimeHeader(const plugin::Options &Opts) {
  if (!Opts.RuntimeInclude.empty()) {
    SmallString<256> P(frontdoor::runtimeHeaderIn(Opts.RuntimeInclude));
    // Without a current directory the path stays as given.
    (void)sys::fs::make_absolute(P);
    return sys::fs::exists(P) ? P.str().str() : "";
  }
  SmallString<256> Plugin;
  Dl_info Info;
  if (dladdr(reinterpret_cast<const void *>(&runtimeHeader), &Info) &&
      Info.dli_fname) {
    Plugin = Info.dli_fname;
    // Without a current directory the path stays as given.
    (void)sys::fs::make_absolute(Plugin);
  }
  std::string Include =
      frontdoor::findRuntimeInclude(Plugin, frontdoor::InstalledIn::PluginDir);
  return Include.empty() ? "" : frontdoor::runtimeHeaderIn(Include);
}

/// The file `list-sites=` names for this translation unit.
std::string sitesPath(StringRef Arg, StringRef InFile) {
  if (!Arg.ends_with("/") && !sys::fs::is_directory(Arg))
    return Arg.str();
  // A folder that cannot be made fails the write, which says so.
  (void)sys::fs::create_directories(Arg);
  SmallString<256> Abs(InFile);
  // Without a current directory the path stays as given.
  (void)sys::fs::make_absolute(Abs);
  SmallString<256> P(Arg);
  sys::path::append(P, sys::path::filename(InFile).str() + "." +
                           utohexstr(xxh3_64bits(Abs.str()), true) + ".sites");
  return P.str().str();
}

void writeSites(DiagnosticsEngine &D, const rewriter::Plan &P,
                const std::string &Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (!EC) {
    if (StringRef(Path).ends_with(".json"))
      P.printSitesJson(OS);
    else
      P.printSites(OS);
    OS.close();
    EC = OS.error();
  }
  if (EC)
    D.Report(errorID(D)) << ("sonde: cannot write '" + Path +
                             "': " + EC.message());
}

/// The match summary of this translation unit, in `MatchDir`.
void writeMatches(DiagnosticsEngine &D, const rewriter::Spec &S,
                  const rewriter::Plan &P, StringRef MatchDir,
                  StringRef InFile) {
  if (Error E = rewriter::writeMatchSummary(S, P, MatchDir, InFile))
    D.Report(errorID(D)) << ("sonde: " + toString(std::move(E)));
}

class SondeAction : public PluginASTAction {
public:
  ActionType getActionType() override { return AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    // clang instantiates every registered plugin for the nested parse too.
    if (plugin::inNestedParse())
      return false;
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      StringRef Arg(A), Value;
      std::tie(Arg, Value) = Arg.split('=');
      if (Arg == "spec" && !Value.empty())
        Opts.SpecPath = Value.str();
      else if (Arg == "strict" && Value.empty())
        Opts.Strict = true;
      else if (Arg == "list-sites" && !Value.empty())
        Opts.ListSites = Value.str();
      else if (Arg == "runtime-include" && !Value.empty())
        Opts.RuntimeInclude = Value.str();
      else if (Arg == "spec-sha256" && !Value.empty())
        Opts.SpecSha256 = Value.lower();
      else if (Arg == "match-dir" && !Value.empty())
        MatchDir = Value.str();
      else if (Arg == "nested-parse" && Value.empty())
        Opts.NestedParse = true;
      else if (Arg == "no-prewarm" && Value.empty())
        Opts.NoPrewarm = true;
      else {
        D.Report(errorID(D))
            << ("unknown sonde plugin argument '-fplugin-arg-sonde-" + A +
                "' (known: spec=FILE, strict, list-sites=FILE, "
                "runtime-include=DIR, spec-sha256=HEX, match-dir=DIR, "
                "nested-parse, no-prewarm)");
        return false;
      }
    }
    if (Opts.SpecPath.empty()) {
      D.Report(errorID(D)) << std::string(
          "the sonde plugin needs a probe spec: "
          "-fplugin-arg-sonde-spec=probes.yaml");
      return false;
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    auto Nothing = std::make_unique<ASTConsumer>();
    if (plugin::inNestedParse() || !instrumentable(CI))
      return Nothing;
    DiagnosticsEngine &D = CI.getDiagnostics();

    std::optional<rewriter::Spec> S = loadSpec(D);
    if (!S)
      return Nothing;
    std::string Header = runtimeHeader(Opts);
    if (Header.empty()) {
      D.Report(errorID(D))
          << ("sonde: cannot find sonde/sonde.h" +
              (Opts.RuntimeInclude.empty()
                   ? std::string(" next to the plugin; pass "
                                 "-fplugin-arg-sonde-runtime-include=DIR")
                   : " in '" + Opts.RuntimeInclude + "'"));
      return Nothing;
    }
    dependOnSpec(CI);
    OptionalFileEntryRef MainFile = CI.getSourceManager().getFileEntryRefForID(
        CI.getSourceManager().getMainFileID());
    if (!MainFile) {
      D.Report(D.getCustomDiagID(
          DiagnosticsEngine::Warning,
          "sonde: standard input is not instrumented; compile a file"));
      return Nothing;
    }
    auto J = std::make_shared<plugin::Job>(CI, *MainFile);
    J->InFile = InFile.str();
    J->S = std::move(*S);
    J->Opts = Opts;
    J->Header = std::move(Header);
    J->Done = [&D, ListSites = Opts.ListSites, MatchDir = MatchDir,
               In = InFile.str()](const rewriter::Spec &S,
                                  const rewriter::Plan &P) {
      if (!ListSites.empty())
        writeSites(D, P, sitesPath(ListSites, In));
      if (!MatchDir.empty())
        writeMatches(D, S, P, MatchDir, In);
    };
    return plugin::instrumentMainFile(J);
  }

private:
  /// Whether this compile gets instrumented: a C++ source file (not a
  /// header or a PCH being built) whose compile produces code or checks it.
  static bool instrumentable(const CompilerInstance &CI) {
    if (!CI.getLangOpts().CPlusPlus || CI.getLangOpts().CUDAIsDevice)
      return false;
    const FrontendOptions &FO = CI.getFrontendOpts();
    if (FO.Inputs.empty() || FO.Inputs[0].getKind().isHeader() ||
        FO.Inputs[0].getKind().getFormat() != InputKind::Source)
      return false;
    switch (FO.ProgramAction) {
    case frontend::EmitObj:
    case frontend::EmitAssembly:
    case frontend::EmitBC:
    case frontend::EmitLLVM:
    case frontend::EmitLLVMOnly:
    case frontend::EmitCodeGenOnly:
    case frontend::ParseSyntaxOnly:
      return true;
    default:
      return false;
    }
  }

  /// Lists the spec in the dependency file (-MD), so that make and ninja
  /// rebuild when it changes: every translation unit, since an edit may
  /// give probes to one that had none. Clang lists files that __has_include
  /// finds. (A PCH replaces the predefines, so with -include-pch the spec is
  /// not listed; sonde_instrument puts the spec's hash in the flags.)
  void dependOnSpec(CompilerInstance &CI) {
    SmallString<256> Abs(Opts.SpecPath);
    // Without a current directory the path stays as given.
    (void)sys::fs::make_absolute(Abs);
    if (StringRef(Abs).find_first_of("\"\\\n") != StringRef::npos)
      return;
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + "#if __has_include(\"" +
                     Abs.str().str() + "\")\n#endif\n");
  }

  std::optional<rewriter::Spec> loadSpec(DiagnosticsEngine &D) {
    if (!Opts.SpecSha256.empty()) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(Opts.SpecPath, /*IsText=*/true);
      if (Buf) {
        std::string Hex =
            toHex(SHA256::hash(arrayRefFromStringRef((*Buf)->getBuffer())),
                  /*LowerCase=*/true);
        if (Hex != Opts.SpecSha256) {
          D.Report(errorID(D))
              << ("sonde: probe spec '" + Opts.SpecPath +
                  "' changed since the build was configured; re-run cmake");
          return std::nullopt;
        }
      }
    }
    Expected<rewriter::Spec> S = rewriter::loadSpec(Opts.SpecPath);
    if (S)
      return std::move(*S);
    std::string Msg;
    handleAllErrors(
        S.takeError(),
        [&](const rewriter::SpecDiagnostics &SD) { SD.log(errs()); },
        [&](const ErrorInfoBase &E) { Msg = E.message(); });
    D.Report(errorID(D)) << ("sonde: invalid probe spec '" + Opts.SpecPath +
                             "'" + (Msg.empty() ? "" : ": " + Msg));
    return std::nullopt;
  }

  plugin::Options Opts;
  std::string MatchDir;
};

} // namespace

static FrontendPluginRegistry::Add<SondeAction>
    Registration("sonde", "instrument C++ sources from a sonde probe spec");

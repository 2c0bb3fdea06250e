//===- SplitCompile.cpp - Headers parsed once: fork after the preamble ----===//
//
// How the real compile is split (see SplitCompile.h):
//
//  1. Before the parse, the main file's contents become its preamble (the
//     #include lines and other directives before the first declaration,
//     Lexer::ComputePreamble) followed by `#pragma __sonde_body`.
//  2. The pragma's handler runs when the preprocessor reaches it, with
//     every header of the preamble parsed. It forks. Each process then
//     enters the rest of the file as a FileID of its own, with no include
//     location (so it is "in the main file" for clang and for the engine),
//     made the SourceManager's main file, and holding the whole text with
//     the preamble blanked out: lines and columns are the file's own. Its
//     FileEntry is a bypass entry of the main file: same name (__FILE__,
//     diagnostics, DWARF), same directory (quoted includes), listed once
//     in a dependency file, and a content cache of its own.
//  3. The child enters the original text followed by a sentinel namespace,
//     with its diagnostics silenced and warnings ignored (as the nested
//     parse does). When the parse hands the sentinel to the consumer, the
//     file is parsed: it computes the plan, writes it to the pipe and
//     _exit()s, before any end-of-TU work or output. If the parse ends
//     otherwise (errors), it reports that instead.
//  4. The parent reads the plan and enters the instrumented text, and above
//     it an #include of each runtime header the plan needs. If anything
//     went wrong (threads at the fork, fork or pipe failing, the child
//     dying) it runs the nested parse there and then: same plan, the old
//     cost.
//
// Files it does not split (the nested parse runs): preprocessed input, a
// preamble whose conditionals are not closed before its end or that holds
// #line, a rest that uses `#pragma system_header`, `#include_next` or
// `#pragma once` (they behave differently outside the primary file), clang
// modules, and a C++20 file that may be a module unit.
//
//===----------------------------------------------------------------------===//

#include "SplitCompile.h"

#include "PlanWire.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace plugin {

namespace {

/// The pragma that ends the preamble, and the namespace that ends the
/// child's text: names no program uses (reserved identifiers).
constexpr llvm::StringLiteral PragmaName = "__sonde_body";
constexpr llvm::StringLiteral Sentinel = "__sonde_plan_point";

struct SplitState {
  std::shared_ptr<Job> J;
  unsigned PreambleSize = 0;
  SrcMgr::CharacteristicKind Kind = SrcMgr::C_User;
  FileID PreambleFID;   ///< the main file as the parse starts: preamble, pragma
  bool Reached = false; ///< the pragma ran: the rest was entered
  int ChildFd = -1;     ///< in the child: where the plan goes
};

/// Where J's preamble ends, if the file can be split there.
std::optional<unsigned> plainPreamble(StringRef Text, const LangOptions &LO) {
  unsigned Size = Lexer::ComputePreamble(Text, LO).Size;
  StringRef Rest = Text.substr(Size);
  // Both behave differently outside the primary file, and so does the
  // warning about `#pragma once` in the main file.
  if (Rest.contains("system_header") || Rest.contains("include_next") ||
      Rest.contains("pragma once"))
    return std::nullopt;
  // A C++20 module unit's declarations must be in the primary file.
  if (LO.CPlusPlusModules && Text.contains("module"))
    return std::nullopt;
  // The raw lexer needs a NUL after its buffer.
  std::string Pre = Text.take_front(Size).str();
  Lexer L(SourceLocation(), LO, Pre.data(), Pre.data(), Pre.data() + Size);
  int Depth = 0;
  Token T;
  for (L.LexFromRawLexer(T); T.isNot(tok::eof); L.LexFromRawLexer(T)) {
    if (T.isNot(tok::hash) || !T.isAtStartOfLine())
      continue;
    L.LexFromRawLexer(T);
    if (T.is(tok::numeric_constant))
      return std::nullopt; // a line marker
    if (T.isNot(tok::raw_identifier))
      continue;
    StringRef D = T.getRawIdentifier();
    if (D == "if" || D == "ifdef" || D == "ifndef")
      ++Depth;
    else if ((D == "endif" && --Depth < 0) || D == "line")
      return std::nullopt;
  }
  // The pragma after the preamble must be reached, and at depth 0.
  if (Depth != 0)
    return std::nullopt;
  return Size;
}

/// `Text` with its first `N` bytes blanked, line breaks kept.
std::string blankPrefix(StringRef Text, unsigned N) {
  std::string R = Text.str();
  for (unsigned I = 0; I < N && I < R.size(); ++I)
    if (R[I] != '\n' && R[I] != '\r')
      R[I] = ' ';
  return R;
}

/// The threads of this process, 0 if unknown: clang parses on one thread,
/// and fork() is only safe then.
unsigned threadCount() {
  DIR *D = opendir("/proc/self/task");
  if (!D)
    return 0;
  unsigned N = 0;
  while (dirent *E = readdir(D))
    if (E->d_name[0] != '.')
      ++N;
  closedir(D);
  return N;
}

/// Enters `Text` as the rest of the main file (see the file comment).
FileID enterRest(SplitState &St, Preprocessor &PP, SourceLocation Loc,
                 StringRef Text) {
  Job &J = *St.J;
  SourceManager &SM = PP.getSourceManager();
  std::unique_ptr<MemoryBuffer> Buf =
      MemoryBuffer::getMemBufferCopy(Text, J.MainFile.getName());
  FileID Rest;
  if (OptionalFileEntryRef B =
          J.CI.getFileManager().getBypassFile(J.MainFile)) {
    SM.overrideFileContents(*B, std::move(Buf));
    Rest = SM.createFileID(*B, SourceLocation(), St.Kind);
    // What the preprocessor does for a main file: header search needs the
    // file info of every includer, and it must not be entered again.
    PP.getHeaderSearchInfo().getFileInfo(*B);
    PP.markIncluded(*B);
  } else {
    // The file is gone from the disk: a buffer of the same name.
    Rest = SM.createFileID(std::move(Buf), St.Kind);
  }
  PP.EnterSourceFile(Rest, nullptr, Loc);
  SM.setMainFileID(Rest);
  return Rest;
}

/// Enters #include lines of `Headers`, to be read before the rest.
void enterHeaders(Preprocessor &PP, ArrayRef<std::string> Headers,
                  SourceLocation Loc) {
  if (Headers.empty())
    return;
  std::string Text;
  for (const std::string &H : Headers)
    Text += "#include \"" + H + "\"\n";
  // Named as the predefines buffer is: the headers come in as they did from
  // the predefines, and no dependency file lists the buffer.
  FileID F = PP.getSourceManager().createFileID(
      MemoryBuffer::getMemBufferCopy(Text, "<built-in>"), SrcMgr::C_User);
  PP.EnterSourceFile(F, nullptr, Loc);
}

/// The child's diagnostics: none printed, and a parse that ends without
/// the sentinel or the end of the translation unit reaching the consumer
/// ends the child (the parent then runs the nested parse).
class ChildConsumer : public DiagnosticConsumer {
  void HandleDiagnostic(DiagnosticsEngine::Level, const Diagnostic &) override {
  }
  void EndSourceFile() override { _exit(2); }
};

/// In the child: computes the plan, sends it, and ends the process.
[[noreturn]] void childFinish(SplitState &St) {
  Job &J = *St.J;
  CompilerInstance &CI = J.CI;
  frontdoor::PlanResult R;
  if (CI.getDiagnostics().hasErrorOccurred()) {
    R.SourceErrors = true;
  } else {
    rewriter::PlanOptions O;
    O.FileName = J.InFile;
    Expected<rewriter::Plan> P =
        rewriter::computePlan(CI.getASTContext(), J.S, O);
    if (P) {
      detachNotes(CI.getSourceManager(), *P);
      R.P = std::move(*P);
    } else {
      R.Errors.push_back(toString(P.takeError()));
    }
  }
  std::string Bytes = encodePlanResult(R);
  for (size_t Done = 0; Done < Bytes.size();) {
    ssize_t N = write(St.ChildFd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(3);
    Done += N;
  }
  _exit(0);
}

/// Turns this process into the child: the original rest, silently.
void becomeChild(SplitState &St, Preprocessor &PP, SourceLocation Loc) {
  // A crash here must not print LLVM's stack dump or remove the parent's
  // output files (LLVM's handlers do both): the parent notices and falls
  // back.
  for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
                  SIGXCPU, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE})
    signal(Sig, SIG_DFL);
  DiagnosticsEngine &Diags = St.J->CI.getDiagnostics();
  Diags.setIgnoreAllWarnings(true);
  Diags.setClient(new ChildConsumer, /*ShouldOwnClient=*/true);
  enterRest(St, PP, Loc,
            blankPrefix(St.J->Original, St.PreambleSize) + "\nnamespace " +
                Sentinel.str() + " {}\n");
}

/// The namespace `II` names in `DC`, if any.
NamespaceDecl *namespaceNamed(DeclContext &DC, IdentifierInfo *II) {
  for (NamedDecl *D : DC.lookup(II)) {
    if (auto *A = dyn_cast<NamespaceAliasDecl>(D))
      D = A->getNamespace();
    if (auto *N = dyn_cast<NamespaceDecl>(D))
      return N->getCanonicalDecl();
  }
  return nullptr;
}

/// Before the fork, loads from the AST file (a PCH) what parsing `Rest`
/// would load, so that the child and the parent share it instead of each
/// decoding it. Most of the child's decoding (mnist.cpp on a PCH of
/// <torch/torch.h>: 45,000 of 95,000 declarations, half of the types) is
/// the specializations of templates: the first look-up of one
/// specialization of a template loads all of them. Class templates first
/// (type traits above all), then function templates (`std::declval`,
/// `std::__is_complete_or_unbounded`, `std::make_shared`, the operators:
/// 22,500 of the 32,300 declarations the child still read). Loaded here:
/// the specializations of every class and function template of every
/// namespace that `Rest` names (`std::`, `torch::nn::`). Each call is one
/// the parse makes itself (a template's specializations); only what is
/// loaded, and when, differs.
void prewarm(Preprocessor &PP, ASTContext &Ctx, StringRef Rest) {
  ExternalASTSource *Source = Ctx.getExternalSource();
  if (!Source)
    return;
  // The raw lexer needs a NUL after its buffer.
  std::string Text = Rest.str();
  Lexer L(SourceLocation(), PP.getLangOpts(), Text.data(), Text.data(),
          Text.data() + Text.size());
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  SetVector<NamespaceDecl *> Named;
  DeclContext *Scope = TU; // where the next name is looked up, if anywhere
  StringRef Last;          // the last token, if a name
  DeclContext *LastScope = TU;
  Token T;
  for (L.LexFromRawLexer(T); T.isNot(tok::eof); L.LexFromRawLexer(T)) {
    if (T.is(tok::coloncolon)) {
      // `N::` goes on in namespace N, a leading `::` in the translation
      // unit; classes are not followed.
      Scope = TU;
      if (!Last.empty()) {
        NamespaceDecl *N = nullptr;
        if (LastScope)
          N = namespaceNamed(*LastScope, PP.getIdentifierInfo(Last));
        if (N)
          Named.insert(N);
        Scope = N;
      }
      Last = StringRef();
      continue;
    }
    Last = T.is(tok::raw_identifier) ? T.getRawIdentifier() : StringRef();
    LastScope = Scope;
    Scope = TU;
  }
  for (NamespaceDecl *N : Named)
    for (NamespaceDecl *R : N->redecls()) {
      SmallVector<Decl *> Templates;
      Source->FindExternalLexicalDecls(
          R,
          [](Decl::Kind K) {
            return K == Decl::ClassTemplate || K == Decl::FunctionTemplate;
          },
          Templates);
      for (Decl *D : Templates)
        if (auto *Class = dyn_cast<ClassTemplateDecl>(D))
          Class->LoadLazySpecializations();
        else
          cast<FunctionTemplateDecl>(D)->LoadLazySpecializations();
    }
}

/// Forks; in the parent, returns the child's plan (nothing if the fork or
/// the child failed). In the child, returns nothing with St.ChildFd set.
std::optional<frontdoor::PlanResult>
forkForPlan(SplitState &St, Preprocessor &PP, SourceLocation Loc) {
  if (threadCount() != 1)
    return std::nullopt;
  // Only when there is a child to share it with: the nested parse that
  // runs instead loads what it needs itself.
  if (!St.J->Opts.NoPrewarm)
    prewarm(PP, St.J->CI.getASTContext(),
            StringRef(St.J->Original).substr(St.PreambleSize));
  int Fd[2];
  if (pipe2(Fd, O_CLOEXEC) != 0)
    return std::nullopt;
  // Buffered output must not be written twice.
  outs().flush();
  errs().flush();
  std::fflush(nullptr);
  pid_t Pid = fork();
  if (Pid < 0) {
    close(Fd[0]);
    close(Fd[1]);
    return std::nullopt;
  }
  if (Pid == 0) {
    close(Fd[0]);
    St.ChildFd = Fd[1];
    becomeChild(St, PP, Loc);
    return std::nullopt;
  }
  close(Fd[1]);
  std::string Bytes;
  char Buf[1 << 16];
  for (;;) {
    ssize_t N = read(Fd[0], Buf, sizeof(Buf));
    if (N > 0)
      Bytes.append(Buf, N);
    else if (N == 0 || errno != EINTR)
      break;
  }
  close(Fd[0]);
  int Status = -1;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR) {
      Status = -1;
      break;
    }
  if (Status == -1 || !WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return std::nullopt;
  return decodePlanResult(Bytes);
}

/// What the pragma does: see the file comment.
void split(SplitState &St, Preprocessor &PP, SourceLocation Loc) {
  Job &J = *St.J;
  std::optional<frontdoor::PlanResult> R;
  if (J.CI.getDiagnostics().hasErrorOccurred()) {
    // The headers have errors: nothing is instrumented (the nested parse
    // would have seen them too), and they were reported once already.
    R.emplace().SourceErrors = true;
  } else {
    R = forkForPlan(St, PP, Loc);
    if (St.ChildFd >= 0)
      return; // the child: it parses the original rest
    if (!R)
      R = nestedPlan(J);
  }
  if (R->P)
    for (const rewriter::Insertion &I : R->P->Insertions)
      if (I.Offset < St.PreambleSize) {
        // Never seen: the preamble holds no function.
        DiagnosticsEngine &D = J.CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Warning,
                                   "sonde: the plan inserts code among the "
                                   "#include lines of '%0'; it is not "
                                   "instrumented (compile with "
                                   "-fplugin-arg-sonde-nested-parse)"))
            << J.InFile;
        R->P.reset();
        break;
      }
  bool Placed =
      applyPlan(J, *R, [&](StringRef Rewritten, ArrayRef<std::string> Headers) {
        FileID Rest =
            enterRest(St, PP, Loc, blankPrefix(Rewritten, St.PreambleSize));
        enterHeaders(PP, Headers, Loc);
        return Rest;
      });
  if (!Placed)
    enterRest(St, PP, Loc, blankPrefix(J.Original, St.PreambleSize));
}

class BodyPragma : public PragmaHandler {
public:
  explicit BodyPragma(std::shared_ptr<SplitState> St)
      : PragmaHandler(PragmaName), St(std::move(St)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Intro,
                    Token &Tok) override {
    // The main file's lexer must be done with the directive before another
    // file is entered.
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof))
      PP.LexUnexpandedToken(Tok);
    // Only the pragma the plugin wrote: not one in the user's text.
    if (St->Reached || Intro.Kind != PIK_HashPragma ||
        PP.getSourceManager().getFileID(Intro.Loc) != St->PreambleFID)
      return;
    St->Reached = true;
    split(*St, PP, Intro.Loc);
  }

private:
  std::shared_ptr<SplitState> St;
};

class SplitConsumer : public ASTConsumer {
public:
  explicit SplitConsumer(std::shared_ptr<SplitState> St) : St(std::move(St)) {}

  bool HandleTopLevelDecl(DeclGroupRef G) override {
    if (St->ChildFd < 0)
      return true;
    for (Decl *D : G)
      if (auto *NS = dyn_cast<NamespaceDecl>(D))
        if (NS->getIdentifier() && NS->getName() == Sentinel)
          childFinish(*St);
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override {
    if (St->ChildFd >= 0)
      childFinish(*St);
    DiagnosticsEngine &D = St->J->CI.getDiagnostics();
    // Never compile a file without its code, silently.
    if (!St->Reached && !D.hasErrorOccurred())
      D.Report(D.getCustomDiagID(
          DiagnosticsEngine::Error,
          "sonde: the compile of '%0' ended before the code after its "
          "#include lines; compile with -fplugin-arg-sonde-nested-parse"))
          << St->J->InFile;
  }

private:
  std::shared_ptr<SplitState> St;
};

} // namespace

std::unique_ptr<ASTConsumer> splitCompile(const std::shared_ptr<Job> &J) {
  CompilerInstance &CI = J->CI;
  if (J->Preprocessed || CI.getLangOpts().Modules)
    return nullptr;
  std::optional<unsigned> Size = plainPreamble(J->Original, CI.getLangOpts());
  if (!Size)
    return nullptr;
  SourceManager &SM = CI.getSourceManager();
  auto St = std::make_shared<SplitState>();
  St->J = J;
  St->PreambleSize = *Size;
  St->Kind =
      SM.getSLocEntry(SM.getMainFileID()).getFile().getFileCharacteristic();
  std::string Text =
      J->Original.substr(0, *Size) + "\n#pragma " + PragmaName.str() + "\n";
  SM.overrideFileContents(
      J->MainFile, MemoryBuffer::getMemBufferCopy(Text, J->MainFile.getName()));
  // The FileID made before the override keeps the old size: a new one.
  St->PreambleFID = SM.createFileID(J->MainFile, SourceLocation(), St->Kind);
  SM.setMainFileID(St->PreambleFID);
  CI.getPreprocessor().AddPragmaHandler(new BodyPragma(St));
  return std::make_unique<SplitConsumer>(St);
}

} // namespace plugin
} // namespace sonde

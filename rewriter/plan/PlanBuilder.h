//===- PlanBuilder.h - Building a plan (engine-internal) --------*- C++ -*-===//
//
// What selector kinds call to turn a match into sites and insertions. It
// knows where code may go (a statement position, the start of a body, a
// braced or unbraced child) and keeps every insertion newline-free. Nothing
// is applied here: the builder produces the Plan, sorted and checked.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_LIB_PLANBUILDER_H
#define SONDE_REWRITER_LIB_PLANBUILDER_H

#include "sonde/rewriter/Matcher.h"
#include "sonde/rewriter/Plan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace sonde {
namespace rewriter {

/// Insertion ranks: the order of insertions at one offset.
///
/// Openers are ranked by the length of what they open, outer first, in
/// steps of `OpenerStep`; the slots between two lengths hold what goes
/// right before a statement of that length, or at the start of an unbraced
/// body that was braced: after the openers that enclose the statement (its
/// braces, a loop's scope) and before those inside it (a call wrapped in
/// the statement's first expression).
namespace rank {
constexpr int AfterStmt = 100;     ///< a watch after a statement
constexpr int BlockEnd = 500;      ///< before a body's closing brace
constexpr int CloserBase = 1000;   ///< + length: inner constructs close first
constexpr int MaxLength = 1000000; ///< lengths are capped here
constexpr int CloserMax = CloserBase + MaxLength;
/// + sub-order, right after a body's `{`: before any opener there, since
/// the body's first statement may start without a space (`{return f();}`).
constexpr int BodyStart = 5000000;
constexpr int OpenerStep = 8;
constexpr int OpenerBase = 20000000; ///< - step * length
constexpr int BeforeStmt = 40000000; ///< right before a statement
/// A length as ranks count it: capped at `MaxLength`.
inline int capped(unsigned Length) {
  return int(Length < unsigned(MaxLength) ? Length : unsigned(MaxLength));
}
/// The rank of an opener of `Length` characters.
inline int opener(unsigned Length) {
  return OpenerBase - OpenerStep * capped(Length);
}
/// The rank of the closer that pairs with opener(Length).
inline int closer(unsigned Length) { return CloserBase + capped(Length); }
/// Right inside the openers of a statement of `Length` characters: `Slot`
/// 1..7 (body-start sub-orders, then before-statement code).
inline int inside(unsigned Length, int Slot) { return opener(Length) + Slot; }
} // namespace rank

/// Sub-order of what goes at the start of a body.
enum class StartOrder {
  SiteDecls = 0,
  Frame = 1,
  Region = 2,
  Hooks = 3,
  Watch = 4,
  Range = 5,
};

/// Per-function facts the kinds share: parents of statements, which
/// statement declares which variable. Built once per host function.
struct FunctionFacts {
  const HostFunction *Host = nullptr;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parent;
  llvm::DenseMap<const clang::Decl *, const clang::Stmt *> DeclStmtOf;
  std::vector<const clang::Stmt *> Preorder; ///< lambdas not entered
  /// The `case`/`default` labels, gotos and label addresses (`&&l`) of
  /// Preorder, in its order: what the jump checks look at.
  std::vector<const clang::Stmt *> Jumps;
};

/// Inserted code under construction, with the spans of spec code in it.
struct Code {
  struct Span {
    unsigned Begin, End;
    SpecLoc Loc;
  };
  std::string Text;
  std::vector<Span> Spans;

  Code() = default;
  Code(std::string T) : Text(std::move(T)) {}
  Code(const char *T) : Text(T) {}
  Code &operator+=(llvm::StringRef T) {
    Text += T.str();
    return *this;
  }
  Code &operator+=(const std::string &T) { return *this += llvm::StringRef(T); }
  Code &operator+=(const char *T) { return *this += llvm::StringRef(T); }
  Code &operator+=(const Code &C) {
    for (const Span &S : C.Spans)
      Spans.push_back({S.Begin + unsigned(Text.size()),
                       S.End + unsigned(Text.size()), S.Loc});
    Text += C.Text;
    return *this;
  }
  /// Appends spec code (`when`, an arg) located at `L` in the spec.
  void spec(llvm::StringRef Expr, SpecLoc L) {
    Spans.push_back(
        {unsigned(Text.size()), unsigned(Text.size() + Expr.size()), L});
    Text += Expr.str();
  }
  /// Marks the next character as standing for the spec code at `L`: an
  /// error clang reports there (a call of a sonde function the spec's value
  /// does not fit) is the spec's, at its first column.
  void specAnchor(SpecLoc L) {
    Spans.push_back({unsigned(Text.size()), unsigned(Text.size()), L});
  }
  bool empty() const { return Text.empty(); }
};

/// A reference to one site's static descriptor in inserted code.
struct SiteRef {
  std::string Var;    ///< `sonde_sites_5e6f7a8b[3]`: a `const sonde::Site &`
  std::string Table;  ///< `sonde_sites_5e6f7a8b`: its function's SiteTable
  unsigned Index = 0; ///< its index in the table
  std::string Tag;    ///< `1a2b3c4d`, for companion variables
  uint64_t Id = 0;
};

class PlanBuilder {
public:
  PlanBuilder(clang::ASTContext &Ctx, const Spec &S, std::string File);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const clang::LangOptions &LO;
  const Spec &S;
  Plan P;

  //--- Source helpers -------------------------------------------------------

  /// Whether `L` is a spelled location in the main file (not a macro).
  bool editable(clang::SourceLocation L) const;
  /// Whether `St`'s whole extent is spelled in the main file.
  bool editable(const clang::Stmt *St) const;
  unsigned offset(clang::SourceLocation L) const;
  unsigned line(clang::SourceLocation L) const;
  /// The offset just past the token at `L`.
  unsigned afterToken(clang::SourceLocation L) const;
  /// The offset just past statement `St`, its `;` included.
  std::optional<unsigned> afterStmt(const clang::Stmt *St) const;

  //--- Per-function facts ---------------------------------------------------

  const FunctionFacts &facts(const HostFunction &F);
  const clang::Stmt *parent(const FunctionFacts &Fx,
                            const clang::Stmt *St) const;
  /// Whether `St` sits where a statement goes (in a compound, under a
  /// label, or as the body of a control statement).
  bool isStatementPosition(const FunctionFacts &Fx,
                           const clang::Stmt *St) const;
  /// Whether `St` is the unbraced body of a control statement.
  bool isUnbracedBody(const FunctionFacts &Fx, const clang::Stmt *St) const;
  /// Whether variable `V` can be named at statement `At`.
  bool inScopeAt(const FunctionFacts &Fx, const clang::ValueDecl *V,
                 const clang::Stmt *At, bool AtBodyStart) const;

  //--- Sites ----------------------------------------------------------------

  /// Adds a site of probe `Pr` in host `F`; its stable id hashes the file,
  /// the function, the probe's selector, `Detail` and the ordinal of the
  /// (probe, detail) pair in the function. Declares its descriptor at the
  /// start of `F`'s body.
  SiteRef addSite(const Probe &Pr, const HostFunction &F, llvm::StringRef Kind,
                  llvm::StringRef Name, llvm::StringRef Detail,
                  clang::SourceLocation At, llvm::StringRef Watched = "",
                  llvm::StringRef Type = "", llvm::StringRef ArgNames = "");
  /// A `static thread_local` counter for `every:`, declared with the sites.
  std::string everyCounter(const HostFunction &F, const SiteRef &R);
  /// The run-time guard of `Pr` at site `R` (context frames, `when`,
  /// `every`), or empty if it always fires.
  Code guard(const Probe &Pr, const HostFunction &F, const SiteRef &R);

  //--- Insertions -----------------------------------------------------------

  /// Inserts `Text` at `Offset`. `Spans` are (offset in Text, spec loc) of
  /// spec code inside it.
  void insert(unsigned Offset, int Rank, Code Text, unsigned ProbeIndex = 0);
  /// At the start of `F`'s body.
  void atBodyStart(const HostFunction &F, StartOrder Order, Code Text,
                   unsigned ProbeIndex = 0);
  /// At the start of a (loop) body; braces an unbraced body.
  bool atBlockStart(const FunctionFacts &Fx, const clang::Stmt *Body, int Rank,
                    Code Text, unsigned ProbeIndex = 0);
  /// Before the closing brace of a (loop) body; braces an unbraced body.
  bool atBlockEnd(const FunctionFacts &Fx, const clang::Stmt *Body,
                  const Code &Text, unsigned ProbeIndex = 0);
  /// Right after statement `St`; braces it if it is an unbraced body.
  bool afterStatement(const FunctionFacts &Fx, const clang::Stmt *St,
                      const Code &Text, unsigned ProbeIndex = 0);
  /// Right before statement `St`; braces it if it is an unbraced body.
  bool beforeStatement(const FunctionFacts &Fx, const clang::Stmt *St,
                       Code Text, unsigned ProbeIndex = 0);
  /// Wraps statement `St` in `{ Before St }`.
  bool wrapStatement(const clang::Stmt *St, const Code &Before,
                     unsigned ProbeIndex = 0);
  /// Wraps expression `E` in `Open E Close`.
  bool wrapExpr(const clang::Expr *E, Code Open, Code Close,
                unsigned ProbeIndex = 0);
  /// Wraps expression `E` in a lambda that evaluates it (`Open` ends with
  /// `{ return `). Among wrappers of the same extent the lambda is the
  /// innermost: a wrapper that passes a reference through (`arg`,
  /// `passRef`) stays outside it, where the temporaries it refers to live
  /// to the end of the original full-expression, never inside, where they
  /// would die with the lambda's return statement.
  bool wrapExprInLambda(const clang::Expr *E, Code Open, Code Close,
                        unsigned ProbeIndex = 0);

  //--- Context frames -------------------------------------------------------

  /// The namespace-scope descriptor of context frame `G`, declared once
  /// per file: `::sonde_ctx::frame_<hex>`.
  std::string frameVar(const FuncGlob &G);

  //--- Runtime headers ------------------------------------------------------

  /// The translation unit needs runtime header `H` (`sonde/torch.h`) besides
  /// sonde/sonde.h.
  void needHeader(llvm::StringRef H) { Headers.insert(H.str()); }
  /// A value of type `T` is recorded: asks for the header that gives its
  /// `sonde::ValueTraits` (sonde/torch.h for tensors).
  void noteValueType(clang::QualType T);

  //--- Notes ----------------------------------------------------------------

  void note(clang::SourceLocation L, SourceNote::Level Lvl,
            const llvm::Twine &Msg, llvm::StringRef Flag);
  /// `probe 'AT' skipped: WHY [FLAG]`.
  void skipped(clang::SourceLocation L, const Probe &Pr, const llvm::Twine &Why,
               llvm::StringRef Flag);

  /// Sorts and checks the insertions and returns the plan.
  Plan finish();

private:
  bool brace(const clang::Stmt *St);
  /// Inserts `Open` at `Begin` and `Close` at `End`, ranked so that pairs
  /// nest, and records the pair for the nesting checks.
  void wrapRange(unsigned Begin, unsigned End, Code Open, Code Close,
                 unsigned ProbeIndex = 0);
  /// The insertions (by Seq) of lambda wrappers: innermost at one extent.
  llvm::DenseSet<unsigned> LambdaSeqs;
  unsigned NextSeq = 0;
  llvm::DenseSet<const clang::Stmt *> Braced;
  std::map<const clang::FunctionDecl *, FunctionFacts> Facts;
  /// What opens each function body: its site table, then `every` counters.
  std::map<const clang::FunctionDecl *, std::string> SiteDecls;
  /// One function's site table (sonde::SiteTable): its variable, how many
  /// sites it has, and their entries (siteTableEntry).
  struct SiteTableText {
    std::string Var;
    unsigned Count = 0;
    std::string File, Function;
    std::string Entries;
  };
  std::map<const clang::FunctionDecl *, SiteTableText> SiteTables;
  std::map<std::string, unsigned> Ordinals;
  /// The probe that made each (location, kind, name, watched) site.
  std::map<std::tuple<unsigned, std::string, std::string, std::string>,
           unsigned>
      SiteOwners;
  std::map<std::string, std::string> Frames;        ///< var -> declaration
  std::vector<std::pair<unsigned, unsigned>> Wraps; ///< for nesting checks
  struct PendingSpan {
    unsigned Seq, Begin, End;
    SpecLoc Loc;
    unsigned ProbeIndex;
  };
  std::vector<PendingSpan> Spans;
  std::set<std::string> Headers;
};

/// The name of `FD` through a `TORCH_MODULE` holder (`Net::forward` for
/// `NetImpl::forward`), or "" (see HostFunction::HolderName).
std::string torchHolderName(const clang::FunctionDecl *FD);

/// A C string literal for `S`.
std::string quote(llvm::StringRef S);
/// FNV-1a, 64 bits.
uint64_t stableHash(llvm::StringRef S);

} // namespace rewriter
} // namespace sonde

#endif

//===- PlanBuilder.cpp - Where inserted code may go -----------------------===//
//
// The builder's placement: which locations are the main file's own text,
// where a statement ends, and the insertions themselves (at a body's start, a
// block's start or end, before or after a statement, around a statement or an
// expression), ranked so that every opener and closer nest. finish() sorts
// them into the Plan. The sites they refer to are made in Sites.cpp, the
// per-function facts they consult in FunctionFacts.cpp.
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"
#include "SiteDescriptor.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

PlanBuilder::PlanBuilder(ASTContext &Ctx, const Spec &S, std::string File)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), S(S) {
  P.File = std::move(File);
  P.MatchCounts.assign(S.Probes.size(), 0);
}

bool PlanBuilder::editable(SourceLocation L) const {
  return L.isValid() && L.isFileID() && SM.isInMainFile(L);
}

bool PlanBuilder::editable(const Stmt *St) const {
  return St && editable(St->getBeginLoc()) && editable(St->getEndLoc());
}

unsigned PlanBuilder::offset(SourceLocation L) const {
  return SM.getFileOffset(L);
}

unsigned PlanBuilder::line(SourceLocation L) const {
  return SM.getPresumedLineNumber(SM.getExpansionLoc(L));
}

unsigned PlanBuilder::afterToken(SourceLocation L) const {
  return offset(Lexer::getLocForEndOfToken(L, 0, SM, LO));
}

std::optional<unsigned> PlanBuilder::afterStmt(const Stmt *St) const {
  if (!editable(St))
    return std::nullopt;
  // Compound-ending statements end at their last `}`; the rest end with a
  // `;` that is not part of the AST node (except DeclStmt and NullStmt).
  const Stmt *Last = St;
  while (true) {
    if (auto *If = dyn_cast<IfStmt>(Last))
      Last = If->getElse() ? If->getElse() : If->getThen();
    else if (auto *F = dyn_cast<ForStmt>(Last))
      Last = F->getBody();
    else if (auto *W = dyn_cast<WhileStmt>(Last))
      Last = W->getBody();
    else if (auto *R = dyn_cast<CXXForRangeStmt>(Last))
      Last = R->getBody();
    else if (auto *Sw = dyn_cast<SwitchStmt>(Last))
      Last = Sw->getBody();
    else if (auto *L = dyn_cast<LabelStmt>(Last))
      Last = L->getSubStmt();
    else if (auto *C = dyn_cast<SwitchCase>(Last))
      Last = C->getSubStmt();
    else if (auto *A = dyn_cast<AttributedStmt>(Last))
      Last = A->getSubStmt();
    else
      break;
  }
  if (isa<CompoundStmt>(Last) || isa<CXXTryStmt>(Last))
    return afterToken(Last->getEndLoc());
  if (isa<DeclStmt>(Last) || isa<NullStmt>(Last))
    return offset(Last->getEndLoc()) + 1;
  SourceLocation Semi =
      Lexer::findLocationAfterToken(Last->getEndLoc(), tok::semi, SM, LO,
                                    /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (Semi.isInvalid() || !editable(Semi))
    return std::nullopt;
  return offset(Semi);
}

void PlanBuilder::insert(unsigned Offset, int Rank, Code Text,
                         unsigned ProbeIndex) {
  assert(StringRef(Text.Text).find_first_of("\r\n") == StringRef::npos &&
         "an insertion never contains a newline");
  unsigned Seq = NextSeq++;
  for (const Code::Span &Sp : Text.Spans)
    Spans.push_back({Seq, Sp.Begin, Sp.End, Sp.Loc, ProbeIndex});
  P.Insertions.push_back({Offset, Rank, Seq, std::move(Text.Text)});
}

void PlanBuilder::atBodyStart(const HostFunction &F, StartOrder Order,
                              Code Text, unsigned ProbeIndex) {
  auto *Body = cast<CompoundStmt>(F.Body);
  insert(afterToken(Body->getLBracLoc()), rank::BodyStart + int(Order),
         std::move(Text), ProbeIndex);
}

bool PlanBuilder::brace(const Stmt *St) {
  if (Braced.count(St))
    return true;
  std::optional<unsigned> End = afterStmt(St);
  if (!End || !editable(St->getBeginLoc()))
    return false;
  wrapRange(offset(St->getBeginLoc()), *End, "{ ", " }");
  Braced.insert(St);
  return true;
}

void PlanBuilder::wrapRange(unsigned Begin, unsigned End, Code Open, Code Close,
                            unsigned ProbeIndex) {
  insert(Begin, rank::opener(End - Begin), std::move(Open), ProbeIndex);
  insert(End, rank::closer(End - Begin), std::move(Close), ProbeIndex);
  Wraps.push_back({Begin, End});
}

/// A body without the attributes before it (`[[likely]] stmt`): braces
/// go inside them.
static const Stmt *underAttributes(const Stmt *Body) {
  while (auto *A = dyn_cast_or_null<AttributedStmt>(Body))
    Body = A->getSubStmt();
  return Body;
}

bool PlanBuilder::atBlockStart(const FunctionFacts &Fx, const Stmt *Body,
                               int Rank, Code Text, unsigned ProbeIndex) {
  Body = underAttributes(Body);
  if (auto *C = dyn_cast<CompoundStmt>(Body)) {
    if (!editable(C->getLBracLoc()))
      return false;
    insert(afterToken(C->getLBracLoc()), Rank, std::move(Text), ProbeIndex);
    return true;
  }
  if (!brace(Body))
    return false;
  // After the inserted "{ ", the text needs no leading space.
  if (!Text.Text.empty() && Text.Text[0] == ' ') {
    Text.Text.erase(0, 1);
    for (Code::Span &S : Text.Spans) {
      --S.Begin;
      --S.End;
    }
  }
  Text.Text.push_back(' ');
  // Right after the new "{ ", before anything that opens inside the body
  // statement (a call site wrapped in its first expression).
  unsigned Begin = offset(Body->getBeginLoc());
  int Slot = Rank >= rank::BodyStart && Rank < rank::BodyStart + 6
                 ? 1 + (Rank - rank::BodyStart)
                 : 7;
  insert(Begin, rank::inside(*afterStmt(Body) - Begin, Slot), std::move(Text),
         ProbeIndex);
  return true;
}

bool PlanBuilder::atBlockEnd(const FunctionFacts &Fx, const Stmt *Body,
                             const Code &Text, unsigned ProbeIndex) {
  Body = underAttributes(Body);
  if (auto *C = dyn_cast<CompoundStmt>(Body)) {
    if (!editable(C->getRBracLoc()))
      return false;
    Code T(" ");
    T += Text;
    insert(offset(C->getRBracLoc()), rank::BlockEnd, std::move(T), ProbeIndex);
    return true;
  }
  if (!brace(Body))
    return false;
  Code T(" ");
  T += Text;
  insert(*afterStmt(Body), rank::BlockEnd, std::move(T), ProbeIndex);
  return true;
}

bool PlanBuilder::afterStatement(const FunctionFacts &Fx, const Stmt *St,
                                 const Code &Text, unsigned ProbeIndex) {
  std::optional<unsigned> End = afterStmt(St);
  if (!End)
    return false;
  if (isUnbracedBody(Fx, St) && !brace(St))
    return false;
  Code T(" ");
  T += Text;
  insert(*End, rank::AfterStmt, std::move(T), ProbeIndex);
  return true;
}

bool PlanBuilder::beforeStatement(const FunctionFacts &Fx, const Stmt *St,
                                  Code Text, unsigned ProbeIndex) {
  if (!editable(St->getBeginLoc()))
    return false;
  if (isUnbracedBody(Fx, St) && !brace(St))
    return false;
  Text.Text.push_back(' ');
  // After the openers that enclose the statement, before those inside it.
  unsigned Begin = offset(St->getBeginLoc());
  std::optional<unsigned> End = afterStmt(St);
  insert(Begin, End ? rank::inside(*End - Begin, 7) : rank::BeforeStmt,
         std::move(Text), ProbeIndex);
  return true;
}

bool PlanBuilder::wrapStatement(const Stmt *St, const Code &Before,
                                unsigned ProbeIndex) {
  std::optional<unsigned> End = afterStmt(St);
  if (!End || !editable(St->getBeginLoc()))
    return false;
  Code Open("{ ");
  Open += Before;
  Open += " ";
  wrapRange(offset(St->getBeginLoc()), *End, std::move(Open), " }", ProbeIndex);
  Braced.insert(St);
  return true;
}

bool PlanBuilder::wrapExpr(const Expr *E, Code Open, Code Close,
                           unsigned ProbeIndex) {
  if (!editable(E))
    return false;
  // A comma expression where the grammar allows one unparenthesized
  // (`return ++p, *this;`) would become two arguments of the wrapper.
  const Expr *Bare = E->IgnoreImplicit();
  bool Comma = false;
  if (auto *BO = dyn_cast<BinaryOperator>(Bare))
    Comma = BO->getOpcode() == BO_Comma;
  else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(Bare))
    Comma = OC->getOperator() == OO_Comma;
  if (Comma) {
    Open += "(";
    Code Inner(")");
    Inner += Close;
    Close = std::move(Inner);
  }
  wrapRange(offset(E->getBeginLoc()), afterToken(E->getEndLoc()),
            std::move(Open), std::move(Close), ProbeIndex);
  return true;
}

bool PlanBuilder::wrapExprInLambda(const Expr *E, Code Open, Code Close,
                                   unsigned ProbeIndex) {
  unsigned First = NextSeq;
  if (!wrapExpr(E, std::move(Open), std::move(Close), ProbeIndex))
    return false;
  for (unsigned Seq = First; Seq < NextSeq; ++Seq)
    LambdaSeqs.insert(Seq);
  return true;
}

void PlanBuilder::note(SourceLocation L, SourceNote::Level Lvl,
                       const Twine &Msg, StringRef Flag) {
  SourceNote N;
  N.Lvl = Lvl;
  SourceLocation E = SM.getExpansionLoc(L);
  N.File = P.File;
  N.Line = SM.getPresumedLineNumber(E);
  N.Col = SM.getPresumedColumnNumber(E);
  N.Message = Msg.str();
  N.Flag = Flag.str();
  N.RawLoc = E.getRawEncoding();
  P.Notes.push_back(std::move(N));
}

void PlanBuilder::skipped(SourceLocation L, const Probe &Pr, const Twine &Why,
                          StringRef Flag) {
  // Code that `#include` brings into a function body is not the main
  // file's text either; say so rather than blame a macro.
  std::string Text = Why.str();
  SourceLocation E = SM.getExpansionLoc(L);
  if (Flag == "sonde-macro" && L.isFileID() && E.isValid() &&
      !SM.isInMainFile(E)) {
    StringRef T(Text);
    if (T.consume_back(" is a macro expansion"))
      Text = (T + " is in an included file").str();
    Flag = "sonde-include";
  }
  note(L, SourceNote::Warning, "probe '" + Pr.At + "' skipped: " + Text, Flag);
}

Plan PlanBuilder::finish() {
  // Site descriptors open each function body, before anything that uses
  // them.
  for (auto &[FD, T] : SiteTables)
    SiteDecls[FD].insert(0, " " + siteTableDeclaration(T.Var, T.Count, T.File,
                                                       T.Function, T.Entries));
  for (auto &[FD, Decls] : SiteDecls) {
    const Stmt *Body = FD->getBody();
    if (auto *Try = dyn_cast<CXXTryStmt>(Body))
      Body = Try->getTryBlock();
    auto *C = cast<CompoundStmt>(Body);
    insert(afterToken(C->getLBracLoc()),
           rank::BodyStart + int(StartOrder::SiteDecls), Decls);
  }
  // Context-frame descriptors are namespace-scope inline variables, shared
  // by every file that names them; they go before the first top-level
  // declaration of the main file.
  if (!Frames.empty()) {
    SourceLocation First;
    // What this parse added: the main file is never in an AST file (a PCH),
    // whose declarations decls() would load.
    for (const Decl *D : Ctx.getTranslationUnitDecl()->noload_decls()) {
      SourceLocation L = D->getBeginLoc();
      if (D->hasAttrs())
        for (const Attr *A : D->getAttrs())
          if (A->getLocation().isValid() &&
              SM.isBeforeInTranslationUnit(A->getLocation(), L))
            L = A->getLocation();
      if (!editable(L) || D->isImplicit())
        continue;
      if (First.isInvalid() || SM.isBeforeInTranslationUnit(L, First))
        First = L;
    }
    if (First.isValid()) {
      std::string Text = "namespace sonde_ctx {";
      for (auto &[Var, Decl] : Frames)
        Text += " " + Decl;
      Text += " } ";
      insert(offset(First), rank::OpenerBase + 1, Text);
    }
  }
  // Closers of constructs with the same extent close in the reverse order
  // of their openers, so that every pair nests; lambda wrappers are the
  // innermost of their extent (wrapExprInLambda).
  auto IsCloser = [](const Insertion &I) {
    return I.Rank >= rank::CloserBase && I.Rank <= rank::CloserMax;
  };
  llvm::sort(P.Insertions, [&](const Insertion &A, const Insertion &B) {
    if (std::tie(A.Offset, A.Rank) != std::tie(B.Offset, B.Rank))
      return std::tie(A.Offset, A.Rank) < std::tie(B.Offset, B.Rank);
    bool LA = LambdaSeqs.count(A.Seq), LB = LambdaSeqs.count(B.Seq);
    if (LA != LB)
      return IsCloser(A) ? LA : LB;
    return IsCloser(A) ? A.Seq > B.Seq : A.Seq < B.Seq;
  });
  std::map<unsigned, unsigned> IndexOfSeq;
  for (unsigned I = 0; I < P.Insertions.size(); ++I)
    IndexOfSeq[P.Insertions[I].Seq] = I;
  for (const PendingSpan &Sp : Spans)
    P.SpecCode.push_back(
        {IndexOfSeq[Sp.Seq], Sp.Begin, Sp.End, Sp.Loc, Sp.ProbeIndex});
  P.RuntimeHeaders = {"sonde/sonde.h"};
  P.RuntimeHeaders.insert(P.RuntimeHeaders.end(), Headers.begin(),
                          Headers.end());
  llvm::sort(P.Sites, [](const PlanSite &A, const PlanSite &B) {
    return std::tie(A.Line, A.ProbeIndex, A.Id) <
           std::tie(B.Line, B.ProbeIndex, B.Id);
  });
  return std::move(P);
}

} // namespace rewriter
} // namespace sonde

//===- Plan.cpp - Sites and insertions ------------------------------------===//

#include "PlanBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

std::string quote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n' || C == '\r')
      continue;
    Out += C;
  }
  return Out + "\"";
}

/// The part of a path that ids hash: its last two components, the same
/// wherever the checkout lives.
static std::string idPath(StringRef File) {
  size_t Slash = File.rfind('/');
  if (Slash == StringRef::npos || Slash == 0)
    return File.str();
  size_t Before = File.rfind('/', Slash - 1);
  return Before == StringRef::npos ? File.str() : File.substr(Before + 1).str();
}

uint64_t stableHash(StringRef S) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : S) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

//===----------------------------------------------------------------------===//
// PlanBuilder
//===----------------------------------------------------------------------===//

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

std::string PlanBuilder::text(const Stmt *St) const {
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(St->getSourceRange()), SM, LO)
      .str();
}

namespace {
/// Walks a function body in preorder, recording parents; does not enter
/// lambda bodies (they are functions of their own).
void walk(FunctionFacts &Fx, const Stmt *St, const Stmt *Parent) {
  if (!St)
    return;
  Fx.Parent[St] = Parent;
  Fx.Preorder.push_back(St);
  if (isa<SwitchCase>(St) || isa<GotoStmt>(St) || isa<AddrLabelExpr>(St))
    Fx.Jumps.push_back(St);
  if (auto *DS = dyn_cast<DeclStmt>(St))
    for (const Decl *D : DS->decls()) {
      Fx.DeclStmtOf[D] = St;
      if (auto *DD = dyn_cast<DecompositionDecl>(D))
        for (const BindingDecl *B : DD->bindings())
          Fx.DeclStmtOf[B] = St;
    }
  if (auto *L = dyn_cast<LambdaExpr>(St)) {
    for (const Expr *Init : L->capture_inits())
      walk(Fx, Init, St);
    return;
  }
  // `a < b` through a defaulted `<=>` is rewritten into `(a <=> b) < 0`:
  // the calls of that form are not written anywhere (their ranges cover
  // half an operator). Walk only the operands. Likewise the syntactic
  // form of a pseudo-object expression.
  if (auto *RB = dyn_cast<CXXRewrittenBinaryOperator>(St)) {
    walk(Fx, RB->getLHS(), St);
    walk(Fx, RB->getRHS(), St);
    return;
  }
  if (auto *PO = dyn_cast<PseudoObjectExpr>(St)) {
    walk(Fx, PO->getSyntacticForm(), St);
    return;
  }
  // A range-for's begin/end/++/* calls are implicit: walk only what the
  // user wrote. The loop variable's declaration is recorded, not entered.
  if (auto *R = dyn_cast<CXXForRangeStmt>(St)) {
    walk(Fx, R->getInit(), St);
    walk(Fx, R->getRangeInit(), St);
    if (const DeclStmt *LV = R->getLoopVarStmt()) {
      Fx.Parent[LV] = St;
      Fx.Preorder.push_back(LV);
      for (const Decl *D : LV->decls()) {
        Fx.DeclStmtOf[D] = LV;
        if (auto *DD = dyn_cast<DecompositionDecl>(D))
          for (const BindingDecl *B : DD->bindings())
            Fx.DeclStmtOf[B] = LV;
      }
    }
    walk(Fx, R->getBody(), St);
    return;
  }
  for (const Stmt *Child : St->children())
    walk(Fx, Child, St);
}
} // namespace

const FunctionFacts &PlanBuilder::facts(const HostFunction &F) {
  auto It = Facts.find(F.FD);
  if (It != Facts.end())
    return It->second;
  FunctionFacts &Fx = Facts[F.FD];
  Fx.Host = &F;
  walk(Fx, F.FD->getBody(), nullptr);
  return Fx;
}

const Stmt *PlanBuilder::parent(const FunctionFacts &Fx, const Stmt *St) const {
  auto It = Fx.Parent.find(St);
  return It == Fx.Parent.end() ? nullptr : It->second;
}

bool PlanBuilder::isUnbracedBody(const FunctionFacts &Fx,
                                 const Stmt *St) const {
  if (isa<CompoundStmt>(St))
    return false;
  const Stmt *Par = parent(Fx, St);
  // `if (c) [[unlikely]] return x;`: the statement under the attributes is
  // the body, and is braced inside them (`[[unlikely]] { ... }`).
  if (isa_and_nonnull<AttributedStmt>(Par))
    return isUnbracedBody(Fx, Par);
  if (auto *If = dyn_cast_or_null<IfStmt>(Par))
    return If->getThen() == St || If->getElse() == St;
  if (auto *F = dyn_cast_or_null<ForStmt>(Par))
    return F->getBody() == St;
  if (auto *W = dyn_cast_or_null<WhileStmt>(Par))
    return W->getBody() == St;
  if (auto *D = dyn_cast_or_null<DoStmt>(Par))
    return D->getBody() == St;
  if (auto *R = dyn_cast_or_null<CXXForRangeStmt>(Par))
    return R->getBody() == St;
  return false;
}

bool PlanBuilder::isStatementPosition(const FunctionFacts &Fx,
                                      const Stmt *St) const {
  const Stmt *Par = parent(Fx, St);
  if (!Par)
    return false;
  if (isa<CompoundStmt>(Par))
    return true;
  if (isa<AttributedStmt>(Par))
    return isStatementPosition(Fx, Par);
  if (auto *L = dyn_cast<LabelStmt>(Par))
    return L->getSubStmt() == St;
  if (auto *C = dyn_cast<SwitchCase>(Par))
    return C->getSubStmt() == St;
  return isUnbracedBody(Fx, St);
}

bool PlanBuilder::inScopeAt(const FunctionFacts &Fx, const ValueDecl *V,
                            const Stmt *At, bool AtBodyStart) const {
  if (isa<ParmVarDecl>(V))
    return true;
  if (AtBodyStart)
    return false;
  auto It = Fx.DeclStmtOf.find(V);
  if (It == Fx.DeclStmtOf.end())
    return false;
  const Stmt *Decl = It->second;
  const Stmt *Scope = parent(Fx, Decl);
  if (!Scope)
    return false;
  // At must be inside the declaring scope, and not before the declaration.
  for (const Stmt *Cur = At; Cur; Cur = parent(Fx, Cur)) {
    if (Cur == Scope)
      return !isa<CompoundStmt>(Scope) ||
             offset(SM.getExpansionLoc(At->getBeginLoc())) >=
                 offset(SM.getExpansionLoc(Decl->getBeginLoc()));
  }
  return false;
}

SiteRef PlanBuilder::addSite(const Probe &Pr, const HostFunction &F,
                             StringRef Kind, StringRef Name, StringRef Detail,
                             SourceLocation At, StringRef Watched,
                             StringRef Type, StringRef ArgNames) {
  // The id hashes facts that survive unrelated edits: file, function,
  // selector, what the site is about and its ordinal among the same.
  std::string Key = idPath(P.File) + "|" + F.QualifiedName + "|" + Pr.At + "|" +
                    (Pr.Sec == Section::Probes ? "p" : "w") + "|" + Kind.str() +
                    "|" + Detail.str();
  unsigned Ordinal = Ordinals[Key]++;
  uint64_t Id = stableHash(Key + "|" + std::to_string(Ordinal));
  SiteRef R;
  R.Tag = utohexstr(Id & 0xffffffffu, /*LowerCase=*/true);
  while (R.Tag.size() < 8)
    R.Tag = "0" + R.Tag;
  R.Var = "sonde_site_" + R.Tag;
  R.Id = Id;

  // Two probes recording the same event at the same place: every hit
  // would be counted twice, and no reader could tell the records apart.
  auto Owner = SiteOwners.try_emplace({SM.getExpansionLoc(At).getRawEncoding(),
                                       Kind.str(), Name.str(), Watched.str()},
                                      Pr.Index);
  if (!Owner.second && Owner.first->second != Pr.Index) {
    const Probe &First = S.Probes[Owner.first->second];
    note(At, SourceNote::Error,
         "probes on lines " + Twine(First.AtLoc.Line) + " and " +
             Twine(Pr.AtLoc.Line) + " of " + S.Path + " both record " + Kind +
             " '" + Name + "' here; remove one, or give one a 'name:'",
         "sonde-conflict");
  }

  PlanSite Site;
  Site.Id = Id;
  Site.Kind = Kind.str();
  Site.Category = Pr.category();
  Site.Name = Name.str();
  Site.File = P.File;
  Site.Line = line(At);
  Site.Function = F.QualifiedName;
  Site.Watched = Watched.str();
  Site.Args = ArgNames.str();
  Site.Type = Type.str();
  Site.ProbeIndex = Pr.Index;
  Site.Selector = Pr.At;
  unsigned Flags = 0;
  if (!Pr.Enabled)
    Flags |= 1;
  if (Pr.Mode == ModeKind::Instant && Kind == "region")
    Flags |= 2;
  // A point event's args are pushed just around it, so marking them as
  // context gives them to that one record and nothing else.
  bool Point = Kind == "watch" || Kind == "instant";
  // An api site's arg names are its callee's parameters, not pushed values.
  if (!ArgNames.empty() && Kind != "api" && (Pr.contextArgs() || Point))
    Flags |= 4;
  Flags |= unsigned(Pr.Summary) << 3;
  Site.Flags = Flags;
  ++P.MatchCounts[Pr.Index];

  static const std::map<std::string, const char *> Kinds = {
      {"region", "Region"}, {"instant", "Instant"}, {"watch", "Watch"},
      {"loop", "Loop"},     {"frame", "Frame"},     {"state", "State"},
      {"api", "Api"}};
  std::string Decl = " static ::sonde::Site " + R.Var +
                     "(::sonde::SiteKind::" + Kinds.at(Site.Kind) + ", " +
                     quote(Site.Category) + ", " + quote(Site.Name) + ", " +
                     quote(Site.File) + ", " + std::to_string(Site.Line) +
                     ", " + quote(Site.Function) + ", 0x" +
                     utohexstr(Id, true) + "ull";
  if (Flags || !ArgNames.empty() || !Type.empty())
    Decl += ", " + std::to_string(Flags);
  if (!ArgNames.empty() || !Type.empty())
    Decl += ", " + quote(ArgNames);
  if (!Type.empty())
    Decl += ", " + quote(Type);
  Decl += ");";
  SiteDecls[F.FD] += Decl;
  P.Sites.push_back(std::move(Site));
  return R;
}

/// Whether `T` is a tensor, or a template of one (`std::vector<Tensor>`).
static bool involvesTensor(QualType T, int Depth = 0) {
  if (T.isNull() || Depth > 4)
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  while (const Type *P = T->getPointeeOrArrayElementType())
    if (P == T.getTypePtr())
      break;
    else
      T = QualType(P, 0).getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  if (Name == "at::Tensor" || Name == "at::TensorBase")
    return true;
  if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type &&
          involvesTensor(A.getAsType(), Depth + 1))
        return true;
  return false;
}

/// Whether `T` is a std::vector or std::array of numbers.
static bool isNumberContainer(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() ||
      (Spec->getName() != "vector" && Spec->getName() != "array"))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type &&
         Args[0].getAsType()->isArithmeticType();
}

/// Whether the translation unit declares at::Tensor (includes libtorch).
static bool declaresTensor(ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      if (NS->getName() == "at")
        for (const NamedDecl *Inner :
             NS->lookup(&Ctx.Idents.get("Tensor")))
          if (isa<CXXRecordDecl>(Inner))
            return true;
  return false;
}

void PlanBuilder::noteValueType(QualType T) {
  // A dependent type is one text for every instantiation: any of them may be
  // a tensor or a container, whose ValueTraits come from these headers
  // (without them the value would silently record nothing).
  if (!T.isNull() && T->isDependentType()) {
    needHeader(declaresTensor(Ctx) ? "sonde/torch.h" : "sonde/containers.h");
    return;
  }
  if (involvesTensor(T))
    needHeader("sonde/torch.h");
  else if (isNumberContainer(T))
    needHeader("sonde/containers.h");
}

std::string PlanBuilder::everyCounter(const HostFunction &F, const SiteRef &R) {
  std::string Var = "sonde_every_" + R.Tag;
  SiteDecls[F.FD] += " static thread_local ::std::uint32_t " + Var + " = 0;";
  return Var;
}

Code PlanBuilder::guard(const Probe &Pr, const HostFunction &F,
                        const SiteRef &R) {
  Code G;
  auto And = [&G] {
    if (!G.empty())
      G += " && ";
  };
  for (const FuncGlob &C : Pr.Q.Context) {
    And();
    G += "::sonde::inFrame(" + frameVar(C) + ")";
  }
  if (!Pr.When.empty()) {
    And();
    G += "(";
    G.spec(Pr.When, Pr.WhenLoc);
    G += ")";
  }
  if (Pr.Every > 1) {
    And();
    G += "::sonde::every(" + everyCounter(F, R) + ", " +
         std::to_string(Pr.Every) + ")";
  }
  return G;
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
                             Code Text, unsigned ProbeIndex) {
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
                                 Code Text, unsigned ProbeIndex) {
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

bool PlanBuilder::wrapStatement(const Stmt *St, Code Before,
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

std::string PlanBuilder::frameVar(const FuncGlob &G) {
  uint64_t Id = stableHash("frame|" + G.FileGlob + "|" + G.Glob);
  std::string Var = "frame_" + utohexstr(Id, true);
  if (!Frames.count(Var))
    Frames[Var] = "inline ::sonde::Site " + Var +
                  "(::sonde::SiteKind::Frame, \"\", " + quote(G.Glob) +
                  ", \"\", 0, " + quote(G.Glob) + ", 0x" + utohexstr(Id, true) +
                  "ull);";
  return "::sonde_ctx::" + Var;
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
  // A site reached twice on the way (its declaration and its code) says
  // the same thing once.
  for (const SourceNote &Old : P.Notes)
    if (Old.RawLoc == N.RawLoc && Old.Lvl == N.Lvl && Old.Message == N.Message)
      return;
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
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
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

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void Plan::printSites(raw_ostream &OS) const {
  if (RuntimeHeaders.size() > 1) {
    OS << "# headers:";
    for (const std::string &H : RuntimeHeaders)
      OS << " " << H;
    OS << "\n";
  }
  for (const PlanSite &S : Sites) {
    OS << format_hex_no_prefix(S.Id, 16) << " " << S.Kind << " " << S.Category
       << " " << S.Name << " " << S.File << ":" << S.Line << " " << S.Function;
    if (!S.Watched.empty())
      OS << " " << S.Watched;
    if (!S.Type.empty())
      OS << " :" << S.Type;
    if (!S.Args.empty())
      OS << " args=" << S.Args;
    OS << "\n";
  }
}

void Plan::printSitesJson(raw_ostream &OS) const {
  json::Array A;
  for (const PlanSite &S : Sites) {
    json::Object O{{"id", utohexstr(S.Id, true)},
                   {"kind", S.Kind},
                   {"category", S.Category},
                   {"name", S.Name},
                   {"file", S.File},
                   {"line", int64_t(S.Line)},
                   {"function", S.Function},
                   {"watched", S.Watched},
                   {"type", S.Type},
                   {"args", S.Args},
                   {"flags", int64_t(S.Flags)},
                   {"probe", int64_t(S.ProbeIndex)},
                   {"at", S.Selector}};
    A.push_back(std::move(O));
  }
  OS << formatv("{0:2}", json::Value(std::move(A)));
}

//===----------------------------------------------------------------------===//
// computePlan
//===----------------------------------------------------------------------===//

namespace {

/// Collects the function definitions of the main file, in order. Template
/// patterns are visited once; their instantiations are not.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  FunctionCollector(const SourceManager &SM) : SM(SM) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit())
      return true;
    if (auto *M = dyn_cast<CXXMethodDecl>(FD))
      if (M->getParent()->isLambda())
        return true;
    SourceLocation L = SM.getExpansionLoc(FD->getLocation());
    if (!SM.isInMainFile(L))
      return true;
    Found.push_back(FD);
    return true;
  }
  /// Site descriptors that sonde inserted (`static ::sonde::Site
  /// sonde_site_...`): the file is an instrumented copy. Declarations, not
  /// text, so a comment that quotes one does not count.
  bool VisitVarDecl(VarDecl *VD) {
    if (SiteDescriptor.isValid() || !VD->getName().starts_with("sonde_site_"))
      return true;
    const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
    if (!RD || RD->getQualifiedNameAsString() != "sonde::Site")
      return true;
    SourceLocation L = SM.getExpansionLoc(VD->getLocation());
    if (SM.isInMainFile(L))
      SiteDescriptor = L;
    return true;
  }
  const SourceManager &SM;
  std::vector<FunctionDecl *> Found;
  SourceLocation SiteDescriptor;
};

/// Whether `FD` replaces or overloads what every allocation goes through:
/// a namespace-scope `operator new`/`delete` (any form) or a C allocator
/// (`malloc`, `free`, ...) defined with C linkage. Class-specific
/// `operator new` is instrumented: the runtime never allocates through it.
bool isAllocator(const FunctionDecl *FD) {
  if (!FD->getDeclContext()->getRedeclContext()->isFileContext())
    return false;
  switch (FD->getOverloadedOperator()) {
  case OO_New:
  case OO_Delete:
  case OO_Array_New:
  case OO_Array_Delete:
    return true;
  default:
    break;
  }
  if (!FD->isExternC() || !FD->getDeclName().isIdentifier())
    return false;
  return StringSwitch<bool>(FD->getName())
      .Cases("malloc", "calloc", "realloc", "free", "aligned_alloc", true)
      .Cases("posix_memalign", "memalign", "valloc", "pvalloc", true)
      .Cases("reallocarray", "malloc_usable_size", true)
      .Default(false);
}

/// Why a function cannot be instrumented, or "".
std::string whyNot(const FunctionDecl *FD, const PlanBuilder &B,
                   std::string &Flag) {
  // `= default` and `= delete` have no body of their own: nothing to say.
  if (FD->isDefaulted() || FD->isDeleted() || !FD->getBody()) {
    Flag = "";
    return "-";
  }
  if (FD->isConsteval() || FD->isConstexpr()) {
    Flag = "sonde-constexpr";
    return FD->isConsteval() ? "function is consteval"
                             : "function is constexpr";
  }
  if (isAllocator(FD)) {
    // The runtime allocates while it starts and registers sites: a probe
    // in the allocator would re-enter it (a deadlock on the first record).
    Flag = "sonde-allocator";
    return "function is a global allocation function";
  }
  if (FD->hasAttr<NakedAttr>()) {
    // A naked function's body may only hold asm: no prologue, no locals.
    Flag = "sonde-unsupported";
    return "function is naked";
  }
  const Stmt *Body = FD->getBody();
  if (isa<CoroutineBodyStmt>(Body)) {
    Flag = "sonde-coroutine";
    return "function is a coroutine";
  }
  if (!isa<CompoundStmt>(Body) && !isa<CXXTryStmt>(Body)) {
    Flag = "";
    return "-";
  }
  if (!B.editable(Body)) {
    Flag = "sonde-macro";
    return "body is a macro expansion";
  }
  return "";
}

/// Whether `RD` derives from `torch::nn::Module` (directly, or through
/// `torch::nn::Cloneable<RD>`).
bool isTorchModule(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 16)
    return false;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases()) {
    const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl();
    if (!B)
      continue;
    if (B->getQualifiedNameAsString() == "torch::nn::Module" ||
        isTorchModule(B, Depth + 1))
      return true;
  }
  return false;
}

/// Whether `T` is `torch::nn::ModuleHolder<Impl>`, or a class deriving from
/// it (what `TORCH_MODULE` declares).
bool isHolderOf(QualType T, const CXXRecordDecl *Impl, unsigned Depth = 0) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || Depth > 16)
    return false;
  if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getQualifiedNameAsString() == "torch::nn::ModuleHolder" &&
        Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *Arg =
          Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      return Arg && Arg->getCanonicalDecl() == Impl->getCanonicalDecl();
    }
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases())
    if (isHolderOf(Base.getType(), Impl, Depth + 1))
      return true;
  return false;
}

/// `Net::forward` for `NetImpl::forward` when `NetImpl` is a libtorch module
/// and `Net`, declared beside it, is its `torch::nn::ModuleHolder` (what
/// `TORCH_MODULE(Net)` declares). Both are checked, not only the names:
/// a class that happens to end in `Impl` gets no second name.
std::string holderNameOf(const FunctionDecl *FD) {
  auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M)
    return "";
  const CXXRecordDecl *Impl = M->getParent();
  StringRef Name = Impl->getName();
  if (!Name.ends_with("Impl") || Name.size() == 4 || !isTorchModule(Impl))
    return "";
  StringRef Holder = Name.drop_back(4);
  ASTContext &Ctx = FD->getASTContext();
  const DeclContext *DC = Impl->getDeclContext()->getRedeclContext();
  for (const NamedDecl *ND : DC->lookup(&Ctx.Idents.get(Holder))) {
    QualType T;
    if (auto *RD = dyn_cast<CXXRecordDecl>(ND))
      T = Ctx.getRecordType(RD);
    else if (auto *TD = dyn_cast<TypedefNameDecl>(ND))
      T = TD->getUnderlyingType();
    if (!isHolderOf(T, Impl))
      continue;
    std::string Qualified = FD->getQualifiedNameAsString();
    std::string Class = Impl->getQualifiedNameAsString();
    if (!StringRef(Qualified).starts_with(Class))
      return "";
    return cast<NamedDecl>(ND)->getQualifiedNameAsString() +
           Qualified.substr(Class.size());
  }
  return "";
}

/// Whether `F` has a parameter or a local variable named `Name` anywhere in
/// its body (in scope at some site or not): what a capture can name.
bool declares(PlanBuilder &B, const HostFunction &F, StringRef Name) {
  for (const ParmVarDecl *PV : F.FD->parameters())
    if (PV->getName() == Name)
      return true;
  for (const auto &[D, DS] : B.facts(F).DeclStmtOf) {
    auto *VD = dyn_cast<ValueDecl>(D);
    if (VD && VD->getDeclName().isIdentifier() && VD->getName() == Name)
      return true;
  }
  return false;
}

/// A capture that no function `Pr` matches in this file declares is a
/// mistake in the spec (a typo, a renamed variable), not a site where it is
/// out of scope: one error at the capture in the spec, and no warning per
/// site. A name declared in some matched function stays a per-site warning
/// where it is not in scope.
void checkCaptures(PlanBuilder &B, const Spec &S, const Probe &Pr,
                   ArrayRef<const HostFunction *> Matched,
                   std::vector<SpecNote> &Errors) {
  if (Matched.empty())
    return;
  for (const Item &C : Pr.Q.Captures) {
    if (any_of(Matched,
               [&](const HostFunction *H) { return declares(B, *H, C.Name); }))
      continue;
    std::string Where;
    for (size_t I = 0; I < Matched.size() && I < 3; ++I)
      Where += (I ? ", '" : "'") + Matched[I]->QualifiedName + "'";
    if (Matched.size() > 3)
      Where += ", ...";
    Errors.push_back(
        {S.selectorLoc(Pr, C.Offset), std::max(1u, C.Length),
         "capture '" + C.Name + "' of probe '" + Pr.At +
             "' names no parameter or local variable of " +
             (Matched.size() > 1 ? "any function it matches (" + Where + ")"
                                 : Where),
         Pr.Index});
  }
}

std::string fileName(const SourceManager &SM) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!FE)
    return "<main>";
  StringRef Name = FE->getName();
  Name.consume_front("./");
  return Name.str();
}

} // namespace

std::string torchHolderName(const FunctionDecl *FD) {
  return FD ? holderNameOf(FD) : "";
}

Expected<Plan> computePlan(ASTContext &Ctx, const Spec &S,
                           const PlanOptions &Opts) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string File = Opts.FileName.empty() ? fileName(SM) : Opts.FileName;
  PlanBuilder B(Ctx, S, File);
  FunctionCollector Collect(SM);
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A copy that sonde already instrumented would get every site a second
  // time, under the same stable names: redefinitions, reported as a sonde
  // bug. Found when a build listed one file in two targets (fmt's os.cc).
  if (Collect.SiteDescriptor.isValid())
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is already instrumented by sonde (line %u holds its site "
        "descriptors): instrument the original source, not an instrumented "
        "copy",
        File.c_str(), SM.getExpansionLineNumber(Collect.SiteDescriptor));

  std::vector<HostFunction> Hosts;
  Hosts.reserve(Collect.Found.size());
  for (FunctionDecl *FD : Collect.Found) {
    HostFunction H;
    H.FD = FD;
    H.Body = FD->getBody();
    if (auto *Try = dyn_cast<CXXTryStmt>(H.Body))
      H.Body = Try->getTryBlock();
    H.QualifiedName = FD->getQualifiedNameAsString();
    H.HolderName = torchHolderName(FD);
    Hosts.push_back(std::move(H));
  }

  // The names an unmatched selector may have meant (Unmatched.h), holders'
  // included: they select as well.
  for (const HostFunction &H : Hosts) {
    B.P.HostNames.push_back(H.QualifiedName);
    if (!H.HolderName.empty())
      B.P.HostNames.push_back(H.HolderName);
  }
  const auto &Kinds = selectorKinds();
  std::set<std::pair<const FunctionDecl *, std::string>> FramesPlaced;
  std::vector<SpecNote> SpecErrors;
  for (const Probe &Pr : S.Probes) {
    const SelectorKind *Kind = nullptr;
    for (const auto &K : Kinds)
      if (K->handles(Pr)) {
        Kind = K.get();
        break;
      }
    if (!Kind)
      continue;
    std::vector<const HostFunction *> Matched;
    for (const HostFunction &H : Hosts) {
      if (!H.matchedBy(Pr.Q.Host) || !Pr.Q.Host.matchesFile(File) ||
          !S.inScope(File, H.QualifiedName))
        continue;
      std::string Flag;
      std::string Why = whyNot(H.FD, B, Flag);
      if (Why == "-")
        continue;
      if (!Why.empty()) {
        B.skipped(H.FD->getLocation(), Pr, "'" + H.QualifiedName + "': " + Why,
                  Flag);
        continue;
      }
      Kind->collect(B, Pr, H);
      Matched.push_back(&H);
    }
    checkCaptures(B, S, Pr, Matched, SpecErrors);
    // Context frames: every function that a context glob matches marks
    // itself active on the thread while it runs.
    for (const FuncGlob &G : Pr.Q.Context) {
      for (const HostFunction &H : Hosts) {
        if (!H.matchedBy(G) || !G.matchesFile(File) ||
            !S.inScope(File, H.QualifiedName))
          continue;
        if (!FramesPlaced.insert({H.FD, G.FileGlob + "/" + G.Glob}).second)
          continue;
        std::string Flag;
        if (!whyNot(H.FD, B, Flag).empty())
          continue;
        std::string Var = B.frameVar(G);
        B.atBodyStart(H, StartOrder::Frame,
                      " ::sonde::Frame sonde_frame_" +
                          Var.substr(Var.rfind('_') + 1) + "(" + Var + ");");
      }
    }
  }
  // `torch_ops:` asks for op tracing once per process: the file that
  // defines main() switches it on as the program starts.
  if (S.Ops.On)
    for (const HostFunction &H : Hosts)
      if (H.FD->isMain() && B.editable(H.FD->getEndLoc())) {
        uint64_t Id = stableHash("torch_ops|" + File);
        B.insert(B.afterToken(H.FD->getEndLoc()), rank::AfterStmt,
                 " [[maybe_unused]] static const bool sonde_torch_ops_" +
                     utohexstr(Id & 0xffffffffu, true) +
                     " = ::sonde::torch::enableOpTracing(" +
                     (S.Ops.Shapes ? "true" : "false") + ");");
        B.needHeader("sonde/torch.h");
      }
  Plan P = B.finish();
  P.SpecErrors = std::move(SpecErrors);
  // The spec must be fixed first: per-site notes would only bury its errors.
  if (!P.SpecErrors.empty())
    P.Notes.clear();
  // Inserted code needs C++17 (if constexpr, inline variables); under an
  // older standard it would not compile, and the errors would come from
  // inside sonde.h. Found on jsoncpp, which sets CMAKE_CXX_STANDARD 11. A
  // file that gets no insertion still compiles as it is.
  const LangOptions &LO = Ctx.getLangOpts();
  if (!P.Insertions.empty() && !LO.CPlusPlus17)
    return createStringError(
        inconvertibleErrorCode(),
        "instrumented code needs C++17 or later, and '%s' is compiled as %s: "
        "compile it with -std=c++17 (or leave it out of the spec's scope)",
        File.c_str(),
        LangStandard::getLangStandardForKind(LO.LangStd).getName());
  return P;
}

} // namespace rewriter
} // namespace sonde

//===- Emit.cpp - The code selector kinds insert --------------------------===//
//
// Site names, ride-along values and the region, instant and watch forms the
// selector kinds share (see Emit.h).
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "clang/AST/Decl.h"

using namespace clang;
using namespace llvm;

namespace sonde {
namespace rewriter {

/// The event name: `name:`, else the category's child (`compute.forward`
/// gives `forward`), else `Fallback`.
std::string eventName(const Probe &Pr, StringRef Fallback) {
  if (!Pr.Name.empty())
    return Pr.Name;
  StringRef C = Pr.Category;
  size_t Dot = C.find('.');
  if (Dot != StringRef::npos && !C.ends_with(".init"))
    return C.substr(Dot + 1).str();
  return Fallback.str();
}

/// Whether a guard (context frames, `when`, `every`) makes `Pr` conditional.
bool isGuarded(const Probe &Pr) {
  return !Pr.Q.Context.empty() || !Pr.When.empty() || Pr.Every > 1;
}

namespace {

const ValueDecl *findLocal(PlanBuilder &B, const FunctionFacts &Fx,
                           const HostFunction &F, StringRef Name,
                           const Stmt *At, bool AtBodyStart) {
  for (const ParmVarDecl *PV : F.FD->parameters())
    if (PV->getName() == Name)
      return PV;
  for (const auto &[D, DS] : Fx.DeclStmtOf) {
    auto *VD = dyn_cast<ValueDecl>(D);
    if (VD && VD->getDeclName().isIdentifier() && VD->getName() == Name &&
        B.inScopeAt(Fx, VD, At, AtBodyStart))
      return VD;
  }
  return nullptr;
}

StringRef writerName(WatchWriter W) {
  switch (W) {
  case WatchWriter::Int:
    return "watchIntAt";
  case WatchWriter::UInt:
    return "watchUIntAt";
  case WatchWriter::Float:
    return "watchFloatAt";
  case WatchWriter::Bool:
    return "watchBoolAt";
  case WatchWriter::Any:
    break;
  }
  return "watchAt";
}

/// A watch of `Value` as an expression of type void.
Code watchExpr(const SiteRef &R, StringRef Value, WatchWriter W,
               const RideAlong &A) {
  Code C;
  if (A.empty()) {
    C += "::sonde::" + writerName(W).str() + "(" + R.Table + ", " +
         std::to_string(R.Index) + ", " + Value.str() + ")";
  } else {
    C += "::sonde::watchArgs(" + R.Var + ", " + Value.str();
    C += A.Values;
    C += ")";
  }
  return C;
}

} // namespace

WatchWriter watchWriterFor(QualType T) {
  if (T.isNull() || T->isDependentType())
    return WatchWriter::Any;
  const auto *BT =
      dyn_cast<BuiltinType>(T.getNonReferenceType().getCanonicalType());
  if (!BT)
    return WatchWriter::Any;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
    return WatchWriter::Bool;
  case BuiltinType::SChar:
  case BuiltinType::Short:
  case BuiltinType::Int:
  case BuiltinType::Long:
  case BuiltinType::LongLong:
    return WatchWriter::Int;
  case BuiltinType::UChar:
  case BuiltinType::UShort:
  case BuiltinType::UInt:
  case BuiltinType::ULong:
  case BuiltinType::ULongLong:
  case BuiltinType::Char8:
  case BuiltinType::Char16:
  case BuiltinType::Char32:
    return WatchWriter::UInt;
  case BuiltinType::Double:
    return WatchWriter::Float;
  default:
    // char and wchar_t (the signedness of the compile); float and long
    // double, whose implicit conversions to double -Wdouble-promotion and
    // -Wfloat-conversion report at the site (watchAt converts them in a
    // system header); 128-bit integers and the extended floating types (not
    // every library's is_arithmetic).
    return WatchWriter::Any;
  }
}

RideAlong rideAlong(PlanBuilder &B, const FunctionFacts &Fx, const Probe &Pr,
                    const HostFunction &F, const Stmt *At, bool AtBodyStart,
                    SourceLocation NoteAt) {
  RideAlong R;
  for (const Item &C : Pr.Q.Captures) {
    const ValueDecl *Local = findLocal(B, Fx, F, C.Name, At, AtBodyStart);
    if (Local)
      B.noteValueType(Local->getType());
    if (!Local) {
      B.note(NoteAt, SourceNote::Warning,
             "capture '" + C.Name + "' of probe '" + Pr.At +
                 "' is not in scope here; recorded without it",
             "sonde-capture");
      continue;
    }
    R.Values += ", " + C.Name;
    R.Names += (R.Names.empty() ? "" : ",") + (C.As.empty() ? C.Name : C.As);
  }
  for (const SpecArg &A : Pr.Args) {
    R.Values += ", (";
    R.Values.spec(A.Expr, A.ExprLoc);
    R.Values += ")";
    R.Names += (R.Names.empty() ? "" : ",") + A.Name;
  }
  // `items:` rides along as one more arg under the protocol's name; the
  // count is taken by reference (sonde::itemCount), never a copy. A value
  // that is no count fails the call at its name: the spec's error.
  if (!Pr.Items.empty()) {
    R.Values += ", ";
    R.Values.specAnchor(Pr.ItemsLoc);
    R.Values += "::sonde::itemCount((";
    R.Values.spec(Pr.Items, Pr.ItemsLoc);
    R.Values += "))";
    R.Names += std::string(R.Names.empty() ? "" : ",") + ::sonde::ItemsArg;
  }
  return R;
}

Code condition(const Code &G) { return G.empty() ? Code("true") : G; }

/// `if (G) Stmt` or `Stmt`.
Code guarded(const Code &G, const Code &St) {
  if (G.empty())
    return St;
  Code C("if (");
  C += G;
  C += ") ";
  C += St;
  return C;
}

Code regionSite(const SiteRef &R, const RideAlong &A) {
  if (A.empty())
    return Code(R.Table + ", " + std::to_string(R.Index));
  Code C(R.Var);
  C += A.Values;
  return C;
}

/// A region object named `Var` for site `R`.
Code regionDecl(const Probe &Pr, const SiteRef &R, const Code &G,
                const RideAlong &A, StringRef Var, bool Closable) {
  bool Instant = Pr.Mode == ModeKind::Instant;
  Code C;
  if (!Closable && G.empty() && !Instant) {
    C += "::sonde::InsertedRegion " + Var.str() + "(";
    C += regionSite(R, A);
    C += ");";
    return C;
  }
  if (!Closable && G.empty() && Instant && A.empty()) {
    C += "::sonde::InstantRegion " + Var.str() + "(" + R.Var + ");";
    return C;
  }
  // Guarded, an instant with ride-alongs, or closed early: only a
  // CondRegion takes a condition and can close.
  C += "::sonde::CondRegion " + Var.str() + "(";
  C += condition(G);
  C += ", " + R.Var;
  C += A.Values;
  C += ");";
  return C;
}

/// A point in time: an instant, with its ride-alongs.
Code instantStmt(const SiteRef &R, const Code &G, const RideAlong &A) {
  Code C;
  if (A.empty()) {
    C += "::sonde::instant(" + R.Var + ");";
  } else {
    C += "::sonde::instantArgs(" + R.Var;
    C += A.Values;
    C += ");";
  }
  return guarded(G, C);
}

Code watchStmt(const SiteRef &R, const Code &G, StringRef Value, WatchWriter W,
               const RideAlong &A) {
  Code C = watchExpr(R, Value, W, A);
  C += ";";
  return guarded(G, C);
}

/// A watch usable where an expression is expected.
Code watchAsExpr(const SiteRef &R, const Code &G, StringRef Value,
                 WatchWriter W, const RideAlong &A) {
  if (G.empty())
    return watchExpr(R, Value, W, A);
  Code C("((");
  C += G;
  C += ") ? ";
  C += watchExpr(R, Value, W, A);
  C += " : void())";
  return C;
}

} // namespace rewriter
} // namespace sonde

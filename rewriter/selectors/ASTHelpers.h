//===- ASTHelpers.h - AST questions the selector kinds ask ------*- C++ -*-===//
//
// Small questions about statements, expressions and types that several
// selector kinds ask: where an expression really sits, whether it is
// evaluated, which variable a write writes, whether a type matches `:TYPE`,
// whether one statement is inside another.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_SELECTORS_ASTHELPERS_H
#define SONDE_REWRITER_SELECTORS_ASTHELPERS_H

#include "PlanBuilder.h"

#include "llvm/ADT/StringRef.h"

namespace clang {
class CXXRecordDecl;
class SwitchCase;
} // namespace clang

namespace sonde {
namespace rewriter {

/// Strips the nodes that do not change what an expression is.
const clang::Stmt *skipTransparent(const PlanBuilder &B,
                                   const FunctionFacts &Fx,
                                   const clang::Stmt *St);

/// Whether `St` is in an unevaluated or constant context (sizeof,
/// decltype, noexcept, typeid, `if constexpr` conditions).
bool unevaluated(const PlanBuilder &B, const FunctionFacts &Fx,
                 const clang::Stmt *St);

/// The variable a write expression writes, if it is a plain name.
const clang::ValueDecl *writtenVar(const clang::Stmt *St, bool &PostIncDec);

/// `:TYPE` filters by the declared type, written or canonical.
bool typeMatches(clang::ASTContext &Ctx, clang::QualType T,
                 llvm::StringRef Glob);

/// Whether `St` is `Scope` or inside it.
bool inside(const PlanBuilder &B, const FunctionFacts &Fx,
            const clang::Stmt *St, const clang::Stmt *Scope);

/// The switch that `case` or `default` `SC` belongs to.
const clang::Stmt *switchOf(const PlanBuilder &B, const FunctionFacts &Fx,
                            const clang::SwitchCase *SC);

/// Whether the language may copy a `RD` object it returns or passes
/// ([class.temporary]/3): trivially copyable with a trivial destructor, so
/// one more copy is one that could have been made anyway, with no effect.
bool permittedCopy(const clang::CXXRecordDecl *RD);

/// Whether `St` names a structured binding or __func__ (which a lambda
/// cannot capture before C++20, or names differently).
bool mentionsBinding(const clang::Stmt *St);

/// Whether `St` materializes a temporary.
bool hasTemporary(const clang::Stmt *St);

} // namespace rewriter
} // namespace sonde

#endif

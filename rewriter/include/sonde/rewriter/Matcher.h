//===- sonde/rewriter/Matcher.h - Selector kinds over the AST ---*- C++ -*-===//
//
// Each kind of focus a selector can have is one small class, shaped like a
// clang-tidy check: `handles` says which probes it takes, `collect` finds
// its sites in one function definition and records them in the plan being
// built. Each kind lives in a file named after it (`call-site` in
// rewriter/selectors/CallSiteKind.cpp), and rewriter/selectors/
// SelectorKinds.cpp is the one table of them (selectorKinds()).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_MATCHER_H
#define SONDE_REWRITER_MATCHER_H

#include "sonde/rewriter/Spec.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class Stmt;
} // namespace clang

namespace sonde {
namespace rewriter {

class PlanBuilder;

/// A function definition in the main file that a selector's host matched.
struct HostFunction {
  const clang::FunctionDecl *FD = nullptr;
  const clang::Stmt *Body = nullptr; ///< the compound body (try block's, if
                                     ///< a function-try-block)
  std::string QualifiedName;
  /// A member of a libtorch module `XImpl` that `TORCH_MODULE(X)` wraps, by
  /// the holder's name (`Net::forward` for `NetImpl::forward`); else empty.
  std::string HolderName;

  /// Whether `G` selects this function, by its name or its holder's.
  bool matchedBy(const FuncGlob &G) const {
    return G.matches(QualifiedName) ||
           (!HolderName.empty() && G.matches(HolderName));
  }
};

/// One kind of focus (function region, variable watch, meta, loop, call
/// site, range).
class SelectorKind {
public:
  virtual ~SelectorKind() = default;
  /// A short name for diagnostics and docs: `function-region`.
  virtual const char *name() const = 0;
  /// Whether this kind handles `P`'s focus.
  virtual bool handles(const Probe &P) const = 0;
  /// Finds `P`'s sites in `F` and records them through `B`.
  /// EXPECTS: handles(P), and `F` matched P's host glob and scope.
  virtual void collect(PlanBuilder &B, const Probe &P,
                       const HostFunction &F) const = 0;
};

/// The table of every selector kind, in dispatch order.
const std::vector<std::unique_ptr<SelectorKind>> &selectorKinds();

} // namespace rewriter
} // namespace sonde

#endif

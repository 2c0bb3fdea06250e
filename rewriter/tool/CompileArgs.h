//===- tool/CompileArgs.h - The build's flags, for a parse ------*- C++ -*-===//
//
// sonde-rewrite parses with the flags of the build's compilation database,
// adjusted: syntax only, without the build's warning policy or the flags
// clang does not know (g++'s own), with the resource directory of the clang
// it was built against. The build's compiler still gets every flag.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_COMPILEARGS_H
#define SONDE_REWRITER_TOOL_COMPILEARGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <mutex>

namespace sonde {
namespace rewrite {

/// The adjustments of every compile sonde-rewrite runs. A dropped flag is
/// named once per run, on the standard error, under `PrintMutex`.
clang::tooling::ArgumentsAdjuster commonAdjuster(std::mutex &PrintMutex);

} // namespace rewrite
} // namespace sonde

#endif

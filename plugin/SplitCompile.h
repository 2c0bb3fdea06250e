//===- SplitCompile.h - Headers parsed once: fork after the preamble -*- C++
//-*-===//
//
// The nested parse (Instrumenter.h) costs a second parse of every header of
// the translation unit. A split compile parses them once: the real compile
// runs up to the end of the main file's preamble (its leading #include
// lines), then forks. The child parses the original rest of the file,
// computes the plan and sends it through a pipe; the parent waits for it
// and parses the instrumented rest. Only the main file's own code is parsed
// twice.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_PLUGIN_SPLITCOMPILE_H
#define SONDE_PLUGIN_SPLITCOMPILE_H

#include "Instrumenter.h"

#include <memory>

namespace clang {
class ASTConsumer;
} // namespace clang

namespace sonde {
namespace plugin {

/// Sets up a split compile of J's main file and returns the consumer that
/// goes with it, or null when this file or this compile cannot be split
/// (then nothing was changed, and the caller runs the nested parse).
/// EXPECTS: as instrumentMainFile; J.Original is the main file's text.
std::unique_ptr<clang::ASTConsumer> splitCompile(const std::shared_ptr<Job> &J);

} // namespace plugin
} // namespace sonde

#endif

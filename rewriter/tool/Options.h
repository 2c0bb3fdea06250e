//===- tool/Options.h - sonde-rewrite's command line ------------*- C++ -*-===//
//
// The options of sonde-rewrite (llvm::cl, parsed by CommonOptionsParser in
// main, which adds -p and the sources), the checks of how they combine, and
// where the runtime headers are by default.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_OPTIONS_H
#define SONDE_REWRITER_TOOL_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace sonde {
namespace rewrite {

/// The category --help shows (the others are hidden).
extern llvm::cl::OptionCategory Category;

extern llvm::cl::opt<std::string> SpecPath;
extern llvm::cl::opt<std::string> OutDir;
extern llvm::cl::opt<bool> InPlace;
extern llvm::cl::opt<bool> Diff;
extern llvm::cl::opt<bool> ListSites;
extern llvm::cl::opt<std::string> Format;
extern llvm::cl::opt<bool> Strict;
extern llvm::cl::opt<bool> QuietUnmatched;
extern llvm::cl::opt<std::string> MatchDir;
extern llvm::cl::opt<std::string> ReportUnmatched;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<std::string> RuntimeInclude;
extern llvm::cl::opt<bool> NoVerify;
extern llvm::cl::opt<bool> Verify;

/// Checks how the options combine, once parsed; prints the error and
/// returns ExitSource if they do not. `-o -` becomes no -o.
int checkOptions();

/// The directory holding sonde/sonde.h: --runtime-include, else next to
/// this executable once installed (<prefix>/bin/../include), else the
/// source tree it was built from. Empty if none has the header.
std::string runtimeIncludeDir(const char *Argv0);

/// Prints a command-line parsing error once prefixed: llvm::cl starts
/// every line with the program's name (`Prog`) already.
void printUsageError(llvm::StringRef Msg, llvm::StringRef Prog);

} // namespace rewrite
} // namespace sonde

#endif

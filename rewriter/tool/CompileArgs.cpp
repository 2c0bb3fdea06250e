//===- tool/CompileArgs.cpp - The build's flags, for a parse --------------===//
//
// How sonde-rewrite adjusts the build's compile commands: see
// CompileArgs.h.
//
//===----------------------------------------------------------------------===//

#include "CompileArgs.h"

#include "clang/Driver/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

#ifndef SONDE_CLANG_RESOURCE_DIR
#define SONDE_CLANG_RESOURCE_DIR ""
#endif

using namespace clang::tooling;
using namespace llvm;

namespace sonde {
namespace rewrite {

namespace {

/// Drops the build's warning policy (-Werror, -Werror=X, -pedantic-errors):
/// sonde-rewrite reads the code, the compiler that builds the result
/// enforces the policy. Clang is stricter than g++ under -pedantic-errors
/// (fmt's tests pass no argument to a variadic macro's `...`, a C++20
/// extension clang rejects), and a g++ build's flags must not stop the
/// rewrite of code g++ accepts.
ArgumentsAdjuster stripWarningPolicy() {
  return [](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments Out;
    for (const std::string &A : Args)
      if (A != "-Werror" && !StringRef(A).starts_with("-Werror=") &&
          A != "-pedantic-errors")
        Out.push_back(A);
    return Out;
  };
}

/// Drops the flags clang does not know (g++'s own, like
/// -fconcepts-diagnostics-depth=2 in a g++ build's flags): they are the
/// build compiler's business, and clang would stop at them with "unknown
/// argument". Each dropped flag is named once per run.
ArgumentsAdjuster dropUnknownFlags(std::mutex &PrintMutex) {
  return [&PrintMutex](const CommandLineArguments &Args, StringRef) {
    if (Args.size() < 2)
      return Args;
    std::vector<const char *> Argv;
    for (size_t I = 1; I < Args.size(); ++I)
      Argv.push_back(Args[I].c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    const opt::OptTable &Table = clang::driver::getDriverOptTable();
    opt::InputArgList Parsed =
        Table.ParseArgs(Argv, MissingIndex, MissingCount,
                        opt::Visibility(clang::driver::options::ClangOption));
    std::set<unsigned> Drop; // indices into Args
    for (const opt::Arg *A :
         Parsed.filtered(clang::driver::options::OPT_UNKNOWN))
      Drop.insert(A->getIndex() + 1);
    if (Drop.empty())
      return Args;
    CommandLineArguments Out;
    static std::set<std::string> Named;
    std::lock_guard<std::mutex> Lock(PrintMutex);
    for (size_t I = 0; I < Args.size(); ++I) {
      if (!Drop.count(I)) {
        Out.push_back(Args[I]);
        continue;
      }
      if (Named.insert(Args[I]).second)
        errs() << "sonde-rewrite: warning: clang does not know the flag '"
               << Args[I]
               << "'; sonde-rewrite parses without it (the compiler that "
                  "builds the result still gets it)\n";
    }
    return Out;
  };
}

} // namespace

ArgumentsAdjuster commonAdjuster(std::mutex &PrintMutex) {
  ArgumentsAdjuster A = combineAdjusters(
      combineAdjusters(getClangSyntaxOnlyAdjuster(), stripWarningPolicy()),
      dropUnknownFlags(PrintMutex));
  std::string Resource = SONDE_CLANG_RESOURCE_DIR;
  if (!Resource.empty())
    A = combineAdjusters(
        A, getInsertArgumentAdjuster(("-resource-dir=" + Resource).c_str(),
                                     ArgumentInsertPosition::END));
  return A;
}

} // namespace rewrite
} // namespace sonde

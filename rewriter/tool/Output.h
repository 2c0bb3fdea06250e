//===- tool/Output.h - Writing instrumented sources -------------*- C++ -*-===//
//
// Where and how sonde-rewrite writes what it produced: a copy under -o DIR
// (never outside it, through a symlink or `..`), or the source itself with
// --in-place (inside the tree, atomically, keeping its permissions, owner
// and group). Each refusal is an error that names the file and the reason.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_OUTPUT_H
#define SONDE_REWRITER_TOOL_OUTPUT_H

#include "Instrument.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace sonde {
namespace rewrite {

/// Where the instrumented texts go; none set: the standard output.
struct WriteMode {
  bool Diff = false;    ///< --diff: a unified diff on the standard output
  bool InPlace = false; ///< --in-place: replace each source
  std::string OutDir;   ///< -o DIR: a copy under DIR
};

/// Writes the instrumented text of each of `Results` as `Mode` says; a
/// source changed since it was read is not replaced. Returns the exit code
/// (ExitCode.h): ExitSource if any was not written.
/// EXPECTS: no result failed (a batch is written whole or not at all).
int writeResults(llvm::ArrayRef<Result> Results, const WriteMode &Mode);

/// Where -o DIR puts the copy of `Source`: DIR/<its path relative to the
/// current directory>, or, for a file outside the current directory,
/// DIR/<its absolute path without the leading '/'>. `..` never climbs out of
/// DIR: the path is made absolute and its dots removed first.
std::string outputPath(llvm::StringRef Dir, llvm::StringRef Source);

/// Refuses to write `Out` (under -o DIR) unless the directory it lands in
/// is, with symlinks resolved, inside DIR: a symlinked directory in DIR
/// must not carry the copy elsewhere. Creates the directories.
llvm::Error checkOutput(llvm::StringRef Dir, llvm::StringRef Out);

/// The file --in-place replaces for `Source`: its real path (a symlink is
/// followed, so the link stays a link), which must lie inside the tree,
/// the current directory with symlinks resolved.
llvm::Expected<std::string> inPlaceTarget(llvm::StringRef Source);

/// Writes `Text` to `Path` through a temporary and a rename, so that
/// `Path` is at every moment either the old file or the whole new one (a
/// kill -9 leaves at worst a stray temporary). The new file keeps the old
/// one's permissions, owner and group (or `Path` is not replaced), and
/// reaches the disk before it replaces it.
llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Text);

} // namespace rewrite
} // namespace sonde

#endif

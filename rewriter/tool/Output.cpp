//===- tool/Output.cpp - Writing instrumented sources ---------------------===//
//
// How sonde-rewrite writes its results (-o DIR, --in-place): see Output.h.
//
//===----------------------------------------------------------------------===//

#include "Output.h"

#include "ExitCode.h"

#include "sonde/rewriter/Edits.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace sonde {
namespace rewrite {

namespace {

/// An error naming what failed and the system's reason (errno's text).
Error ioError(std::error_code EC, const Twine &What) {
  return createStringError(EC, "%s: %s", What.str().c_str(),
                           EC.message().c_str());
}

/// Whether `Path` is `Root` or below it (both absolute, without dots).
bool isWithin(StringRef Path, StringRef Root) {
  if (!Path.starts_with(Root))
    return false;
  return Path.size() == Root.size() || Root.ends_with("/") ||
         sys::path::is_separator(Path[Root.size()]);
}

/// Refuses to replace `Path` when the user could not write it in place: a
/// file this user may not write (a rename in a writable directory would
/// replace it all the same), or one whose owner or group the replacement
/// could not keep.
Error checkReplaceable(StringRef Path, struct stat &St) {
  if (::stat(Path.str().c_str(), &St) != 0)
    return ioError(std::error_code(errno, std::generic_category()),
                   "cannot read the status of '" + Path + "'");
  if (::access(Path.str().c_str(), W_OK) != 0)
    return ioError(std::error_code(errno, std::generic_category()),
                   "'" + Path + "' is not writable by this user; not replaced");
  return Error::success();
}

} // namespace

std::string outputPath(StringRef Dir, StringRef Source) {
  SmallString<256> Abs(Source);
  // Without a current directory the path stays as given.
  (void)sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Cwd;
  // No current directory: Cwd stays empty and the path absolute.
  (void)sys::fs::current_path(Cwd);
  // relative_path drops the separator after the current directory, which
  // is part of the directory itself when it is '/'.
  bool Below = isWithin(Abs, Cwd) && Abs.size() > Cwd.size();
  StringRef Rel = sys::path::relative_path(
      Below ? StringRef(Abs).drop_front(Cwd.size()) : StringRef(Abs));
  SmallString<256> Out(Dir);
  sys::path::append(Out, Rel);
  return Out.str().str();
}

Error checkOutput(StringRef Dir, StringRef Out) {
  SmallString<256> RealDir, RealParent;
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return ioError(EC, "cannot create '" + Dir + "'");
  if (std::error_code EC = sys::fs::real_path(Dir, RealDir))
    return ioError(EC, "cannot resolve '" + Dir + "'");
  StringRef Parent = sys::path::parent_path(Out);
  // Check before creating anything: the deepest existing ancestor must be
  // inside DIR already.
  SmallString<256> Probe(Parent);
  while (!sys::fs::exists(Probe) && sys::path::has_parent_path(Probe))
    Probe = sys::path::parent_path(Probe);
  if (sys::fs::real_path(Probe, RealParent) || !isWithin(RealParent, RealDir))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' would be written outside '%s' (through "
                             "'%s'); not written",
                             Out.str().c_str(), Dir.str().c_str(),
                             Probe.c_str());
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return ioError(EC, "cannot create '" + Parent + "'");
  if (sys::fs::real_path(Parent, RealParent) || !isWithin(RealParent, RealDir))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' would be written outside '%s'; not written",
                             Out.str().c_str(), Dir.str().c_str());
  return Error::success();
}

Expected<std::string> inPlaceTarget(StringRef Source) {
  SmallString<256> Real, Tree;
  if (std::error_code EC = sys::fs::real_path(Source, Real))
    return ioError(EC, "cannot resolve '" + Source + "'");
  if (std::error_code EC = sys::fs::real_path(".", Tree))
    return ioError(EC, "cannot resolve the current directory");
  if (!isWithin(Real, Tree))
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is '%s', outside the tree being rewritten ('%s', the "
        "current directory); not replaced",
        Source.str().c_str(), Real.c_str(), Tree.c_str());
  return Real.str().str();
}

Error writeAtomically(StringRef Path, StringRef Text) {
  struct stat Old;
  bool Existed = ::stat(Path.str().c_str(), &Old) == 0;
  if (Existed)
    if (Error E = checkReplaceable(Path, Old))
      return E;
  SmallString<256> Tmp(Path);
  Tmp += ".sonde-tmp-%%%%%%";
  int FD;
  SmallString<256> TmpPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Tmp, FD, TmpPath))
    return ioError(EC, "cannot create a temporary next to '" + Path + "'");
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    if (Existed) {
      // Owner and group first: chown may clear the set-id bits.
      if ((Old.st_uid != ::geteuid() || Old.st_gid != ::getegid()) &&
          ::fchown(FD, Old.st_uid, Old.st_gid) != 0) {
        std::error_code EC(errno, std::generic_category());
        OS.close();
        (void)sys::fs::remove(
            TmpPath); // best effort: the error below is the news
        return ioError(EC, "'" + Path + "' belongs to uid " +
                               Twine(Old.st_uid) + " gid " + Twine(Old.st_gid) +
                               ", which its replacement could not keep; "
                               "not replaced");
      }
      ::fchmod(FD, Old.st_mode & 07777);
    }
    OS << Text;
    OS.flush();
    if (!OS.has_error())
      ::fsync(FD);
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      (void)sys::fs::remove(
          TmpPath); // best effort: the error below is the news
      return ioError(EC, "cannot write '" + TmpPath + "'");
    }
  }
  if (std::error_code EC = sys::fs::rename(TmpPath, Path)) {
    (void)sys::fs::remove(TmpPath); // best effort: the error below is the news
    return ioError(EC, "cannot replace '" + Path + "'");
  }
  return Error::success();
}

int writeResults(llvm::ArrayRef<Result> Results, const WriteMode &Mode) {
  int Exit = ExitOk;
  for (const Result &R : Results) {
    const std::string &Rewritten = R.Rewritten;
    if (Mode.Diff) {
      outs() << rewriter::unifiedDiff(R.Path, R.Path, R.Original, Rewritten);
      continue;
    }
    if (Mode.InPlace) {
      Expected<std::string> Target = inPlaceTarget(R.Path);
      if (!Target) {
        errs() << "sonde-rewrite: error: " << toString(Target.takeError())
               << "\n";
        Exit = ExitSource;
        continue;
      }
      auto Now = MemoryBuffer::getFile(*Target, /*IsText=*/true);
      if (!Now || (*Now)->getBuffer() != R.Original) {
        errs() << "sonde-rewrite: error: '" << R.Path
               << "' changed since it was read; not replaced\n";
        Exit = ExitSource;
        continue;
      }
      if (Error E = writeAtomically(*Target, Rewritten)) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
      continue;
    }
    if (!Mode.OutDir.empty()) {
      std::string Out = outputPath(Mode.OutDir, R.Path);
      Error E = checkOutput(Mode.OutDir, Out);
      if (!E)
        E = writeAtomically(Out, Rewritten);
      if (E) {
        errs() << "sonde-rewrite: error: " << toString(std::move(E)) << "\n";
        Exit = ExitSource;
      }
      continue;
    }
    outs() << Rewritten;
  }
  return Exit;
}

} // namespace rewrite
} // namespace sonde

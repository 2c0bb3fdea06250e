//===- Inputs.cpp - The trace files a command line names ------------------===//
//
// expandInputs: files as given, directories expanded to their `*.sonde`
// files, sorted; what cannot be read is an error, what is not a regular
// file is skipped and said.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>

namespace sonde::trace {

bool expandInputs(const std::vector<std::string> &Paths,
                  std::vector<std::string> &Files, std::string &Error,
                  std::vector<std::string> *Skipped) {
  for (const std::string &P : Paths) {
    struct stat St;
    if (stat(P.c_str(), &St) != 0) {
      Error = P + ": " + std::strerror(errno);
      return false;
    }
    if (!S_ISDIR(St.st_mode)) {
      Files.push_back(P);
      continue;
    }
    std::vector<std::string> Found;
    size_t SkippedBefore = Skipped ? Skipped->size() : 0;
    DIR *D = opendir(P.c_str());
    if (!D) {
      Error = P + ": cannot read this directory: " + std::strerror(errno);
      return false;
    }
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N.size() <= 6 || N.compare(N.size() - 6, 6, ".sonde") != 0)
        continue;
      std::string F = P + "/" + N;
      struct stat FSt;
      if (stat(F.c_str(), &FSt) != 0 || !S_ISREG(FSt.st_mode)) {
        if (Skipped)
          Skipped->push_back(F + ": not a regular file; skipped");
        continue;
      }
      Found.push_back(F);
    }
    closedir(D);
    std::sort(Found.begin(), Found.end());
    if (Skipped)
      std::sort(Skipped->begin() + SkippedBefore, Skipped->end());
    if (Found.empty()) {
      Error = P + ": no .sonde files in this directory";
      return false;
    }
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return true;
}

} // namespace sonde::trace

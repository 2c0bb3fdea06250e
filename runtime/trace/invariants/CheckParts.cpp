//===- CheckParts.cpp - How sonde check splits its files among cores ------===//
//
// `sonde check` checks parts of its files on every core, each part by its
// own Checker, and merges the reports in the parts' order (mergeReports):
// the result is the one a single Checker over the files in order gives,
// as long as no invariant compares one trace with another. ranks.equal
// does (the ranks of a job, in one directory), so with one the files of a
// directory stay together; without, any contiguous run of files is a part,
// and the files are cut into runs of about equal bytes, so that one
// directory of traces uses every core too.
//
//===----------------------------------------------------------------------===//

#include "Invariants.h"

#include <algorithm>

namespace sonde::trace::inv {

std::string jobDirectory(const std::string &Path) {
  return Path.substr(0, Path.find_last_of('/') + 1);
}

std::vector<std::vector<std::string>>
checkParts(const std::vector<std::string> &Files,
           const std::vector<uint64_t> &Sizes,
           const std::vector<Invariant> &Invs, size_t Most) {
  std::vector<std::vector<std::string>> Parts;
  bool AcrossTraces = std::any_of(Invs.begin(), Invs.end(), [](const auto &I) {
    return I.Family == "ranks";
  });
  if (AcrossTraces) {
    std::vector<std::string> Dirs;
    for (const std::string &F : Files) {
      std::string Dir = jobDirectory(F);
      size_t G = std::find(Dirs.begin(), Dirs.end(), Dir) - Dirs.begin();
      if (G == Dirs.size()) {
        Dirs.push_back(Dir);
        Parts.emplace_back();
      }
      Parts[G].push_back(F);
    }
    return Parts;
  }
  // Each file weighs its bytes, and one more so that empty ones count.
  uint64_t Total = 0;
  for (size_t I = 0; I < Files.size(); ++I)
    Total += (I < Sizes.size() ? Sizes[I] : 0) + 1;
  Most = std::max<size_t>(1, std::min(Most, Files.size()));
  uint64_t Seen = 0;
  for (size_t I = 0; I < Files.size(); ++I) {
    // A file starts a new part once the parts so far hold their share.
    if (Parts.empty() ||
        (Parts.size() < Most && Seen * Most >= Total * Parts.size()))
      Parts.emplace_back();
    Parts.back().push_back(Files[I]);
    Seen += (I < Sizes.size() ? Sizes[I] : 0) + 1;
  }
  return Parts;
}

} // namespace sonde::trace::inv

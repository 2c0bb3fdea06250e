// The trace reader on every input of the fuzzer's corpus (fuzz/corpus/trace:
// real traces, torn ones, and the reproducers of bugs fuzz-trace found). It
// runs in every build, fuzzing or not, so a fixed bug stays fixed.

#include "sonde/trace.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace sonde::trace;

TEST(TraceCorpus, EveryInputReadsOrIsRefused) {
  std::string Dir = SONDE_FUZZ_CORPUS "/trace";
  DIR *D = opendir(Dir.c_str());
  ASSERT_NE(D, nullptr) << Dir;
  unsigned N = 0;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name[0] == '.')
      continue;
    std::ifstream In(Dir + "/" + Name, std::ios::binary);
    std::vector<char> Bytes((std::istreambuf_iterator<char>(In)), {});
    Trace T;
    std::string Error;
    bool Ok = readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()),
                             Bytes.size(), Name, T, Error);
    // Either a trace, or a reason.
    EXPECT_TRUE(Ok || !Error.empty()) << Name;
    // No table sized by a corrupt id: sites stay within the file's means.
    EXPECT_LE(T.Sites.size(), 4096 + Bytes.size() + 1) << Name;
    ++N;
  }
  closedir(D);
  EXPECT_GE(N, 3u);
}

TEST(TraceCorpus, HugeSiteIdInATinyFileIsCorruption) {
  // Found by fuzz-trace: an events block naming site 2^28 made the reader
  // allocate the site table for it.
  std::string Bytes("SONDETRC\x01\x00\x00\x00\x00\x00\x00\x00", 16);
  std::string Events = "\x00\x00"             // thread 0, tsc 0
                       "\x81\x80\x80\x80\x10" // head: region, site 2^28
                       "\x00\x00\x00";        // dtsc, dur, level
  Bytes += char(6);                           // Block::Events
  uint32_t Len = Events.size();
  for (int I = 0; I < 4; ++I)
    Bytes += char((Len >> (8 * I)) & 0xff);
  Bytes += Events;
  Trace T;
  std::string Error;
  readTraceBytes(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size(),
                 "tiny.sonde", T, Error);
  EXPECT_LT(T.Sites.size(), 1u << 16);
}

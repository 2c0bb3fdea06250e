//===- FuzzCorpus.h - The fuzzer's trace inputs, for unit tests -*- C++ -*-===//
//
// Every file of fuzz/corpus/trace (real traces, torn ones, reproducers of
// bugs fuzz-trace found), by name and bytes, for the tests that read them
// all (CorpusTest, StreamTest).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TEST_UNIT_RUNTIME_FUZZCORPUS_H
#define SONDE_TEST_UNIT_RUNTIME_FUZZCORPUS_H

#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

/// (name, bytes) of each input; empty when the directory cannot be read.
inline std::vector<std::pair<std::string, std::string>> fuzzTraceCorpus() {
  std::string Dir = SONDE_FUZZ_CORPUS "/trace";
  std::vector<std::pair<std::string, std::string>> Files;
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return Files;
  while (dirent *E = readdir(D)) {
    std::string Name = E->d_name;
    if (Name[0] == '.')
      continue;
    std::ifstream In(Dir + "/" + Name, std::ios::binary);
    Files.emplace_back(Name,
                       std::string((std::istreambuf_iterator<char>(In)), {}));
  }
  closedir(D);
  return Files;
}

#endif // SONDE_TEST_UNIT_RUNTIME_FUZZCORPUS_H

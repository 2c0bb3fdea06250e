//===- TorchUnlinked.cpp - sonde/torch.h without libsonde_torch -----------===//
//
// A program that includes sonde/torch.h and watches a tensor, but links
// only libsonde (not libsonde_torch, nor libtorch): it must link, its
// tensor watch must record the "link sonde::torch" string, recordState
// nothing and enableOpTracing must say false, and libsonde must say so on
// stderr once per kind (issue 12 item 6). Checks its own trace and stderr.
//
// No libtorch header here (that is the point of the light header), so there
// is no real tensor: the watch gets a reference to storage that is never
// read, since without libsonde_torch the traits do not look at the object.
//
//===----------------------------------------------------------------------===//

#include "sonde/torch.h"
#include "sonde/trace.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

int main() {
  char Dir[] = "/tmp/sonde-unlinked-XXXXXX";
  if (!mkdtemp(Dir))
    return 2;
  setenv("SONDE_OUTPUT", Dir, 1);
  // Our own stderr, to read back what libsonde said.
  std::string ErrPath = std::string(Dir) + "/stderr.txt";
  int Err = open(ErrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int SavedErr = dup(2);
  if (Err < 0 || SavedErr < 0 || dup2(Err, 2) < 0)
    return 2;

  static sonde::Site W(sonde::SiteKind::Watch, "user", "tensor", __FILE__,
                       __LINE__, __func__, 0,
                       unsigned(sonde::Summary::Stats) << sonde::SummaryShift);
  static sonde::Site Done(sonde::SiteKind::Instant, "user", "done", __FILE__,
                          __LINE__, __func__);
  alignas(16) static char NotATensor[64];
  static sonde::Site State(sonde::SiteKind::State, "user", "model", __FILE__,
                           __LINE__, __func__);
  for (int I = 0; I < 2; ++I) {
    sonde::watch(W, *reinterpret_cast<const at::Tensor *>(NotATensor));
    sonde::recordState(
        State, *reinterpret_cast<const torch::nn::Module *>(NotATensor));
  }
  bool Ops = sonde::torch::enableOpTracing();
  Ops |= sonde::torch::enableOpTracing();
  sonde::instant(Done);
  sonde::flush();
  dup2(SavedErr, 2);

  sonde::trace::Trace T;
  std::string Error;
  if (!sonde::trace::readTrace(sonde::traceFile(), T, Error, true)) {
    std::fprintf(stderr, "%s\n", Error.c_str());
    return 1;
  }
  int Bad = 0;
  int Watches = 0;
  for (const auto &E : T.Events)
    if (E.Kind == sonde::trace::EventKind::Watch) {
      ++Watches;
      if (E.V.str() != "<tensor: link sonde::torch>") {
        std::fprintf(stderr, "FAIL: the watch recorded '%s'\n",
                     E.V.str().c_str());
        ++Bad;
      }
    }
  if (Watches != 2) {
    std::fprintf(stderr, "FAIL: %d watches, expected 2\n", Watches);
    ++Bad;
  }
  // One line per kind, each naming the library and how to link it.
  std::ifstream In(ErrPath);
  std::string Said((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  const char *Expected[] = {"sonde: a tensor watch records",
                            "sonde: a state probe records nothing",
                            "sonde: ATen op tracing is off"};
  size_t Lines = 0;
  for (char C : Said)
    Lines += C == '\n';
  for (const char *Line : Expected)
    if (Said.find(std::string(Line)) == std::string::npos) {
      std::fprintf(stderr, "FAIL: stderr lacks '%s'\n", Line);
      ++Bad;
    }
  if (Lines != 3 || Said.find("pkg-config --libs sonde-torch") ==
                        std::string::npos) {
    std::fprintf(stderr, "FAIL: expected 3 lines on stderr, got:\n%s",
                 Said.c_str());
    ++Bad;
  }
  if (Ops) {
    std::fprintf(stderr, "FAIL: enableOpTracing said true without the lib\n");
    ++Bad;
  }
  std::printf("%s\n", Bad ? "FAIL" : "ok");
  return Bad ? 1 : 0;
}

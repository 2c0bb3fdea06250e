//===- TorchUnlinked.cpp - sonde/torch.h without libsonde_torch -----------===//
//
// A program that includes sonde/torch.h and watches a tensor, but links
// only libsonde (not libsonde_torch, nor libtorch): it must link, its
// tensor watch must record the "link sonde::torch" string and
// enableOpTracing must say false. Checks its own trace.
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
#include <string>
#include <unistd.h>

int main() {
  char Dir[] = "/tmp/sonde-unlinked-XXXXXX";
  if (!mkdtemp(Dir))
    return 2;
  setenv("SONDE_OUTPUT", Dir, 1);

  static sonde::Site W(sonde::SiteKind::Watch, "user", "tensor", __FILE__,
                       __LINE__, __func__, 0,
                       unsigned(sonde::Summary::Stats) << sonde::SummaryShift);
  static sonde::Site Done(sonde::SiteKind::Instant, "user", "done", __FILE__,
                          __LINE__, __func__);
  alignas(16) static char NotATensor[64];
  sonde::watch(W, *reinterpret_cast<const at::Tensor *>(NotATensor));
  bool Ops = sonde::torch::enableOpTracing();
  sonde::instant(Done);
  sonde::flush();

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
  if (Watches != 1) {
    std::fprintf(stderr, "FAIL: %d watches, expected 1\n", Watches);
    ++Bad;
  }
  if (Ops) {
    std::fprintf(stderr, "FAIL: enableOpTracing said true without the lib\n");
    ++Bad;
  }
  std::printf("%s\n", Bad ? "FAIL" : "ok");
  return Bad ? 1 : 0;
}

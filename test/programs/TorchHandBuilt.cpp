//===- TorchHandBuilt.cpp - sonde/torch.h through the pkg-config flags ----===//
//
// Built by check_hand_build.py as a user builds by hand, with g++ and
// --as-needed (Debian's and Ubuntu's default) and the flags of
// `pkg-config --cflags --libs sonde-torch`: libsonde_torch must stay
// linked, so op tracing turns on and nothing says it is missing.
//
// No libtorch header (as TorchUnlinked.cpp): the library's presence is what
// is checked, through the one call that needs no tensor.
//
//===----------------------------------------------------------------------===//

#include "sonde/torch.h"

#include <cstdio>

int main() {
  bool Ops = sonde::torch::enableOpTracing();
  sonde::torch::disableOpTracing();
  std::printf("ops %s\n", Ops ? "on" : "off");
  return Ops ? 0 : 1;
}

//===- FuzzTrace.cpp - libFuzzer target: the trace reader -----------------===//
//
// Any bytes as a .sonde file: readTraceBytes must read what it can and say
// why it stopped, never crash, hang or read out of bounds. The summary of
// each event is then walked, as `sonde view` and the exporters do.
//
//===----------------------------------------------------------------------===//

#include "sonde/trace.h"

#include <cstddef>
#include <cstdint>

using namespace sonde::trace;

namespace {

size_t walk(const Value &V) {
  size_t N = V.str().size();
  if (V.isNumber())
    N += V.number() != 0;
  for (const auto &[K, M] : V.members())
    N += K.size() + walk(M);
  for (const Value &I : V.items())
    N += walk(I);
  return N;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Trace T;
  std::string Error;
  if (!readTraceBytes(Data, Size, "fuzz.sonde", T, Error))
    return 0;
  size_t Sum = 0;
  for (const Event &E : T.Events) {
    const SiteInfo &S = T.site(E.Site);
    Sum += S.Name.size() + S.topCategory().size();
    (void)T.tid(E.Thread);
    Sum += walk(E.V);
    if (E.A)
      for (const auto &[K, V] : *E.A)
        Sum += K.size() + walk(V);
  }
  Trace Headers;
  readTraceBytes(Data, Size, "fuzz.sonde", Headers, Error, /*Events=*/false);
  return Sum == size_t(-1);
}

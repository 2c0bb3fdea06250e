//===- Check.cpp - `check: finite`: the alarm of a watch ------------------===//
//
// A watch whose site has CheckFinite (sonde/site.h) calls checkFailed when
// the double it recorded is NaN or infinite (the test is inline, on the
// bits the watch wrote). Here, out of the probe's way: an Alarm record with
// the value into the thread's ring, then SONDE_ON_CHECK: `record` (the
// default) carries on; `abort` says which watch failed, once, writes the
// trace's final records (ended as `check:finite`) and aborts, so a
// debugger, a core dump or the job's scheduler sees the run stop at the
// step where its loss went bad.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include "sonde/sonde.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sonde::rt::detail {

void checkFailed(ThreadState *T, uint32_t Id, uint64_t Bits) noexcept {
  if (char *P = reserve(T, 24)) {
    putHeader(P, 24, RecType::Alarm, 0, Id | levelBits(T));
    put64(P + 8, now());
    put64(P + 16, Bits);
    commit(T, 24);
  }
  if (!config().AbortOnCheck)
    return;
  double V;
  std::memcpy(&V, &Bits, 8);
  const Site *S = siteById(Id);
  std::fprintf(stderr,
               "sonde: check: finite failed: watch '%s' in %s (%s:%u) is %s; "
               "SONDE_ON_CHECK=abort: writing the trace and aborting\n",
               S ? S->Name : "?", S ? S->Function : "?", S ? S->File : "?",
               S ? S->Line : 0,
               V != V  ? "nan"
               : V > 0 ? "inf"
                       : "-inf");
  finishNow("check:finite");
  std::abort();
}

} // namespace sonde::rt::detail

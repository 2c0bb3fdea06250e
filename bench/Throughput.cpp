//===- Throughput.cpp - One thread, N records, all the way to the file ----===//
//
//   throughput N
//
// Records N scalar watches from one thread in block mode, then flushes, and
// prints the records per second from the first record until the last byte
// was handed to the kernel, the records dropped, and the file's size.
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? std::atol(Argv[1]) : 100000000;
  static sonde::Site S(sonde::SiteKind::Watch, "user.bench", "value",
                       "Throughput.cpp", 1, "main");
  sonde::watchScalar(S, -1L); // start the runtime outside the timed part
  sonde::flush();
  auto T0 = std::chrono::steady_clock::now();
  for (long I = 0; I < N; ++I)
    sonde::watchScalar(S, I);
  sonde::flush();
  auto T1 = std::chrono::steady_clock::now();
  double Secs = std::chrono::duration<double>(T1 - T0).count();
  struct stat St {};
  stat(sonde::traceFile(), &St);
  std::printf("{\"records\": %ld, \"seconds\": %.6f, \"mrec_s\": %.3f, "
              "\"file_bytes\": %lld, \"trace\": \"%s\"}\n",
              N + 1, Secs, N / Secs / 1e6, (long long)St.st_size,
              sonde::traceFile());
  return 0;
}

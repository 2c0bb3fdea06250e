//===- Throughput.cpp - One thread, N records, all the way to the file ----===//
//
//   throughput N
//
// Records N scalar watches from one thread in block mode, then flushes, and
// prints the records per second from the first record until the last byte
// was handed to the kernel, the records dropped, the file's size and each
// thread's CPU time.
//
// Then, side by side in the same run, the floor: N rdtsc-stamped 16-byte
// stores into a thread-local ring, in the thread's CPU time. No tracer that
// stamps each record with the TSC records faster from one thread on this
// machine: it bounds the producer's figure. And the TSC read alone (N/2
// bare reads), which is most of the floor (docs/runtime.md § Throughput).
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

/// CPU seconds of each thread of this process, by thread name: what the
/// producer and the writer each cost, whatever else runs on the machine.
std::string threadCpu() {
  std::string Out;
  long Hz = sysconf(_SC_CLK_TCK);
  if (DIR *D = opendir("/proc/self/task")) {
    while (dirent *E = readdir(D)) {
      if (E->d_name[0] == '.')
        continue;
      std::string Base = std::string("/proc/self/task/") + E->d_name;
      std::ifstream Comm(Base + "/comm"), Stat(Base + "/stat");
      std::string Name, Line;
      std::getline(Comm, Name);
      std::getline(Stat, Line);
      // Fields after the parenthesized name: state is field 3, utime 14,
      // stime 15.
      std::istringstream In(Line.substr(Line.rfind(')') + 2));
      std::string F;
      unsigned long long Utime = 0, Stime = 0;
      for (int I = 3; I <= 15 && In >> F; ++I) {
        if (I == 14)
          Utime = std::stoull(F);
        if (I == 15)
          Stime = std::stoull(F);
      }
      char Buf[160];
      std::snprintf(Buf, sizeof Buf, ", \"cpu_%s\": %.3f", Name.c_str(),
                    double(Utime + Stime) / Hz);
      Out += Buf;
    }
    closedir(D);
  }
  return Out;
}

/// CPU seconds of the calling thread.
double threadSeconds() {
  timespec Ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Ts);
  return double(Ts.tv_sec) + double(Ts.tv_nsec) * 1e-9;
}

/// The floor's ring: as large as sonde's default (4 MiB), so that it leaves
/// the caches as sonde's does.
struct FloorRing {
  uint64_t Slots[1 << 18][2];
};

/// CPU nanoseconds per record of N rdtsc-stamped stores of `I`.
double floorNs(long N) {
  static FloorRing *F = new FloorRing();
  double T0 = threadSeconds();
  for (long I = 0; I < N; ++I) {
    uint64_t *Slot = F->Slots[I & ((1 << 18) - 1)];
    Slot[0] = sonde::now();
    Slot[1] = static_cast<uint64_t>(I);
    asm volatile("" ::: "memory"); // each store happens, as a record's does
  }
  return (threadSeconds() - T0) * 1e9 / double(N);
}

/// CPU nanoseconds per read of N bare TSC reads: what every record of a
/// tracer that stamps each with its own TSC read pays at least.
double tscNs(long N) {
  uint64_t Mix = 0;
  double T0 = threadSeconds();
  for (long I = 0; I < N; ++I)
    Mix ^= sonde::now();
  double Ns = (threadSeconds() - T0) * 1e9 / double(N);
  asm volatile("" ::"r"(Mix)); // the reads are used
  return Ns;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? std::atol(Argv[1]) : 100000000;
  static sonde::Site S(sonde::SiteKind::Watch, "user.bench", "value",
                       "Throughput.cpp", 1, "main");
  sonde::watchScalar(S, -1L); // start the runtime outside the timed part
  sonde::flush();
  double FloorBefore = floorNs(N / 2);
  double Cpu0 = threadSeconds();
  auto T0 = std::chrono::steady_clock::now();
  for (long I = 0; I < N; ++I)
    sonde::watchScalar(S, I);
  double Producer = threadSeconds() - Cpu0; // the loop, without the flush
  sonde::flush();
  auto T1 = std::chrono::steady_clock::now();
  double Secs = std::chrono::duration<double>(T1 - T0).count();
  struct stat St{};
  stat(sonde::traceFile(), &St);
  std::string Cpu = threadCpu(); // before the floor adds to main's time
  // The floor's second half, after; its first half ran before sonde's loop,
  // so that a machine whose load drifts during the run weighs on both alike.
  double Floor = (FloorBefore + floorNs(N / 2)) / 2;
  double Tsc = tscNs(N / 2);
  std::printf("{\"records\": %ld, \"seconds\": %.6f, \"mrec_s\": %.3f, "
              "\"file_bytes\": %lld, \"trace\": \"%s\", "
              "\"producer_loop_ns\": %.3f, \"floor_ns\": %.3f, "
              "\"tsc_ns\": %.3f%s}\n",
              N + 1, Secs, N / Secs / 1e6, (long long)St.st_size,
              sonde::traceFile(), Producer * 1e9 / double(N), Floor, Tsc,
              Cpu.c_str());
  return 0;
}

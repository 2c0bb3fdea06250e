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
  struct stat St{};
  stat(sonde::traceFile(), &St);
  std::printf("{\"records\": %ld, \"seconds\": %.6f, \"mrec_s\": %.3f, "
              "\"file_bytes\": %lld, \"trace\": \"%s\"%s}\n",
              N + 1, Secs, N / Secs / 1e6, (long long)St.st_size,
              sonde::traceFile(), threadCpu().c_str());
  return 0;
}

//===- ProfilerPreload.cpp - libtorch's own profiler, by LD_PRELOAD -------===//
//
// The peer of `LD_PRELOAD=libsonde_torch.so SONDE_TORCH_OPS=1` in
// bench/torch-profiler.py: a preloaded library that runs any libtorch
// program under libtorch 1.13's own profiler, from the library's load to
// the program's exit, and writes the profiler's Chrome trace at exit, so
// that the program's run time includes what a profiler user pays: the
// collection and the writing of the trace. The program is not changed,
// as with sonde's op tracing.
//
//   SONDE_BENCH_PROFILER=legacy          torch::autograd::profiler::
//                                        RecordProfile (Chrome trace)
//   SONDE_BENCH_PROFILER=legacy-shapes   the same with report_input_shapes
//                                        (enableProfilerLegacy, then
//                                        RecordProfile's own writer)
//   SONDE_BENCH_PROFILER=kineto[-shapes] the Kineto-state profiler
//                                        (enableProfiler/disableProfiler),
//                                        which collects only: Debian's
//                                        libtorch has no Kineto, and
//                                        ProfilerResult::save throws
//   SONDE_BENCH_PROFILER_OUT=FILE        where the Chrome trace goes
//
// The profiler's state is thread-local (the thread that loads the library,
// the main thread, and the threads libtorch propagates it to), and glibc
// destroys the main thread's thread-locals before it runs static
// destructors: the trace is written when `main` returns, by wrapping
// `main` (this library's __libc_start_main hands the real one a wrapper).
// A program that ends by exit() or a signal writes no trace, and the
// library says so.
//
//===----------------------------------------------------------------------===//

#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/csrc/autograd/profiler_legacy.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace prof = torch::autograd::profiler;
using torch::profiler::impl::ActivityType;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;

enum class Mode { Legacy, LegacyShapes, Kineto, KinetoShapes };

/// Runs the profiler for the life of the process.
class Session {
public:
  Session() {
    const char *V = std::getenv("SONDE_BENCH_PROFILER");
    if (!V)
      return;
    const char *Out = std::getenv("SONDE_BENCH_PROFILER_OUT");
    if (std::strcmp(V, "legacy") == 0)
      M = Mode::Legacy;
    else if (std::strcmp(V, "legacy-shapes") == 0)
      M = Mode::LegacyShapes;
    else if (std::strcmp(V, "kineto") == 0)
      M = Mode::Kineto;
    else if (std::strcmp(V, "kineto-shapes") == 0)
      M = Mode::KinetoShapes;
    else
      fail("SONDE_BENCH_PROFILER is not legacy, legacy-shapes, kineto or "
           "kineto-shapes");
    if ((M == Mode::Legacy || M == Mode::LegacyShapes) && (!Out || !*Out))
      fail("SONDE_BENCH_PROFILER_OUT (the Chrome trace) is not set");
    try {
      switch (M) {
      case Mode::Legacy:
        // Exactly what the profiler's documentation shows a C++ user.
        Record = std::make_unique<prof::RecordProfile>(std::string(Out));
        break;
      case Mode::LegacyShapes:
        Path = Out;
        prof::enableProfilerLegacy(ProfilerConfig(ProfilerState::CPU,
                                                  /*report_input_shapes=*/true,
                                                  /*profile_memory=*/false));
        break;
      case Mode::Kineto:
      case Mode::KinetoShapes:
        prof::enableProfiler(ProfilerConfig(ProfilerState::KINETO,
                                            M == Mode::KinetoShapes, false),
                             {ActivityType::CPU});
        break;
      }
    } catch (const std::exception &E) {
      fail(E.what());
    }
    On = true;
  }

  ~Session() {
    if (On)
      std::fprintf(stderr, "sonde-bench-profiler: the program did not "
                           "return from main; no profile written\n");
  }

  /// Stops the profiler and writes its trace; on the main thread, once.
  void finish() {
    if (!On)
      return;
    On = false;
    try {
      switch (M) {
      case Mode::Legacy:
        Record.reset(); // disables the profiler and writes the trace
        break;
      case Mode::LegacyShapes:
        writeLegacy(prof::disableProfilerLegacy());
        break;
      case Mode::Kineto:
      case Mode::KinetoShapes: {
        std::unique_ptr<prof::ProfilerResult> R = prof::disableProfiler();
        std::fprintf(stderr, "sonde-bench-profiler: kineto: %zu events\n",
                     R->events().size());
        break;
      }
      }
    } catch (const std::exception &E) {
      fail(E.what());
    }
  }

private:
  [[noreturn]] static void fail(const char *Why) {
    std::fprintf(stderr, "sonde-bench-profiler: %s\n", Why);
    std::_Exit(2);
  }

  /// RecordProfile's own writing (its destructor does the same): the
  /// events of every thread, start/stop marks and all, in libtorch's
  /// Chrome writer, which leaves the shapes out of the file.
  void writeLegacy(const prof::thread_event_lists &Lists) {
    std::vector<prof::LegacyEvent *> Events;
    for (const auto &L : Lists)
      for (const auto &E : L)
        Events.push_back(const_cast<prof::LegacyEvent *>(&E));
    std::ofstream File(Path);
    prof::writeProfilerEventsToStream(File, Events);
    if (!File)
      fail("cannot write SONDE_BENCH_PROFILER_OUT");
  }

  bool On = false;
  Mode M = Mode::Legacy;
  std::string Path;
  std::unique_ptr<prof::RecordProfile> Record;
};

Session TheSession;

using MainFn = int (*)(int, char **, char **);
MainFn RealMain = nullptr;

int mainThenFinish(int Argc, char **Argv, char **Env) {
  int Status = RealMain(Argc, Argv, Env);
  TheSession.finish();
  return Status;
}

} // namespace

/// glibc's entry, called by the program's _start: run the real one with
/// `main` wrapped. The name is glibc's, hence reserved.
// NOLINTNEXTLINE(bugprone-reserved-identifier,readability-identifier-naming)
extern "C" int __libc_start_main(MainFn Main, int Argc, char **Argv,
                                 void (*Init)(), void (*Fini)(),
                                 void (*RtldFini)(), void *StackEnd) {
  using StartFn =
      int (*)(MainFn, int, char **, void (*)(), void (*)(), void (*)(), void *);
  auto Real = reinterpret_cast<StartFn>(dlsym(RTLD_NEXT, "__libc_start_main"));
  RealMain = Main;
  return Real(mainThenFinish, Argc, Argv, Init, Fini, RtldFini, StackEnd);
}

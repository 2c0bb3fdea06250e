//===- RuntimeBench.cpp - The cost of one event, side by side -------------===//
//
// Every benchmark records the same payload (one 64-bit integer and a
// timestamp) so that the ratios scripts/bench prints compare like with like:
//   Floor        an rdtsc-stamped store into a thread-local array: the least
//                any in-process tracer can do
//   SondeWatch   sonde::watchScalar (a `watches:` probe)
//   SondeRegion  a sonde::Region opened and closed (a `probes:` region)
//   SondeInstant sonde::instant
//   Spdlog       spdlog's async logger writing "i={}" to a file
//   Lttng        an LTTng-UST tracepoint, recorded by a running session
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#ifdef SONDE_BENCH_SPDLOG
#include <spdlog/async.h>
#include <spdlog/sinks/basic_file_sink.h>
#endif
#ifdef SONDE_BENCH_LTTNG
#include "LttngTp.h"
#endif

namespace {

/// Events per timed burst. Between bursts, untimed, each tracer drains what
/// it has queued: the figure is the cost on the recording thread while its
/// buffer has room, which is the state of a training loop (throughput is
/// measured on its own by throughput-bench).
constexpr int Burst = 4096;

template <class Record, class Drain>
void bursts(benchmark::State &State, Record &&R, Drain &&D) {
  int64_t V = 0;
  for (auto _ : State) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Burst; ++I) {
      R(V++);
      benchmark::ClobberMemory();
    }
    auto T1 = std::chrono::steady_clock::now();
    State.SetIterationTime(std::chrono::duration<double>(T1 - T0).count());
    D();
  }
  State.counters["ns_per_event"] = benchmark::Counter(
      static_cast<double>(State.iterations()) * Burst,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  State.SetItemsProcessed(State.iterations() * Burst);
}

struct alignas(64) FloorBuffer {
  uint64_t Slots[1 << 14][2];
  uint32_t Next;
};
thread_local FloorBuffer Floor;

void Floor_RdtscStore(benchmark::State &State) {
  FloorBuffer &F = Floor;
  bursts(
      State,
      [&F](int64_t V) {
        uint64_t *Slot = F.Slots[F.Next++ & ((1 << 14) - 1)];
        Slot[0] = sonde::now();
        Slot[1] = static_cast<uint64_t>(V);
      },
      [] {});
}
BENCHMARK(Floor_RdtscStore)->UseManualTime();

sonde::Site WatchSite(sonde::SiteKind::Watch, "user.bench", "value",
                      "RuntimeBench.cpp", 1, "SondeWatch");
sonde::Site RegionSite(sonde::SiteKind::Region, "compute.forward", "forward",
                       "RuntimeBench.cpp", 2, "SondeRegion");
sonde::Site InstantSite(sonde::SiteKind::Instant, "user.bench", "tick",
                        "RuntimeBench.cpp", 3, "SondeInstant");

void Sonde_Watch(benchmark::State &State) {
  bursts(
      State, [](int64_t V) { sonde::watchScalar(WatchSite, V); },
      [] { sonde::flush(); });
}
BENCHMARK(Sonde_Watch)->UseManualTime();

void Sonde_Region(benchmark::State &State) {
  bursts(
      State, [](int64_t) { sonde::Region R(RegionSite); },
      [] { sonde::flush(); });
}
BENCHMARK(Sonde_Region)->UseManualTime();

void Sonde_Instant(benchmark::State &State) {
  bursts(
      State, [](int64_t) { sonde::instant(InstantSite); },
      [] { sonde::flush(); });
}
BENCHMARK(Sonde_Instant)->UseManualTime();

#ifdef SONDE_BENCH_SPDLOG
void Spdlog_AsyncFile(benchmark::State &State) {
  static std::shared_ptr<spdlog::logger> Logger = [] {
    // A queue that holds a whole burst: the caller never waits for room.
    spdlog::init_thread_pool(2 * Burst, 1);
    const char *Dir = std::getenv("SONDE_OUTPUT");
    std::string Path = std::string(Dir ? Dir : "/tmp") + "/spdlog-bench.log";
    return spdlog::basic_logger_mt<spdlog::async_factory>("bench", Path, true);
  }();
  bursts(
      State, [](int64_t V) { Logger->info("value={}", V); },
      [] { Logger->flush(); });
}
BENCHMARK(Spdlog_AsyncFile)->UseManualTime();
#endif

#ifdef SONDE_BENCH_LTTNG
void Lttng_Tracepoint(benchmark::State &State) {
  bursts(
      State, [](int64_t V) { tracepoint(sonde_bench, watch, V); },
      [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
}
BENCHMARK(Lttng_Tracepoint)->UseManualTime();
#endif

} // namespace

BENCHMARK_MAIN();

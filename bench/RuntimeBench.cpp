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
// The Sonde benchmarks time a floor burst beside each of theirs: their
// `vs_floor` counters are the hot-path ratios of docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

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

struct alignas(64) FloorBuffer {
  uint64_t Slots[1 << 14][2];
  uint32_t Next;
};
thread_local FloorBuffer Floor;

/// The floor's event: an rdtsc-stamped 16-byte store. The buffer is named,
/// not captured: a captured reference is one more load per event, after
/// each ClobberMemory.
auto floorEvent() {
  return [](int64_t V) {
    uint64_t *Slot = Floor.Slots[Floor.Next++ & ((1 << 14) - 1)];
    Slot[0] = sonde::now();
    Slot[1] = static_cast<uint64_t>(V);
  };
}

/// One burst of `R`, in seconds of the wall clock. Out of line: each loop
/// gets its own function, and the floor's and the tracer's loops do not
/// share registers or a layout. Inlined into one function, the same floor
/// and watch loops measured 1.20 where apart they measured 1.09.
template <class Record>
SONDE_NOINLINE double timeBurst(Record &R, int64_t &Next) {
  int64_t V = Next; // in a register: not a load and a store per event
  auto T0 = std::chrono::steady_clock::now();
  for (int I = 0; I < Burst; ++I) {
    R(V++);
    benchmark::ClobberMemory();
  }
  auto T1 = std::chrono::steady_clock::now();
  Next = V;
  return std::chrono::duration<double>(T1 - T0).count();
}

double median(std::vector<double> &V) {
  if (V.empty())
    return 0;
  auto Mid = V.begin() + V.size() / 2;
  std::nth_element(V.begin(), Mid, V.end());
  return *Mid;
}

/// Times bursts of `R`, draining with `D` after each, untimed. Counters:
///   ns_per_event  (in seconds, as bench/results.py reads it) the median
///                 burst over its length. A burst lasts 70 to 400 us, far
///                 less than a time slice, so most bursts run without being
///                 descheduled; the few that are (by other work on a loaded
///                 machine, or by a tracer's own consumer thread waking on
///                 the same core) last a slice longer. The mean of all
///                 bursts counted those slices: on the project's loaded
///                 2-core VM it moved figures by 10 to 20 % between runs.
///   vs_floor      with `Paired`: the median, over iterations, of the burst
///                 against a floor burst timed beside it in the same
///                 iteration (before it in odd iterations, after the drain
///                 in even ones). Both halves of a pair see the same
///                 machine, so the ratio holds when the machine's speed
///                 moves between repetitions (a loaded hyperthread sibling,
///                 a busy core) as a ratio of two medians taken seconds
///                 apart does not.
template <class Record, class Drain>
void bursts(benchmark::State &State, Record &&R, Drain &&D,
            bool Paired = false) {
  int64_t V = 0;
  int64_t FloorV = 0;
  auto FloorRecord = floorEvent();
  std::vector<double> Seconds, Ratios;
  Seconds.reserve(1 << 16);
  uint64_t Iteration = 0;
  for (auto _ : State) {
    double FloorSeconds = 0;
    bool FloorFirst = Iteration++ & 1;
    if (Paired && FloorFirst)
      FloorSeconds = timeBurst(FloorRecord, FloorV);
    double S = timeBurst(R, V);
    D();
    if (Paired && !FloorFirst)
      FloorSeconds = timeBurst(FloorRecord, FloorV);
    State.SetIterationTime(S);
    Seconds.push_back(S);
    if (Paired && FloorSeconds > 0)
      Ratios.push_back(S / FloorSeconds);
  }
  State.counters["ns_per_event"] = benchmark::Counter(median(Seconds) / Burst);
  if (Paired)
    State.counters["vs_floor"] = benchmark::Counter(median(Ratios));
  State.SetItemsProcessed(State.iterations() * Burst);
}

void Floor_RdtscStore(benchmark::State &State) {
  bursts(State, floorEvent(), [] {});
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
      [] { sonde::flush(); }, /*Paired=*/true);
}
BENCHMARK(Sonde_Watch)->UseManualTime();

void Sonde_Region(benchmark::State &State) {
  bursts(
      State, [](int64_t) { sonde::Region R(RegionSite); },
      [] { sonde::flush(); }, /*Paired=*/true);
}
BENCHMARK(Sonde_Region)->UseManualTime();

void Sonde_Instant(benchmark::State &State) {
  bursts(
      State, [](int64_t) { sonde::instant(InstantSite); },
      [] { sonde::flush(); }, /*Paired=*/true);
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

//===- InsertedBench.cpp - What inserted code costs at run time -----------===//
//
// Inserted code (sonde-rewrite, the plugin) calls out-of-line writers
// (sonde/detail/Inserted.h: one call per site, for a cheap compile), where
// the hand-written API inlines the whole record writer. This measures both
// side by side, with the same payload as bench/RuntimeBench.cpp (a 64-bit
// integer and a timestamp), so that scripts/bench can state what the
// out-of-line call costs against the floor:
//   Floor           an rdtsc-stamped store into a thread-local array
//   Hand_Watch      sonde::watchScalar, inlined
//   Inserted_Watch  sonde::watchAny, as inserted code calls it
//   Hand_Region     a sonde::Region opened and closed, inlined
//   Inserted_Region a sonde::InsertedRegion opened and closed
//   Inserted_Off    sonde::watchAny on a site that is off (`enabled: false`)
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

namespace {

/// Events per timed burst; between bursts, untimed, the writer drains the
/// ring (as in RuntimeBench.cpp).
constexpr int Burst = 4096;

template <class Record>
void bursts(benchmark::State &State, Record &&R, bool Drain) {
  int64_t V = 0;
  for (auto _ : State) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Burst; ++I) {
      R(V++);
      benchmark::ClobberMemory();
    }
    auto T1 = std::chrono::steady_clock::now();
    State.SetIterationTime(std::chrono::duration<double>(T1 - T0).count());
    if (Drain)
      sonde::flush();
  }
  State.counters["ns_per_event"] = benchmark::Counter(
      static_cast<double>(State.iterations()) * Burst,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
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
      false);
}
BENCHMARK(Floor_RdtscStore)->UseManualTime();

sonde::Site WatchSite(sonde::SiteKind::Watch, "user.bench", "value",
                      "InsertedBench.cpp", 1, "Watch");
sonde::Site RegionSite(sonde::SiteKind::Region, "user.bench", "region",
                       "InsertedBench.cpp", 2, "Region");
sonde::Site OffSite(sonde::SiteKind::Watch, "user.bench", "off",
                    "InsertedBench.cpp", 3, "Off", 0, sonde::OffByDefault);

void Hand_Watch(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchScalar(WatchSite, V); }, true);
}
BENCHMARK(Hand_Watch)->UseManualTime();

void Inserted_Watch(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchAny(WatchSite, V); }, true);
}
BENCHMARK(Inserted_Watch)->UseManualTime();

void Hand_Region(benchmark::State &State) {
  bursts(State, [](int64_t) { sonde::Region R(RegionSite); }, true);
}
BENCHMARK(Hand_Region)->UseManualTime();

void Inserted_Region(benchmark::State &State) {
  bursts(State, [](int64_t) { sonde::InsertedRegion R(RegionSite); }, true);
}
BENCHMARK(Inserted_Region)->UseManualTime();

void Inserted_Off(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchAny(OffSite, V); }, false);
}
BENCHMARK(Inserted_Off)->UseManualTime();

} // namespace

BENCHMARK_MAIN();

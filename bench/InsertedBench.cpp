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
//   Inserted_Watch  sonde::watchAt on a site table, as inserted code calls it
//   Hand_Region     a sonde::Region opened and closed, inlined
//   Inserted_Region a sonde::InsertedRegion of a table's site, opened and
//                   closed
//   Inserted_Off    sonde::watchAt on a site that is off (`enabled: false`)
//   Inserted_WatchCall
//                   the call watchAt makes where it does not take the
//                   trampoline (clang, or SONDE_NO_WATCH_TRAMPOLINE)
//
// Built twice: by the project's compiler (inserted-bench), and by g++
// (inserted-bench-gxx), whose watchAt of a scalar is the asm that calls
// sonde_watch_trampoline (sonde/detail/WatchTrampoline.h); Inserted_Watch
// against Inserted_WatchCall in the g++ build is what the trampoline costs
// at run time.
//
//===----------------------------------------------------------------------===//

#include "sonde/sonde.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>

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

/// The same three sites as inserted code declares them: one site table, its
/// text written from sonde/site.h's numbers as the engine writes it.
std::string tableText() {
  std::string T;
  auto Field = [&T](const std::string &F) { T += F + sonde::TableSeparator; };
  auto Site = [&Field](sonde::SiteKind K, unsigned Flags, int Line,
                       const char *Name) {
    Field(std::to_string(unsigned(K)));
    Field(std::to_string(Flags));
    Field(std::to_string(Line));
    Field("0");
    Field("user.bench");
    Field(Name);
    Field("");
    Field("");
  };
  Field(std::to_string(sonde::SiteTableVersion));
  Field("3");
  Field("InsertedBench.cpp");
  Field("Table");
  Site(sonde::SiteKind::Watch, 0, 1, "value");
  Site(sonde::SiteKind::Region, 0, 2, "region");
  Site(sonde::SiteKind::Watch, sonde::OffByDefault, 3, "off");
  return T;
}
const std::string TableText = tableText();
sonde::SiteTable Table(TableText.c_str());

void Hand_Watch(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchScalar(WatchSite, V); }, true);
}
BENCHMARK(Hand_Watch)->UseManualTime();

void Inserted_Watch(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchAt(Table, 0, V); }, true);
}
BENCHMARK(Inserted_Watch)->UseManualTime();

void Inserted_WatchCall(benchmark::State &State) {
  bursts(
      State, [](int64_t V) { sonde::rt::detail::watchSharedAt(Table, 0, V); },
      true);
}
BENCHMARK(Inserted_WatchCall)->UseManualTime();

void Hand_Region(benchmark::State &State) {
  bursts(State, [](int64_t) { sonde::Region R(RegionSite); }, true);
}
BENCHMARK(Hand_Region)->UseManualTime();

void Inserted_Region(benchmark::State &State) {
  bursts(State, [](int64_t) { sonde::InsertedRegion R(Table, 1); }, true);
}
BENCHMARK(Inserted_Region)->UseManualTime();

void Inserted_Off(benchmark::State &State) {
  bursts(State, [](int64_t V) { sonde::watchAt(Table, 2, V); }, false);
}
BENCHMARK(Inserted_Off)->UseManualTime();

} // namespace

BENCHMARK_MAIN();

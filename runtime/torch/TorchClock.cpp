//===- TorchClock.cpp - Each rank's clock against rank 0's, at run time ---===//
//
// Ranks on different machines read different clocks, and NTP keeps wall
// clocks only within milliseconds of each other, often worse: more than a
// collective lasts. So each rank measures, once, how far its monotonic
// clock is from rank 0's, the way NTP does: it notes its clock (t0), asks
// rank 0 for the time, gets rank 0's clock reading T back, and notes its
// clock again (t1). Rank 0 read T between t0 and t1, so its clock minus
// this one's is within [T - t1, T - t0]: the midpoint, +- half the round
// trip. Of several rounds the one with the shortest round trip is kept.
// A rank on rank 0's machine (the same boot id) reads the same monotonic
// clock: it records offset 0, exactly, and asks nothing, so a job on one
// machine pays one store lookup a rank, not the rounds (rank 0 answers the
// ranks in turn, and on a loaded machine each round trip costs the ranks'
// shared cores milliseconds).
//
// The messages go through the job's c10d store (a TCPStore at MASTER_ADDR:
// MASTER_PORT, which torchrun, scripts/sonde-launch and the example set;
// rank 0 serves it), on a client of sonde's own, in a thread of its own,
// started at the process's first collective (TorchComm.cpp calls
// startClockExchange): by then every rank has made its process group, so
// the store is up. Its keys are under `sonde/clock/`. Nothing goes through
// the process group itself, whose collectives would be the program's and
// would show in its trace. The result goes to libsonde
// (sonde/detail/ClockSync.h), which writes it into the trace; `sonde merge`
// places each host by it (docs/distributed.md, "One timeline").
//
// SONDE_CLOCK_SYNC=0 turns it off. A job without MASTER_PORT, or a store
// that does not answer, is said once, and the trace then has no exchange.
//
//===----------------------------------------------------------------------===//

#include "TorchClock.h"
#include "sonde/detail/ClockSync.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sonde::torch::detail {
namespace {

/// Rounds per rank: enough that one of them is not delayed by a busy
/// machine (2 cores for 4 ranks), few enough to cost milliseconds.
constexpr unsigned Rounds = 16;
/// How long a rank waits for rank 0 (or rank 0 for a rank) before it says
/// the exchange failed.
constexpr std::chrono::seconds Patience{60};

std::string key(uint64_t Rank, unsigned Round, const char *Side) {
  return "sonde/clock/" + std::to_string(Rank) + "/" + std::to_string(Round) +
         "/" + Side;
}

/// Where a rank says whether it needs the rounds (1: another host) or not
/// (0: rank 0's host).
std::string needKey(uint64_t Rank) {
  return "sonde/clock/" + std::to_string(Rank) + "/need";
}

std::vector<uint8_t> bytesOf(int64_t V) {
  std::vector<uint8_t> B(8);
  for (unsigned I = 0; I < 8; ++I)
    B[I] = static_cast<uint8_t>(static_cast<uint64_t>(V) >> (8 * I));
  return B;
}

int64_t valueOf(const std::vector<uint8_t> &B) {
  uint64_t V = 0;
  for (unsigned I = 0; I < 8 && I < B.size(); ++I)
    V |= static_cast<uint64_t>(B[I]) << (8 * I);
  return static_cast<int64_t>(V);
}

/// Rank 0: publishes its boot id, then answers the rounds of each rank on
/// another host, in turn, with its clock, read between the question and
/// the answer.
void serve(c10d::TCPStore &Store, uint64_t World) {
  char Boot[rt::MaxBootIdBytes];
  rt::traceBootId(Boot, sizeof Boot);
  Store.set("sonde/clock/boot",
            std::vector<uint8_t>(Boot, Boot + std::strlen(Boot)));
  for (uint64_t R = 1; R < World; ++R) {
    std::vector<uint8_t> Need = Store.get(needKey(R));
    if (Need.empty() || Need[0] == 0)
      continue;
    for (unsigned K = 0; K < Rounds; ++K) {
      Store.wait({key(R, K, "ask")}, Patience);
      Store.set(key(R, K, "time"), bytesOf(rt::traceMonotonicNs()));
    }
  }
}

/// Another rank: its rounds with rank 0, the shortest one kept.
void ask(c10d::TCPStore &Store, uint64_t Rank) {
  std::vector<uint8_t> B = Store.get("sonde/clock/boot");
  std::string RefBoot(B.begin(), B.end());
  char Boot[rt::MaxBootIdBytes];
  rt::traceBootId(Boot, sizeof Boot);
  if (RefBoot == Boot) {
    // Rank 0's machine: the same clock, nothing to measure.
    Store.set(needKey(Rank), {0});
    rt::recordClockSync(0, 0, 0, RefBoot.c_str());
    return;
  }
  Store.set(needKey(Rank), {1});
  int64_t BestRtt = -1, Offset = 0;
  for (unsigned K = 0; K < Rounds; ++K) {
    int64_t T0 = rt::traceMonotonicNs();
    Store.set(key(Rank, K, "ask"), {1});
    int64_t T = valueOf(Store.get(key(Rank, K, "time")));
    int64_t T1 = rt::traceMonotonicNs();
    int64_t Rtt = T1 - T0;
    if (BestRtt < 0 || Rtt < BestRtt) {
      BestRtt = Rtt;
      Offset = T - (T0 + Rtt / 2);
    }
  }
  // The midpoint is within half the round trip of the truth, rounded up.
  rt::recordClockSync(Offset, (BestRtt + 1) / 2, 0, RefBoot.c_str());
}

void exchange(const std::string &Addr, uint16_t Port, uint64_t Rank,
              uint64_t World) {
  try {
    c10d::TCPStoreOptions O;
    O.port = Port;
    O.isServer = false;
    O.waitWorkers = false; // not one of the job's workers
    O.timeout = Patience;
    // Closed as soon as the exchange is done: libtorch 1.13's client keeps
    // a listening thread on a second connection, which spins (poll, then a
    // peek that reads the end of the stream, tens of thousands of times a
    // second) once the server side closes it; left open, that cost each
    // rank a core's share for the rest of the run. A process that ends
    // while this thread still waits does not destroy it (no destructor
    // runs on another thread's stack at exit).
    auto Store = std::make_unique<c10d::TCPStore>(Addr, O);
    if (Rank == 0)
      serve(*Store, World);
    else
      ask(*Store, Rank);
  } catch (const std::exception &E) {
    std::string What = E.what();
    What = What.substr(0, What.find('\n'));
    std::fprintf(stderr,
                 "sonde: rank %llu: the clock exchange through the store at "
                 "%s:%u failed (%.200s); this trace has none, and sonde merge "
                 "places its host by the wall clock\n",
                 static_cast<unsigned long long>(Rank), Addr.c_str(),
                 static_cast<unsigned>(Port), What.c_str());
  }
}

} // namespace

void startClockExchange() noexcept {
  static std::once_flag Once;
  std::call_once(Once, [] {
    const char *Off = std::getenv("SONDE_CLOCK_SYNC");
    if (Off && std::strcmp(Off, "0") == 0)
      return;
    if (Off && std::strcmp(Off, "1") != 0)
      std::fprintf(stderr,
                   "sonde: SONDE_CLOCK_SYNC=%.80s is not 0 or 1; using 1\n",
                   Off);
    uint64_t Rank = 0, World = 0;
    rt::traceWorld(Rank, World);
    if (World < 2)
      return; // one rank: nothing to align
    const char *Addr = std::getenv("MASTER_ADDR");
    const char *PortText = std::getenv("MASTER_PORT");
    char *End = nullptr;
    unsigned long Port = PortText ? std::strtoul(PortText, &End, 10) : 0;
    if (!PortText || End == PortText || *End || Port == 0 || Port > 65535) {
      std::fprintf(stderr,
                   "sonde: rank %llu: MASTER_PORT is %s%s%s; the ranks' "
                   "clocks are not exchanged, and sonde merge places each "
                   "host by its wall clock\n",
                   static_cast<unsigned long long>(Rank),
                   PortText ? "'" : "not set", PortText ? PortText : "",
                   PortText ? "', not a port" : "");
      return;
    }
    try {
      std::thread(exchange, std::string(Addr && *Addr ? Addr : "127.0.0.1"),
                  static_cast<uint16_t>(Port), Rank, World)
          .detach();
    } catch (const std::exception &) {
      std::fprintf(stderr, "sonde: no thread for the clock exchange; sonde "
                           "merge places each host by its wall clock\n");
    }
  });
}

} // namespace sonde::torch::detail

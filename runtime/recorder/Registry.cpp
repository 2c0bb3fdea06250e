//===- Registry.cpp - Probe sites and the rules that turn them on ---------===//
//
// A site registers on its first hit: it gets a dense id, and its on/off bit
// is computed from its compiled-in default and the enable rules (the
// environment first, then API calls, the last matching rule wins). The id
// table is append-only and lock-free to read, so the writer and a signal
// handler can walk it without the registry lock.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace sonde::rt::detail {
namespace {

constexpr uint32_t ChunkBits = 12;
constexpr uint32_t ChunkSize = 1u << ChunkBits;
constexpr uint32_t MaxChunks = 1u << 12; // 16 M sites
static_assert(MaxChunks * ChunkSize <= (1u << SiteIdBits),
              "ids share a record header word with the nesting level");

struct Rule {
  std::string Pattern;
  bool On;
  bool ByName; ///< matches the event name (or "category/name")
  /// The environment variable it came from (null: an API call).
  const char *FromVar = nullptr;
  /// Whether it matched a registered site (checked at exit).
  mutable bool Matched = false;
};

struct Registry {
  std::mutex Lock;
  std::vector<Rule> Rules; ///< under Lock
  std::atomic<uint32_t> Count{0};
  std::atomic<const Site *> *Chunks[MaxChunks] = {};
};

// Immortal: probes in static destructors may still register after exit.
Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

bool categoryMatches(const char *Category, const std::string &Pattern) {
  if (Pattern == "all")
    return true;
  size_t N = Pattern.size();
  return std::strncmp(Category, Pattern.c_str(), N) == 0 &&
         (Category[N] == '\0' || Category[N] == '.');
}

bool nameMatches(const Site &S, const std::string &Pattern) {
  if (Pattern == S.Name)
    return true;
  size_t Slash = Pattern.find('/');
  return Slash != std::string::npos &&
         Pattern.compare(0, Slash, S.Category) == 0 &&
         Pattern.compare(Slash + 1, std::string::npos, S.Name) == 0;
}

/// EXPECTS: the registry lock is held.
bool computeOn(const Registry &R, const Site &S) {
  bool On = !(S.Flags & OffByDefault);
  for (const Rule &Ru : R.Rules)
    if (Ru.ByName ? nameMatches(S, Ru.Pattern)
                  : categoryMatches(S.Category, Ru.Pattern)) {
      On = Ru.On;
      Ru.Matched = true;
    }
  return On;
}

/// EXPECTS: the registry lock is held.
void recomputeAll(Registry &R) {
  uint32_t N = R.Count.load(std::memory_order_relaxed);
  for (uint32_t Id = 1; Id <= N; ++Id) {
    const Site *S = siteById(Id);
    uint32_t On = computeOn(R, *S) ? Site::OnBit : 0;
    S->State.store(Id | On, rt::detail::MemOrder::Relaxed);
  }
}

void addRule(std::string Pattern, bool On, bool ByName) {
  ensureInit();
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Rules.push_back(Rule{std::move(Pattern), On, ByName});
  recomputeAll(R);
}

void addListFromEnv(Registry &R, const char *Var, bool On) {
  const char *V = std::getenv(Var);
  if (!V)
    return;
  std::string List(V);
  size_t Pos = 0;
  while (Pos <= List.size()) {
    size_t Comma = List.find(',', Pos);
    if (Comma == std::string::npos)
      Comma = List.size();
    std::string Item = List.substr(Pos, Comma - Pos);
    // Trim spaces: "compute, data" is a natural way to write it.
    while (!Item.empty() && Item.front() == ' ')
      Item.erase(0, 1);
    while (!Item.empty() && Item.back() == ' ')
      Item.pop_back();
    if (!Item.empty())
      R.Rules.push_back(
          Rule{Item, On, Item.find('/') != std::string::npos, Var});
    Pos = Comma + 1;
  }
}

} // namespace

uint32_t siteCount() noexcept {
  return registry().Count.load(std::memory_order_acquire);
}

const Site *siteById(uint32_t Id) noexcept {
  uint32_t I = Id - 1;
  return registry().Chunks[I >> ChunkBits][I & (ChunkSize - 1)].load(
      std::memory_order_relaxed);
}

uint32_t registerSite(const Site &S) noexcept {
  ensureInit();
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  uint32_t St = S.State.load(rt::detail::MemOrder::Relaxed);
  if (St != 0) // another thread registered it meanwhile
    return (St & Site::OnBit) ? (St & Site::IdMask) : 0;
  uint32_t N = R.Count.load(std::memory_order_relaxed);
  if (N + 1 >= MaxChunks * ChunkSize)
    return 0; // out of ids: the site stays unregistered and silent
  uint32_t Id = N + 1;
  uint32_t I = Id - 1;
  auto *&Chunk = R.Chunks[I >> ChunkBits];
  if (!Chunk)
    Chunk = new (std::nothrow) std::atomic<const Site *>[ChunkSize];
  if (!Chunk)
    return 0;
  Chunk[I & (ChunkSize - 1)].store(&S, std::memory_order_relaxed);
  bool On = computeOn(R, S);
  S.State.store(Id | (On ? Site::OnBit : 0), rt::detail::MemOrder::Relaxed);
  // Release: a reader that sees Count sees the chunk entry.
  R.Count.store(Id, std::memory_order_release);
  return On ? Id : 0;
}

void loadEnableRules() noexcept {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  // Disable after enable, so `SONDE_ENABLE=all SONDE_DISABLE=data` means all
  // but data.
  addListFromEnv(R, "SONDE_ENABLE", true);
  addListFromEnv(R, "SONDE_DISABLE", false);
  recomputeAll(R);
}

void reportUnmatchedRules() noexcept {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  std::string Seen; // the categories this run has, for the message
  bool Listed = false;
  for (const Rule &Ru : R.Rules) {
    if (!Ru.FromVar || Ru.Matched || Ru.Pattern == "all")
      continue;
    if (!Listed) {
      std::vector<std::string> Cats;
      uint32_t N = R.Count.load(std::memory_order_relaxed);
      for (uint32_t Id = 1; Id <= N; ++Id)
        Cats.push_back(siteById(Id)->Category);
      std::sort(Cats.begin(), Cats.end());
      Cats.erase(std::unique(Cats.begin(), Cats.end()), Cats.end());
      for (const std::string &C : Cats)
        Seen += (Seen.empty() ? "" : ", ") + C;
      Listed = true;
    }
    std::fprintf(stderr,
                 "sonde: %s: '%s' matches no %s of this run, so it changed "
                 "nothing (categories seen: %s)\n",
                 Ru.FromVar, Ru.Pattern.c_str(),
                 Ru.ByName ? "probe name" : "category",
                 Seen.empty() ? "none" : Seen.c_str());
  }
}

void lockRegistry() noexcept { registry().Lock.lock(); }
void unlockRegistry() noexcept { registry().Lock.unlock(); }
void resetRegistryLockInChild() noexcept {
  // The child has one thread: the lock copied from the parent was held by
  // that thread (our prepare handler), so a fresh mutex is the same state.
  new (&registry().Lock) std::mutex();
}

} // namespace sonde::rt::detail

namespace sonde {

void enable(const char *Category) noexcept {
  if (Category)
    rt::detail::addRule(Category, true, false);
}

void disable(const char *Category) noexcept {
  if (Category)
    rt::detail::addRule(Category, false, false);
}

void setProbeEnabled(const char *Name, bool On) noexcept {
  if (Name)
    rt::detail::addRule(Name, On, true);
}

} // namespace sonde

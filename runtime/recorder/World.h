//===- World.h - Rank, local rank and world size of a job -------*- C++ -*-===//
//
// A process of a distributed job learns where it stands from its launcher's
// environment: torchrun and scripts/sonde-launch set RANK, LOCAL_RANK and
// WORLD_SIZE, Open MPI's mpirun OMPI_COMM_WORLD_RANK/_LOCAL_RANK/_SIZE,
// MPICH's Hydra PMI_RANK/PMI_SIZE, Slurm's srun SLURM_PROCID/SLURM_LOCALID/
// SLURM_NTASKS. detectWorld() reads them all, uses the first launcher (in
// that order) whose rank is a whole number, and says in one line each what
// it refused or found in disagreement, and what it used instead: a value
// that is not a number, ranks or sizes two launchers disagree on, a rank
// that is not below its world size. Header-only so the unit tests check the
// code libsonde runs; it allocates nothing (it runs at the first record).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_LIB_WORLD_H
#define SONDE_LIB_WORLD_H

#include "Env.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace sonde::rt::env {

/// One launcher's variables: rank, local rank, world size (null: it sets
/// none of that kind).
struct Launcher {
  const char *Name;
  const char *Vars[3];
};

/// The fields of a World, in the order of Launcher::Vars.
enum WorldField : unsigned { RankField = 0, LocalRankField = 1, SizeField = 2 };

/// In the order they are tried; Name is what the trace records.
constexpr Launcher Launchers[] = {
    {"env", {"RANK", "LOCAL_RANK", "WORLD_SIZE"}},
    {"openmpi",
     {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
      "OMPI_COMM_WORLD_SIZE"}},
    {"pmi", {"PMI_RANK", nullptr, "PMI_SIZE"}},
    {"slurm", {"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"}},
};
constexpr unsigned LauncherCount = sizeof Launchers / sizeof *Launchers;

/// A field no launcher gave.
constexpr uint64_t Unknown = ~uint64_t(0);

/// Where this process stands. Rank is 0 and Launcher empty when no launcher
/// gave a rank; LocalRank and Size are Unknown when not given.
struct World {
  uint64_t Rank = 0;
  uint64_t LocalRank = Unknown;
  uint64_t Size = Unknown;
  const char *Launcher = "";
};

/// One line for stderr (no newline).
struct WorldNote {
  char Text[400];
};

/// The most lines detectWorld() can give: a bad value per variable, a
/// disagreement per launcher and field, and a rank beyond its size.
constexpr unsigned MaxWorldNotes = LauncherCount * 3 * 2 + 1;

namespace detail {

constexpr const char *FieldNoun[] = {"a rank", "a local rank", "a world size"};
constexpr const char *FieldNone[] = {"0", "no local rank", "no world size"};

/// `VAR=VALUE` with a long value cut (and the cut said).
inline int setting(char *Buf, size_t N, const char *Var, const char *Value) {
  constexpr int Shown = 80;
  return std::snprintf(Buf, N, "%s=%.*s%s", Var, Shown, Value,
                       std::strlen(Value) > Shown ? "..." : "");
}

} // namespace detail

/// Reads the launchers' variables through `Get` (a getenv: name -> value or
/// null) into `W`; writes what it must say into `Notes` (at least
/// MaxWorldNotes of them) and returns how many.
template <class GetEnv>
unsigned detectWorld(GetEnv Get, World &W, WorldNote *Notes) {
  using namespace detail;
  struct Read {
    const char *Text = nullptr; // set
    bool Ok = false;            // and a valid value
    uint64_t Value = 0;
  } R[LauncherCount][3];
  for (unsigned L = 0; L < LauncherCount; ++L)
    for (unsigned F = 0; F < 3; ++F) {
      const char *Var = Launchers[L].Vars[F];
      Read &X = R[L][F];
      if (!Var || !(X.Text = Get(Var)))
        continue;
      X.Ok = parseRank(X.Text, X.Value) && (F != SizeField || X.Value != 0);
    }
  W = World();
  int Chosen = -1;
  for (unsigned L = 0; L < LauncherCount && Chosen < 0; ++L)
    if (R[L][RankField].Ok)
      Chosen = static_cast<int>(L);
  uint64_t *Out[3] = {&W.Rank, &W.LocalRank, &W.Size};
  if (Chosen >= 0) {
    W.Launcher = Launchers[Chosen].Name;
    for (unsigned F = 0; F < 3; ++F)
      if (R[Chosen][F].Ok)
        *Out[F] = R[Chosen][F].Value;
  }
  // What is used for field F, as a line says it.
  auto Used = [&](unsigned F, char *Buf, size_t N) {
    if (Chosen >= 0 && R[Chosen][F].Ok)
      setting(Buf, N, Launchers[Chosen].Vars[F], R[Chosen][F].Text);
    else
      std::snprintf(Buf, N, "%s", FieldNone[F]);
  };
  unsigned Count = 0;
  char A[128], B[128];
  for (unsigned L = 0; L < LauncherCount; ++L)
    for (unsigned F = 0; F < 3; ++F) {
      const Read &X = R[L][F];
      if (!X.Text)
        continue;
      const char *Var = Launchers[L].Vars[F];
      setting(A, sizeof A, Var, X.Text);
      Used(F, B, sizeof B);
      if (!X.Ok)
        std::snprintf(Notes[Count++].Text, sizeof Notes->Text,
                      "sonde: %s is not %s (a whole number from %d to "
                      "2147483647); using %s",
                      A, FieldNoun[F], F == SizeField ? 1 : 0, B);
      else if (Chosen >= 0 && static_cast<int>(L) != Chosen &&
               R[Chosen][F].Ok && X.Value != R[Chosen][F].Value)
        std::snprintf(Notes[Count++].Text, sizeof Notes->Text,
                      "sonde: %s disagrees with %s; using %s", A, B, B);
    }
  if (W.Size != Unknown && W.Rank >= W.Size) {
    setting(A, sizeof A, Launchers[Chosen].Vars[RankField],
            R[Chosen][RankField].Text);
    setting(B, sizeof B, Launchers[Chosen].Vars[SizeField],
            R[Chosen][SizeField].Text);
    std::snprintf(Notes[Count++].Text, sizeof Notes->Text,
                  "sonde: %s is not below %s; using rank %llu and no world "
                  "size",
                  A, B, static_cast<unsigned long long>(W.Rank));
    W.Size = Unknown;
  }
  return Count;
}

} // namespace sonde::rt::env

#endif // SONDE_LIB_WORLD_H

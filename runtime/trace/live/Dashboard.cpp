//===- Dashboard.cpp - The screens and lines of `sonde live` --------------===//
//
// Dashboard.h. The layout, top to bottom: who is followed and for how
// long; epoch and step; the rates line; the watches (loss first) with
// their latest value and a sparkline; the self time per top category over
// the window; the slowest rank; the drops; the keys. Sections shrink
// (fewer watches, fewer categories) to fit the height.
//
//===----------------------------------------------------------------------===//

#include "live/Dashboard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sonde::trace::live {

namespace {

/// The eight heights of a sparkline cell, lowest first (UTF-8).
constexpr const char *Bars[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                "\u2585", "\u2586", "\u2587", "\u2588"};

std::string number(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  char Buf[32];
  double A = std::fabs(V);
  if (A != 0 && (A >= 1e6 || A < 1e-3))
    std::snprintf(Buf, sizeof Buf, "%.3e", V);
  else
    std::snprintf(Buf, sizeof Buf, "%.4f", V);
  return Buf;
}

/// `rates   train 4229/s  loading 86646/s  compute 4463/s  ▂▄▆█`: what
/// `sonde summary` calls the run's rates, and a sparkline of the train
/// rate per refresh.
std::string rate(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, V >= 100 ? "%.0f" : "%.1f", V);
  return Buf;
}

std::string ratesLine(const LiveState &S, size_t Width) {
  const LiveRateSample &R = S.rates();
  if (!S.anySteps())
    return "rates   items/s need probes with 'items:' (docs/rates.md)";
  if (!R.Steps)
    return "rates   warming up (the first steps are kept apart)";
  std::string Line = "rates   train " + rate(R.Train) + "/s  loading " +
                     rate(R.Loading) + "/s  compute " + rate(R.Compute) +
                     "/s  ";
  size_t Room = Width > Line.size() + 4 ? Width - Line.size() : 4;
  return Line + sparkline(S.recentTrainRates(), std::min<size_t>(Room, 20));
}

std::string seconds(int64_t Ns) {
  char Buf[32];
  if (Ns < 1000000000)
    std::snprintf(Buf, sizeof Buf, "%.1f ms", static_cast<double>(Ns) / 1e6);
  else
    std::snprintf(Buf, sizeof Buf, "%.2f s", static_cast<double>(Ns) / 1e9);
  return Buf;
}

/// Display columns of UTF-8 text: its bytes less the continuation bytes.
size_t columns(const std::string &S) {
  size_t N = 0;
  for (unsigned char C : S)
    N += (C & 0xC0) != 0x80;
  return N;
}

/// `S` cut to `Width` display columns.
std::string cut(const std::string &S, size_t Width) {
  size_t Cols = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    auto C = static_cast<unsigned char>(S[I]);
    if ((C & 0xC0) != 0x80 && Cols++ == Width)
      return S.substr(0, I);
  }
  return S;
}

std::string pad(std::string S, size_t Width) {
  size_t Cols = columns(S);
  if (Cols < Width)
    S.append(Width - Cols, ' ');
  return S;
}

std::string who(const ProcessView &P) {
  return "rank " + std::to_string(P.Rank) + " (pid " + std::to_string(P.Pid) +
         ")";
}

std::string progress(const ProcessView &P) {
  std::string S;
  if (P.HasEpoch)
    S += "epoch " + std::to_string(P.Epoch);
  if (P.HasStep)
    S += std::string(S.empty() ? "" : "  ") + "step " + std::to_string(P.Step);
  return S;
}

/// The process whose progress the header shows: rank 0's (the first).
const ProcessView *lead(const LiveState &S) {
  for (const ProcessView *P : S.processes())
    if (P->HasEpoch || P->HasStep)
      return P;
  auto All = S.processes();
  return All.empty() ? nullptr : All.front();
}

} // namespace

std::string elapsedText(const LiveState &S, const LiveStatus &St) {
  if (!S.startNs())
    return "-";
  int64_t Until = St.Done ? S.latestNs() : std::max(St.NowNs, S.latestNs());
  int64_t Sec = std::max<int64_t>(0, (Until - S.startNs()) / 1000000000);
  char Buf[32];
  std::snprintf(
      Buf, sizeof Buf, "%lld:%02lld:%02lld", static_cast<long long>(Sec / 3600),
      static_cast<long long>(Sec / 60 % 60), static_cast<long long>(Sec % 60));
  return Buf;
}

std::string sparkline(const std::deque<double> &Values, size_t Width) {
  size_t From = Values.size() > Width ? Values.size() - Width : 0;
  double Lo = INFINITY, Hi = -INFINITY;
  for (size_t I = From; I < Values.size(); ++I)
    if (std::isfinite(Values[I])) {
      Lo = std::min(Lo, Values[I]);
      Hi = std::max(Hi, Values[I]);
    }
  std::string Out;
  for (size_t I = From; I < Values.size(); ++I) {
    double V = Values[I];
    if (!std::isfinite(V)) {
      Out += "!";
      continue;
    }
    int Level =
        Hi > Lo ? static_cast<int>(std::lround((V - Lo) / (Hi - Lo) * 7.0)) : 3;
    Out += Bars[std::clamp(Level, 0, 7)];
  }
  return Out;
}

std::vector<std::string> dashboard(const LiveState &S, const LiveStatus &St,
                                   size_t Width, size_t Height) {
  std::vector<std::string> L;
  auto Procs = S.processes();
  // Who, and for how long.
  std::string Head = "sonde live  ";
  if (Procs.empty())
    Head += St.Waiting.empty() ? "waiting for trace files" : St.Waiting;
  else if (Procs.size() == 1)
    Head += Procs.front()->Program + "  " + who(*Procs.front());
  else
    Head += std::to_string(Procs.size()) + " processes";
  Head += St.Done ? "  ended" : "  " + std::to_string(St.Running) + " running";
  std::string Elapsed = "elapsed " + elapsedText(S, St);
  L.push_back(
      pad(Head, Width > Elapsed.size() + 1 ? Width - Elapsed.size() - 1 : 0) +
      " " + Elapsed);
  // Epoch and step.
  const ProcessView *Lead = lead(S);
  std::string Prog = Lead ? progress(*Lead) : "";
  if (!Prog.empty() && Procs.size() > 1)
    Prog = "rank " + std::to_string(Lead->Rank) + ": " + Prog;
  L.push_back(Prog.empty() ? "no epoch or step args seen yet"
              : Lead->HasStep
                  ? Prog + "   (" + std::to_string(Lead->Steps) + " steps seen)"
                  : Prog);
  // The training rates (items/s) over the run after the warm-up, and the
  // train rate of each refresh's steps.
  L.push_back(ratesLine(S, Width));
  L.push_back("");
  // What the rest needs: the categories, the ranks, drops, keys.
  auto Cats = S.categoryTime();
  size_t Fixed = L.size() + 1 /*watch head*/ + 2 /*gap, cat head*/ + 1 /*gap*/ +
                 (Procs.size() > 1 ? 1 : 0) + 1 /*drops*/ + 1 /*keys*/ +
                 (St.Note.empty() ? 0 : 1);
  size_t Room = Height > Fixed ? Height - Fixed : 0;
  auto Watches = S.watches();
  size_t NCats = std::min(Cats.size(), std::max<size_t>(1, Room / 2));
  size_t NWatch = std::min(Watches.size(), Room - std::min(Room, NCats));
  NCats = std::min(Cats.size(), Room - std::min(Room, NWatch));
  // Watches.
  size_t Spark = Width > 40 ? Width - 40 : 8;
  L.push_back(Watches.empty() ? "watches  none with a number yet"
                              : pad("watch", 22) + pad("latest", 14) + "last " +
                                    std::to_string(std::min(
                                        Spark, WatchView::RecentValues)) +
                                    " values");
  for (size_t I = 0; I < NWatch; ++I) {
    const WatchView &W = *Watches[I];
    L.push_back("  " + pad(W.Name, 20) + pad(number(W.Last), 14) +
                sparkline(W.Recent, Spark));
  }
  L.push_back("");
  // Time per category.
  int64_t Total = 0;
  for (const auto &C : Cats)
    Total += C.second;
  L.push_back("time per category, last " +
              std::to_string(S.windowNs() / 1000000000) + " s (self time)");
  if (Cats.empty())
    L.push_back("  no regions ended yet");
  size_t BarWidth = Width > 44 ? Width - 44 : 4;
  for (size_t I = 0; I < NCats; ++I) {
    double Share = Total ? double(Cats[I].second) / double(Total) : 0;
    char Pct[16];
    std::snprintf(Pct, sizeof Pct, "%5.1f%%", Share * 100);
    auto Fill = static_cast<size_t>(std::lround(Share * double(BarWidth)));
    std::string Bar;
    for (size_t B = 0; B < Fill; ++B)
      Bar += Bars[7];
    L.push_back("  " + pad(Cats[I].first, 20) + pad(Pct, 8) +
                pad(seconds(Cats[I].second), 12) + Bar);
  }
  L.push_back("");
  if (Procs.size() > 1) {
    const ProcessView *Slow = S.slowest(), *Fast = S.fastest();
    L.push_back(Slow ? "slowest rank " + std::to_string(Slow->Rank) + ": " +
                           std::to_string(Slow->Steps) + " steps (" +
                           progress(*Slow) + "), rank " +
                           std::to_string(Fast->Rank) + " at " +
                           std::to_string(Fast->Steps)
                     : "ranks   " + std::to_string(Procs.size()) +
                           " in step with each other");
  }
  L.push_back("drops   " + std::to_string(St.Dropped) +
              (St.Dropped ? " records dropped by the writer" : ""));
  if (!St.Note.empty())
    L.push_back("note    " + St.Note);
  L.push_back(St.Done ? "every process ended" : "q or Ctrl-C quits");
  if (L.size() > Height)
    L.resize(Height);
  for (std::string &Line : L)
    Line = cut(Line, Width);
  return L;
}

std::string plainLine(const LiveState &S, const LiveStatus &St) {
  std::string Out = "[" + elapsedText(S, St) + "]";
  const ProcessView *Lead = lead(S);
  if (!Lead) {
    Out += " " + (St.Waiting.empty() ? std::string("waiting for trace files")
                                     : St.Waiting);
    return Out;
  }
  std::string Prog = progress(*Lead);
  if (!Prog.empty())
    Out += " " + Prog;
  if (Lead->HasStep)
    Out += " steps " + std::to_string(Lead->Steps);
  if (S.rates().Steps)
    Out += " train " + rate(S.rates().Train) + "/s";
  auto Watches = S.watches();
  for (size_t I = 0; I < Watches.size() && I < 4; ++I)
    Out +=
        (I ? " " : " | ") + Watches[I]->Name + " " + number(Watches[I]->Last);
  auto Cats = S.categoryTime();
  int64_t Total = 0;
  for (const auto &C : Cats)
    Total += C.second;
  for (size_t I = 0; I < Cats.size() && I < 4; ++I) {
    char Pct[16];
    std::snprintf(Pct, sizeof Pct, "%.0f%%",
                  100.0 * double(Cats[I].second) / double(Total));
    Out += (I ? " " : " | ") + Cats[I].first + " " + Pct;
  }
  if (St.Files > 1)
    if (const ProcessView *Slow = S.slowest())
      Out += " | slowest rank " + std::to_string(Slow->Rank);
  Out += " | drops " + std::to_string(St.Dropped) + " | " +
         std::to_string(St.Running) + "/" + std::to_string(St.Files) +
         " running";
  return Out;
}

} // namespace sonde::trace::live

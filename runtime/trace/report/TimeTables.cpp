//===- TimeTables.cpp - Where the time went, for `sonde report` -----------===//
//
// The report's two time charts: self time by top category, and the
// regions with the most self time by name with their count, total and
// percentiles. Self time is a region's duration less its direct children's,
// so nested regions are not counted twice.
//
//===----------------------------------------------------------------------===//

#include "ReportData.h"

#include <algorithm>
#include <map>

namespace sonde::trace::report {
namespace {

constexpr size_t MaxNames = 24; ///< rows of the by-name chart

struct NameStats {
  std::string Cat, Name;
  uint64_t Count = 0;
  int64_t Total = 0, Self = 0;
  std::vector<int64_t> Durs;
};

} // namespace

/// Self time: a region's duration minus its direct children's, per event.
std::vector<int64_t> selfTimes(const Trace &T) {
  std::vector<int64_t> Self(T.Events.size(), 0);
  std::map<uint32_t, std::vector<size_t>> Stacks; // per thread: open regions
  for (size_t I = 0; I < T.Events.size(); ++I) {
    const Event &E = T.Events[I];
    if (E.Kind != EventKind::Region)
      continue;
    Self[I] = E.Dur;
    auto &Stack = Stacks[E.Thread];
    while (!Stack.empty()) {
      const Event &Top = T.Events[Stack.back()];
      if (Top.Ts + Top.Dur <= E.Ts)
        Stack.pop_back();
      else
        break;
    }
    if (!Stack.empty()) {
      const Event &Top = T.Events[Stack.back()];
      if (E.Ts + E.Dur <= Top.Ts + Top.Dur)
        Self[Stack.back()] -= E.Dur;
    }
    Stack.push_back(I);
  }
  for (int64_t &S : Self)
    S = std::max<int64_t>(S, 0);
  return Self;
}

const Value *argOf(const Event &E, std::string_view Name) {
  for (const auto &KV : *E.A)
    if (KV.first == Name)
      return &KV.second;
  return nullptr;
}

void writeTimeTables(JsonOut &J, const std::vector<Trace> &Traces,
                     const std::vector<std::vector<int64_t>> &Selfs) {
  std::map<std::string, int64_t> CatSelf, CatTotal;
  std::map<std::pair<std::string, std::string>, NameStats> Names;
  for (size_t TI = 0; TI < Traces.size(); ++TI) {
    const Trace &T = Traces[TI];
    for (size_t I = 0; I < T.Events.size(); ++I) {
      const Event &E = T.Events[I];
      if (E.Kind != EventKind::Region)
        continue;
      const SiteInfo &S = T.site(E.Site);
      std::string Cat = S.topCategory();
      CatSelf[Cat] += Selfs[TI][I];
      CatTotal[Cat] += E.Dur;
      NameStats &N = Names[{Cat, S.Name}];
      N.Cat = Cat;
      N.Name = S.Name;
      ++N.Count;
      N.Total += E.Dur;
      N.Self += Selfs[TI][I];
      N.Durs.push_back(E.Dur);
    }
  }
  std::vector<std::pair<std::string, int64_t>> Cats(CatSelf.begin(),
                                                    CatSelf.end());
  std::sort(Cats.begin(), Cats.end(),
            [](const auto &A, const auto &B) { return A.second > B.second; });
  J.key("categories").openArray();
  for (const auto &[Cat, Self] : Cats) {
    J.item().open();
    J.key("cat").str(Cat);
    J.key("self_ns").num(Self);
    J.key("total_ns").num(CatTotal[Cat]);
    J.close();
  }
  J.closeArray();
  std::vector<NameStats *> ByName;
  for (auto &KV : Names)
    ByName.push_back(&KV.second);
  std::sort(
      ByName.begin(), ByName.end(),
      [](const NameStats *A, const NameStats *B) { return A->Self > B->Self; });
  J.key("names").openArray();
  for (size_t I = 0; I < ByName.size() && I < MaxNames; ++I) {
    NameStats &N = *ByName[I];
    std::sort(N.Durs.begin(), N.Durs.end());
    J.item().open();
    J.key("cat").str(N.Cat);
    J.key("name").str(N.Name);
    J.key("count").num(N.Count);
    J.key("total_ns").num(N.Total);
    J.key("self_ns").num(N.Self);
    J.key("p50_ns").num(percentile(N.Durs, 0.5));
    J.key("p99_ns").num(percentile(N.Durs, 0.99));
    J.close();
  }
  J.closeArray();
  J.key("names_total").num(static_cast<uint64_t>(ByName.size()));
}

} // namespace sonde::trace::report

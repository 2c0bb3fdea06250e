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

} // namespace

const Value *argOf(const Event &E, std::string_view Name) {
  for (const auto &KV : *E.A)
    if (KV.first == Name)
      return &KV.second;
  return nullptr;
}

void TimeTables::beginTrace(const Trace &T) {
  Current = &T;
  RowOf.assign(T.Sites.size() + 1, nullptr);
  CatSelfOf.assign(T.Sites.size() + 1, nullptr);
}

void TimeTables::add(const Event &E) {
  if (E.Kind != EventKind::Region)
    return;
  uint32_t Slot = std::min<uint32_t>(E.Site, Current->Sites.size());
  if (!RowOf[Slot]) {
    const SiteInfo &S = Current->site(E.Site);
    std::string Cat = S.topCategory();
    Row &N = Names[{Cat, S.Name}];
    N.Cat = Cat;
    N.Name = S.Name;
    RowOf[Slot] = &N;
    CatSelfOf[Slot] = &CatSelf[Cat];
  }
  Row &N = *RowOf[Slot];
  CatTotal[N.Cat] += E.Dur;
  ++N.Count;
  N.Total += E.Dur;
  N.Durs.push_back(E.Dur);
  Self.add(
      E, Slot,
      [this](uint32_t S, int64_t Ns) {
        *CatSelfOf[S] += Ns;
        RowOf[S]->Self += Ns;
      },
      outOfOrder(*Current));
}

void TimeTables::endTrace() {
  Self.finish([this](uint32_t S, int64_t Ns) {
    *CatSelfOf[S] += Ns;
    RowOf[S]->Self += Ns;
  });
}

void TimeTables::write(JsonOut &J) {
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
  std::vector<Row *> ByName;
  for (auto &KV : Names)
    ByName.push_back(&KV.second);
  std::sort(ByName.begin(), ByName.end(),
            [](const Row *A, const Row *B) { return A->Self > B->Self; });
  J.key("names").openArray();
  for (size_t I = 0; I < ByName.size() && I < MaxNames; ++I) {
    Row &N = *ByName[I];
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

//===- DurationSketch.cpp - Percentiles of durations in bounded memory ----===//
//
// See DurationSketch.h.
//
//===----------------------------------------------------------------------===//

#include "DurationSketch.h"

#include <algorithm>
#include <cmath>

namespace sonde::trace {
namespace {

const double Gamma =
    (1 + DurationSketch::RelativeError) / (1 - DurationSketch::RelativeError);
const double LogGamma = std::log(Gamma);

} // namespace

int DurationSketch::bucketOf(int64_t Ns) {
  return static_cast<int>(
      std::ceil(std::log(static_cast<double>(Ns)) / LogGamma));
}

int64_t DurationSketch::valueOf(int Bucket) {
  // The middle of (g^(i-1), g^i] in relative terms: within RelativeError
  // of every value in it.
  return static_cast<int64_t>(
      std::llround(2 * std::pow(Gamma, Bucket) / (Gamma + 1)));
}

void DurationSketch::addToBucket(int64_t Ns) {
  if (Ns <= 0) {
    ++Zeros;
    return;
  }
  int B = bucketOf(Ns);
  if (Counts.empty()) {
    First = B;
    Counts.assign(1, 0);
  } else if (B < First) {
    Counts.insert(Counts.begin(), static_cast<size_t>(First - B), 0);
    First = B;
  } else if (B >= First + static_cast<int>(Counts.size())) {
    Counts.resize(static_cast<size_t>(B - First + 1), 0);
  }
  ++Counts[static_cast<size_t>(B - First)];
}

void DurationSketch::toBuckets() {
  for (int64_t D : Exact)
    addToBucket(D);
  Exact.clear();
  Exact.shrink_to_fit();
  Bucketed = true;
}

void DurationSketch::push_back(int64_t Ns) {
  Min = N ? std::min(Min, Ns) : Ns;
  Max = N ? std::max(Max, Ns) : Ns;
  ++N;
  if (Bucketed)
    return addToBucket(Ns);
  Sorted = Sorted && (Exact.empty() || Exact.back() <= Ns);
  Exact.push_back(Ns);
  if (Exact.size() > ExactLimit)
    toBuckets();
}

int64_t DurationSketch::percentile(double P) const {
  if (!N)
    return 0;
  size_t Rank = static_cast<size_t>(std::ceil(P * static_cast<double>(N)));
  Rank = std::min(N, std::max<size_t>(Rank, 1));
  if (!Bucketed) {
    if (!Sorted) {
      std::sort(Exact.begin(), Exact.end());
      Sorted = true;
    }
    return Exact[Rank - 1];
  }
  // The extremes are known exactly; between them, the bucket's middle.
  if (Rank == 1)
    return Min;
  if (Rank == N)
    return Max;
  uint64_t Seen = Zeros;
  if (Rank <= Seen)
    return std::min<int64_t>(0, Max);
  for (size_t I = 0; I < Counts.size(); ++I) {
    Seen += Counts[I];
    if (Rank <= Seen)
      return std::clamp(valueOf(First + static_cast<int>(I)), Min, Max);
  }
  return Max;
}

} // namespace sonde::trace

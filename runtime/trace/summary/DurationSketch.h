//===- DurationSketch.h - Percentiles of durations in bounded memory -*- C++
//-*-===//
//
// The durations of one row of `sonde summary` (a region, an API): count,
// and percentiles by nearest rank. Up to ExactLimit durations are kept and
// their percentiles are exact; past that they go into log-scaled buckets
// (DDSketch's scheme: bucket i holds (g^(i-1), g^i], g = (1+a)/(1-a)), so
// that any percentile is within RelativeError of the exact one, in memory
// that grows with the logarithm of the range, not with the count.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_SUMMARY_DURATIONSKETCH_H
#define SONDE_TRACE_SUMMARY_DURATIONSKETCH_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sonde::trace {

class DurationSketch {
public:
  /// The bound of a percentile's relative error once in buckets.
  static constexpr double RelativeError = 0.005;
  /// Durations kept as they are (exact percentiles) before buckets.
  static constexpr size_t ExactLimit = 4096;

  void push_back(int64_t Ns);
  size_t size() const { return N; }
  bool empty() const { return N == 0; }
  /// Whether percentiles are exact (no more than ExactLimit durations).
  bool exact() const { return !Bucketed; }
  /// Percentile `P` (0 to 1) by nearest rank; 0 when empty.
  int64_t percentile(double P) const;

private:
  void toBuckets();
  void addToBucket(int64_t Ns);
  static int bucketOf(int64_t Ns);
  static int64_t valueOf(int Bucket);

  size_t N = 0;
  bool Bucketed = false;
  mutable std::vector<int64_t> Exact; ///< sorted when asked
  mutable bool Sorted = true;
  uint64_t Zeros = 0;           ///< durations of 0 (and below)
  std::vector<uint64_t> Counts; ///< bucket First + i
  int First = 0;
  int64_t Min = 0, Max = 0;
};

/// Percentile `P` (0 to 1) of `D`, as percentile() on sorted durations.
inline int64_t percentile(const DurationSketch &D, double P) {
  return D.percentile(P);
}

/// The bound of `D`'s percentiles' relative error: 0 while they are exact.
inline double percentileError(const DurationSketch &D) {
  return D.exact() ? 0.0 : DurationSketch::RelativeError;
}

} // namespace sonde::trace

#endif // SONDE_TRACE_SUMMARY_DURATIONSKETCH_H

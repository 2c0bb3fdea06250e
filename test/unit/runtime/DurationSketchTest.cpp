//===- DurationSketchTest.cpp - Percentiles in bounded memory -------------===//
//
// `sonde summary`'s percentiles against exact nearest-rank percentiles:
// exact up to DurationSketch::ExactLimit durations, then within
// DurationSketch::RelativeError on uniform, log-normal, bimodal and
// heavy-tailed (Pareto) durations, and on adversarial ones.
//
//===----------------------------------------------------------------------===//

#include "summary/DurationSketch.h"

#include "Export.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace sonde::trace;

namespace {

/// Every percentile from 1 to 99, 99.9 and the extremes: each within the
/// stated relative error of the exact nearest-rank one.
void expectClose(std::vector<int64_t> Durs, const char *What) {
  DurationSketch S;
  for (int64_t D : Durs)
    S.push_back(D);
  std::sort(Durs.begin(), Durs.end());
  ASSERT_EQ(S.size(), Durs.size());
  std::vector<double> Ps = {0, 0.001, 0.999, 1};
  for (int I = 1; I < 100; ++I)
    Ps.push_back(I / 100.0);
  double Worst = 0;
  for (double P : Ps) {
    int64_t Exact = percentile(Durs, P);
    int64_t Got = S.percentile(P);
    double Err = Exact ? std::fabs(double(Got - Exact)) / double(Exact)
                       : double(Got != 0);
    Worst = std::max(Worst, Err);
    // Rounding the bucket's middle to whole ns adds at most half a ns.
    EXPECT_LE(std::fabs(double(Got - Exact)),
              DurationSketch::RelativeError * double(Exact) + 0.5)
        << What << " p" << P * 100 << ": exact " << Exact << ", got " << Got;
  }
  ::testing::Test::RecordProperty(What, std::to_string(Worst));
}

} // namespace

TEST(DurationSketch, ExactUpToTheLimit) {
  std::mt19937_64 Rng(1);
  std::uniform_int_distribution<int64_t> Dist(0, 1000000);
  DurationSketch S;
  std::vector<int64_t> Durs;
  for (size_t I = 0; I < DurationSketch::ExactLimit; ++I) {
    Durs.push_back(Dist(Rng));
    S.push_back(Durs.back());
  }
  EXPECT_TRUE(S.exact());
  std::sort(Durs.begin(), Durs.end());
  for (double P : {0.0, 0.01, 0.5, 0.9, 0.99, 1.0})
    EXPECT_EQ(S.percentile(P), percentile(Durs, P)) << P;
  EXPECT_EQ(percentileError(S), 0.0); // what summary --json says
  S.push_back(5);
  EXPECT_FALSE(S.exact());
  EXPECT_EQ(percentileError(S), DurationSketch::RelativeError);
}

TEST(DurationSketch, EmptyIsZero) {
  DurationSketch S;
  EXPECT_EQ(S.percentile(0.5), 0);
  EXPECT_TRUE(S.empty());
}

TEST(DurationSketch, UniformAndLogNormal) {
  std::mt19937_64 Rng(2);
  std::uniform_int_distribution<int64_t> U(1, 10000000);
  std::lognormal_distribution<double> L(10, 2);
  std::vector<int64_t> A, B;
  for (int I = 0; I < 200000; ++I) {
    A.push_back(U(Rng));
    B.push_back(static_cast<int64_t>(L(Rng)));
  }
  expectClose(A, "uniform");
  expectClose(B, "lognormal");
}

TEST(DurationSketch, BimodalAndHeavyTailed) {
  std::mt19937_64 Rng(3);
  std::normal_distribution<double> Fast(2000, 100), Slow(3000000, 50000);
  std::bernoulli_distribution SlowOne(0.02);
  std::vector<int64_t> Bimodal, Pareto;
  std::uniform_real_distribution<double> U(0, 1);
  for (int I = 0; I < 200000; ++I) {
    Bimodal.push_back(std::max<int64_t>(
        1, static_cast<int64_t>(SlowOne(Rng) ? Slow(Rng) : Fast(Rng))));
    // Pareto with alpha 1.1: a tail over many decades.
    Pareto.push_back(static_cast<int64_t>(100 / std::pow(1 - U(Rng), 1 / 1.1)));
  }
  expectClose(Bimodal, "bimodal");
  expectClose(Pareto, "pareto");
}

TEST(DurationSketch, Adversarial) {
  // Zeros, one huge outlier, values on bucket edges, a constant run.
  std::vector<int64_t> D;
  for (int I = 0; I < 10000; ++I)
    D.push_back(I % 3 == 0 ? 0 : I % 3 == 1 ? 1 : int64_t(1) << (I % 60));
  D.push_back(INT64_C(4000000000000000000));
  expectClose(D, "edges");
  std::vector<int64_t> Same(100000, 123456789);
  expectClose(Same, "constant");
}

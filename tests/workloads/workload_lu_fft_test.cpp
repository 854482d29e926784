// The Sparse-LU and FFT compare workloads (workloads/kernels/sparselu, fft): size parsing,
// the sparsity pattern and its fill-in, runs on the serial elision and on weft at 1, 2 and
// 4 workers under the steal policies one, fixed:2 and half (each verified, and agreeing
// with the serial run's result), and verify() rejecting outputs corrupted in ways a
// scheduling bug could produce, so the verification cannot pass vacuously.
//
// Sizes are small (well under a second in all) so that the ThreadSanitizer and ASan builds
// stay quick; a run then lasts under a millisecond, often too short for an idle worker to
// wake up and steal, so each workload is also run with the root task held back until a
// steal happened (StealForcingPar), and those runs must show steals.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "steal_forcing_par.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"
#include "workloads/kernels/fft.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/sparselu.hpp"
#include "workloads/kernels/weft_par.hpp"

namespace kernels {

// Test-only access to the outputs (declared a friend by each workload).
struct SparseLuTestAccess {
  static float* block(SparseLu& lu, int ii, int jj) { return lu.block(ii, jj); }
  static void drop_block(SparseLu& lu, int ii, int jj) { lu.blocks_[lu.index(ii, jj)].reset(); }
  static int block_size(const SparseLu& lu) { return lu.block_size_; }
  static std::string check_product(const SparseLu& lu) { return lu.check_product(); }
};

struct FftTestAccess {
  static std::vector<std::complex<double>>& output(Fft& fft) { return fft.output_; }
  static std::string check_sampled_frequencies(const Fft& fft) {
    return fft.check_sampled_frequencies();
  }
  static std::string check_inverse(const Fft& fft) { return fft.check_inverse(); }
};

}  // namespace kernels

namespace {

using kernels::StealForcingPar;

using kernels::Fft;
using kernels::FftTestAccess;
using kernels::SizeError;
using kernels::SparseLu;
using kernels::SparseLuTestAccess;

constexpr std::chrono::seconds kWatchdog{120};
const std::vector<std::string> kPolicies = {"one", "fixed:2", "half"};
const std::vector<unsigned> kWorkers = {1, 2, 4};

template <class W>
void serial_compute(W& work) {
  kernels::SerialPar serial;
  serial.run([&] { work.compute(serial); });
}

// Runs W at `size` on the serial elision, then on weft for every worker count and policy;
// every run must verify and report the serial run's result.
template <class W>
void run_everywhere(const std::string& size) {
  SCOPED_TRACE(std::string(W::kName) + " " + size);
  const auto params = W::parse(size);
  kernels::SerialPar serial;
  const kernels::Outcome reference = kernels::measure<W>(params, serial);
  EXPECT_EQ(reference.error, "");
  for (const unsigned workers : kWorkers) {
    for (const std::string& policy : kPolicies) {
      SCOPED_TRACE(weft_test::name_for(policy, workers));
      weft_test::with_watchdog(kWatchdog, "workload run", [&] {
        weft::Runtime rt{weft_test::make_config(policy, workers)};
        kernels::WeftPar par(rt);
        const kernels::Outcome o = kernels::measure<W>(params, par);
        EXPECT_EQ(o.error, "");
        EXPECT_EQ(o.result, reference.result);
      });
    }
  }
}

// W at `size` on 2 and 4 workers under every policy with the root held back once: every
// run must steal, verify, and report the serial run's result.
template <class W>
void run_with_steals(const std::string& size) {
  SCOPED_TRACE(std::string(W::kName) + " " + size);
  const auto params = W::parse(size);
  kernels::SerialPar serial;
  const kernels::Outcome reference = kernels::measure<W>(params, serial);
  EXPECT_EQ(reference.error, "");
  for (const unsigned workers : {2u, 4u}) {
    for (const std::string& policy : kPolicies) {
      SCOPED_TRACE(weft_test::name_for(policy, workers));
      weft_test::with_watchdog(kWatchdog, "held workload run", [&] {
        weft::Runtime rt{weft_test::make_config(policy, workers)};
        StealForcingPar par(rt);
        const kernels::Outcome o = kernels::measure<W>(params, par);
        EXPECT_EQ(o.error, "");
        EXPECT_EQ(o.result, reference.result);
        EXPECT_TRUE(par.held());
        EXPECT_FALSE(par.timed_out());
        EXPECT_GT(rt.stats().total.steals, 0u);
      });
    }
  }
}

// ---- Sparse-LU ----

TEST(SparseLuParse, AcceptsBlocksBySize) {
  const SparseLu::Params p = SparseLu::parse("50x100");
  EXPECT_EQ(p.blocks, 50);
  EXPECT_EQ(p.block_size, 100);
  EXPECT_EQ(SparseLu::parse("1x1").blocks, 1);
  EXPECT_EQ(SparseLu::parse("200X500").block_size, 500);
  const SparseLu::Params d = SparseLu::parse(SparseLu::kDefault);
  EXPECT_EQ(d.blocks, 50);
  EXPECT_EQ(d.block_size, 100);
}

TEST(SparseLuParse, RejectsMalformedAndOutOfRange) {
  for (const char* bad : {"", "50", "x", "50x", "x100", "0x100", "50x0", "201x100", "50x501",
                          "-1x10", "10x10x10", "ax10", "10xb", "1.5x10"}) {
    SCOPED_TRACE(bad);
    try {
      SparseLu::parse(bad);
      ADD_FAILURE() << "accepted";
    } catch (const SizeError& e) {
      EXPECT_NE(std::string(e.what()).find("sparselu"), std::string::npos) << e.what();
    }
  }
}

TEST(SparseLuParse, NamesTheBadDimension) {
  try {
    SparseLu::parse("201x100");
    FAIL() << "accepted";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find("blocks per side"), std::string::npos) << e.what();
  }
  try {
    SparseLu::parse("50x501");
    FAIL() << "accepted";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find("block size"), std::string::npos) << e.what();
  }
}

TEST(SparseLuPattern, BandIsNonzeroAndTheRestIsSparse) {
  const SparseLu lu(SparseLu::parse("20x4"));
  int nonzero = 0;
  for (int ii = 0; ii < 20; ++ii) {
    for (int jj = 0; jj < 20; ++jj) {
      if (std::abs(ii - jj) <= 1) {
        EXPECT_TRUE(lu.has_block(ii, jj)) << ii << "," << jj;
      }
      nonzero += lu.has_block(ii, jj) ? 1 : 0;
    }
  }
  EXPECT_EQ(nonzero, lu.nonzero_blocks());
  EXPECT_GT(nonzero, 3 * 20 - 2);   // more than the band
  EXPECT_LT(nonzero, 20 * 20 / 2);  // and sparse
}

TEST(SparseLuPattern, FactorisationFillsInAndNeverDropsBlocks) {
  SparseLu lu(SparseLu::parse("12x8"));
  std::vector<bool> before;
  for (int ii = 0; ii < 12; ++ii)
    for (int jj = 0; jj < 12; ++jj) before.push_back(lu.has_block(ii, jj));
  serial_compute(lu);
  int filled = 0;
  for (int ii = 0; ii < 12; ++ii) {
    for (int jj = 0; jj < 12; ++jj) {
      const bool was = before[static_cast<std::size_t>(ii * 12 + jj)];
      EXPECT_TRUE(!was || lu.has_block(ii, jj)) << "block " << ii << "," << jj << " vanished";
      filled += (!was && lu.has_block(ii, jj)) ? 1 : 0;
    }
  }
  EXPECT_GT(filled, 0);
  EXPECT_EQ(lu.verify(), "");
}

TEST(SparseLuRun, SerialAndWeftAgree) {
  for (const char* size : {"10x16", "12x20", "1x1", "3x5"}) run_everywhere<SparseLu>(size);
}

TEST(SparseLuRun, EveryPolicyStealsAndAgrees) { run_with_steals<SparseLu>("12x20"); }

TEST(SparseLuVerify, RejectsAOneUlpChange) {
  SparseLu lu(SparseLu::parse("10x16"));
  serial_compute(lu);
  ASSERT_EQ(lu.verify(), "");
  // The last block receives the most updates; change one element by the least amount.
  float* corner = SparseLuTestAccess::block(lu, 9, 9);
  ASSERT_NE(corner, nullptr);
  corner[5] = std::nextafter(corner[5], INFINITY);
  const std::string error = lu.verify();
  EXPECT_NE(error.find("block (9,9)"), std::string::npos) << error;
}

TEST(SparseLuVerify, RejectsAMissingFillIn) {
  SparseLu lu(SparseLu::parse("10x16"));
  const SparseLu untouched(SparseLu::parse("10x16"));
  serial_compute(lu);
  for (int ii = 0; ii < 10; ++ii) {
    for (int jj = 0; jj < 10; ++jj) {
      if (untouched.has_block(ii, jj) || !lu.has_block(ii, jj)) continue;
      SparseLuTestAccess::drop_block(lu, ii, jj);
      EXPECT_NE(lu.verify().find("null"), std::string::npos) << lu.verify();
      return;
    }
  }
  FAIL() << "no fill-in to drop";
}

TEST(SparseLuVerify, ProductCheckStandsOnItsOwn) {
  // The product check (L * U against the regenerated input) must catch a wrong factor even
  // where the comparison with the serial run would not (a kernel bug both runs share).
  SparseLu lu(SparseLu::parse("8x8"));
  serial_compute(lu);
  ASSERT_EQ(SparseLuTestAccess::check_product(lu), "");
  const int s = SparseLuTestAccess::block_size(lu);
  for (const auto& [ii, jj] : {std::pair{3, 2}, std::pair{2, 3}, std::pair{5, 5}}) {
    SCOPED_TRACE(std::to_string(ii) + "," + std::to_string(jj));
    float* b = SparseLuTestAccess::block(lu, ii, jj);  // in the band: always stored
    ASSERT_NE(b, nullptr);
    float& element = b[static_cast<std::size_t>(s / 2) * s + 1];  // L, U, and L of (5,5)
    const float saved = element;
    element += 1e-2f * (std::abs(element) + 1e-2f);
    EXPECT_NE(SparseLuTestAccess::check_product(lu), "");
    element = saved;
  }
  EXPECT_EQ(SparseLuTestAccess::check_product(lu), "");
}

// ---- FFT ----

TEST(FftParse, AcceptsPowersOfTwoAndPresets) {
  EXPECT_EQ(Fft::parse("2^22").log2_points, 22);
  EXPECT_EQ(Fft::parse("4194304").log2_points, 22);
  EXPECT_EQ(Fft::parse("16").log2_points, 4);
  EXPECT_EQ(Fft::parse("2^27").log2_points, 27);
  EXPECT_EQ(Fft::parse("32M").log2_points, 25);
  EXPECT_EQ(Fft::parse("64M").log2_points, 26);
  EXPECT_EQ(Fft::parse("16K").log2_points, 14);
  EXPECT_EQ(Fft::parse(Fft::kDefault).log2_points, 22);
}

TEST(FftParse, RejectsOthers) {
  for (const char* bad :
       {"", "M", "2^3", "8", "2^28", "256M", "1000", "3M", "48K", "abc", "-16", "2^22x", "1e3"}) {
    SCOPED_TRACE(bad);
    try {
      Fft::parse(bad);
      ADD_FAILURE() << "accepted";
    } catch (const SizeError& e) {
      EXPECT_NE(std::string(e.what()).find("fft"), std::string::npos) << e.what();
    }
  }
}

TEST(FftParse, SaysWhatIsWrong) {
  try {
    Fft::parse("1000");
    FAIL() << "accepted";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos) << e.what();
  }
}

TEST(FftRun, SerialAndWeftAgree) {
  for (const char* size : {"2^10", "2^14", "16", "2^7"}) run_everywhere<Fft>(size);
}

TEST(FftRun, EveryPolicyStealsAndAgrees) { run_with_steals<Fft>("2^14"); }

// A butterfly computed wrong, or too early, changes the transform at a sampled frequency.
TEST(FftVerify, SampledFrequenciesCatchAWrongOutput) {
  Fft fft(Fft::parse("2^10"));
  serial_compute(fft);
  ASSERT_EQ(FftTestAccess::check_sampled_frequencies(fft), "");
  auto& out = FftTestAccess::output(fft);
  out[1] *= 1.0 + 1e-7;  // frequency 1 is always sampled
  EXPECT_NE(FftTestAccess::check_sampled_frequencies(fft), "");
  EXPECT_NE(fft.verify(), "");
}

// The inverse transform sees every output element: a relative change of 1e-9 at an
// arbitrary element, or two elements swapped, must fail.
TEST(FftVerify, InverseCatchesASmallChangeAnywhere) {
  Fft fft(Fft::parse("2^14"));
  serial_compute(fft);
  ASSERT_EQ(fft.verify(), "");
  ASSERT_EQ(FftTestAccess::check_inverse(fft), "");
  auto& out = FftTestAccess::output(fft);
  const std::complex<double> saved = out[12345];
  out[12345] += std::abs(saved) * 1e-9 + 1e-9;
  EXPECT_NE(FftTestAccess::check_inverse(fft), "");
  EXPECT_NE(fft.verify(), "");
  out[12345] = saved;
  ASSERT_EQ(FftTestAccess::check_inverse(fft), "");
  std::swap(out[100], out[101]);
  EXPECT_NE(FftTestAccess::check_inverse(fft), "");
  EXPECT_NE(fft.verify(), "");
}

TEST(FftVerify, RejectsNaN) {
  Fft fft(Fft::parse("2^8"));
  serial_compute(fft);
  FftTestAccess::output(fft)[77] = {std::nan(""), 0.0};
  EXPECT_NE(FftTestAccess::check_inverse(fft), "");
}

TEST(FftVerify, UncomputedOutputFails) {
  const Fft fft(Fft::parse("2^8"));  // compute never ran: the output is all zeros
  EXPECT_NE(fft.verify(), "");
}

}  // namespace

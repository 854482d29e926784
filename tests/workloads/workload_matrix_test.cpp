// The dense-matrix compare workloads (workloads/kernels): Strassen and the divide-and-conquer
// multiply with temporaries. Each runs at small sizes on the serial elision and on weft at
// 1, 2 and 4 workers under the steal policies one, fixed:2 and half, and must pass its own
// verify(); with a lowered base order the same small sizes make deep task trees (hundreds
// of tasks and temporaries). Beyond the workloads' own sampled check, the whole product is
// compared with a naive triple loop written here, and the serial and weft outputs must agree
// bit for bit (every Par runs the same arithmetic in the same order per entry). verify()
// must reject spoiled outputs (through each workload's test-only hook, so that a check that
// always passes fails here), and the sizes parse as documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "steal_forcing_par.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"
#include "workloads/kernels/dense_kernel.hpp"
#include "workloads/kernels/matmul.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/strassen.hpp"
#include "workloads/kernels/weft_par.hpp"
#include "workloads/kernels/workload.hpp"

namespace {

using kernels::Matmul;
using kernels::SerialPar;
using kernels::StealForcingPar;
using kernels::Strassen;

constexpr std::chrono::seconds kWatchdog{120};

// The sizes every backend runs: the base case alone, one and two levels of recursion at the
// tuned base order, and a lowered base order that gives 3 and 4 levels (Strassen: 343 and
// 2401 leaf products; matmul: 512 and 4096) at sizes that stay cheap. Sanitized builds, 10-50x
// slower on this arithmetic, leave out the two at 256 and keep the deep tree at 128.
template <class W>
std::vector<typename W::Params> sizes() {
  std::vector<typename W::Params> all = {{.n = 64}, {.n = 128}, {.n = 128, .base = 16}};
  if (!weft_test::kSanitized) {
    all.push_back({.n = 256});
    all.push_back({.n = 256, .base = 16});
  }
  return all;
}

template <class W>
std::string describe(const typename W::Params& p) {
  return std::string(W::kName) + " n=" + std::to_string(p.n) + " base=" + std::to_string(p.base);
}

// Builds W and runs compute on `par` as measure() does, but keeps the object.
template <class W, class Par>
W computed(const typename W::Params& params, Par& par) {
  W work(params);
  par.run([&] { work.compute(par); });
  return work;
}

// The product of the workloads' inputs by the textbook triple loop, for comparing every
// entry (verify() samples 260).
std::vector<double> naive_product(std::size_t n) {
  const auto a = kernels::dense::Matrix::random(n, kernels::dense::kSeedA);
  const auto b = kernels::dense::Matrix::random(n, kernels::dense::kSeedB);
  std::vector<double> c(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) sum += a.at(i, k) * b.at(k, j);
      c[i * n + j] = sum;
    }
  }
  return c;
}

// The entries are sums of n products of numbers in [-1, 1], of magnitude about sqrt(n)/3;
// both algorithms' rounding errors at these orders are below 1e-12.
void expect_close_to_naive(std::span<const double> got, std::size_t n) {
  const std::vector<double> want = naive_product(n);
  ASSERT_EQ(got.size(), want.size());
  std::size_t wrong = 0;
  for (std::size_t index = 0; index < want.size(); ++index) {
    if (!(std::fabs(got[index] - want[index]) <= 1e-10)) {
      if (wrong++ == 0)
        ADD_FAILURE() << "C[" << index / n << "][" << index % n << "] = " << got[index]
                      << ", naive product " << want[index];
    }
  }
  EXPECT_EQ(wrong, 0u) << "entries off the naive product";
}

// ---- Every backend verifies --------------------------------------------------------------

template <class W>
class MatrixWorkload : public ::testing::Test {};

struct WorkloadName {
  template <class W>
  static std::string GetName(int) {
    return std::string(W::kName);
  }
};

using MatrixWorkloads = ::testing::Types<Strassen, Matmul>;
TYPED_TEST_SUITE(MatrixWorkload, MatrixWorkloads, WorkloadName);

TYPED_TEST(MatrixWorkload, SerialElisionVerifies) {
  SerialPar par;
  for (const auto& params : sizes<TypeParam>()) {
    SCOPED_TRACE(describe<TypeParam>(params));
    const auto outcome = kernels::measure<TypeParam>(params, par);
    EXPECT_EQ(outcome.error, "");
    EXPECT_EQ(outcome.result.rfind("C[0][0]=", 0), 0u) << outcome.result;
  }
}

TYPED_TEST(MatrixWorkload, SmallestOrderIsOneKernelCall) {
  SerialPar par;
  const auto outcome = kernels::measure<TypeParam>(TypeParam::parse("16"), par);
  EXPECT_EQ(outcome.error, "");
}

TYPED_TEST(MatrixWorkload, WholeProductMatchesTheNaiveOne) {
  SerialPar serial;
  expect_close_to_naive(computed<TypeParam>({.n = 128}, serial).output(), 128);
  expect_close_to_naive(computed<TypeParam>({.n = 128, .base = 16}, serial).output(), 128);
  weft::Runtime rt{weft::Config{.workers = 2, .steal = weft::StealPolicy::parse("half")}};
  kernels::WeftPar weft_par(rt);
  weft_test::with_watchdog(kWatchdog, "matrix product on weft", [&] {
    expect_close_to_naive(computed<TypeParam>({.n = 128, .base = 16}, weft_par).output(), 128);
  });
}

TYPED_TEST(MatrixWorkload, SerialAndWeftOutputsAgreeBitForBit) {
  // Agreement only means something if some tasks ran on another worker than in the serial
  // order: StealForcingPar holds the root back once per run until a task has started
  // elsewhere, and each run must show a steal.
  const typename TypeParam::Params params{.n = 128, .base = 16};  // hundreds of leaf tasks
  SerialPar serial;
  const TypeParam reference = computed<TypeParam>(params, serial);
  ASSERT_EQ(reference.verify(), "");
  for (const auto& [policy, workers] : {std::tuple{"half", 2u}, std::tuple{"one", 4u}}) {
    SCOPED_TRACE(std::string(policy) + " w" + std::to_string(workers));
    weft::Runtime rt{weft::Config{.workers = workers, .steal = weft::StealPolicy::parse(policy)}};
    weft_test::with_watchdog(kWatchdog, "matrix agreement on weft", [&] {
      for (int run = 0; run < 3; ++run) {
        rt.reset_stats();
        StealForcingPar par(rt);
        const TypeParam parallel = computed<TypeParam>(params, par);
        EXPECT_TRUE(par.held() && !par.timed_out()) << "run " << run;
        EXPECT_GT(rt.stats().total.steals, 0u) << "run " << run;
        ASSERT_TRUE(std::ranges::equal(parallel.output(), reference.output())) << "run " << run;
      }
    });
  }
}

TEST(MatrixWorkloads, StrassenAndMatmulComputeTheSameProduct) {
  // Same seeds, same A and B: two different algorithms must land within rounding.
  SerialPar par;
  const Strassen strassen = computed<Strassen>({.n = 256}, par);
  const Matmul matmul = computed<Matmul>({.n = 256}, par);
  double largest_difference = 0;
  for (std::size_t i = 0; i < matmul.output().size(); ++i) {
    const double difference = std::fabs(strassen.output()[i] - matmul.output()[i]);
    largest_difference = std::max(largest_difference, difference);
  }
  EXPECT_LE(largest_difference, 1e-10);
}

using WeftCase = std::tuple<const char*, unsigned>;

class MatrixWeft : public ::testing::TestWithParam<WeftCase> {
 protected:
  template <class W>
  void expect_all_sizes_verify() {
    const auto [policy, workers] = GetParam();
    weft::Runtime rt{weft::Config{.workers = workers, .steal = weft::StealPolicy::parse(policy)}};
    kernels::WeftPar par(rt);
    weft_test::with_watchdog(kWatchdog, "matrix workload on weft", [&] {
      for (const auto& params : sizes<W>()) {
        SCOPED_TRACE(describe<W>(params));
        const auto outcome = kernels::measure<W>(params, par);
        EXPECT_EQ(outcome.error, "");
      }
    });
  }
};

TEST_P(MatrixWeft, Strassen) { expect_all_sizes_verify<Strassen>(); }
TEST_P(MatrixWeft, Matmul) { expect_all_sizes_verify<Matmul>(); }

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, MatrixWeft,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "half"),
                                            ::testing::Values(1u, 2u, 4u)),
                         weft_test::PolicyCountName{});

// ---- verify() rejects wrong outputs ------------------------------------------------------

// A correct product at n = 128 to spoil; each test first checks that it passes unspoiled,
// so a failure after spoiling is the spoiling's doing.
template <class W>
W correct_product() {
  SerialPar par;
  W work = computed<W>({.n = 128}, par);
  EXPECT_EQ(work.verify(), "");
  return work;
}

TYPED_TEST(MatrixWorkload, VerifyRejectsAnOutputNeverComputed) {
  const TypeParam work({.n = 64});
  EXPECT_NE(work.verify(), "");
}

TYPED_TEST(MatrixWorkload, VerifyRejectsOneNonFiniteEntryAnywhere) {
  // An interior entry the sample need not hit: the finiteness scan covers every entry.
  TypeParam work = correct_product<TypeParam>();
  work.output_for_test()[77 * 128 + 51] = std::numeric_limits<double>::infinity();
  EXPECT_NE(work.verify().find("not finite"), std::string::npos) << work.verify();
}

TYPED_TEST(MatrixWorkload, VerifyRejectsALostQuadrant) {
  // As if the task that writes C22 never ran, or wrote zeros.
  TypeParam work = correct_product<TypeParam>();
  const std::span<double> c = work.output_for_test();
  for (std::size_t i = 64; i < 128; ++i) std::fill_n(c.begin() + i * 128 + 64, 64, 0.0);
  EXPECT_NE(work.verify().find("expected"), std::string::npos) << work.verify();
}

TYPED_TEST(MatrixWorkload, VerifyRejectsATransposedProduct) {
  // B·A's transpose instead of A·B: the classic swapped-index bug.
  TypeParam work = correct_product<TypeParam>();
  const std::span<double> c = work.output_for_test();
  for (std::size_t i = 0; i < 128; ++i)
    for (std::size_t j = 0; j < i; ++j) std::swap(c[i * 128 + j], c[j * 128 + i]);
  EXPECT_NE(work.verify(), "");
}

TYPED_TEST(MatrixWorkload, VerifyRejectsASmallUniformError) {
  // 1e-4 on entries of magnitude ~4: far inside what a wrong algorithm produces, well
  // outside rounding (the tolerances at n = 128 are below 1e-5 absolute).
  TypeParam work = correct_product<TypeParam>();
  for (double& x : work.output_for_test()) x += 1e-4;
  EXPECT_NE(work.verify(), "");
}

TEST(MatrixWorkloads, MatmulToleranceIsThatOfAConventionalProduct) {
  // Matmul's tolerance is n·2^-52 of Σ|a·b| (~1e-12 here); Strassen's is looser by design.
  Matmul work = correct_product<Matmul>();
  for (double& x : work.output_for_test()) x += 1e-9;
  EXPECT_NE(work.verify(), "");
}

// ---- Sizes -------------------------------------------------------------------------------

template <class W>
std::string parse_error(std::string_view size) {
  try {
    (void)W::parse(size);
  } catch (const kernels::SizeError& e) {
    return e.what();
  }
  return "";
}

TYPED_TEST(MatrixWorkload, ParsesPowersOfTwo) {
  EXPECT_EQ(TypeParam::parse(TypeParam::kDefault).n, 1024u);
  EXPECT_EQ(TypeParam::parse("1024").n, 1024u);
  EXPECT_EQ(TypeParam::parse("2^11").n, 2048u);
  EXPECT_EQ(TypeParam::parse("4096").n, 4096u);
  EXPECT_EQ(TypeParam::parse("16").n, 16u);
  EXPECT_EQ(TypeParam::parse("8192").n, 8192u);
  EXPECT_EQ(TypeParam::parse("1024").base, TypeParam::kBaseOrder);
}

TYPED_TEST(MatrixWorkload, RejectsBadSizesNamingTheProblem) {
  const std::string name(TypeParam::kName);
  EXPECT_EQ(parse_error<TypeParam>("1000"),
            name + ": '1000' is not a power of two" +
                " (the recursion halves the order down to its base)");
  EXPECT_NE(parse_error<TypeParam>("1e3").find("not a power of two"), std::string::npos);
  EXPECT_NE(parse_error<TypeParam>("8").find("out of range [16, 8192]"), std::string::npos);
  EXPECT_NE(parse_error<TypeParam>("2^3").find("out of range"), std::string::npos);
  EXPECT_NE(parse_error<TypeParam>("16384").find("out of range"), std::string::npos);
  EXPECT_NE(parse_error<TypeParam>("2^14").find("too large"), std::string::npos);
  for (const char* bad : {"", "abc", "-64", "1024x1024", "0", "2^"}) {
    const std::string error = parse_error<TypeParam>(bad);
    EXPECT_EQ(error.rfind(name + ": '" + bad + "' ", 0), 0u) << "'" << bad << "': " << error;
  }
}

TYPED_TEST(MatrixWorkload, ConstructorRejectsOrdersParseWouldNot) {
  using Params = typename TypeParam::Params;
  EXPECT_THROW(TypeParam(Params{.n = 96}), kernels::SizeError);
  EXPECT_THROW(TypeParam(Params{.n = 8}), kernels::SizeError);
  EXPECT_THROW(TypeParam(Params{.n = 128, .base = 48}), kernels::SizeError);
  EXPECT_THROW(TypeParam(Params{.n = 128, .base = 8}), kernels::SizeError);
}

}  // namespace

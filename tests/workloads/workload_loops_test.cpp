// The loop workloads of weft-bench compare (workloads/kernels/loop_*.hpp): every nest verifies
// on the serial elision and on weft at 1, 2 and 4 workers under every kind of schedule, with
// the serial run's result; verify() catches one wrong element; bad sizes are refused with a
// message that names what is wrong.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/suite.hpp"
#include "workloads/kernels/weft_par.hpp"
#include "workloads/kernels/workload.hpp"

namespace {

using kernels::EmptyLoop;
using kernels::GaussJordan;
using kernels::MatmulLoops;
using kernels::NarrowLoops;
using kernels::ParetoLoops;
using kernels::SerialPar;
using kernels::TriangleLoops;

constexpr std::chrono::seconds kWatchdog{120};

// Small sizes that still nest: every matmul order, odd orders and seeds, an outer loop of
// one, a narrow outer loop with a prime inner count.
template <class W>
std::vector<std::string> small_sizes();
template <>
std::vector<std::string> small_sizes<MatmulLoops>() {
  return {"24:ijk", "24:ikj", "24:jik", "24:jki", "24:kij", "24:kji", "7:kij:5", "1:ijk"};
}
template <>
std::vector<std::string> small_sizes<GaussJordan>() {
  return {"40", "17:3", "2"};
}
template <>
std::vector<std::string> small_sizes<TriangleLoops>() {
  return {"60", "1"};
}
template <>
std::vector<std::string> small_sizes<ParetoLoops>() {
  return {"300:7", "5"};
}
template <>
std::vector<std::string> small_sizes<NarrowLoops>() {
  return {"1x5000", "3x777", "9"};
}
template <>
std::vector<std::string> small_sizes<EmptyLoop>() {
  return {"10000", "1"};
}

// One of each kind of schedule weft has.
const std::vector<std::string> kSchedules = {"dynamic:1", "dynamic:7", "static",
                                             "guided:2",  "factoring", "auto"};

// Builds W and runs compute on `par` as measure() does, but keeps the object.
template <class W, class Par>
W computed(const std::string& size, Par& par) {
  W work(W::parse(size));
  par.run([&] { work.compute(par); });
  return work;
}

template <class W>
class LoopWorkload : public ::testing::Test {};

struct WorkloadName {
  template <class W>
  static std::string GetName(int) {
    std::string name(W::kName);
    for (char& c : name)
      if (c == '-') c = '_';
    return name;
  }
};

using LoopTypes =
    ::testing::Types<MatmulLoops, GaussJordan, TriangleLoops, ParetoLoops, NarrowLoops, EmptyLoop>;
TYPED_TEST_SUITE(LoopWorkload, LoopTypes, WorkloadName);

TYPED_TEST(LoopWorkload, SerialElisionVerifies) {
  SerialPar par;
  for (const std::string& size : small_sizes<TypeParam>()) {
    SCOPED_TRACE(size);
    const auto outcome = kernels::measure<TypeParam>(TypeParam::parse(size), par);
    EXPECT_EQ(outcome.error, "");
    EXPECT_FALSE(outcome.result.empty());
    EXPECT_GT(outcome.iterations, 0u);
  }
}

TYPED_TEST(LoopWorkload, WeftVerifiesWithTheSerialResultAtEveryWorkerCountAndSchedule) {
  SerialPar serial;
  for (const unsigned workers : {1u, 2u, 4u}) {
    weft::Runtime rt{weft::Config{.workers = workers}};
    for (const std::string& schedule : kSchedules) {
      kernels::WeftPar par(rt, nullptr,
                           weft::LoopOptions{.schedule = weft::Schedule::parse(schedule)});
      for (const std::string& size : small_sizes<TypeParam>()) {
        SCOPED_TRACE(size + " on " + std::to_string(workers) + " workers, " + schedule);
        const auto reference = kernels::measure<TypeParam>(TypeParam::parse(size), serial);
        weft_test::with_watchdog(kWatchdog, "loop workload on weft", [&] {
          const auto outcome = kernels::measure<TypeParam>(TypeParam::parse(size), par);
          EXPECT_EQ(outcome.error, "");
          EXPECT_EQ(outcome.result, reference.result);
          EXPECT_EQ(outcome.iterations, reference.iterations);
        });
      }
    }
  }
}

TYPED_TEST(LoopWorkload, TheCompareSpecNamesIt) {
  EXPECT_TRUE(kernels::is_loop_workload(TypeParam::kName));
  const kernels::Spec spec = kernels::parse_spec(TypeParam::kName);
  EXPECT_EQ(spec.size, TypeParam::kDefault);
  EXPECT_FALSE(kernels::is_loop_workload("matmul"));
}

// ---- verify() catches a wrong element ---------------------------------------------------

TEST(LoopWorkloadVerify, MatmulLoopsCatchesOneWrongEntry) {
  SerialPar par;
  for (const std::size_t at :
       {std::size_t{0}, std::size_t{24 * 13 + 5}, std::size_t{24 * 24 - 1}}) {
    MatmulLoops work = computed<MatmulLoops>("24:kji", par);
    ASSERT_EQ(work.verify(), "");
    work.output()[at] += 1;
    const std::string error = work.verify();
    EXPECT_NE(error.find("row " + std::to_string(at / 24) + " of C differs"), std::string::npos)
        << error;
  }
  // A whole product left undone (C = C0) is caught too.
  MatmulLoops untouched(MatmulLoops::parse("24:ijk"));
  EXPECT_NE(untouched.verify(), "");
}

TEST(LoopWorkloadVerify, GaussJordanCatchesOneUlp) {
  SerialPar par;
  GaussJordan work = computed<GaussJordan>("17:3", par);
  ASSERT_EQ(work.verify(), "");
  double& x = work.output()[5 * 18 + 9];
  x = std::nextafter(x, 1e300);  // the smallest change a schedule's rounding could make
  const std::string error = work.verify();
  EXPECT_EQ(error.rfind("A(6,10) = ", 0), 0u) << error;
  EXPECT_NE(error.find("the serial run's is"), std::string::npos) << error;
}

TEST(LoopWorkloadVerify, NestsCatchASkippedARepeatedAndAWrongIteration) {
  SerialPar par;
  TriangleLoops work = computed<TriangleLoops>("60", par);
  ASSERT_EQ(work.verify(), "");
  // Slot 10 is (i, j) = (4, 0): rows 0..3 hold 1 + 2 + 3 + 4 slots.
  std::uint32_t& slot = work.output()[10];
  const std::uint32_t right = slot;
  slot = 0;
  EXPECT_EQ(work.verify(), "iteration (4, 0) never ran");
  slot = 2 * right;
  EXPECT_EQ(work.verify(), "iteration (4, 0) ran twice");
  slot = right + 1;
  EXPECT_EQ(work.verify(), "iteration (4, 0) holds a wrong value");

  NarrowLoops narrow = computed<NarrowLoops>("1x5000", par);
  narrow.output().back() = 0;
  EXPECT_EQ(narrow.verify(), "iteration (0, 4999) never ran");
  ParetoLoops pareto = computed<ParetoLoops>("300:7", par);
  pareto.output()[pareto.output().size() / 2] ^= 2;
  EXPECT_NE(pareto.verify(), "");
}

TEST(LoopWorkloadVerify, EmptyLoopCatchesARepeatedIteration) {
  SerialPar par;
  EmptyLoop work = computed<EmptyLoop>("1000", par);
  ASSERT_EQ(work.verify(), "");
  work.output()[999] = 2;
  EXPECT_EQ(work.verify(), "iteration 999 ran 2 times");
  work.output()[3] = 0;
  EXPECT_EQ(work.verify(), "iteration 3 ran 0 times");
}

// ---- Sizes ---------------------------------------------------------------------------------

std::string error_of(const std::string& spec) {
  try {
    (void)kernels::parse_spec(spec);
  } catch (const kernels::SizeError& e) {
    return e.what();
  }
  return "";
}

TEST(LoopWorkloadSizes, PaperSizesAndFormsParse) {
  for (const char* order : {"ijk", "ikj", "jik", "jki", "kij", "kji"}) {
    for (const char* n : {"150", "300", "1000"}) {
      const std::string spec = std::string("matmul-loops:") + n + ":" + order;
      EXPECT_EQ(error_of(spec), "") << spec;
    }
  }
  const MatmulLoops::Params m = MatmulLoops::parse("300:kij:9");
  EXPECT_EQ(m.n, 300u);
  EXPECT_EQ(m.order, MatmulLoops::Order::kKij);
  EXPECT_EQ(m.seed, 9u);
  EXPECT_EQ(MatmulLoops::parse("150").order, MatmulLoops::Order::kIjk);
  EXPECT_EQ(GaussJordan::parse("150:4").seed, 4u);
  EXPECT_EQ(NarrowLoops::parse("1x2^20").inner, std::size_t{1} << 20);
  EXPECT_EQ(NarrowLoops::parse("5000").outer, 1u);
  EXPECT_EQ(EmptyLoop::parse("1e6").n, 1000000u);
}

TEST(LoopWorkloadSizes, BadSizesAreRefusedWithTheReason) {
  EXPECT_EQ(error_of("matmul-loops:300:ikk"),
            "matmul-loops:300:ikk: order 'ikk': expected a permutation of ijk (ijk, ikj, jik, "
            "jki, kij, kji)");
  EXPECT_EQ(error_of("matmul-loops:0:ijk"), "matmul-loops:0:ijk: N: '0' is out of range [1, 4096]");
  EXPECT_EQ(error_of("matmul-loops:300:ijk:1:2"),
            "matmul-loops:300:ijk:1:2: '300:ijk:1:2': expected N:ORDER[:SEED] (e.g. 300:kij)");
  EXPECT_EQ(error_of("matmul-loops:300::1"),
            "matmul-loops:300::1: '300::1': expected N:ORDER[:SEED] (e.g. 300:kij)");
  EXPECT_EQ(error_of("gauss-jordan:5000"),
            "gauss-jordan:5000: N: '5000' is out of range [1, 4096]");
  EXPECT_EQ(error_of("gauss-jordan:x"),
            "gauss-jordan:x: N: 'x' is not a count (write e.g. 4096, 2^22 or 1e7)");
  EXPECT_EQ(error_of("triangle-loops:20000"),
            "triangle-loops:20000: N: '20000' is out of range [1, 16384]");
  EXPECT_EQ(error_of("narrow-loops:0x10"),
            "narrow-loops:0x10: OUTER: '0' is out of range [1, 4096]");
  EXPECT_EQ(error_of("narrow-loops:16x2^26"),
            "narrow-loops:16x2^26: '16x2^26': 1073741824 iterations, more than 268435456");
  EXPECT_EQ(error_of("empty-loop:0"), "empty-loop:0: N: '0' is out of range [1, 1073741824]");
  EXPECT_EQ(error_of("pareto-loops:10:-1"),
            "pareto-loops:10:-1: SEED: '-1' is out of range [0, 9223372036854775807]");
}

}  // namespace

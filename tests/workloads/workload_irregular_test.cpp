// The irregular compare workloads (workloads/kernels): N-Queens, Sort and UTS. Each runs at
// small sizes on the serial elision and on weft at 1, 2 and 4 workers under every steal
// policy, and must pass its own verify(); verify() must reject a spoiled output (through
// each workload's test-only hook, so that a check that always passes would fail here); and
// the sizes parse as documented.
//
// Expected values are independent of the code under test: N-Queens counts are OEIS A000170,
// the UTS trees' counts are the ones uts_test records for the sequential traversal (the
// balanced tree's also follow from its definition: 3^0 + ... + 3^8 nodes, 3^8 leaves).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"
#include "workloads/kernels/nqueens.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/sort.hpp"
#include "workloads/kernels/uts_tasks.hpp"
#include "workloads/kernels/weft_par.hpp"
#include "workloads/kernels/workload.hpp"
#include "workloads/uts/counts.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree.hpp"

namespace {

using kernels::NQueens;
using kernels::SerialPar;
using kernels::Sort;
using kernels::Uts;

constexpr std::chrono::seconds kWatchdog{120};

// ---- Inputs ------------------------------------------------------------------------------

struct QueensCase {
  int n;
  const char* result;
};
// OEIS A000170 for n = 6..9.
const std::vector<QueensCase> kQueens = {
    {6, "solutions=4"}, {7, "solutions=40"}, {8, "solutions=92"}, {9, "solutions=352"}};

// The sizes the sort runs at: powers of ten, an odd size (halves differ by one all the way
// down) and a single element; the odd size and 10^4 also with cutoffs small enough to make
// thousands of sort and merge tasks.
struct SortCase {
  Sort::Params params;
  std::string serial_result;  // the serial elision's, whose min and max the test cannot know
};

Sort::Params sort_params(std::int64_t n, std::size_t sort_cutoff, std::size_t merge_cutoff) {
  Sort::Params p = Sort::parse(std::to_string(n));
  p.sort_cutoff = sort_cutoff;
  p.merge_cutoff = merge_cutoff;
  return p;
}

const std::vector<SortCase>& sort_cases() {
  static const std::vector<SortCase> cases = [] {
    const std::size_t sort_cutoff = Sort::kSortCutoff, merge_cutoff = Sort::kMergeCutoff;
    std::vector<SortCase> made;
    for (const Sort::Params& p :
         {sort_params(10'000, sort_cutoff, merge_cutoff),
          sort_params(100'000, sort_cutoff, merge_cutoff),
          sort_params(12'345, sort_cutoff, merge_cutoff), sort_params(1, sort_cutoff, merge_cutoff),
          sort_params(12'345, 3, 5), sort_params(10'000, 1, 1)}) {
      SerialPar serial;
      made.push_back({p, kernels::measure<Sort>(p, serial).result});
    }
    return made;
  }();
  return cases;
}

uts::TreeParams binomial(double b0, double q, std::int32_t m, std::int32_t seed) {
  uts::TreeParams p;
  p.type = uts::TreeType::kBinomial;
  p.b0 = b0;
  p.q = q;
  p.m = m;
  p.seed = seed;
  return p;
}

uts::TreeParams geometric(uts::GeoShape shape, std::int32_t gen_mx, double b0, std::int32_t seed) {
  uts::TreeParams p;
  p.type = uts::TreeType::kGeometric;
  p.shape = shape;
  p.gen_mx = gen_mx;
  p.b0 = b0;
  p.seed = seed;
  return p;
}

uts::TreeParams balanced(std::int32_t depth, double branching) {
  uts::TreeParams p;
  p.type = uts::TreeType::kBalanced;
  p.gen_mx = depth;
  p.b0 = branching;
  return p;
}

// Trees of 10^3..10^4 nodes (every preset has millions: too slow under the sanitizers),
// covering the inline child array (<= 8 children), the vector (the binomial root's 100,
// the capped geometric root's 100), deep chains and a lone root.
struct SmallTree {
  const char* name;
  uts::TreeParams tree;
  uts::Counts counts;
};
const std::vector<SmallTree> kTrees = {
    {"binomial", binomial(100, 0.124, 8, 4), {11477, 10054, 69}},
    {"geometric_cyclic", geometric(uts::GeoShape::kCyclic, 8, 4, 0), {6390, 3684, 41}},
    {"geometric_capped_root", geometric(uts::GeoShape::kFixed, 2, 300, 0), {8513, 8412, 2}},
    {"balanced", balanced(8, 3), {9841, 6561, 8}},
    {"single_node", geometric(uts::GeoShape::kLinear, 10, 4, 2), {1, 1, 0}},
};

std::string expected_result(const uts::Counts& c) {
  return "nodes=" + std::to_string(c.nodes) + " leaves=" + std::to_string(c.leaves) +
         " depth=" + std::to_string(c.max_depth);
}

Uts::Params with_published_counts(const SmallTree& t) {
  return Uts::Params{t.name, t.tree, {t.counts.nodes, t.counts.leaves, t.counts.max_depth}};
}

// ---- Every workload on a backend ---------------------------------------------------------

template <class Par>
void expect_nqueens(Par& par) {
  for (const QueensCase& c : kQueens) {
    const auto o = kernels::measure<NQueens>(NQueens::parse(std::to_string(c.n)), par);
    EXPECT_EQ(o.error, "") << "n=" << c.n;
    EXPECT_EQ(o.result, c.result) << "n=" << c.n;
  }
}

template <class Par>
void expect_sort(Par& par) {
  for (const SortCase& c : sort_cases()) {
    const Sort::Params& p = c.params;
    const auto o = kernels::measure<Sort>(p, par);
    EXPECT_EQ(o.error, "") << "n=" << p.n << " cutoffs " << p.sort_cutoff << "/" << p.merge_cutoff;
    EXPECT_TRUE(o.result.starts_with("sorted n=" + std::to_string(p.n) + " min=")) << o.result;
    EXPECT_EQ(o.result, c.serial_result);
  }
}

template <class Par>
void expect_uts(Par& par) {
  for (const SmallTree& t : kTrees) {
    const auto o = kernels::measure<Uts>(with_published_counts(t), par);
    EXPECT_EQ(o.error, "") << t.name;
    EXPECT_EQ(o.result, expected_result(t.counts)) << t.name;
  }
}

// ---- The serial elision ------------------------------------------------------------------

TEST(IrregularSerial, NQueensMatchesA000170FromOneToNine) {
  SerialPar par;
  expect_nqueens(par);
  for (int n = 1; n <= 5; ++n) {  // including the boards with no solution, 2 and 3
    const auto o = kernels::measure<NQueens>(NQueens::parse(std::to_string(n)), par);
    EXPECT_EQ(o.error, "") << "n=" << n;
  }
  EXPECT_EQ(kernels::measure<NQueens>(NQueens::parse("1"), par).result, "solutions=1");
  EXPECT_EQ(kernels::measure<NQueens>(NQueens::parse("3"), par).result, "solutions=0");
}

TEST(IrregularSerial, SortSortsEverySize) {
  SerialPar par;
  expect_sort(par);
}

TEST(IrregularSerial, UtsCountsEveryShape) {
  SerialPar par;
  expect_uts(par);
}

// ---- weft: workers x steal policies ------------------------------------------------------

using WeftCase = std::tuple<const char*, unsigned>;  // (steal policy spec, workers)

class IrregularWeft : public ::testing::TestWithParam<WeftCase> {
 protected:
  // Runs check(par) on a fresh runtime of this case's workers and policy, under a watchdog.
  template <class Check>
  void on_weft(const char* what, Check check) {
    const auto [policy, workers] = GetParam();
    weft::Runtime rt{weft::Config{.workers = workers, .steal = weft::StealPolicy::parse(policy)}};
    kernels::WeftPar par(rt);
    weft_test::with_watchdog(kWatchdog, what, [&] { check(par); });
  }
};

TEST_P(IrregularWeft, NQueens) {
  on_weft("nqueens on weft", [](kernels::WeftPar& par) { expect_nqueens(par); });
}

TEST_P(IrregularWeft, Sort) {
  on_weft("sort on weft", [](kernels::WeftPar& par) { expect_sort(par); });
}

TEST_P(IrregularWeft, Uts) {
  on_weft("uts on weft", [](kernels::WeftPar& par) { expect_uts(par); });
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, IrregularWeft,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "half"),
                                            ::testing::Values(1u, 2u, 4u)),
                         weft_test::PolicyCountName{});

// ---- verify() rejects wrong outputs ------------------------------------------------------

// Runs compute on the serial elision, as measure() does, but keeps the object.
template <class W>
void compute_serially(W& work) {
  SerialPar par;
  par.run([&] { work.compute(par); });
}

TEST(IrregularVerify, NQueensRejectsAWrongCount) {
  NQueens queens(NQueens::parse("8"));
  EXPECT_NE(queens.verify(), "") << "before compute";
  compute_serially(queens);
  ASSERT_EQ(queens.verify(), "");
  ASSERT_EQ(queens.solutions(), 92);
  for (const std::int64_t wrong : {91, 93, 0, 352}) {
    queens.set_solutions_for_testing(wrong);
    EXPECT_NE(queens.verify(), "") << wrong;
    EXPECT_EQ(queens.result(), "solutions=" + std::to_string(wrong));
  }
}

TEST(IrregularVerify, NQueensChecksEveryTableEntryAgainstItsOwnSize) {
  // The same wrong count must fail for every n whose known count differs from it: verify()
  // looks up n, not some fixed value.
  for (int n = 1; n <= NQueens::kMaxN; ++n) {
    NQueens queens(NQueens::Params{n});
    queens.set_solutions_for_testing(92);
    EXPECT_EQ(queens.verify() == "", n == 8) << "n=" << n;
  }
}

TEST(IrregularVerify, SortRejectsUnsortedAndForeignOutputs) {
  Sort sort(Sort::parse("1e4"));
  EXPECT_NE(sort.verify(), "") << "the unsorted input itself";
  compute_serially(sort);
  ASSERT_EQ(sort.verify(), "");
  std::span<std::int32_t> out = sort.output_for_testing();

  // Two neighbouring distinct elements: swapping them unsorts the output.
  const auto distinct = std::adjacent_find(out.begin(), out.end(), std::not_equal_to<>());
  ASSERT_NE(distinct, out.end());
  std::iter_swap(distinct, distinct + 1);
  EXPECT_NE(sort.verify().find("not sorted"), std::string::npos) << sort.verify();
  std::iter_swap(distinct, distinct + 1);
  ASSERT_EQ(sort.verify(), "");

  // Copying the larger onto the smaller keeps the output sorted but loses an element.
  const std::int32_t saved = *distinct;
  *distinct = *(distinct + 1);
  EXPECT_NE(sort.verify().find("not the input's elements"), std::string::npos) << sort.verify();
  *distinct = saved;
  ASSERT_EQ(sort.verify(), "");

  // A sorted output of different values altogether.
  std::fill(out.begin(), out.end(), 7);
  EXPECT_NE(sort.verify(), "");
}

TEST(IrregularVerify, SortOfOneElementIsItself) {
  Sort sort(Sort::parse("1"));
  compute_serially(sort);
  EXPECT_EQ(sort.verify(), "");
  sort.output_for_testing()[0] ^= 1;  // a different value, without overflow
  EXPECT_NE(sort.verify(), "");
}

TEST(IrregularVerify, UtsRejectsEveryWrongCount) {
  const SmallTree& t = kTrees[0];
  Uts uts(with_published_counts(t));
  EXPECT_NE(uts.verify(), "") << "before compute";
  compute_serially(uts);
  ASSERT_EQ(uts.verify(), "");
  ASSERT_EQ(uts.counts(), t.counts);
  for (int field = 0; field < 3; ++field) {
    uts::Counts wrong = t.counts;
    if (field == 0) wrong.nodes += 1;
    if (field == 1) wrong.leaves -= 1;
    if (field == 2) wrong.max_depth += 1;
    uts.set_counts_for_testing(wrong);
    EXPECT_NE(uts.verify(), "") << "field " << field;
  }
}

TEST(IrregularVerify, UtsChecksAgainstThePublishedCounts) {
  // A right traversal of the tree fails when the "published" counts are off by one leaf:
  // verify() compares with what the source says, not with another traversal.
  const SmallTree& t = kTrees[1];
  Uts::Params params = with_published_counts(t);
  params.known.leaves = t.counts.leaves + 1;
  Uts uts(params);
  compute_serially(uts);
  EXPECT_NE(uts.verify(), "");
}

TEST(IrregularVerify, UtsFallsBackToTheSequentialTraversalForUnpublishedCounts) {
  // As for preset B, which publishes only its size.
  for (const SmallTree& t : kTrees) {
    for (const Uts::KnownCounts& known :
         {Uts::KnownCounts{}, Uts::KnownCounts{t.counts.nodes, std::nullopt, std::nullopt}}) {
      Uts uts(Uts::Params{t.name, t.tree, known});
      compute_serially(uts);
      EXPECT_EQ(uts.verify(), "") << t.name;
      uts::Counts wrong = t.counts;
      wrong.max_depth += 1;
      uts.set_counts_for_testing(wrong);
      EXPECT_NE(uts.verify(), "") << t.name;
    }
  }
}

// ---- Sizes -------------------------------------------------------------------------------

TEST(IrregularParse, NQueensTakesOneToTwenty) {
  EXPECT_EQ(NQueens::parse(NQueens::kDefault).n, 13);
  EXPECT_EQ(NQueens::parse("1").n, 1);
  EXPECT_EQ(NQueens::parse("20").n, 20);
  for (const char* bad : {"0", "21", "-1", "", "x", "8q", "1e2"}) {
    EXPECT_THROW(NQueens::parse(bad), kernels::SizeError) << bad;
  }
}

TEST(IrregularParse, SortTakesCountsUpToTwoBillion) {
  EXPECT_EQ(Sort::parse(Sort::kDefault).n, 10'000'000);
  EXPECT_EQ(Sort::parse("10000000").n, 10'000'000);
  EXPECT_EQ(Sort::parse("1e8").n, 100'000'000);
  EXPECT_EQ(Sort::parse("2e9").n, 2'000'000'000);
  EXPECT_EQ(Sort::parse("2^20").n, 1 << 20);
  EXPECT_EQ(Sort::parse("1").n, 1);
  EXPECT_EQ(Sort::parse("1e7").sort_cutoff, Sort::kSortCutoff);
  for (const char* bad : {"0", "3e9", "2000000001", "-5", "", "ten", "1e"}) {
    EXPECT_THROW(Sort::parse(bad), kernels::SizeError) << bad;
  }
}

TEST(IrregularParse, ConstructorsRejectParamsThatParseWouldNot) {
  EXPECT_THROW(NQueens{NQueens::Params{0}}, kernels::SizeError);
  EXPECT_THROW(NQueens{NQueens::Params{NQueens::kMaxN + 1}}, kernels::SizeError);
  EXPECT_THROW(Sort{Sort::Params{.n = 0}}, kernels::SizeError);
  uts::TreeParams invalid_tree = binomial(100, 0.124, 8, 4);
  invalid_tree.q = 1.5;  // a probability
  EXPECT_THROW(Uts(Uts::Params{"invalid", invalid_tree, {}}), std::invalid_argument);
  Sort::Params p = Sort::parse("100");
  p.sort_cutoff = 0;
  EXPECT_THROW(Sort{p}, std::invalid_argument);
  p = Sort::parse("100");
  p.merge_cutoff = 0;
  EXPECT_THROW(Sort{p}, std::invalid_argument);
}

TEST(IrregularParse, UtsTakesEveryPresetByName) {
  const Uts::Params t3 = Uts::parse(Uts::kDefault);
  EXPECT_EQ(t3.name, "T3");
  EXPECT_EQ(t3.known.nodes, 4112897u);
  EXPECT_EQ(t3.known.leaves, 3599034u);
  EXPECT_EQ(t3.known.max_depth, 1572);
  EXPECT_EQ(Uts::parse("t1l").name, "T1L");  // case-insensitive, as find_preset
  for (const uts::Preset& preset : uts::presets()) {
    const Uts::Params p = Uts::parse(preset.name);
    EXPECT_EQ(p.name, preset.name);
    EXPECT_EQ(p.known.nodes, preset.nodes);
    EXPECT_EQ(p.known.leaves, preset.leaves);
    EXPECT_EQ(p.known.max_depth, preset.max_depth);
  }
  EXPECT_FALSE(Uts::parse("B").known.leaves.has_value());  // B publishes only its size
}

TEST(IrregularParse, UtsNamesTheValidPresetsOnError) {
  for (const char* bad : {"T9", "", "4112897", "T3 "}) {
    try {
      Uts::parse(bad);
      ADD_FAILURE() << "'" << bad << "' parsed";
    } catch (const kernels::SizeError& e) {
      const std::string message = e.what();
      for (const uts::Preset& preset : uts::presets()) {
        EXPECT_NE(message.find(preset.name), std::string::npos) << message;
      }
    }
  }
}

}  // namespace

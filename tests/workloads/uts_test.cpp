// The UTS benchmark core (workloads/uts): the SHA-1 stream against digests made independently
// with the openssl command line; tree flags and their validation; the number-of-children
// rules and their special cases; and the three traversals (sequential, weft tasks, threads
// with chunked stealing) agreeing on trees of every shape at 1, 2 and 4 workers under every
// steal policy, and with the reference's published size of T3.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/sha1_stream.hpp"
#include "workloads/uts/tree.hpp"
#include "workloads/uts/tree_flags.hpp"
#include "workloads/uts/uts_seq.hpp"
#include "workloads/uts/uts_threads.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace {

using uts::Counts;
using uts::RngState;
using uts::TreeParams;

constexpr std::chrono::seconds kWatchdog{120};

std::string hex(const RngState& s) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : s.bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

RngState state_with_tail(std::uint8_t b16, std::uint8_t b17, std::uint8_t b18, std::uint8_t b19) {
  RngState s;
  s.bytes[16] = b16;
  s.bytes[17] = b17;
  s.bytes[18] = b18;
  s.bytes[19] = b19;
  return s;
}

// Splits "-t 0 -b 2000" into words and parses them over the defaults.
TreeParams params_from(std::string_view flags, std::string* error = nullptr) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while (pos < flags.size()) {
    std::size_t end = flags.find(' ', pos);
    if (end == std::string_view::npos) end = flags.size();
    if (end > pos) words.push_back(flags.substr(pos, end - pos));
    pos = end + 1;
  }
  TreeParams p;
  const std::string e = uts::parse_tree_args(words, p);
  if (error != nullptr) {
    *error = e;
  } else {
    EXPECT_EQ(e, "") << "flags: " << flags;
  }
  return p;
}

// ---- The SHA-1 stream --------------------------------------------------------------------
//
// Expected digests were made with the openssl command line, independently of this code:
//   root(r)     head -c 16 /dev/zero; printf '<r as 4 big-endian bytes>'  | openssl dgst -sha1
//   child(s, i) (echo -n <s in hex> | xxd -r -p; printf '<i as 4 BE bytes>') | openssl dgst -sha1
// e.g. root(42): (head -c 16 /dev/zero; printf '\x00\x00\x00\x2a') | openssl dgst -sha1

TEST(UtsSha1, RootStateIsTheDigestOfTheZeroPaddedBigEndianSeed) {
  EXPECT_EQ(hex(uts::root_state(0)), "6768033e216468247bd031a0a2d9876d79818f8f");
  EXPECT_EQ(hex(uts::root_state(19)), "c6988ab70cc9559ae4d6cba254e29a845a85f86b");
  EXPECT_EQ(hex(uts::root_state(42)), "a11dabbcec7aab309c890ab3dbc256eaeb582782");
  EXPECT_EQ(hex(uts::root_state(2147483647)), "1565ced228f1e41de0af4edfedab19a6d8df6f72");
}

TEST(UtsSha1, ChildStateIsTheDigestOfParentAndBigEndianIndex) {
  const RngState root = uts::root_state(42);
  EXPECT_EQ(hex(uts::child_state(root, 0)), "7407806c9e18f6e1d4d944809de9c0c94b892757");
  const RngState c1999 = uts::child_state(root, 1999);  // index bytes 00 00 07 cf
  EXPECT_EQ(hex(c1999), "4668bd9a069d0ade91bf9d55f8654a07b083620b");
  EXPECT_EQ(hex(uts::child_state(c1999, 7)), "797e7cd0513ceae4e0cf7dbe041451dbb0a4a817");
}

TEST(UtsSha1, Rand31ReadsBytes16To19BigEndianWithTheTopBitCleared) {
  // Tails of the digests above: 4b892757, b083620b (top bit set), 5a85f86b.
  const RngState root = uts::root_state(42);
  EXPECT_EQ(uts::rand31(uts::child_state(root, 0)), 1267279703);
  EXPECT_EQ(uts::rand31(uts::child_state(root, 1999)), 813916683);  // 0x3083620b
  EXPECT_EQ(uts::rand31(uts::root_state(19)), 1518729323);
  EXPECT_EQ(uts::rand31(state_with_tail(0xff, 0xff, 0xff, 0xff)), 2147483647);
  EXPECT_EQ(uts::rand31(state_with_tail(0x80, 0, 0, 0)), 0);
  EXPECT_EQ(uts::rand31(state_with_tail(0x01, 0x02, 0x03, 0x04)), 0x01020304);
}

TEST(UtsSha1, ToProbDividesBy2To31) {
  EXPECT_EQ(uts::to_prob(0), 0.0);
  EXPECT_EQ(uts::to_prob(1073741824), 0.5);
  EXPECT_EQ(uts::to_prob(1267279703), 1267279703.0 / 2147483648.0);
  EXPECT_LT(uts::to_prob(2147483647), 1.0);
  EXPECT_EQ(uts::to_prob(-5), 0.0);  // the reference's guard, kept
}

// ---- Tree flags and validation -----------------------------------------------------------

TEST(UtsParams, DefaultsAreTheReferences) {
  const TreeParams p;
  EXPECT_EQ(p.type, uts::TreeType::kGeometric);
  EXPECT_EQ(p.b0, 4.0);
  EXPECT_EQ(p.seed, 0);
  EXPECT_EQ(p.m, 4);
  EXPECT_EQ(p.q, 15.0 / 64.0);
  EXPECT_EQ(p.gen_mx, 6);
  EXPECT_EQ(p.shape, uts::GeoShape::kLinear);
  EXPECT_EQ(p.shift_depth, 0.5);
  EXPECT_EQ(p.granularity, 1);
  EXPECT_EQ(uts::validate(p), "");
}

TEST(UtsParams, ParsesTheReferencesSampleTreeFlags) {
  const TreeParams t3 = params_from("-t 0 -b 2000 -q 0.124875 -m 8 -r 42");
  EXPECT_EQ(t3.type, uts::TreeType::kBinomial);
  EXPECT_EQ(t3.b0, 2000.0);
  EXPECT_EQ(t3.q, 0.124875);
  EXPECT_EQ(t3.m, 8);
  EXPECT_EQ(t3.seed, 42);
  // T4 gives -r twice; the last one wins, as in the reference.
  const TreeParams t4 = params_from("-t 2 -a 0 -d 16 -b 6 -r 5 -q 0.234375 -m 4 -r 1");
  EXPECT_EQ(t4.type, uts::TreeType::kHybrid);
  EXPECT_EQ(t4.seed, 1);
  EXPECT_EQ(t4.gen_mx, 16);
  const TreeParams misc = params_from("-t 1 -a 2 -f 0.25 -g 3");
  EXPECT_EQ(misc.shape, uts::GeoShape::kCyclic);
  EXPECT_EQ(misc.shift_depth, 0.25);
  EXPECT_EQ(misc.granularity, 3);
}

TEST(UtsParams, ToArgsRoundTripsEveryPreset) {
  for (const uts::Preset& preset : uts::presets()) {
    const std::string args = uts::to_args(preset.params);
    const TreeParams back = params_from(args);
    EXPECT_EQ(uts::to_args(back), args) << preset.name;
    EXPECT_EQ(back.type, preset.params.type) << preset.name;
    EXPECT_EQ(back.b0, preset.params.b0) << preset.name;
    EXPECT_EQ(back.seed, preset.params.seed) << preset.name;
  }
  EXPECT_EQ(uts::to_args(uts::find_preset("T3")->params), "-t 0 -b 2000 -q 0.124875 -m 8 -r 42");
}

TEST(UtsParams, RejectsBadInputWithAMessageNamingIt) {
  struct Case {
    const char* flags;
    const char* message_part;
  };
  const Case cases[] = {
      {"-t 7", "-t (tree type) = 7"},
      {"-t -1", "-t (tree type) = -1"},
      {"-q 1.5", "-q (probability of a non-leaf node) = 1.5"},
      {"-q -0.1", "-q (probability"},
      {"-q nan", "-q (probability"},
      {"-m -1", "-m (children of a non-leaf node) = -1"},
      {"-b 0", "-b (root branching factor b0) = 0"},
      {"-b -3", "-b (root branching factor"},
      {"-b 3e9", "-b (root branching factor"},
      {"-b inf", "-b (root branching factor"},
      {"-r -1", "-r (root seed) = -1"},
      {"-d 0", "-d (depth parameter gen_mx) = 0"},
      {"-a 4", "-a (geometric shape function) = 4"},
      {"-f -0.5", "-f (hybrid shift depth fraction)"},
      {"-g 0", "-g (compute granularity) = 0"},
      {"-q abc", "-q: 'abc' is not a number"},
      {"-m 12x", "-m: '12x' is not an integer"},
      {"-m 2.5", "-m: '2.5' is not an integer"},
      {"-r 99999999999", "-r: '99999999999' is not an integer"},
      {"-z 3", "unknown UTS tree flag '-z'"},
      {"-bb 3", "unknown UTS tree flag '-bb'"},
      {"-t", "-t: missing value"},
  };
  for (const Case& c : cases) {
    std::string error;
    params_from(c.flags, &error);
    EXPECT_NE(error.find(c.message_part), std::string::npos)
        << "flags '" << c.flags << "' gave error '" << error << "'";
  }
}

TEST(UtsParams, ValidatesFieldsSetInCode) {
  TreeParams p;
  p.type = static_cast<uts::TreeType>(9);
  EXPECT_NE(uts::validate(p).find("tree type"), std::string::npos);
  EXPECT_THROW(uts::Tree{p}, std::invalid_argument);
  p = TreeParams{};
  p.shape = static_cast<uts::GeoShape>(-2);
  EXPECT_NE(uts::validate(p).find("shape function"), std::string::npos);
  p = TreeParams{};
  p.q = std::nan("");
  EXPECT_THROW(uts::Tree{p}, std::invalid_argument);
  EXPECT_EQ(uts::type_name(static_cast<uts::TreeType>(9)), "unknown");
  EXPECT_EQ(uts::shape_name(uts::GeoShape::kExpDec), "exponential");
}

// ---- Number-of-children rules ------------------------------------------------------------

TEST(UtsRules, BinomialRootHasFloorOfB0Children) {
  TreeParams p = params_from("-t 0 -b 2.9 -q 0 -m 8");
  uts::Tree tree(p);
  EXPECT_EQ(tree.num_children(tree.root()), 2);
  EXPECT_EQ(uts::traverse_sequential(tree), (Counts{3, 2, 1}));  // q = 0: children are leaves
}

TEST(UtsRules, NonRootFanOutIsCappedAtMaxChildren) {
  uts::Tree tree(params_from("-t 0 -b 3 -q 1 -m 150"));
  const uts::Node child = tree.child(tree.root(), 0);
  EXPECT_EQ(tree.num_children(child), uts::kMaxChildren);
}

TEST(UtsRules, OnlyABinomialRootEscapesTheCap) {
  uts::Tree binomial(params_from("-t 0 -b 300 -q 0 -m 1"));
  EXPECT_EQ(binomial.num_children(binomial.root()), 300);
  // Mean 300 at a geometric root: far more than 100 children drawn for this seed, so capped.
  uts::Tree geometric(params_from("-t 1 -a 3 -d 2 -b 300 -r 0"));
  EXPECT_EQ(geometric.num_children(geometric.root()), uts::kMaxChildren);
  // A hybrid root is not a binomial root either (the reference tests the node's type).
  uts::Tree hybrid(params_from("-t 2 -a 3 -d 2 -b 300 -r 0"));
  EXPECT_EQ(hybrid.num_children(hybrid.root()), uts::kMaxChildren);
}

TEST(UtsRules, HybridSwitchesToBinomialAtShiftDepthTimesGenMx) {
  // shift 0: even the root is binomial, with no root special case: m or 0 children.
  uts::Tree at_root(params_from("-t 2 -f 0 -b 2000 -q 1 -m 3"));
  EXPECT_EQ(at_root.num_children(at_root.root()), 3);
  // gen_mx 4, shift 0.5: depths 0 and 1 are geometric (mean b0 = 2000, so >= 100 children
  // for nearly every node), depths 2 and up binomial with q = 1, m = 3.
  uts::Tree tree(params_from("-t 2 -a 3 -d 4 -f 0.5 -b 2000 -q 1 -m 3 -r 0"));
  uts::Node node = tree.root();
  EXPECT_EQ(tree.num_children(node), uts::kMaxChildren);
  node = tree.child(node, 0);
  EXPECT_EQ(tree.num_children(node), uts::kMaxChildren);
  node = tree.child(node, 0);
  EXPECT_EQ(tree.num_children(node), 3);
}

TEST(UtsRules, FixedAndLinearShapesEndAtGenMx) {
  for (const char* flags : {"-t 1 -a 3 -d 3 -b 1000", "-t 1 -a 0 -d 3 -b 1000"}) {
    uts::Tree tree(params_from(flags));
    uts::Node node = tree.root();
    while (node.height < 3) node = tree.child(node, 0);
    EXPECT_EQ(tree.num_children(node), 0) << flags;
  }
}

TEST(UtsRules, BalancedTreesHaveTheClosedFormSize) {
  uts::Tree tree(params_from("-t 3 -d 8 -b 3"));
  EXPECT_EQ(uts::traverse_sequential(tree), (Counts{(6561 * 3 - 1) / 2, 6561, 8}));
}

TEST(UtsRules, GranularityRepeatsTheHashButNotTheTree) {
  const Counts once = uts::traverse_sequential(uts::Tree(params_from("-t 1 -a 0 -d 10 -b 4")));
  const Counts thrice =
      uts::traverse_sequential(uts::Tree(params_from("-t 1 -a 0 -d 10 -b 4 -g 3")));
  EXPECT_EQ(once, thrice);
}

// ---- Presets -----------------------------------------------------------------------------

TEST(UtsPresets, AreValidUniqueAndFoundByName) {
  std::set<std::string> names;
  for (const uts::Preset& p : uts::presets()) {
    EXPECT_EQ(uts::validate(p.params), "") << p.name;
    EXPECT_TRUE(names.insert(std::string(p.name)).second) << p.name;
    EXPECT_EQ(uts::find_preset(p.name), &p);
  }
  for (const char* name : {"T1", "T1L", "T2", "T2L", "T3", "T3L", "T4", "T5", "A", "B"}) {
    EXPECT_NE(uts::find_preset(name), nullptr) << name;
  }
  EXPECT_EQ(uts::find_preset("t3l"), uts::find_preset("T3L"));
  EXPECT_EQ(uts::find_preset("T9"), nullptr);
  const uts::Preset* a = uts::find_preset("A");
  const uts::Preset* t3 = uts::find_preset("T3");
  EXPECT_EQ(uts::to_args(a->params), uts::to_args(t3->params));
  EXPECT_EQ(a->nodes, 4112897u);
}

// ---- Small trees of every shape: all traversals agree ------------------------------------
//
// The counts below were recorded from the sequential traversal once it reproduced every
// published preset size (T1..T5, T1L..T3L); they guard the sanitizer builds, which skip T3.

struct SmallTree {
  const char* name;
  const char* flags;
  Counts expected;
};

const std::vector<SmallTree>& small_trees() {
  static const std::vector<SmallTree> trees = {
      {"binomial", "-t 0 -b 100 -q 0.124 -m 8 -r 4", {11477, 10054, 69}},
      {"geometric_linear", "-t 1 -a 0 -d 10 -b 4 -r 0", {25666, 14179, 10}},
      {"geometric_expdec", "-t 1 -a 1 -d 8 -b 4 -r 0", {12958, 6606, 26}},
      {"geometric_cyclic", "-t 1 -a 2 -d 8 -b 4 -r 0", {6390, 3684, 41}},
      {"geometric_fixed", "-t 1 -a 3 -d 6 -b 4 -r 0", {26417, 21084, 6}},
      {"geometric_capped_root", "-t 1 -a 3 -d 2 -b 300 -r 0", {8513, 8412, 2}},
      {"hybrid", "-t 2 -a 0 -d 10 -b 4 -q 0.234375 -m 4 -r 0", {25029, 18734, 57}},
      {"balanced", "-t 3 -d 8 -b 3", {9841, 6561, 8}},
      {"single_node", "-t 1 -a 0 -d 10 -b 4 -r 2", {1, 1, 0}},
  };
  return trees;
}

TEST(UtsSmallTrees, SequentialGivesTheRecordedCounts) {
  for (const SmallTree& t : small_trees()) {
    EXPECT_EQ(uts::traverse_sequential(uts::Tree(params_from(t.flags))), t.expected) << t.name;
  }
}

TEST(UtsSmallTrees, WeftOutsideARuntimeRunsSerially) {
  const SmallTree& t = small_trees()[0];
  EXPECT_EQ(uts::traverse_weft_task(uts::Tree(params_from(t.flags))), t.expected);
}

using WeftCase = std::tuple<const char*, unsigned>;  // (steal policy, workers)

class UtsWeft : public ::testing::TestWithParam<WeftCase> {};

TEST_P(UtsWeft, AgreesWithSequentialOnEveryShape) {
  const auto [policy, workers] = GetParam();
  weft::Runtime rt{weft_test::make_config(policy, workers)};
  weft_test::with_watchdog(kWatchdog, "UTS weft small trees", [&] {
    for (const SmallTree& t : small_trees()) {
      EXPECT_EQ(uts::traverse_weft(rt, uts::Tree(params_from(t.flags))), t.expected) << t.name;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, UtsWeft,
                         ::testing::Combine(::testing::Values("one", "half", "fixed:2"),
                                            ::testing::Values(1u, 2u, 4u)),
                         weft_test::PolicyCountName{});

using ThreadsCase = std::tuple<unsigned, std::size_t>;  // (threads, chunk size)

class UtsThreads : public ::testing::TestWithParam<ThreadsCase> {};

TEST_P(UtsThreads, AgreesWithSequentialOnEveryShape) {
  // Not a structured binding: Clang before 16 cannot capture one in a lambda.
  const unsigned threads = std::get<0>(GetParam());
  const std::size_t chunk = std::get<1>(GetParam());
  weft_test::with_watchdog(kWatchdog, "UTS threads small trees", [&] {
    for (const SmallTree& t : small_trees()) {
      const uts::ThreadsResult r =
          uts::traverse_threads(uts::Tree(params_from(t.flags)), {threads, chunk});
      EXPECT_EQ(r.counts, t.expected) << t.name;
      ASSERT_EQ(r.nodes_per_thread.size(), threads);
      EXPECT_EQ(
          std::accumulate(r.nodes_per_thread.begin(), r.nodes_per_thread.end(), std::uint64_t{0}),
          t.expected.nodes)
          << t.name;
      EXPECT_EQ(r.steals + r.reacquires, r.releases) << t.name;  // every chunk is taken once
      if (threads == 1) {
        EXPECT_EQ(r.steals, 0u) << t.name;
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndChunks, UtsThreads,
                         ::testing::Combine(::testing::Values(1u, 2u, 4u),
                                            ::testing::Values(std::size_t{1}, std::size_t{4},
                                                              std::size_t{64})),
                         [](const ::testing::TestParamInfo<ThreadsCase>& info) {
                           return "p" + std::to_string(std::get<0>(info.param)) + "_c" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(UtsThreadsOptions, RejectsOutOfRangeOptions) {
  const uts::Tree tree(params_from("-t 3 -d 2 -b 2"));
  EXPECT_THROW(uts::traverse_threads(tree, {0, 64}), std::invalid_argument);
  EXPECT_THROW(uts::traverse_threads(tree, {5000, 64}), std::invalid_argument);
  EXPECT_THROW(uts::traverse_threads(tree, {2, 0}), std::invalid_argument);
}

TEST(UtsThreadsOptions, ManyThreadsOnATinyTreeTerminate) {
  // More threads than nodes: most never get work and must still see the end.
  weft_test::with_watchdog(kWatchdog, "UTS threads termination", [] {
    for (int round = 0; round < 20; ++round) {
      const uts::ThreadsResult r =
          uts::traverse_threads(uts::Tree(params_from("-t 3 -d 2 -b 2")), {8, 1});
      EXPECT_EQ(r.counts, (Counts{7, 4, 2}));
    }
  });
}

// ---- The reference's T3 (4,112,897 nodes) ------------------------------------------------

void expect_t3(const Counts& c) {
  const uts::Preset& t3 = *uts::find_preset("T3");
  EXPECT_EQ(c.nodes, 4112897u);
  EXPECT_EQ(c.nodes, t3.nodes);
  EXPECT_EQ(c.leaves, *t3.leaves);
  EXPECT_EQ(c.max_depth, *t3.max_depth);
}

TEST(UtsT3, SequentialReproducesThePublishedSize) {
  if (weft_test::kSanitized) GTEST_SKIP() << "4.1M SHA-1 nodes: Release builds only";
  expect_t3(uts::traverse_sequential(uts::Tree(uts::find_preset("T3")->params)));
}

TEST(UtsT3, WeftOnTwoWorkersReproducesThePublishedSize) {
  if (weft_test::kSanitized) GTEST_SKIP() << "4.1M SHA-1 nodes: Release builds only";
  weft::Config config;
  config.workers = 2;
  weft::Runtime rt{config};
  weft_test::with_watchdog(kWatchdog, "UTS T3 on weft", [&] {
    expect_t3(uts::traverse_weft(rt, uts::Tree(uts::find_preset("T3")->params)));
  });
}

}  // namespace

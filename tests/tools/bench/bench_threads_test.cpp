// `weft-bench threads` (tools/bench/threads, tools/bench/cli/threads_report.cpp): the parser's
// accepted and rejected command lines, a tiny run of each benchmark with its figures checked, the
// randomized blocks and paired intervals, and the checks themselves catching a wrong answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "bench_args_support.hpp"
#include "tools/bench/cli/args.hpp"
#include "tools/bench/cli/threads_report.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/sitting_report.hpp"
#include "tools/bench/threads/matmul_threads.hpp"
#include "tools/bench/threads/thread_tree.hpp"
#include "tools/bench/threads/threads_bench.hpp"
#include "weft/detail/sanitizers.hpp"

namespace {

using bench_test::error_of;
using bench_test::parse;
using bench_threads::Bench;
using bench_threads::kKiB;
using bench_threads::Series;
using weft::ThreadSched;

TEST(BenchThreadsArgs, Defaults) {
  const bench_cli::Options o = parse({"threads"});
  EXPECT_EQ(o.command, bench_cli::Command::kThreads);
  const bench_threads::Settings& t = o.threads;
  EXPECT_EQ(t.benches,
            (std::vector<Bench>{Bench::kMicro, Bench::kMatmul, Bench::kTree, Bench::kMany}));
  EXPECT_EQ(t.repeat, 7);
  EXPECT_TRUE(t.workers.empty());  // each benchmark's own
  EXPECT_TRUE(t.scheds.empty());
  EXPECT_EQ(t.orders, std::vector<std::size_t>{1024});
  EXPECT_TRUE(t.quotas.empty());
  EXPECT_TRUE(t.stacks.empty());
  EXPECT_EQ(t.tree_depth, 12);
  EXPECT_EQ(t.many_count, std::size_t{1} << 20);
  EXPECT_EQ(bench_threads::scheds_of(t, Bench::kMany),
            (std::vector<ThreadSched>{ThreadSched::kDf, ThreadSched::kDfd}));
  EXPECT_EQ(bench_threads::scheds_of(t, Bench::kMatmul).size(), 4u);
  EXPECT_EQ(bench_threads::default_workers(Bench::kMany), (std::vector<unsigned>{2, 8}));
  EXPECT_EQ(bench_threads::default_quotas(Bench::kTree),
            (std::vector<std::size_t>{4 * kKiB, 64 * kKiB}));
  EXPECT_NE(bench_cli::usage().find("weft-bench threads"), std::string::npos);
}

TEST(BenchThreadsArgs, EverySetting) {
  const bench_cli::Options o =
      parse({"threads",  "--bench",  "tree,matmul", "--workers", "1,4",      "--sched",
             "dfd,fifo", "--repeat", "3",           "--n",       "128,2048", "--quota",
             "4K,1M,0",  "--stack",  "16K,1M",      "--depth",   "5",        "--count",
             "4096",     "--iters",  "77",          "--json",    "t.json"});
  const bench_threads::Settings& t = o.threads;
  EXPECT_EQ(t.benches, (std::vector<Bench>{Bench::kTree, Bench::kMatmul}));
  EXPECT_EQ(t.workers, (std::vector<unsigned>{1, 4}));
  EXPECT_EQ(t.scheds, (std::vector<ThreadSched>{ThreadSched::kDfd, ThreadSched::kFifo}));
  EXPECT_EQ(t.repeat, 3);
  EXPECT_EQ(t.orders, (std::vector<std::size_t>{128, 2048}));
  EXPECT_EQ(t.quotas, (std::vector<std::size_t>{4096, 1 << 20, 0}));
  EXPECT_EQ(t.stacks, (std::vector<std::size_t>{16384, 1 << 20}));
  EXPECT_EQ(t.tree_depth, 5);
  EXPECT_EQ(t.many_count, 4096u);
  EXPECT_EQ(t.micro_iters, 77u);
  EXPECT_EQ(o.json, "t.json");
}

// --seed and --resamples reach the threads' Settings (the order and the intervals).
TEST(BenchThreadsArgs, SeedAndResamples) {
  const bench_cli::Options o = parse({"threads", "--seed", "42", "--resamples", "3000"});
  EXPECT_EQ(o.threads.seed, 42u);
  EXPECT_EQ(o.threads.resamples, 3000);
  EXPECT_EQ(error_of({"threads", "--resamples", "1999"}),
            "--resamples 1999: expected a whole number from 2000 to 10000000, got \"1999\"");
  EXPECT_EQ(error_of({"threads", "--budget", "60"}), "--budget: unknown option (see --help)");
  EXPECT_NE(bench_cli::usage().find("[--json FILE|-] [--seed N] [--resamples 10000]"),
            std::string::npos);
}

TEST(BenchThreadsArgs, ErrorsNameTheArgument) {
  EXPECT_EQ(error_of({"threads", "--bench", "micro,fft"}),
            "--bench fft: unknown benchmark (known: micro, matmul, tree, many, barnes, dtree)");
  EXPECT_EQ(error_of({"threads", "--n", "96"}),
            "--n 96: expected a whole number from 128 to 8192, got \"96\"");
  EXPECT_EQ(error_of({"threads", "--n", "1000"}),
            "--n 1000: expected a power of two (the recursion halves n)");
  EXPECT_EQ(error_of({"threads", "--quota", "2G"}),
            "--quota 2G: expected a size from 0 to 1G (bytes, or with a K, M or G suffix), got "
            "\"2G\"");
  EXPECT_EQ(error_of({"threads", "--stack", "1K"}),
            "--stack 1K: expected a size from 4K to 1G (bytes, or with a K, M or G suffix), got "
            "\"1K\"");
  EXPECT_EQ(error_of({"threads", "--stack", "16KB"}),
            "--stack 16KB: expected a size from 4K to 1G (bytes, or with a K, M or G suffix), got "
            "\"16KB\"");
  EXPECT_EQ(error_of({"threads", "--sched", "df,bfs"}).substr(0, 14), "--sched bfs: -");
  EXPECT_EQ(error_of({"threads", "--steal", "one"}), "--steal: unknown option (see --help)");
  EXPECT_EQ(error_of({"threads", "--profile"}), "--profile: unknown option (see --help)");
  EXPECT_EQ(error_of({"fib", "20", "--sched", "df"}), "--sched: unknown option (see --help)");
  EXPECT_EQ(error_of({"threads", "--depth", "21"}),
            "--depth 21: expected a whole number from 0 to 20, got \"21\"");
}

bench_threads::Settings tiny(Bench b) {
  bench_threads::Settings s;
  s.benches = {b};
  s.repeat = 1;
  s.orders = {128};
  s.tree_depth = 4;
  s.many_count = 512;
  s.micro_iters = 200;
  s.bh_bodies = 500;
  s.bh_steps = 1;
  s.dt_instances = 2000;
  return s;
}

const Series& find(const bench_threads::Result& r, const std::string& label) {
  for (const Series& s : r.series)
    if (s.label() == label) return s;
  ADD_FAILURE() << "no series " << label;
  return r.series.front();
}

TEST(BenchThreadsRun, MicroMeasuresEveryOperation) {
  bench_threads::Settings s = tiny(Bench::kMicro);
  s.scheds = {ThreadSched::kFifo, ThreadSched::kDfd};
  const bench_threads::Result r = bench_threads::run_threads(s);
  // create+join, mutex, condvar, semaphore per scheduler; yield on fifo; the std five; fcontext
  EXPECT_EQ(r.micro.size(), 4u * 2 + 1 + 5 + 1);
  for (const auto& m : r.micro) {
    ASSERT_EQ(m.ns.size(), 1u) << m.op;
    EXPECT_GT(m.ns[0], 0.0) << m.op << " " << m.impl;
  }
  const std::string table = bench_cli::threads_table(r);
  EXPECT_NE(table.find("yield switch / bare jump_fcontext switch:"), std::string::npos) << table;
  EXPECT_NE(bench_cli::threads_json(r).find("\"op\":\"create+join\",\"impl\":\"std\""),
            std::string::npos);
}

TEST(BenchThreadsRun, MatmulHeapAndThreads) {
  bench_threads::Settings s = tiny(Bench::kMatmul);
  s.workers = {1, 2};
  const bench_threads::Result r = bench_threads::run_threads(s);
  // 1 serial, then per worker count: task, fifo, lifo, df, dfd.
  ASSERT_EQ(r.series.size(), 11u);
  // S1: A, B, C and the one temporary of order 128.
  EXPECT_EQ(find(r, "serial").samples[0].heap_peak, 4u * 128 * 128 * sizeof(double));
  // One worker: df runs the serial order; fifo makes all 8 calls' threads before any runs.
  const Series& df = find(r, "threads df K=64K w=1");
  EXPECT_EQ(df.samples[0].heap_peak, 4u * 128 * 128 * sizeof(double));
  EXPECT_EQ(df.samples[0].threads.made, 1u + 8 + 2);  // the root, one level, two dummies
  EXPECT_EQ(df.samples[0].threads.dummies, 2u);       // T is 128 KiB: two quotas of 64 KiB
  EXPECT_GE(find(r, "threads fifo w=1").samples[0].threads.max_live, 9u);
  const std::string table = bench_cli::threads_table(r);
  EXPECT_NE(table.find("matmul n=128: S1 = 0.5 MiB"), std::string::npos) << table;
}

TEST(BenchThreadsRun, TreeAgainstItsBound) {
  bench_threads::Settings s = tiny(Bench::kTree);
  s.workers = {1};
  const bench_threads::Result r = bench_threads::run_threads(s);
  const std::size_t s1 = 5 * bench_threads::kTreeNodeBytes;  // one chain of depth 4
  EXPECT_EQ(find(r, "serial").samples[0].heap_peak, s1);
  // fifo: every internal node (15) holds its block while the leaves come and go one by one.
  EXPECT_EQ(find(r, "threads fifo w=1").samples[0].heap_peak, 16 * bench_threads::kTreeNodeBytes);
  EXPECT_EQ(find(r, "threads df K=64K w=1").samples[0].heap_peak, s1);
  EXPECT_EQ(find(r, "threads df K=4K w=1").samples[0].threads.dummies, 31u * 16);
  EXPECT_EQ(bench_threads::tree_fork_depth(12, 4 * kKiB), 18);  // 1 + 12 + ceil(log2 17)
  EXPECT_EQ(bench_threads::tree_fork_depth(12, 64 * kKiB), 13);
  EXPECT_NE(bench_cli::threads_table(r).find("within"), std::string::npos);
}

TEST(BenchThreadsRun, ManyMakesOneThreadPerLeaf) {
  bench_threads::Settings s = tiny(Bench::kMany);
  s.workers = {2};
  const bench_threads::Result r = bench_threads::run_threads(s);
  ASSERT_EQ(r.series.size(), 3u);  // serial, df, dfd
  EXPECT_EQ(find(r, "threads df w=2").samples[0].threads.made, 512u);
  EXPECT_EQ(find(r, "threads dfd w=2").samples[0].threads.made, 512u);
  EXPECT_NE(bench_cli::threads_table(r).find("lock_acq/thr"), std::string::npos);
}

TEST(BenchThreadsRun, TheApplicationsRunEveryVersionAndReportThem) {
  bench_threads::Settings s = tiny(Bench::kBarnes);
  s.benches = {Bench::kBarnes, Bench::kDtree};
  s.workers = {2};
  // Sanitized builds' frames are larger than 16 KiB of recursion allows (the verification's).
  if (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) s.stacks = {std::size_t{256} << 10};
  const bench_threads::Result r = bench_threads::run_threads(s);
  // barnes: serial, coarse, fifo, df; dtree: serial and the four schedulers.
  ASSERT_EQ(r.series.size(), 9u);
  EXPECT_LE(find(r, "coarse w=2").samples[0].threads.made, 3u);  // a thread per worker (+1 root)
  EXPECT_GT(find(r, "threads df w=2").samples[0].threads.made, 2u);
  const std::string table = bench_cli::threads_table(r);
  EXPECT_NE(table.find("barnes: 500 Plummer bodies"), std::string::npos) << table;
  EXPECT_NE(table.find("dtree: 2000 instances"), std::string::npos) << table;
}

// The labels progress() is called with, in the order the runs ran.
std::vector<std::string> run_order(const bench_threads::Settings& s, bench_threads::Result& r) {
  std::vector<std::string> labels;
  r = bench_threads::run_threads(
      s, [&](int, int, const std::string& label) { labels.push_back(label); });
  return labels;
}

std::vector<std::vector<std::vector<std::size_t>>> orders_of(const bench_threads::Result& r) {
  std::vector<std::vector<std::vector<std::size_t>>> all;
  for (const bench_threads::Blocks& b : r.blocks) all.push_back(b.order);
  return all;
}

// Randomized blocks: each repetition runs every series once, in a permutation drawn for that
// repetition; the runs happen in the order recorded; one seed replays it, another does not.
TEST(BenchThreadsRun, EachRepetitionRunsAShuffledPermutationReplayedFromTheSeed) {
  bench_threads::Settings s = tiny(Bench::kTree);
  s.benches = {Bench::kMicro, Bench::kTree};
  s.workers = {1};
  s.scheds = {ThreadSched::kFifo, ThreadSched::kDf, ThreadSched::kDfd};
  s.repeat = 4;
  s.seed = 7;
  bench_threads::Result r;
  const std::vector<std::string> ran = run_order(s, r);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0].bench, Bench::kMicro);
  EXPECT_EQ(r.blocks[1].bench, Bench::kTree);
  std::vector<std::string> expected;  // the progress labels the recorded orders imply
  for (int rep = 0; rep < s.repeat; ++rep) {
    for (const std::size_t i : r.blocks[0].order[static_cast<std::size_t>(rep)]) {
      const bench_threads::MicroSeries& m = r.micro[r.blocks[0].first + i];
      expected.push_back("micro " + m.op + " " + m.impl +
                         (m.sched ? std::string(" ") + weft::thread_sched_name(*m.sched) : ""));
    }
  }
  for (int rep = 0; rep < s.repeat; ++rep) {
    for (const std::size_t i : r.blocks[1].order[static_cast<std::size_t>(rep)])
      expected.push_back("tree 4 " + r.series[r.blocks[1].first + i].label());
  }
  EXPECT_EQ(ran, expected);
  for (const bench_threads::Blocks& b : r.blocks) {
    ASSERT_EQ(b.order.size(), 4u);
    std::vector<std::size_t> identity(b.count);
    std::iota(identity.begin(), identity.end(), std::size_t{0});
    for (std::vector<std::size_t> o : b.order) {
      std::sort(o.begin(), o.end());
      EXPECT_EQ(o, identity);
    }
    // Not one fixed order (for 6 tree series the chance of 4 equal draws is 1 in 720^3).
    EXPECT_FALSE(std::all_of(b.order.begin(), b.order.end(), [&](const auto& o) {
      return o == b.order.front();
    })) << bench_threads::bench_name(b.bench);
  }
  ASSERT_EQ(r.blocks[1].count, 6u);  // serial, fifo, df and dfd at K = 4K and 64K
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(r.series[i].samples.size(), 4u);
  bench_threads::Result again, other;
  EXPECT_EQ(run_order(s, again), ran);
  EXPECT_EQ(orders_of(again), orders_of(r));
  s.seed = 8;
  EXPECT_NE(run_order(s, other), ran);
  EXPECT_NE(orders_of(other)[1], orders_of(r)[1]);
  EXPECT_EQ(r.settings.seed, 7u);
  EXPECT_EQ(r.sitting.seed, 7u);
}

// Each series against its baseline: the serial elision, matmul's task version (df, dfd),
// many's df, barnes' coarse; one interval per pair over every repetition, the median of the
// paired ratios inside it. The host's kernel ran before the first repetition and after each.
TEST(BenchThreadsRun, PairsHaveIntervalsOverEveryRepetition) {
  bench_threads::Settings s = tiny(Bench::kMatmul);
  s.benches = {Bench::kMatmul, Bench::kMany, Bench::kBarnes};
  s.workers = {2};
  s.repeat = 5;
  s.seed = 11;
  s.resamples = 2000;
  if (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) s.stacks = {std::size_t{256} << 10};
  const bench_threads::Result r = bench_threads::run_threads(s);
  std::vector<std::string> names;
  for (const bench_threads::Blocks& b : r.blocks) {
    for (const bench_threads::Pair& p : b.pairs) {
      const Series& a = r.series[p.a];
      const Series& base = r.series[p.b];
      names.push_back(p.kind + ": " + a.label() + " / " + base.label());
      const bench_stats::PairedSummary& x = p.summary;
      EXPECT_EQ(x.n, 5u) << names.back();
      EXPECT_LE(x.ci_low, x.ratio_median) << names.back();
      EXPECT_LE(x.ratio_median, x.ci_high) << names.back();
      EXPECT_EQ(x.confidence, 0.95);
      std::vector<double> ratios;
      for (std::size_t i = 0; i < a.samples.size(); ++i)
        ratios.push_back(a.samples[i].seconds / base.samples[i].seconds);
      EXPECT_DOUBLE_EQ(x.ratio_median, bench_stats::median_of(ratios)) << names.back();
    }
  }
  const std::string k64 = s.stacks.empty() ? "K=64K" : "K=64K stk=256K";
  const std::string stk = s.stacks.empty() ? "" : " stk=256K";
  EXPECT_EQ(names, (std::vector<std::string>{
                       "serial: task w=2 / serial",
                       "serial: threads fifo" + stk + " w=2 / serial",
                       "serial: threads lifo" + stk + " w=2 / serial",
                       "serial: threads df " + k64 + " w=2 / serial",
                       "serial: threads dfd " + k64 + " w=2 / serial",
                       "task: threads df " + k64 + " w=2 / task w=2",
                       "task: threads dfd " + k64 + " w=2 / task w=2",
                       "serial: threads df" + stk + " w=2 / serial",
                       "serial: threads dfd" + stk + " w=2 / serial",
                       "df: threads dfd" + stk + " w=2 / threads df" + stk + " w=2",
                       "serial: coarse w=2 / serial",
                       "serial: threads fifo w=2 / serial",
                       "serial: threads df w=2 / serial",
                       "coarse: threads fifo w=2 / coarse w=2",
                       "coarse: threads df w=2 / coarse w=2",
                   }));
  EXPECT_EQ(r.host.samples, 1 + 3 * 5);
  const std::string table = bench_cli::threads_table(r);
  const bench_threads::Pair& task = r.blocks[0].pairs[5];
  EXPECT_NE(table.find(bench_stats::interval_text(task.summary)), std::string::npos) << table;
  EXPECT_NE(table.find("time / baseline's, median of the paired repetitions"), std::string::npos);
  EXPECT_NE(table.find("pairs: 15;"), std::string::npos) << table;
}

// The document: the sitting at the top, each benchmark's order and pairs, the host, and every
// field it had before.
TEST(BenchThreadsRun, TableAndJsonCarryTheSittingPairsAndHost) {
  bench_threads::Settings s = tiny(Bench::kMany);
  s.workers = {2};
  s.repeat = 2;
  s.seed = 123;
  s.command_line = {"weft-bench", "threads", "--bench", "many"};
  const bench_threads::Result r = bench_threads::run_threads(s);
  const std::string json = bench_cli::threads_json(r);
  for (const char* key :
       {"{\"command\":\"threads\",\"commit\":",
        "\"compiler\":",
        "\"flags\":",
        "\"build_type\":",
        "\"cpu_model\":",
        "\"kernel\":",
        "\"date\":",
        "\"seed\":123,",
        "\"command_line\":\"weft-bench threads --bench many\"",
        "\"repeat\":2,",
        "\"resamples\":10000,",
        "\"benches\":[\"many\"]",
        "\"many_leaf_rounds\":",
        "\"micro\":[]",
        "\"series\":[{",
        "\"speedup\":",
        "\"samples\":[{\"seconds\":",
        "\"benchmarks\":[{\"bench\":\"many\",\"size\":512,\"order_of\":\"series\",\"order\":[[",
        "\"pairs\":[{\"kind\":\"serial\",\"name\":\"threads df w=2 / serial\",\"a\":\"threads df "
        "w=2\",\"b\":\"serial\",\"a_index\":1,\"b_index\":0,\"ratio_median\":",
        "\"kind\":\"df\"",
        "\"ci_low\":",
        "\"ci_high\":",
        "\"confidence\":0.95",
        "\"verdict\":",
        "\"n\":2,",
        "\"host\":{\"calibration_samples\":3,",
        "\"host_unsteady\":"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  }
  const std::string table = bench_cli::threads_table(r);
  EXPECT_EQ(table.rfind("sitting: ", 0), 0u) << table;
  EXPECT_NE(table.find("2 repetitions of each benchmark in randomized blocks (seed 123)"),
            std::string::npos);
  EXPECT_NE(table.find(bench_stats::host_line(r.host)), std::string::npos) << table;
  EXPECT_NE(table.find("threads dfd w=2 / threads df w=2"), std::string::npos) << table;
}

TEST(BenchThreadsRun, EveryBenchmarkCatchesAWrongAnswer) {
  for (const Bench b :
       {Bench::kMicro, Bench::kMatmul, Bench::kTree, Bench::kMany, Bench::kBarnes, Bench::kDtree}) {
    bench_threads::Settings s = tiny(b);
    s.workers = {1};
    s.scheds = {ThreadSched::kDf};
    s.spoil_answers = true;
    // The first version run may be a threaded one (the order is shuffled), whose check of the
    // Barnes-Hut tree recurses on a thread's stack: sanitizers' frames need more than 16K.
    if (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) s.stacks = {std::size_t{256} << 10};
    EXPECT_THROW((void)bench_threads::run_threads(s), bench_threads::WrongAnswer)
        << bench_threads::bench_name(b);
  }
}

TEST(BenchThreadsRun, MatmulChecksFindADamagedEntry) {
  bench_threads::MatmulInputs m(128);
  m.multiply(bench_threads::MatmulVersion::kSerial);
  ASSERT_EQ(m.check_against_dot_products(), "");
  const std::vector<double> reference = m.product();
  m.product_for_test()[0] += 1e-3;  // corner (0, 0): always sampled
  EXPECT_NE(m.check_against_dot_products(), "");
  EXPECT_NE(m.check_equal(reference), "");
  m.clear_product();  // NaN: as if no run wrote it
  EXPECT_NE(m.check_against_dot_products().find("not finite"), std::string::npos);
}

}  // namespace

// `weft-bench threads` (bench/threads, bench/cli/threads_report.cpp): the parser's accepted
// and rejected command lines, a tiny run of each benchmark with its figures checked, and
// the checks themselves catching a wrong answer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench_args_support.hpp"
#include "cli/args.hpp"
#include "cli/threads_report.hpp"
#include "threads/matmul_threads.hpp"
#include "threads/thread_tree.hpp"
#include "threads/threads_bench.hpp"
#include "weft/detail/sanitizers.hpp"

namespace {

using bench_test::error_of;
using bench_test::parse;
using threads_bench::Bench;
using threads_bench::kKiB;
using threads_bench::Series;
using weft::ThreadSched;

TEST(BenchThreadsArgs, Defaults) {
  const weft_bench::Options o = parse({"threads"});
  EXPECT_EQ(o.command, weft_bench::Command::kThreads);
  const threads_bench::Settings& t = o.threads;
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
  EXPECT_EQ(threads_bench::scheds_of(t, Bench::kMany),
            (std::vector<ThreadSched>{ThreadSched::kDf, ThreadSched::kDfd}));
  EXPECT_EQ(threads_bench::scheds_of(t, Bench::kMatmul).size(), 4u);
  EXPECT_EQ(threads_bench::default_workers(Bench::kMany), (std::vector<unsigned>{2, 8}));
  EXPECT_EQ(threads_bench::default_quotas(Bench::kTree),
            (std::vector<std::size_t>{4 * kKiB, 64 * kKiB}));
  EXPECT_NE(weft_bench::usage().find("weft-bench threads"), std::string::npos);
}

TEST(BenchThreadsArgs, EverySetting) {
  const weft_bench::Options o =
      parse({"threads",  "--bench",  "tree,matmul", "--workers", "1,4",      "--sched",
             "dfd,fifo", "--repeat", "3",           "--n",       "128,2048", "--quota",
             "4K,1M,0",  "--stack",  "16K,1M",      "--depth",   "5",        "--count",
             "4096",     "--iters",  "77",          "--json",    "t.json"});
  const threads_bench::Settings& t = o.threads;
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
  EXPECT_EQ(error_of({"threads", "--steal", "one"}), "--steal: unknown option");
  EXPECT_EQ(error_of({"threads", "--profile"}), "--profile: unknown option");
  EXPECT_EQ(error_of({"fib", "20", "--sched", "df"}), "--sched: unknown option");
  EXPECT_EQ(error_of({"threads", "--depth", "21"}),
            "--depth 21: expected a whole number from 0 to 20, got \"21\"");
}

threads_bench::Settings tiny(Bench b) {
  threads_bench::Settings s;
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

const Series& find(const threads_bench::Result& r, const std::string& label) {
  for (const Series& s : r.series)
    if (s.label() == label) return s;
  ADD_FAILURE() << "no series " << label;
  return r.series.front();
}

TEST(BenchThreadsRun, MicroMeasuresEveryOperation) {
  threads_bench::Settings s = tiny(Bench::kMicro);
  s.scheds = {ThreadSched::kFifo, ThreadSched::kDfd};
  const threads_bench::Result r = threads_bench::run_threads(s);
  // create+join, mutex, condvar, semaphore per scheduler; yield on fifo; the std five; fcontext
  EXPECT_EQ(r.micro.size(), 4u * 2 + 1 + 5 + 1);
  for (const auto& m : r.micro) {
    ASSERT_EQ(m.ns.size(), 1u) << m.op;
    EXPECT_GT(m.ns[0], 0.0) << m.op << " " << m.impl;
  }
  const std::string table = weft_bench::threads_table(r);
  EXPECT_NE(table.find("yield switch / bare jump_fcontext switch:"), std::string::npos) << table;
  EXPECT_NE(weft_bench::threads_json(r).find("\"op\":\"create+join\",\"impl\":\"std\""),
            std::string::npos);
}

TEST(BenchThreadsRun, MatmulHeapAndThreads) {
  threads_bench::Settings s = tiny(Bench::kMatmul);
  s.workers = {1, 2};
  const threads_bench::Result r = threads_bench::run_threads(s);
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
  const std::string table = weft_bench::threads_table(r);
  EXPECT_NE(table.find("matmul n=128: S1 = 0.5 MiB"), std::string::npos) << table;
}

TEST(BenchThreadsRun, TreeAgainstItsBound) {
  threads_bench::Settings s = tiny(Bench::kTree);
  s.workers = {1};
  const threads_bench::Result r = threads_bench::run_threads(s);
  const std::size_t s1 = 5 * threads_bench::kTreeNodeBytes;  // one chain of depth 4
  EXPECT_EQ(find(r, "serial").samples[0].heap_peak, s1);
  // fifo: every internal node (15) holds its block while the leaves come and go one by one.
  EXPECT_EQ(find(r, "threads fifo w=1").samples[0].heap_peak, 16 * threads_bench::kTreeNodeBytes);
  EXPECT_EQ(find(r, "threads df K=64K w=1").samples[0].heap_peak, s1);
  EXPECT_EQ(find(r, "threads df K=4K w=1").samples[0].threads.dummies, 31u * 16);
  EXPECT_EQ(threads_bench::tree_fork_depth(12, 4 * kKiB), 18);  // 1 + 12 + ceil(log2 17)
  EXPECT_EQ(threads_bench::tree_fork_depth(12, 64 * kKiB), 13);
  EXPECT_NE(weft_bench::threads_table(r).find("within"), std::string::npos);
}

TEST(BenchThreadsRun, ManyMakesOneThreadPerLeaf) {
  threads_bench::Settings s = tiny(Bench::kMany);
  s.workers = {2};
  const threads_bench::Result r = threads_bench::run_threads(s);
  ASSERT_EQ(r.series.size(), 3u);  // serial, df, dfd
  EXPECT_EQ(find(r, "threads df w=2").samples[0].threads.made, 512u);
  EXPECT_EQ(find(r, "threads dfd w=2").samples[0].threads.made, 512u);
  EXPECT_NE(weft_bench::threads_table(r).find("lock_acq/thr"), std::string::npos);
}

TEST(BenchThreadsRun, TheApplicationsRunEveryVersionAndReportThem) {
  threads_bench::Settings s = tiny(Bench::kBarnes);
  s.benches = {Bench::kBarnes, Bench::kDtree};
  s.workers = {2};
  // Sanitized builds' frames are larger than 16 KiB of recursion allows (the verification's).
  if (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) s.stacks = {std::size_t{256} << 10};
  const threads_bench::Result r = threads_bench::run_threads(s);
  // barnes: serial, coarse, fifo, df; dtree: serial and the four schedulers.
  ASSERT_EQ(r.series.size(), 9u);
  EXPECT_LE(find(r, "coarse w=2").samples[0].threads.made, 3u);  // a thread per worker (+1 root)
  EXPECT_GT(find(r, "threads df w=2").samples[0].threads.made, 2u);
  const std::string table = weft_bench::threads_table(r);
  EXPECT_NE(table.find("barnes: 500 Plummer bodies"), std::string::npos) << table;
  EXPECT_NE(table.find("dtree: 2000 instances"), std::string::npos) << table;
}

TEST(BenchThreadsRun, EveryBenchmarkCatchesAWrongAnswer) {
  for (const Bench b :
       {Bench::kMicro, Bench::kMatmul, Bench::kTree, Bench::kMany, Bench::kBarnes, Bench::kDtree}) {
    threads_bench::Settings s = tiny(b);
    s.workers = {1};
    s.scheds = {ThreadSched::kDf};
    s.spoil_answers = true;
    EXPECT_THROW((void)threads_bench::run_threads(s), threads_bench::WrongAnswer)
        << threads_bench::bench_name(b);
  }
}

TEST(BenchThreadsRun, MatmulChecksFindADamagedEntry) {
  threads_bench::MatmulInputs m(128);
  m.multiply(threads_bench::MatmulVersion::kSerial);
  ASSERT_EQ(m.check_against_dot_products(), "");
  const std::vector<double> reference = m.product();
  m.product_for_test()[0] += 1e-3;  // corner (0, 0): always sampled
  EXPECT_NE(m.check_against_dot_products(), "");
  EXPECT_NE(m.check_equal(reference), "");
  m.clear_product();  // NaN: as if no run wrote it
  EXPECT_NE(m.check_against_dot_products().find("not finite"), std::string::npos);
}

}  // namespace

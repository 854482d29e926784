// `weft-bench threads`: what it runs (Settings), what it measures (Sample, Series, MicroSeries)
// and the runner. Each benchmark is one file (micro.*, matmul_threads.*, thread_tree.*,
// many_threads.*); threads_sweep.cpp repeats them in randomized blocks (every series once per
// repetition, in an order drawn from the seed for that repetition), checks every run's
// answer, and pairs each series with its baseline (docs/MEASURING.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include <weft/config.hpp>
#include <weft/stats.hpp>

#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/sitting_info.hpp"

namespace bench_threads {

// A run whose answer is wrong. weft-bench reports it and exits 1.
class WrongAnswer : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Bench { kMicro, kMatmul, kTree, kMany, kBarnes, kDtree };
const char* bench_name(Bench b) noexcept;

inline constexpr std::size_t kKiB = 1024;
inline constexpr std::size_t kMiB = 1024 * kKiB;

struct Settings {
  std::vector<Bench> benches{Bench::kMicro, Bench::kMatmul, Bench::kTree, Bench::kMany};
  // Empty: each benchmark's own (micro 1; matmul and tree 1,2; many 2,8).
  std::vector<unsigned> workers;
  // Empty: each benchmark's own (default_scheds).
  std::vector<weft::ThreadSched> scheds;
  int repeat = 7;
  std::vector<std::size_t> orders{1024};  // matmul's n (powers of two, at least 128)
  // The memory quota K of the df and dfd runs. Empty: matmul 64 KiB, tree 4 KiB and 64 KiB.
  std::vector<std::size_t> quotas;
  // Thread stacks (Config::thread_stack_bytes). Empty: the Config's (16 KiB unless
  // WEFT_THREAD_STACK says otherwise).
  std::vector<std::size_t> stacks;
  int tree_depth = 12;                            // tree: levels below the root
  std::size_t many_count = std::size_t{1} << 20;  // many: threads per run
  std::size_t micro_iters = 100000;               // micro: iterations of the cheapest operations
  std::size_t bh_bodies = 100000;                 // barnes: Plummer bodies
  int bh_steps = 4;                               // barnes: steps (the last two timed)
  std::size_t dt_instances = 133999;              // dtree: training instances
  // The sitting's seed: each repetition's order and each pair's bootstrap resamples derive
  // from it, so the same seed replays the same orders and intervals.
  std::uint64_t seed = 1;
  int resamples = 10000;  // per interval (bench_stats::kMinResamples at least)
  // The program's name and arguments, as the JSON records them ("" when empty).
  std::vector<std::string> command_line;
  // Test hook: every benchmark damages its answer before checking it, to show that the
  // check fails (never set by the command line).
  bool spoil_answers = false;
};

// What one run measured. The rusage figures are getrusage(RUSAGE_SELF) deltas over the
// timed part only, so they include the workers' and the OS threads' time.
struct Sample {
  double seconds = 0;
  double user_s = 0, sys_s = 0;
  long minor_faults = 0, major_faults = 0;
  std::size_t heap_peak = 0;  // weft::allocate'd bytes at most, the inputs included
  weft::ThreadStats threads;  // rt.stats().threads (zero for the serial elision)
};

// One configuration of matmul, tree or many, over all repetitions.
struct Series {
  Bench bench = Bench::kMatmul;
  std::string version;                     // "serial", "task" or "threads"
  std::optional<weft::ThreadSched> sched;  // threads only
  unsigned workers = 1;                    // serial: 1
  std::size_t size = 0;                    // matmul n, tree depth, many thread count
  std::size_t quota = 0;                   // df and dfd threads only, else 0
  std::size_t stack = 0;                   // threads only, else 0
  std::vector<Sample> samples;             // one per repetition, in order

  std::string label() const;  // "threads df K=64K stk=16K w=2", "task w=2", "serial"
};

// One operation of micro on one implementation: nanoseconds per `unit`, one per repetition.
struct MicroSeries {
  std::string op;                          // "create+join", "yield", "mutex", "condvar", ...
  std::string impl;                        // "weft", "std" or "fcontext"
  std::optional<weft::ThreadSched> sched;  // weft only
  std::string unit;                        // "create+join", "switch", "hand-off", "round trip"
  std::vector<double> ns;
};

// A series' time over its baseline's, repetition by repetition (the two ran in the same
// repetition): kind "serial" (the serial elision at the same size), "task" (matmul's df and
// dfd against the task version on as many workers), "df" (many's other schedulers against
// df on as many workers and the same stack) or "coarse" (barnes' fine against coarse on as
// many workers). a and b index Result::series.
struct Pair {
  std::string kind;
  std::size_t a = 0, b = 0;
  bench_stats::PairedSummary summary;  // of a's seconds over b's
};

// One benchmark at one size, whose series ran in randomized blocks together: series
// [first, first + count) of Result::series (Result::micro for micro), the order of each
// repetition (indexes relative to first) and their pairs.
struct Blocks {
  Bench bench = Bench::kMatmul;
  std::size_t size = 0;  // 0 for micro
  std::size_t first = 0, count = 0;
  std::vector<std::vector<std::size_t>> order;  // one permutation of 0..count-1 per repetition
  std::vector<Pair> pairs;
};

struct Result {
  Settings settings;
  bench_stats::SittingInfo sitting;
  std::vector<MicroSeries> micro;
  std::vector<Series> series;  // in the order of Settings::benches
  std::vector<Blocks> blocks;  // in the order they ran
  // The calibration kernel before the first repetition and after every repetition of every
  // benchmark.
  bench_stats::Steadiness host;
  std::size_t matmul_add_base = 0;
  std::size_t tree_node_bytes = 0;
  std::uint32_t many_leaf_rounds = 0;
};

// Called before each run with the repetition (1-based), the total and a label.
using Progress = std::function<void(int rep, int repeat, const std::string& label)>;

// Runs everything Settings ask for. Throws WrongAnswer on a wrong answer, and std::exception
// for anything else that fails (a stack the system will not map, say).
Result run_threads(const Settings& settings, const Progress& progress = {});

// The workers each benchmark runs with when Settings::workers is empty.
std::vector<unsigned> default_workers(Bench b);
// The schedulers each benchmark runs under when Settings::scheds is empty: all four, but
// many only df and dfd: under fifo about half of its threads are alive at once, and 2^20
// threads need more memory mappings (about three each: a guarded stack and a task stack)
// than Linux's default vm.max_map_count of 65530 allows.
std::vector<weft::ThreadSched> default_scheds(Bench b);
std::vector<weft::ThreadSched> scheds_of(const Settings& s, Bench b);
// The quotas each benchmark runs with when Settings::quotas is empty.
std::vector<std::size_t> default_quotas(Bench b);

// The pairs of one benchmark's series at one size (the rules at Pair), indexes into `series`,
// summaries left empty.
std::vector<Pair> plan_pairs(const std::vector<Series>& series);

// The seeds of one benchmark at one size: its repetitions' order and its pairs' resamples,
// derived from the sitting's seed, the benchmark and the size alone, so that running one
// benchmark alone replays its order within a full sitting of the same seed.
std::uint64_t order_seed(std::uint64_t seed, Bench bench, std::size_t size);
std::uint64_t bootstrap_seed(std::uint64_t seed, Bench bench, std::size_t size);

double median(std::vector<double> v);
// "64K", "1M", "1.5M", "123": bytes as weft-bench's options take them.
std::string bytes_text(std::size_t bytes);

}  // namespace bench_threads

// run_threads: each benchmark's series (the serial elision first, then the task version and
// the thread version under every scheduler, worker count, quota and stack), repeated in
// randomized blocks, every run's answer checked; each series' times paired with its
// baseline's, the host's steadiness and the sitting recorded.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <weft/config.hpp>

#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "tools/bench/threads/app_benches.hpp"
#include "tools/bench/threads/many_threads.hpp"
#include "tools/bench/threads/matmul_threads.hpp"
#include "tools/bench/threads/micro.hpp"
#include "tools/bench/threads/run_sample.hpp"
#include "tools/bench/threads/series_runner.hpp"
#include "tools/bench/threads/thread_tree.hpp"
#include "tools/bench/threads/threads_bench.hpp"

namespace bench_threads {

const char* bench_name(Bench b) noexcept {
  switch (b) {
    case Bench::kMicro: return "micro";
    case Bench::kMatmul: return "matmul";
    case Bench::kTree: return "tree";
    case Bench::kMany: return "many";
    case Bench::kBarnes: return "barnes";
    case Bench::kDtree: return "dtree";
  }
  return "unknown";
}

std::vector<unsigned> default_workers(Bench b) {
  switch (b) {
    case Bench::kMicro: return {1};
    case Bench::kMany: return {2, 8};
    case Bench::kMatmul:
    case Bench::kTree:
    case Bench::kBarnes:
    case Bench::kDtree: break;
  }
  return {1, 2};
}

std::vector<weft::ThreadSched> default_scheds(Bench b) {
  if (b == Bench::kMany) return {weft::ThreadSched::kDf, weft::ThreadSched::kDfd};
  if (b == Bench::kBarnes) return {weft::ThreadSched::kFifo, weft::ThreadSched::kDf};
  return {weft::ThreadSched::kFifo, weft::ThreadSched::kLifo, weft::ThreadSched::kDf,
          weft::ThreadSched::kDfd};
}

std::vector<weft::ThreadSched> scheds_of(const Settings& s, Bench b) {
  return s.scheds.empty() ? default_scheds(b) : s.scheds;
}

std::vector<std::size_t> default_quotas(Bench b) {
  if (b == Bench::kTree) return {4 * kKiB, 64 * kKiB};
  return {64 * kKiB};
}

// The streams of the sitting's seed: 1000 + benchmark for the orders, 2000 + benchmark for
// the resamples, each then split by size.
std::uint64_t order_seed(std::uint64_t seed, Bench bench, std::size_t size) {
  return bench_stats::derive_seed(
      bench_stats::derive_seed(seed, 1000 + static_cast<unsigned>(bench)), size);
}

std::uint64_t bootstrap_seed(std::uint64_t seed, Bench bench, std::size_t size) {
  return bench_stats::derive_seed(
      bench_stats::derive_seed(seed, 2000 + static_cast<unsigned>(bench)), size);
}

std::vector<Pair> plan_pairs(const std::vector<Series>& series) {
  std::vector<Pair> pairs;
  const auto find = [&](auto&& match) -> const Series* {
    for (const Series& x : series)
      if (match(x)) return &x;
    return nullptr;
  };
  const auto index = [&](const Series* x) { return static_cast<std::size_t>(x - series.data()); };
  const auto has_sched = [](const Series& x, weft::ThreadSched sched) {
    return x.sched && *x.sched == sched;
  };
  const Series* serial = find([](const Series& x) { return x.version == "serial"; });
  for (const Series& s : series) {
    if (serial != nullptr && &s != serial)
      pairs.push_back({"serial", index(&s), index(serial), {}});
  }
  for (const Series& s : series) {
    if (s.version != "threads") continue;
    const Series* base = nullptr;
    const char* kind = "";
    if (s.bench == Bench::kMatmul &&
        (has_sched(s, weft::ThreadSched::kDf) || has_sched(s, weft::ThreadSched::kDfd))) {
      kind = "task";
      base = find([&](const Series& x) { return x.version == "task" && x.workers == s.workers; });
    } else if (s.bench == Bench::kMany && !has_sched(s, weft::ThreadSched::kDf)) {
      kind = "df";
      base = find([&](const Series& x) {
        return x.version == "threads" && has_sched(x, weft::ThreadSched::kDf) &&
               x.workers == s.workers && x.stack == s.stack;
      });
    } else if (s.bench == Bench::kBarnes) {
      kind = "coarse";
      base = find([&](const Series& x) { return x.version == "coarse" && x.workers == s.workers; });
    }
    if (base != nullptr) pairs.push_back({kind, index(&s), index(base), {}});
  }
  return pairs;
}

void add_blocks(Sitting& sitting, std::vector<Series>& series,
                std::vector<std::vector<std::size_t>> order) {
  const Settings& st = sitting.settings;
  Result& r = sitting.result;
  Blocks b;
  b.bench = series.front().bench;
  b.size = series.front().size;
  b.first = r.series.size();
  b.count = series.size();
  b.order = std::move(order);
  b.pairs = plan_pairs(series);
  const std::uint64_t seed = bootstrap_seed(st.seed, b.bench, b.size);
  for (std::size_t k = 0; k < b.pairs.size(); ++k) {
    Pair& p = b.pairs[k];
    std::vector<double> a_s, b_s;
    for (const Sample& x : series[p.a].samples) a_s.push_back(x.seconds);
    for (const Sample& x : series[p.b].samples) b_s.push_back(x.seconds);
    p.summary = bench_stats::compare_paired(
        a_s, b_s, {st.resamples, 0.95, bench_stats::derive_seed(seed, k)});
    p.a += b.first;
    p.b += b.first;
  }
  r.series.insert(r.series.end(), std::make_move_iterator(series.begin()),
                  std::make_move_iterator(series.end()));
  r.blocks.push_back(std::move(b));
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string bytes_text(std::size_t bytes) {
  const auto scaled = [&](std::size_t unit, const char* suffix) {
    char text[32];
    if (bytes % unit == 0) {
      std::snprintf(text, sizeof text, "%zu%s", bytes / unit, suffix);
    } else {
      std::snprintf(text, sizeof text, "%.3g%s", static_cast<double>(bytes) / unit, suffix);
    }
    return std::string(text);
  };
  if (bytes >= 1024 * kMiB) return scaled(1024 * kMiB, "G");
  if (bytes >= kMiB) return scaled(kMiB, "M");
  if (bytes >= kKiB) return scaled(kKiB, "K");
  return std::to_string(bytes);
}

std::string Series::label() const {
  std::string s = version;
  if (sched) s += std::string(" ") + weft::thread_sched_name(*sched);
  if (quota != 0) s += " K=" + bytes_text(quota);
  if (stack != 0) s += " stk=" + bytes_text(stack);
  if (version != "serial") s += " w=" + std::to_string(workers);
  return s;
}

namespace {

// The series of one benchmark at one size: the serial elision, then (if `with_tasks`) the
// task version per worker count, then the thread version per worker count, scheduler, stack
// and, for df and dfd, quota (fifo and lifo have none).
std::vector<Series> plan(const Settings& st, Bench bench, std::size_t size, bool with_tasks,
                         bool with_quotas) {
  const std::vector<unsigned> workers = st.workers.empty() ? default_workers(bench) : st.workers;
  const std::vector<std::size_t> quotas =
      with_quotas ? (st.quotas.empty() ? default_quotas(bench) : st.quotas)
                  : std::vector<std::size_t>{0};
  const std::vector<std::size_t> stacks =
      st.stacks.empty() ? std::vector<std::size_t>{0} : st.stacks;
  const auto make = [&](const char* version, unsigned w) {
    return make_series(bench, version, w, size);
  };
  std::vector<Series> all{make("serial", 1)};
  for (const unsigned w : workers) {
    if (with_tasks) all.push_back(make("task", w));
    for (const weft::ThreadSched sched : scheds_of(st, bench)) {
      const bool depth_first = sched == weft::ThreadSched::kDf || sched == weft::ThreadSched::kDfd;
      for (const std::size_t stack : stacks) {
        for (const std::size_t quota : depth_first ? quotas : std::vector<std::size_t>{0}) {
          Series s = make("threads", w);
          s.sched = sched;
          s.quota = quota;
          s.stack = stack;
          all.push_back(std::move(s));
        }
      }
    }
  }
  return all;
}

weft::Config config_of(const Series& s) {
  return run_config(s.workers, s.sched.value_or(weft::ThreadSched::kDf), s.quota, s.stack);
}

void run_matmul(Sitting& sitting) {
  const Settings& st = sitting.settings;
  for (const std::size_t n : st.orders) {
    MatmulInputs inputs(n);
    // The first run's product (whichever version the order put first; all three compute it
    // bit for bit alike), checked on its own; every later one is checked against it.
    std::vector<double> reference;
    std::vector<Series> series = plan(st, Bench::kMatmul, n, true, true);
    alternate(sitting, series, [&](const Series& s) {
      inputs.clear_product();
      Sample sample;
      if (s.version == "serial") {
        sample = measure_serial(inputs.bytes(), [&] { inputs.multiply(MatmulVersion::kSerial); });
      } else {
        const MatmulVersion v =
            s.version == "task" ? MatmulVersion::kTasks : MatmulVersion::kThreads;
        sample = measure_weft(config_of(s), inputs.bytes(), [&] { inputs.multiply(v); });
      }
      if (st.spoil_answers) inputs.product_for_test()[n * n / 2 + 1] += 1.0;
      std::string error;
      if (reference.empty()) {
        error = inputs.check_against_dot_products();
        if (error.empty()) reference = inputs.product();
      } else {
        error = inputs.check_equal(reference);
      }
      if (!error.empty())
        throw WrongAnswer("matmul n=" + std::to_string(n) + " " + s.label() + ": " + error);
      return sample;
    });
  }
}

// Runs `series` in randomized blocks: the serial elision or the thread version of a benchmark
// whose answer is a sum, each run's sum checked against `expected`.
template <class Serial, class Threaded>
void run_summing(Sitting& sitting, std::vector<Series>& series, const std::string& what,
                 std::uint64_t expected, Serial serial, Threaded threaded) {
  const Settings& st = sitting.settings;
  alternate(sitting, series, [&](const Series& s) {
    std::uint64_t got = 0;
    const Sample sample = s.version == "serial"
                              ? measure_serial(0, [&] { got = serial(); })
                              : measure_weft(config_of(s), 0, [&] { got = threaded(); });
    got += st.spoil_answers ? 1 : 0;
    if (got != expected)
      throw WrongAnswer(what + " " + s.label() + ": sum " + std::to_string(got) + ", expected " +
                        std::to_string(expected));
    return sample;
  });
}

void run_tree(Sitting& sitting) {
  const Settings& st = sitting.settings;
  const int depth = st.tree_depth;
  std::vector<Series> series = plan(st, Bench::kTree, static_cast<std::size_t>(depth), false, true);
  run_summing(
      sitting, series, "tree depth " + std::to_string(depth), tree_expected(depth),
      [&] { return tree_serial(depth); }, [&] { return tree_threads(depth); });
}

void run_many(Sitting& sitting) {
  const Settings& st = sitting.settings;
  const std::size_t count = st.many_count;
  std::vector<Series> series = plan(st, Bench::kMany, count, false, false);
  run_summing(
      sitting, series, "many " + std::to_string(count), many_expected(count),
      [&] { return many_serial(count); }, [&] { return many_threads(count); });
}

}  // namespace

Result run_threads(const Settings& settings, const Progress& progress) {
  Result r;
  r.settings = settings;
  r.matmul_add_base = kMatmulAddBase;
  r.tree_node_bytes = kTreeNodeBytes;
  r.many_leaf_rounds = kManyLeafRounds;
  const std::vector<std::string_view> words(settings.command_line.begin(),
                                            settings.command_line.end());
  r.sitting = bench_stats::current_sitting(words, settings.seed);
  bench_stats::HostMonitor host;
  host.calibrate();
  Sitting sitting{settings, progress, host, r};
  for (const Bench b : settings.benches) {
    switch (b) {
      case Bench::kMicro: run_micro(sitting); break;
      case Bench::kMatmul: run_matmul(sitting); break;
      case Bench::kTree: run_tree(sitting); break;
      case Bench::kMany: run_many(sitting); break;
      case Bench::kBarnes: run_barnes(sitting); break;
      case Bench::kDtree: run_dtree(sitting); break;
    }
  }
  r.host = host.steadiness();
  return r;
}

}  // namespace bench_threads

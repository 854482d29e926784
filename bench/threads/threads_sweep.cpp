// run_threads: each benchmark's series (the serial elision first, then the task version and
// the thread version under every scheduler, worker count, quota and stack), repeated with
// the series alternated within each repetition, every run's answer checked.
#include <algorithm>
#include <cstdio>
#include <string>
#include <weft/config.hpp>

#include "threads/app_benches.hpp"
#include "threads/many_threads.hpp"
#include "threads/matmul_threads.hpp"
#include "threads/micro.hpp"
#include "threads/run_sample.hpp"
#include "threads/series_runner.hpp"
#include "threads/thread_tree.hpp"
#include "threads/threads_bench.hpp"

namespace threads_bench {

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

void run_matmul(const Settings& st, const Progress& progress, std::vector<Series>& out) {
  for (const std::size_t n : st.orders) {
    MatmulInputs inputs(n);
    std::vector<double> reference;  // the first serial run's product, checked on its own
    std::vector<Series> series = plan(st, Bench::kMatmul, n, true, true);
    alternate(st, series, progress, [&](const Series& s) {
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
    out.insert(out.end(), series.begin(), series.end());
  }
}

// Runs `series` alternated: the serial elision or the thread version of a benchmark whose
// answer is a sum, each run's sum checked against `expected`.
template <class Serial, class Threaded>
void run_summing(const Settings& st, const Progress& progress, std::vector<Series>& series,
                 const std::string& what, std::uint64_t expected, Serial serial,
                 Threaded threaded) {
  alternate(st, series, progress, [&](const Series& s) {
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

void run_tree(const Settings& st, const Progress& progress, std::vector<Series>& out) {
  const int depth = st.tree_depth;
  std::vector<Series> series = plan(st, Bench::kTree, static_cast<std::size_t>(depth), false, true);
  run_summing(
      st, progress, series, "tree depth " + std::to_string(depth), tree_expected(depth),
      [&] { return tree_serial(depth); }, [&] { return tree_threads(depth); });
  out.insert(out.end(), series.begin(), series.end());
}

void run_many(const Settings& st, const Progress& progress, std::vector<Series>& out) {
  const std::size_t count = st.many_count;
  std::vector<Series> series = plan(st, Bench::kMany, count, false, false);
  run_summing(
      st, progress, series, "many " + std::to_string(count), many_expected(count),
      [&] { return many_serial(count); }, [&] { return many_threads(count); });
  out.insert(out.end(), series.begin(), series.end());
}

}  // namespace

Result run_threads(const Settings& settings, const Progress& progress) {
  Result r;
  r.settings = settings;
  r.matmul_add_base = kMatmulAddBase;
  r.tree_node_bytes = kTreeNodeBytes;
  r.many_leaf_rounds = kManyLeafRounds;
  for (const Bench b : settings.benches) {
    switch (b) {
      case Bench::kMicro: r.micro = run_micro(settings, progress); break;
      case Bench::kMatmul: run_matmul(settings, progress, r.series); break;
      case Bench::kTree: run_tree(settings, progress, r.series); break;
      case Bench::kMany: run_many(settings, progress, r.series); break;
      case Bench::kBarnes: run_barnes(settings, progress, r.series); break;
      case Bench::kDtree: run_dtree(settings, progress, r.series); break;
    }
  }
  return r;
}

}  // namespace threads_bench

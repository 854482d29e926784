// What every benchmark of `weft-bench threads` shares: a Series named for its benchmark,
// version, workers and size, the sitting they all run in, and the loop that runs all series of
// one benchmark `repeat` times in randomized blocks: every series once per repetition, in an
// order drawn afresh for each repetition from the sitting's seed (bench_stats::block_order), so
// that no series always runs first after the previous benchmark or right after another one.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/threads/threads_bench.hpp"

namespace bench_threads {

inline Series make_series(Bench bench, const char* version, unsigned workers, std::size_t size) {
  Series s;
  s.bench = bench;
  s.version = version;
  s.workers = workers;
  s.size = size;
  return s;
}

// One sitting of `weft-bench threads`: its settings, the progress callback, the host's
// monitor (its kernel run after every repetition of every benchmark) and the result the
// benchmarks add their series and blocks to.
struct Sitting {
  const Settings& settings;
  const Progress& progress;
  bench_stats::HostMonitor& host;
  Result& result;
};

// Appends `series` to the result with their blocks: the order each repetition ran them in and
// their pairs, summarised (threads_sweep.cpp).
void add_blocks(Sitting& sitting, std::vector<Series>& series,
                std::vector<std::vector<std::size_t>> order);

// run_one(series) returns one sample; each repetition runs every series once, in the order
// block_order draws for it, then the calibration kernel. The series (all of one benchmark at
// one size) then go to the result.
template <class RunOne>
void alternate(Sitting& sitting, std::vector<Series>& series, const RunOne& run_one) {
  const Settings& st = sitting.settings;
  const std::uint64_t seed = order_seed(st.seed, series.front().bench, series.front().size);
  std::vector<std::vector<std::size_t>> order;
  for (int rep = 1; rep <= st.repeat; ++rep) {
    order.push_back(bench_stats::block_order(series.size(), seed, static_cast<std::uint64_t>(rep)));
    for (const std::size_t i : order.back()) {
      Series& s = series[i];
      if (sitting.progress)
        sitting.progress(
            rep, st.repeat,
            std::string(bench_name(s.bench)) + " " + std::to_string(s.size) + " " + s.label());
      s.samples.push_back(run_one(std::as_const(s)));
    }
    sitting.host.calibrate();
  }
  add_blocks(sitting, series, std::move(order));
}

}  // namespace bench_threads

// What every benchmark of `weft-bench threads` but micro shares: a Series named for its
// benchmark, version, workers and size, and the loop that runs all series `repeat` times,
// alternating them within each repetition.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "threads/threads_bench.hpp"

namespace threads_bench {

inline Series make_series(Bench bench, const char* version, unsigned workers, std::size_t size) {
  Series s;
  s.bench = bench;
  s.version = version;
  s.workers = workers;
  s.size = size;
  return s;
}

// run_one(series) returns one sample; the samples go to each series in order.
template <class RunOne>
void alternate(const Settings& st, std::vector<Series>& series, const Progress& progress,
               const RunOne& run_one) {
  for (int rep = 1; rep <= st.repeat; ++rep) {
    for (Series& s : series) {
      if (progress)
        progress(rep, st.repeat,
                 std::string(bench_name(s.bench)) + " " + std::to_string(s.size) + " " + s.label());
      s.samples.push_back(run_one(std::as_const(s)));
    }
  }
}

}  // namespace threads_bench

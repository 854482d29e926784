// What calibrate's microbenchmarks share: the median and spread of repetitions, the per-call
// time of a batch, and the steps that live in files of their own.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "tools/sim/calibrate/calibrate.hpp"

namespace sim {

struct Spread {
  double median, low, high;
};

inline Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double median = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return {median, v.front(), v.back()};
}

// Per-call time of `call`, in batches of `batch`, one batch per repetition.
template <class F>
Spread per_call_ns(int repeat, int batch, F&& call) {
  std::vector<double> per_call;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) call();
    per_call.push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        batch);
  }
  return spread(per_call);
}

inline std::string batches(int batch, int repeat) {
  return std::to_string(batch) + " calls per repetition, median of " + std::to_string(repeat);
}

// calibrate_handoff.cpp: post, answer, poll, join_stolen, attempt, proxy and the nap's extra.
void measure_handoff(const CalibrateOptions& o, std::vector<Measurement>& out,
                     const std::function<void(const std::string&)>& progress);

}  // namespace sim

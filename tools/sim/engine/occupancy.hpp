// s_i(t), the occupancy that Adnan & Sato's Sect. 3.4 borrows from Mitzenmacher's load
// stealing model: the fraction of workers that are running a task and have at least i - 1
// more waiting on their task stack. s_1 is the fraction running anything; a thief that
// needs n >= 1 tasks to take one finds them at a random victim with probability about s_2.
//
// The engine tells the recorder each worker's level (0: running no task; l >= 1: running one
// with l - 1 waiting) whenever it may have changed, with the simulated time from which it
// holds. Each worker's times only move forward (a change dated before the worker's last one
// takes effect at the last one: a victim robbed while its own claim is still under way);
// different workers' may come in any order, so the recorder integrates each worker's
// intervals on its own. Only an action under way when the root ends can date a change past
// T_P, so finish() takes back the part of each worker's last interval beyond it.
//
// It keeps the time-averaged s_i over the run and a series over time, in bins that double in
// width as the run outgrows them (so its size is bounded whatever T_P).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace sim {

struct OccupancyResult {
  static constexpr unsigned kMeanLevels = 32;   // s_1 .. s_32 averaged over the run
  static constexpr unsigned kSeriesLevels = 8;  // s_1 .. s_8 per bin
  std::array<double, kMeanLevels> mean{};       // mean[i - 1] = time-averaged s_i
  std::uint64_t bin_ps = 0;                     // width of each bin of `series` (the last: cut)
  std::vector<std::array<double, kSeriesLevels>> series;
};

class OccupancyRecorder {
 public:
  explicit OccupancyRecorder(unsigned workers);

  // Worker `worker` is at `level` from `at_ps` on (levels past the last counted are capped).
  void set(unsigned worker, std::uint64_t level, std::uint64_t at_ps);

  // The averages and the series up to `end_ps` (T_P); call once, after the last set().
  OccupancyResult finish(std::uint64_t end_ps);

 private:
  static constexpr unsigned kLevels = OccupancyResult::kMeanLevels;
  static constexpr unsigned kSeries = OccupancyResult::kSeriesLevels;
  static constexpr std::size_t kMaxBins = 128;  // merged pairwise into 64 when full

  struct WorkerState {
    std::uint8_t level = 0;
    std::uint64_t since = 0;
    std::uint8_t last_level = 0;  // the interval closed last, [last_since, since)
    std::uint64_t last_since = 0;
  };

  // Adds (sign +1) or takes back (-1) [from, to) at `level` to the totals and the bins.
  void add(std::uint8_t level, std::uint64_t from, std::uint64_t to, int sign);

  std::vector<WorkerState> workers_;
  // Worker-ps spent at each level (exact; a take-back makes an entry smaller, never negative).
  std::array<std::int64_t, kLevels + 1> total_{};
  std::uint64_t bin_ps_ = 1'000'000;                         // 1 µs to start with
  std::vector<std::array<std::int64_t, kSeries + 1>> bins_;  // by level, kSeries = "or more"
};

}  // namespace sim

#include "tools/sim/engine/occupancy.hpp"

#include <algorithm>

namespace sim {

OccupancyRecorder::OccupancyRecorder(unsigned workers) : workers_(workers) {}

void OccupancyRecorder::set(unsigned worker, std::uint64_t level, std::uint64_t at_ps) {
  WorkerState& w = workers_[worker];
  const auto capped = static_cast<std::uint8_t>(std::min<std::uint64_t>(level, kLevels));
  if (capped == w.level) return;
  const std::uint64_t at = std::max(at_ps, w.since);
  add(w.level, w.since, at, +1);
  w.last_level = w.level;
  w.last_since = w.since;
  w.level = capped;
  w.since = at;
}

void OccupancyRecorder::add(std::uint8_t level, std::uint64_t from, std::uint64_t to, int sign) {
  if (level == 0 || from >= to) return;  // level 0 counts towards no s_i
  // Time is kept by level, not by "level >= i": one addition per interval whatever the level;
  // finish() sums the levels from i up.
  total_[level] += sign * static_cast<std::int64_t>(to - from);
  while (to > kMaxBins * bin_ps_) {
    // Halve the resolution: bins 2k and 2k+1 become bin k.
    bins_.resize(kMaxBins);
    for (std::size_t k = 0; k < kMaxBins / 2; ++k) {
      for (std::size_t i = 0; i <= kSeries; ++i)
        bins_[k][i] = bins_[2 * k][i] + bins_[2 * k + 1][i];
    }
    bins_.resize(kMaxBins / 2);
    bin_ps_ *= 2;
  }
  const std::size_t last_bin = (to - 1) / bin_ps_;
  if (bins_.size() <= last_bin) bins_.resize(last_bin + 1);
  const unsigned series_level = std::min<unsigned>(level, kSeries);  // kSeries: "kSeries or more"
  for (std::size_t b = from / bin_ps_; b <= last_bin; ++b) {
    const std::uint64_t lo = std::max<std::uint64_t>(from, b * bin_ps_);
    const std::uint64_t hi = std::min<std::uint64_t>(to, (b + 1) * bin_ps_);
    bins_[b][series_level] += sign * static_cast<std::int64_t>(hi - lo);
  }
}

OccupancyResult OccupancyRecorder::finish(std::uint64_t end_ps) {
  for (WorkerState& w : workers_) {
    if (w.since < end_ps) {
      add(w.level, w.since, end_ps, +1);  // the open interval, up to the end
    } else if (w.last_since < end_ps) {
      add(w.last_level, end_ps, w.since, -1);  // the closed one ran past the end
    }
  }
  OccupancyResult r;
  r.bin_ps = bin_ps_;
  const auto capacity = [&](std::uint64_t span) {
    return static_cast<long double>(span) * static_cast<long double>(workers_.size());
  };
  if (end_ps > 0) {
    std::int64_t at_least = 0;  // worker-ps at level >= i, summed from the top level down
    for (unsigned i = kLevels; i >= 1; --i) {
      at_least += total_[i];
      r.mean[i - 1] = static_cast<double>(static_cast<long double>(at_least) / capacity(end_ps));
    }
  }
  bins_.resize(std::max(bins_.size(), static_cast<std::size_t>((end_ps + bin_ps_ - 1) / bin_ps_)));
  for (std::size_t b = 0; b * bin_ps_ < end_ps; ++b) {  // the bins after the last task are 0
    const std::uint64_t width = std::min(end_ps, (b + 1) * bin_ps_) - b * bin_ps_;
    std::array<double, kSeries> s{};
    std::int64_t at_least = 0;
    for (unsigned i = kSeries; i >= 1; --i) {
      at_least += bins_[b][i];
      s[i - 1] = static_cast<double>(static_cast<long double>(at_least) / capacity(width));
    }
    r.series.push_back(s);
  }
  return r;
}

}  // namespace sim

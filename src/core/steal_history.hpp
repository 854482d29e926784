// A thief's memory of its recent steals, for the adaptive policy: how much work a stolen
// task brought (the time the thief spent running what it took, divided by the number of
// tasks taken) against what the steal cost it (the time of the successful attempt: port,
// barrier, or the wait for the victim's answer). Per task, not per steal, so that the
// measure does not depend on the amount the policy itself chose.
// Written and read by its own worker only.
#pragma once

#include <cstdint>

namespace weft::detail {

class StealHistory {
 public:
  // Weight of the newest steal in the running means: 1/4 forgets a phase within about
  // eight steals, yet one outlier moves the ratio by at most a quarter.
  static constexpr double kWeight = 0.25;

  void record(std::uint64_t work_ns, std::int64_t tasks, std::uint64_t cost_ns) noexcept {
    const double w = static_cast<double>(work_ns) / static_cast<double>(tasks > 0 ? tasks : 1);
    const double c = static_cast<double>(cost_ns > 0 ? cost_ns : 1);
    if (samples_ == 0) {
      work_ = w;
      cost_ = c;
    } else {
      work_ += kWeight * (w - work_);
      cost_ += kWeight * (c - cost_);
    }
    ++samples_;
  }
  // Mean work per stolen task over mean cost per steal; 0 before the first steal.
  double task_work_per_cost() const noexcept { return samples_ == 0 ? 0.0 : work_ / cost_; }
  void reset() noexcept { samples_ = 0; }

 private:
  double work_ = 0.0;
  double cost_ = 1.0;
  std::uint64_t samples_ = 0;
};

}  // namespace weft::detail

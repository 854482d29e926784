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

  // A successful steal whose tasks start running now (claimed at `claimed_ns`, `tasks` of
  // them, the attempt having cost `cost_ns`). Each begin is ended by one record(), innermost
  // first: a thief waiting in a join inside stolen work steals again, nested.
  void begin(std::uint64_t claimed_ns, std::int64_t tasks, std::uint64_t cost_ns) noexcept {
    if (running_++ > 0) return;
    outer_at_ = claimed_ns;
    outer_tasks_ = at_least_one(tasks);
    outer_cost_ = at_least_one(cost_ns);
  }

  void record(std::uint64_t work_ns, std::int64_t tasks, std::uint64_t cost_ns) noexcept {
    if (running_ > 0) --running_;
    const double w = static_cast<double>(work_ns) / at_least_one(tasks);
    const double c = at_least_one(cost_ns);
    if (samples_ == 0) {
      work_ = w;
      cost_ = c;
    } else {
      work_ += kWeight * (w - work_);
      cost_ += kWeight * (c - cost_);
    }
    ++samples_;
  }
  // Mean work per stolen task over mean cost per steal, at `now_ns`. Before the first steal
  // has ended, the outermost steal still running gives a lower bound: its tasks have brought
  // at least the time since its claim (a divide-and-conquer thief's first steal lasts most
  // of the run, and every claim it makes meanwhile would otherwise decide blind). 0 with
  // neither.
  double task_work_per_cost(std::uint64_t now_ns) const noexcept {
    if (samples_ > 0) return work_ / cost_;
    if (running_ == 0 || now_ns <= outer_at_) return 0.0;
    return static_cast<double>(now_ns - outer_at_) / outer_tasks_ / outer_cost_;
  }

 private:
  // A steal takes at least one task and costs at least a nanosecond: no division by zero.
  template <class Count>
  static double at_least_one(Count n) noexcept {
    return n > 0 ? static_cast<double>(n) : 1.0;
  }

  double work_ = 0.0;
  double cost_ = 1.0;
  std::uint64_t samples_ = 0;
  std::uint64_t running_ = 0;   // steals begun and not yet recorded
  std::uint64_t outer_at_ = 0;  // the outermost of them: when it claimed, its tasks, its cost
  double outer_tasks_ = 1.0;
  double outer_cost_ = 1.0;
};

}  // namespace weft::detail

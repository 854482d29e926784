// ActivityClock: the seqlock-protected accounting and the trace buffer (protocol and
// invariants in activity_clock.hpp).
#include "core/activity_clock.hpp"

namespace weft::detail {

void ActivityClock::enable(std::size_t trace_capacity) {
  enabled_ = true;
  current_ = Activity::kIdle;
  since_.store(monotonic_ns(), std::memory_order_relaxed);
  open_.store(static_cast<std::uint8_t>(current_), std::memory_order_relaxed);
  if (trace_capacity > 0) {
    trace_ = std::make_unique<TraceEvent[]>(trace_capacity);
    trace_capacity_ = trace_capacity;
  }
}

Activity ActivityClock::switch_at(Activity next, std::uint64_t now) noexcept {
  const Activity prev = current_;
  if (next == prev) return prev;
  const std::uint64_t since = since_.load(std::memory_order_relaxed);  // our own variable
  const std::uint64_t s = seq_.load(std::memory_order_relaxed);
  seq_.store(s + 1, std::memory_order_relaxed);         // odd: an update is in progress
  std::atomic_thread_fence(std::memory_order_release);  // the odd seq before the data
  auto& slot = acc_[static_cast<int>(prev)];
  slot.store(slot.load(std::memory_order_relaxed) + (now - since), std::memory_order_relaxed);
  since_.store(now, std::memory_order_relaxed);
  open_.store(static_cast<std::uint8_t>(next), std::memory_order_relaxed);
  seq_.store(s + 2, std::memory_order_release);  // even: the data before it is complete
  current_ = next;
  if (trace_capacity_ > 0) {
    if (next == Activity::kTask) task_started_ns_ = now;
    if (next == Activity::kSteal) steal_started_ns_ = now;
    if (prev == Activity::kTask) {
      record(TraceEvent{TraceEvent::Kind::kBusy, -1, 0, task_started_ns_, now});
    }
  }
  return prev;
}

void ActivityClock::record_steal(std::int32_t victim, std::int64_t tasks) noexcept {
  const std::uint64_t now = monotonic_ns();
  const std::uint64_t started = steal_started_ns_;  // set when kSteal was entered
  switch_at(Activity::kSwitch, now);
  if (trace_capacity_ > 0) {
    record(TraceEvent{TraceEvent::Kind::kSteal, victim, tasks, started, now});
  }
}

void ActivityClock::record(const TraceEvent& e) noexcept {
  const std::size_t n = trace_count_.load(std::memory_order_relaxed);  // only we write it
  if (n == trace_capacity_) {
    trace_dropped_.store(trace_dropped_.load(std::memory_order_relaxed) + 1,
                         std::memory_order_relaxed);
    return;
  }
  trace_[n] = e;
  trace_count_.store(n + 1, std::memory_order_release);  // AC3: the event before the count
}

ActivityTimes ActivityClock::read() const noexcept {
  ActivityTimes t;
  for (;;) {
    const std::uint64_t s1 = seq_.load(std::memory_order_acquire);
    if (s1 % 2 != 0) continue;  // the owner is in the middle of an update
    for (int a = 0; a < kActivities; ++a) t.ns[a] = acc_[a].load(std::memory_order_relaxed);
    const std::uint64_t since = since_.load(std::memory_order_relaxed);
    const int open = open_.load(std::memory_order_relaxed);
    t.at_ns = monotonic_ns();
    std::atomic_thread_fence(std::memory_order_acquire);  // the data before the re-check
    if (seq_.load(std::memory_order_relaxed) != s1) continue;
    // The open interval: the owner may have moved on since our clock reading; never negative.
    if (t.at_ns > since) t.ns[open] += t.at_ns - since;
    return t;
  }
}

std::vector<TraceEvent> ActivityClock::trace() const {
  const std::size_t n = trace_count_.load(std::memory_order_acquire);  // AC3
  return std::vector<TraceEvent>(trace_.get(), trace_.get() + n);
}

}  // namespace weft::detail

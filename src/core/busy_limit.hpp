// The busy limit (Config::busy_limit; docs/SLEEP.md, "Oversubscription"): how many
// workers may be busy before an idle one stops looking for work, and how the workers it stops
// tell that the busy ones leave a CPU unused, which lifts it for a while.
//
// Invariants (docs/SLEEP.md, "Invariants"):
//   BL1 A pool whose workers do not outnumber the limit has none: busy_limit_for gives 0
//       whenever the limit is unknown or at least the worker count, and stops() then returns
//       false at once. `limit_` is set before any worker starts and never changes after
//       (a plain field: the workers' start orders it).
//   BL2 stops() stops a worker only while at least `limit_` others are busy and no lift is
//       on: while now < `lifted_until_` it stops nobody.
//   BL3 One judge at a time: only the caller whose exchange found `judging_` false calls
//       read_cpu() and judge(), so the window (`start_wall_`, `start_cpu_`) and
//       `lifted_until_` have one writer at a time. Its exchange (acquire) and its store
//       (release) order one judge's writes of the window before the next judge's reads.
//   BL4 A verdict comes only from a fresh window of the right length: at least
//       kSpareCpuWindowNs and at most kStaleWindowNs old, whose CPU readings are comparable
//       (both read, the second not below the first) or whose end reading is blind (no
//       clock), in which case it counts as spare once kBlindWindowNs long and stays open
//       until then. Every judge() but that open blind one starts the next window, with a
//       verdict or without. A verdict sets `lifted_until_` to now + kLiftNs (spare) or 0,
//       so a lift outlives the last verdict that found a CPU unused by kLiftNs at most.
// Memory orders: `lifted_until_` and `start_wall_` are hints read outside `judging_`
// (relaxed): a stale reading lets one worker too many look, or stops one that a lift would
// have let through, until its next look. `judging_`: BL3.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft::detail {

// The limit a pool of `workers` applies, or 0 for none. `configured` is Config::busy_limit (0:
// the process's CPU count, `cpus`; 0 when that is unknown). A limit of at least `workers`
// never stops anyone, so it is none: a pool with no more workers than CPUs pays nothing.
inline unsigned busy_limit_for(unsigned configured, unsigned workers, std::size_t cpus) noexcept {
  const std::size_t limit = configured != 0 ? configured : cpus;
  return limit == 0 || limit >= workers ? 0 : static_cast<unsigned>(limit);
}

// Busy counts workers, not CPUs: a task blocked in the kernel (a read, a std::mutex, a sleep)
// keeps its worker busy and its CPU idle. So the workers that the limit stops (a worker done
// with its task, a watchman whose nap ran out: sleep.hpp) take turns measuring the CPU time
// of all the workers' threads over windows of at least kSpareCpuWindowNs. Where they used
// fewer than `limit` - 1/2 CPUs, some busy worker is not running: the limit is lifted for
// kLiftNs, during which nobody is stopped. Each window renews or ends the lift, so a pool
// whose tasks block keeps it, and one whose tasks compute gets the limit back within a
// window. Per-thread clocks, because the process-wide one lags by a scheduler tick (4 ms here)
// for every thread running on another CPU: a 1 ms window then saw a computing root use no CPU
// at all. Reading P clocks costs some P microseconds a window, at most 1.5 % of one CPU at 32
// workers, spent by a worker the limit has stopped. A window older than kStaleWindowNs says
// nothing about now: it is restarted without a verdict. Where no clock can be read, a window of
// kBlindWindowNs counts as spare: a blocked task then waits 10 ms for a thief, never for ever.
inline constexpr std::uint64_t kSpareCpuWindowNs = 2'000'000;
inline constexpr std::uint64_t kStaleWindowNs = 50'000'000;
inline constexpr std::uint64_t kBlindWindowNs = 10'000'000;
inline constexpr std::uint64_t kLiftNs = 5'000'000;

// Whether `cpu_ns` of CPU time over `wall_ns` is fewer than `limit` - 1/2 CPUs.
inline bool leaves_cpu_unused(std::uint64_t cpu_ns, std::uint64_t wall_ns,
                              unsigned limit) noexcept {
  return 2 * cpu_ns < (2 * static_cast<std::uint64_t>(limit) - 1) * wall_ns;
}

// A pool's busy limit and its lifts. Thread-safe: any idle worker may ask. The window
// (`start_wall_`, `start_cpu_`) is written only by the worker that holds `judging_` (BL3);
// others read `start_wall_` only to see whether a window is due.
class BusyLimit {
 public:
  // 0: none. Set before any worker asks (the pool does, before its workers start: BL1).
  void set_limit(unsigned limit) noexcept { limit_ = limit; }
  unsigned limit() const noexcept { return limit_; }

  // Whether an idle worker sleeps rather than looks for work, with `busy` other workers busy.
  // `now()` reads the clock (monotonic_ns()), only once the limit is reached; `read_cpu()`
  // returns the CPU nanoseconds all workers have used (0 if unknown), once a window, by one
  // caller at a time.
  template <class Now, class ReadCpu>
  bool stops(int busy, Now&& now, ReadCpu&& read_cpu) noexcept {
    if (limit_ == 0 || busy < static_cast<int>(limit_)) return false;  // BL1, BL2
    const std::uint64_t now_ns = now();
    // relaxed: a hint (a stale lift lets one worker too many look, until its next look); BL2.
    if (now_ns < lifted_until_.load(std::memory_order_relaxed)) return false;
    // relaxed: a hint; whoever judges re-reads it under judging_ (BL3).
    const std::uint64_t start = start_wall_.load(std::memory_order_relaxed);
    if (start != 0 && now_ns - start < kSpareCpuWindowNs) return true;  // not due
    // acquire: the previous judge's window is visible to us (BL3). Held: another judges.
    if (judging_.exchange(true, std::memory_order_acquire)) return true;
    const bool spare = judge(now_ns, read_cpu());
    judging_.store(false, std::memory_order_release);  // our window, to the next judge (BL3)
    return !spare;
  }

  // The verdict on the window ending at `now_ns` with `cpu_ns` used: whether it lifts the
  // limit. Starts the next window (BL4). Only under `judging_` (and in tests).
  bool judge(std::uint64_t now_ns, std::uint64_t cpu_ns) noexcept {
    // relaxed: under judging_, whose acquire ordered the last judge's store before us (BL3).
    const std::uint64_t start = start_wall_.load(std::memory_order_relaxed);
    const std::uint64_t wall = now_ns > start ? now_ns - start : 0;
    const bool fresh = start != 0 && wall <= kStaleWindowNs;
    const bool blind = cpu_ns == 0;  // no clock now: the window's length alone decides
    if (fresh && blind && wall < kBlindWindowNs) return false;  // keeps the window open
    // A window that began without a clock restarts without a verdict (so does one whose
    // reading went backwards, which no clock of a live thread does).
    const bool comparable = blind || (start_cpu_ != 0 && cpu_ns >= start_cpu_);
    bool spare = false;
    if (fresh && comparable && wall >= kSpareCpuWindowNs) {
      spare = blind || leaves_cpu_unused(cpu_ns - start_cpu_, wall, limit_);
      // relaxed: a hint to the others (BL2); renewed or ended by each verdict (BL4).
      lifted_until_.store(spare ? now_ns + kLiftNs : 0, std::memory_order_relaxed);
    }
    start_cpu_ = cpu_ns;  // plain: only the judge touches it (BL3)
    // relaxed: the next judge reads it after our release of judging_ (BL3).
    start_wall_.store(now_ns, std::memory_order_relaxed);
    return spare;
  }

 private:
  unsigned limit_ = 0;
  std::atomic<std::uint64_t> lifted_until_{0};
  std::atomic<std::uint64_t> start_wall_{0};  // 0: no window yet
  std::uint64_t start_cpu_ = 0;
  std::atomic<bool> judging_{false};
};

}  // namespace weft::detail

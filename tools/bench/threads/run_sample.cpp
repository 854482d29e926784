#include "tools/bench/threads/run_sample.hpp"

#include <sys/resource.h>

#include <chrono>
#include <weft/memory.hpp>
#include <weft/runtime.hpp>

namespace bench_threads {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_of(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// The rusage deltas and the wall time of one timed stretch.
class Stopwatch {
 public:
  Stopwatch() {
    getrusage(RUSAGE_SELF, &before_);
    t0_ = Clock::now();
  }
  void stop(Sample& s) const {
    s.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    s.user_s = seconds_of(after.ru_utime) - seconds_of(before_.ru_utime);
    s.sys_s = seconds_of(after.ru_stime) - seconds_of(before_.ru_stime);
    s.minor_faults = after.ru_minflt - before_.ru_minflt;
    s.major_faults = after.ru_majflt - before_.ru_majflt;
  }

 private:
  rusage before_{};
  Clock::time_point t0_;
};

// The heap in use before the caller's inputs: what the peak is measured from.
std::size_t heap_base(std::size_t inputs_bytes) {
  const std::size_t in_use = weft::heap_usage().in_use;
  return in_use >= inputs_bytes ? in_use - inputs_bytes : 0;
}

}  // namespace

weft::Config run_config(unsigned workers, weft::ThreadSched sched, std::size_t quota,
                        std::size_t stack) {
  weft::Config c = weft::Config::from_env();
  c.workers = workers;
  c.thread_sched = sched;
  c.mem_quota_bytes = quota;
  if (stack != 0) c.thread_stack_bytes = stack;
  return c;
}

Sample measure_serial(std::size_t inputs_bytes, const std::function<void()>& body) {
  Sample s;
  const std::size_t base = heap_base(inputs_bytes);
  weft::reset_heap_high_water();
  const Stopwatch watch;
  body();
  watch.stop(s);
  s.heap_peak = weft::heap_usage().high_water - base;
  return s;
}

Sample measure_weft(const weft::Config& config, std::size_t inputs_bytes,
                    const std::function<void()>& body) {
  Sample s;
  weft::Runtime rt{config};
  const std::size_t base = heap_base(inputs_bytes);
  rt.reset_stats();  // also starts a new heap high-water mark
  const Stopwatch watch;
  rt.run(body);
  watch.stop(s);
  s.threads = rt.stats().threads;
  s.heap_peak = s.threads.heap_high_water - base;
  return s;
}

}  // namespace bench_threads

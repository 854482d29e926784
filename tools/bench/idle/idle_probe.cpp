#include "tools/bench/idle/idle_probe.hpp"

#include <time.h>

#include <atomic>
#include <thread>
#include <weft/weft.hpp>

namespace bench_idle {
namespace {

using Clock = std::chrono::steady_clock;

double us_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double cpu_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

inline void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

WakeSample wake_sample(weft::Runtime& rt, std::chrono::milliseconds idle,
                       std::chrono::milliseconds give_up) {
  std::this_thread::sleep_for(idle);
  WakeSample s;
  Clock::time_point root_at, spawn_at, start_at;
  std::atomic<bool> started{false};
  const Clock::time_point submit_at = Clock::now();
  const int value = rt.run([&] {
    root_at = Clock::now();
    s.root_worker = weft::this_worker_id();
    spawn_at = Clock::now();
    auto task = weft::spawn([&] {
      start_at = Clock::now();
      s.task_worker = weft::this_worker_id();
      started.store(true, std::memory_order_release);  // start_at, task_worker before it
      return 7;
    });
    // Spin rather than join: a join would run the task here if nobody has stolen it yet.
    const Clock::time_point deadline = spawn_at + give_up;
    // poll(): under the request mechanism the thief's request is answered here.
    while (!started.load(std::memory_order_acquire) && Clock::now() < deadline) {
      weft::poll();
      relax();
    }
    return task.join();
  });
  s.submit_to_root_us = us_between(submit_at, root_at);
  s.spawn_to_start_us = us_between(spawn_at, start_at);
  if (value != 7) {
    s.error = "the task returned a wrong value";
  } else if (s.root_worker < 0 || s.task_worker < 0) {
    s.error = "the root or the task did not run on a worker";
  } else if (s.task_worker == s.root_worker) {
    s.error = "no other worker started the task within the give-up time";
  }
  return s;
}

SerialSample serial_sample(weft::Runtime& rt, std::chrono::milliseconds serial) {
  SerialSample s;
  const std::uint64_t steals_before = rt.stats().total.steals;
  const std::uint64_t parks_before = rt.stats().total.parks;
  std::uint64_t sum = 0;
  std::int32_t root_worker = -1;
  rt.run([&] {
    root_worker = weft::this_worker_id();
    const double proc0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    const double thread0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
    const Clock::time_point start = Clock::now();
    const Clock::time_point end = start + serial;
    std::uint64_t i = 0;
    std::uint64_t acc = 0;
    for (;;) {
      for (unsigned k = 0; k < 4096; ++k, ++i) {
        acc += i;
        asm volatile("" : "+r"(acc));  // one add per iteration: no closed form, no vectors
      }
      if (Clock::now() >= end) break;
    }
    const Clock::time_point stop = Clock::now();
    const double thread1 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
    const double proc1 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    s.wall_ms = us_between(start, stop) * 1e-3;
    s.root_cpu_ms = thread1 - thread0;
    s.others_cpu_ms = (proc1 - proc0) - s.root_cpu_ms;
    s.iterations = i;
    sum = acc;
  });
  s.parks = rt.stats().total.parks - parks_before;
  s.others_percent = s.wall_ms > 0 ? 100.0 * s.others_cpu_ms / s.wall_ms : 0;
  const std::uint64_t n = s.iterations;
  // sum of 0..n-1 modulo 2^64; halve the even factor first so nothing is lost.
  const std::uint64_t expected = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
  if (root_worker < 0) {
    s.error = "the root did not run on a worker";
  } else if (sum != expected || n == 0) {
    s.error = "the serial loop's sum is wrong";
  } else if (rt.stats().total.steals != steals_before) {
    s.error = "a serial root had steals";
  } else if (s.others_cpu_ms < -1.0) {  // the two clocks tick at different moments
    s.error = "the process used less CPU than the root's thread";
  }
  return s;
}

}  // namespace bench_idle

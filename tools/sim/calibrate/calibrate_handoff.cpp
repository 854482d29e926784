// The costs of handing things between two workers, timed on this machine: a cache line's round
// trip between two threads (the request's post and answer, a waiting join's look, a join that
// finds its task stolen), a failed steal attempt on weft's own task stack, a proxy's push, and
// how much longer than asked a watchman's timed nap sleeps. Each cost is one of these figures
// by a stated rule (below, and in each cost's method).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "model/frame_cost.hpp"
#include "model/idle_backoff.hpp"
#include "platform/futex.hpp"
#include "platform/noipa.hpp"
#include "tools/sim/calibrate/calibrate_steps.hpp"
#include "tools/sim/calibrate/separate_cpus.hpp"
#include "weft/detail/task_stack.hpp"

namespace sim {
namespace {

using Clock = std::chrono::steady_clock;

// Two threads pass a token back and forth through one cache line each way, the other thread
// spinning as a busy victim polls its port, each on a CPU of its own (SeparateCpus). Returns
// the median over `batches` batches of `trips` round trips each: on a shared machine a batch
// in which either thread lost its CPU measures the scheduler, not the cache, and the median
// leaves those out.
double round_trip_ns(int batches, int trips) {
  struct alignas(128) Line {
    std::atomic<int> value{0};
  };
  Line ping, pong;
  const int total = batches * trips;
  const SeparateCpus placement;
  std::thread other([&] {
    if (!placement.others().empty()) (void)SeparateCpus::place_helper(placement.others().front());
    for (int i = 1; i <= total; ++i) {
      while (ping.value.load(std::memory_order_acquire) != i) {
      }
      pong.value.store(i, std::memory_order_release);
    }
  });
  std::vector<double> per_trip;
  for (int b = 0; b < batches; ++b) {
    const auto start = Clock::now();
    for (int i = b * trips + 1; i <= (b + 1) * trips; ++i) {
      ping.value.store(i, std::memory_order_release);
      while (pong.value.load(std::memory_order_acquire) != i) {
      }
    }
    per_trip.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
                       trips);
  }
  other.join();
  return spread(per_trip).median;
}

// A steal on an empty stack is its first look and a return (StealSide::steal, in
// tasks/steal_side.cpp): TaskStack::available() called out of line (noipa: the compiler may
// neither inline it nor drop the call) as the thief calls steal.
WEFT_NOIPA bool empty_stack_look(const weft::detail::TaskStack& stack) noexcept {
  return stack.available() == 0;
}

}  // namespace

void measure_handoff(const CalibrateOptions& o, std::vector<Measurement>& out,
                     const std::function<void(const std::string&)>& progress) {
  progress("cache-line round trips between two threads");
  std::vector<double> trips;
  for (int r = 0; r < o.repeat; ++r) trips.push_back(round_trip_ns(101, 200));
  const Spread rt = spread(trips);
  const std::string how =
      "a cache line's round trip between two spinning threads on CPUs of their own (median of "
      "101 batches of 200 trips, so that a batch that lost its CPU does not count), median of " +
      std::to_string(o.repeat);
  const auto half = [&](const char* name, const std::string& rule) {
    out.push_back({name, rt.median / 2, rt.low / 2, rt.high / 2, "half of " + how + "; " + rule});
  };
  half("post_ns", "the request's store reaching the victim");
  half("answer_ns", "the answer's store reaching the thief");
  half("poll_ns", "a waiting join's look at the line its thief wrote");
  out.push_back({"join_stolen_ns", rt.median, rt.low, rt.high,
                 how + "; the owner's pop reads the line the thief wrote and takes the port"});

  // A failed attempt: what weft's steal does on an empty stack, plus the line its head and tail
  // live on coming from the victim's CPU (half a round trip: here it stays in our cache).
  progress("failed steal attempts on an empty task stack");
  weft::detail::TaskStack stack;
  stack.init(64);
  const Spread empty = per_call_ns(o.repeat, 200000, [&] { (void)empty_stack_look(stack); });
  out.push_back(
      {"attempt_ns", empty.median + rt.median / 2, empty.low + rt.low / 2, empty.high + rt.high / 2,
       "a steal's first look at an empty task stack (TaskStack::available, out of line as "
       "StealSide::steal is), " +
           batches(200000, o.repeat) + ", plus half of " + how +
           " (the victim's head and tail line)"});

  // A proxy is pushed as a spawn pushes its task: the same stores.
  const double frame_ns = weft::detail::frame_cost_ns();
  out.push_back({"proxy_ns", frame_ns / 2, frame_ns / 2, frame_ns / 2,
                 "a spawn's push (half of weft's frame cost, frame_cost_ns): a proxy is re-pushed "
                 "with the same stores"});

  // The watchman's nap: a futex wait with weft's first nap as its timeout, on a word nobody
  // changes; what it sleeps past the timeout (timer slack, the wake-up) is the extra.
  progress("timed futex naps");
  std::vector<double> extras;
  const auto nap = weft::detail::kFirstNap;
  for (int r = 0; r < o.repeat; ++r) {
    std::vector<double> one_round;
    std::atomic<std::uint32_t> word{0};
    for (int i = 0; i < 100; ++i) {
      const auto start = Clock::now();
      weft::platform::futex_wait(word, 0, nap);
      const double slept = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
      one_round.push_back(
          std::max(0.0, slept - std::chrono::duration<double, std::nano>(nap).count()));
    }
    extras.push_back(spread(one_round).median);
  }
  const Spread extra = spread(extras);
  out.push_back({"nap_extra_ns", extra.median, extra.low, extra.high,
                 "a futex wait timed out after weft's first nap (" + std::to_string(nap.count()) +
                     " us) sleeps this much longer; median of 100 naps per repetition, median of " +
                     std::to_string(o.repeat)});
}

}  // namespace sim

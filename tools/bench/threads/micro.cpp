#include "tools/bench/threads/micro.hpp"

#include <pthread.h>
#include <sched.h>

#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <weft/runtime.hpp>
#include <weft/thread.hpp>

#include "tools/bench/threads/run_sample.hpp"

namespace bench_threads {
namespace {

using Clock = std::chrono::steady_clock;

double ns_per(Clock::time_point t0, Clock::time_point t1, std::size_t units) {
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(units);
}

void check(bool ok, const std::string& what) {
  if (!ok) throw WrongAnswer("micro " + what);
}

// The two kinds of threads the ping-pongs run on. Each runs a pair of bodies, me = 0 and 1,
// and returns the wall time from before the first starts to after both are joined.
struct WeftPair {
  static constexpr bool kParallel = false;  // one worker: the two threads take turns
  using Mutex = weft::mutex;
  using CondVar = weft::condition_variable;
  using Semaphore = weft::counting_semaphore<>;
  static void yield() { weft::this_thread::yield(); }

  weft::ThreadSched sched;
  double run(const std::function<void(int)>& body) const {
    weft::Runtime rt{run_config(1, sched, 0, 0)};
    Clock::time_point t0, t1;
    rt.run([&] {
      t0 = Clock::now();
      weft::thread a(body, 0);
      weft::thread b(body, 1);
      a.join();
      b.join();
      t1 = Clock::now();
    });
    return std::chrono::duration<double>(t1 - t0).count();
  }
};

// OS threads pinned to the CPU the caller is on: a ping-pong between two cores would measure
// cache-line transfers and futex wake-ups of an idle core, not a switch.
struct StdPair {
  static constexpr bool kParallel = true;  // the kernel may preempt either at any point
  using Mutex = std::mutex;
  using CondVar = std::condition_variable;
  using Semaphore = std::counting_semaphore<>;
  static void yield() { std::this_thread::yield(); }

  double run(const std::function<void(int)>& body) const {
    const int cpu = sched_getcpu();
    const auto pinned = [&](int me) {
      if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
      }
      body(me);
    };
    const auto t0 = Clock::now();
    std::thread a(pinned, 0);
    std::thread b(pinned, 1);
    a.join();
    b.join();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }
};

// Two threads yield to each other n times each: 2n switches. Every iteration must find that
// the other thread ran since its own last one (weft under fifo); OS threads yield with
// sched_yield, which promises nothing, so for them only the counts are checked.
template <class Pair>
double yield_switch(const Pair& pair, std::size_t n, bool strict, bool spoil) {
  int last = -1;
  std::size_t alternations = 0, iterations = 0;
  std::mutex count_lock;  // taken only where the two threads may run at once
  const double s = pair.run([&](int me) {
    for (std::size_t i = 0; i < n; ++i) {
      std::unique_lock<std::mutex> g(count_lock, std::defer_lock);
      if constexpr (Pair::kParallel) g.lock();
      alternations += last != me ? 1 : 0;
      last = me;
      ++iterations;
      if constexpr (Pair::kParallel) g.unlock();
      Pair::yield();
    }
  });
  iterations += spoil ? 1 : 0;
  check(iterations == 2 * n, "yield: " + std::to_string(iterations) + " iterations");
  if (strict) {
    check(alternations == 2 * n, "yield: the threads alternated " + std::to_string(alternations) +
                                     " times of " + std::to_string(2 * n) +
                                     " (yield did not hand over)");
  }
  return s * 1e9 / static_cast<double>(2 * n);
}

// Neither weft::mutex nor std::mutex hands itself over (an unlocker may take it straight
// back: no convoys), so the two threads alternate by a turn variable under the mutex,
// yielding while it is not their turn: 2n turns, each checked.
template <class Pair>
double mutex_turns(const Pair& pair, std::size_t n, bool spoil) {
  typename Pair::Mutex m;
  int turn = 0, last = -1;
  std::size_t count = 0, repeats = 0;
  const double s = pair.run([&](int me) {
    for (std::size_t i = 0; i < n; ++i) {
      std::unique_lock<typename Pair::Mutex> lock(m);
      while (turn != me) {
        lock.unlock();
        Pair::yield();
        lock.lock();
      }
      repeats += last == me ? 1 : 0;
      last = me;
      ++count;
      turn = 1 - me;
    }
  });
  count += spoil ? 1 : 0;
  check(count == 2 * n && repeats == 0, "mutex: " + std::to_string(count) + " turns, " +
                                            std::to_string(repeats) + " taken twice in a row");
  return s * 1e9 / static_cast<double>(2 * n);
}

// Two threads pass a turn back and forth through one mutex and condition variable: n round
// trips (each two wake-ups and two switches).
template <class Pair>
double condvar_ping_pong(const Pair& pair, std::size_t n, bool spoil) {
  typename Pair::Mutex m;
  typename Pair::CondVar cv;
  int turn = 0;
  std::size_t count = 0;
  const double s = pair.run([&](int me) {
    std::unique_lock<typename Pair::Mutex> lock(m);
    for (std::size_t i = 0; i < n; ++i) {
      cv.wait(lock, [&] { return turn == me; });
      ++count;
      turn = 1 - me;
      cv.notify_one();
    }
  });
  count += spoil ? 1 : 0;
  check(count == 2 * n, "condvar: " + std::to_string(count) + " turns of " + std::to_string(2 * n));
  return s * 1e9 / static_cast<double>(n);
}

// The paper's semaphore synchronisation: each thread releases the other's semaphore and
// acquires its own, so every acquire waits for one switch: 2n switches. A token written
// alternately checks the order.
template <class Pair>
double semaphore_ping_pong(const Pair& pair, std::size_t n, bool spoil) {
  typename Pair::Semaphore go0(0), go1(0);
  std::size_t token = 0, out_of_order = 0;
  const double s = pair.run([&](int me) {
    for (std::size_t i = 0; i < n; ++i) {
      if (me == 0) {
        out_of_order += token != 2 * i ? 1 : 0;
        token = 2 * i + 1;
        go1.release();
        go0.acquire();
      } else {
        go1.acquire();
        out_of_order += token != 2 * i + 1 ? 1 : 0;
        token = 2 * i + 2;
        go0.release();
      }
    }
  });
  token += spoil ? 1 : 0;
  check(token == 2 * n && out_of_order == 0, "semaphore: token " + std::to_string(token) + ", " +
                                                 std::to_string(out_of_order) + " out of order");
  return s * 1e9 / static_cast<double>(2 * n);
}

// A thread makes and joins n empty threads, one at a time (the creator is a thread, as in
// the paper; under df and dfd each child runs at once, under fifo and lifo the creator's
// join parks it until the child has run).
double weft_create_join(weft::ThreadSched sched, std::size_t n, bool spoil) {
  weft::Runtime rt{run_config(1, sched, 0, 0)};
  std::size_t ran = 0;
  Clock::time_point t0, t1;
  rt.run([&] {
    weft::thread creator([&] {
      weft::thread warm([&] { ++ran; });  // the first thread maps a stack; later ones reuse it
      warm.join();
      t0 = Clock::now();
      for (std::size_t i = 0; i < n; ++i) {
        weft::thread t([&] { ++ran; });
        t.join();
      }
      t1 = Clock::now();
    });
    creator.join();
  });
  ran += spoil ? 1 : 0;
  check(ran == n + 1,
        "create+join: " + std::to_string(ran) + " threads ran of " + std::to_string(n + 1));
  return ns_per(t0, t1, n);
}

double std_create_join(std::size_t n, bool spoil) {
  std::atomic<std::size_t> ran{0};
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < n; ++i) {
    std::thread t([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    t.join();
  }
  const auto t1 = Clock::now();
  const std::size_t got = ran.load() + (spoil ? 1 : 0);
  check(got == n,
        "std create+join: " + std::to_string(got) + " threads ran of " + std::to_string(n));
  return ns_per(t0, t1, n);
}

// The floor under any user-level switch: two contexts jumping to each other with nothing
// else, n round trips = 2n switches.
namespace fc = boost::context::detail;

struct BareJumps {
  std::size_t arrivals = 0;
};

[[noreturn]] void bounce(fc::transfer_t t) {
  auto* jumps = static_cast<BareJumps*>(t.data);
  for (;;) {
    ++jumps->arrivals;
    t = fc::jump_fcontext(t.fctx, nullptr);
  }
}

double bare_jump(std::size_t n, bool spoil) {
  constexpr std::size_t kStackBytes = 64 * kKiB;
  const auto stack = std::make_unique<char[]>(kStackBytes);
  BareJumps jumps;
  fc::fcontext_t other = fc::make_fcontext(stack.get() + kStackBytes, kStackBytes, bounce);
  other = fc::jump_fcontext(other, &jumps).fctx;  // the first arrival, untimed
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < n; ++i) other = fc::jump_fcontext(other, nullptr).fctx;
  const auto t1 = Clock::now();
  // The other context stays suspended in bounce(); its stack is simply freed.
  const std::size_t got = jumps.arrivals + (spoil ? 1 : 0);
  check(got == n + 1, "fcontext: " + std::to_string(got) + " arrivals of " + std::to_string(n + 1));
  return ns_per(t0, t1, 2 * n);
}

// One measurement: a series and how to take one sample of it.
struct MicroOp {
  MicroSeries series;
  std::function<double()> measure;
};

std::string label(const MicroSeries& s) {
  return "micro " + s.op + " " + s.impl +
         (s.sched ? std::string(" ") + weft::thread_sched_name(*s.sched) : "");
}

std::vector<MicroOp> micro_ops(const Settings& st) {
  const std::size_t n = st.micro_iters;
  const bool spoil = st.spoil_answers;
  // OS threads cost microseconds per operation: fewer iterations keep each sample short.
  const std::size_t n_os = std::max<std::size_t>(n / 10, 1);
  const std::size_t n_os_create = std::max<std::size_t>(n / 50, 1);
  const std::vector<weft::ThreadSched> scheds = scheds_of(st, Bench::kMicro);
  std::vector<MicroOp> ops;
  const auto add = [&](std::string op, std::string impl, std::optional<weft::ThreadSched> sched,
                       std::string unit, std::function<double()> f) {
    ops.push_back(
        {MicroSeries{std::move(op), std::move(impl), sched, std::move(unit), {}}, std::move(f)});
  };
  for (const weft::ThreadSched s : scheds)
    add("create+join", "weft", s, "create+join", [=] { return weft_create_join(s, n, spoil); });
  add("create+join", "std", {}, "create+join", [=] { return std_create_join(n_os_create, spoil); });
  add("yield", "weft", weft::ThreadSched::kFifo, "switch",
      [=] { return yield_switch(WeftPair{weft::ThreadSched::kFifo}, n, true, spoil); });
  add("yield", "std", {}, "yield call",
      [=] { return yield_switch(StdPair{}, n_os, false, spoil); });
  add("yield", "fcontext", {}, "switch", [=] { return bare_jump(10 * n, spoil); });
  for (const weft::ThreadSched s : scheds)
    add("mutex", "weft", s, "hand-off", [=] { return mutex_turns(WeftPair{s}, n, spoil); });
  add("mutex", "std", {}, "hand-off", [=] { return mutex_turns(StdPair{}, n_os, spoil); });
  for (const weft::ThreadSched s : scheds)
    add("condvar", "weft", s, "round trip",
        [=] { return condvar_ping_pong(WeftPair{s}, n, spoil); });
  add("condvar", "std", {}, "round trip",
      [=] { return condvar_ping_pong(StdPair{}, n_os, spoil); });
  for (const weft::ThreadSched s : scheds)
    add("semaphore", "weft", s, "switch",
        [=] { return semaphore_ping_pong(WeftPair{s}, n, spoil); });
  add("semaphore", "std", {}, "switch",
      [=] { return semaphore_ping_pong(StdPair{}, n_os, spoil); });
  return ops;
}

}  // namespace

void run_micro(Sitting& sitting) {
  const Settings& settings = sitting.settings;
  std::vector<MicroOp> ops = micro_ops(settings);
  Blocks blocks;
  blocks.bench = Bench::kMicro;
  blocks.first = sitting.result.micro.size();
  blocks.count = ops.size();
  const std::uint64_t seed = order_seed(settings.seed, Bench::kMicro, 0);
  for (int rep = 1; rep <= settings.repeat; ++rep) {
    blocks.order.push_back(
        bench_stats::block_order(ops.size(), seed, static_cast<std::uint64_t>(rep)));
    for (const std::size_t i : blocks.order.back()) {
      MicroOp& op = ops[i];
      if (sitting.progress) sitting.progress(rep, settings.repeat, label(op.series));
      op.series.ns.push_back(op.measure());
    }
    sitting.host.calibrate();
  }
  for (MicroOp& op : ops) sitting.result.micro.push_back(std::move(op.series));
  sitting.result.blocks.push_back(std::move(blocks));
}

}  // namespace bench_threads

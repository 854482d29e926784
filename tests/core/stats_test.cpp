// Runtime counters after real runs (label concurrency), and the formatting of hand-built
// Stats values (the StatsFormat suite, label unit).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft_test::fib_spawns;
using weft_test::serial_fib;
using weft_test::weft_fib;

std::uint64_t sum_of(const std::array<std::uint64_t, weft::kStealSizeBuckets>& buckets) {
  std::uint64_t sum = 0;
  for (std::uint64_t b : buckets) sum += b;
  return sum;
}

// Every counter, by name, so that checks can loop over them.
struct CounterField {
  const char* name;
  std::uint64_t weft::WorkerStats::*member;
};
const std::vector<CounterField>& counter_fields() {
  static const std::vector<CounterField> fields = {
      {"spawns", &weft::WorkerStats::spawns},
      {"inline_joins", &weft::WorkerStats::inline_joins},
      {"overflow_spawns", &weft::WorkerStats::overflow_spawns},
      {"stolen_joins", &weft::WorkerStats::stolen_joins},
      {"steal_attempts", &weft::WorkerStats::steal_attempts},
      {"steals", &weft::WorkerStats::steals},
      {"tasks_stolen", &weft::WorkerStats::tasks_stolen},
      {"fenced_steals", &weft::WorkerStats::fenced_steals},
      {"failed_steals", &weft::WorkerStats::failed_steals},
      {"leapfrogs", &weft::WorkerStats::leapfrogs},
      {"parks", &weft::WorkerStats::parks},
      {"limit_sleeps", &weft::WorkerStats::limit_sleeps},
      {"requests_served", &weft::WorkerStats::requests_served},
      {"request_timeouts", &weft::WorkerStats::request_timeouts},
  };
  return fields;
}

// Idle workers keep counting failed steal attempts for a moment after run() returns, until
// they park. Waits until two snapshots 20 ms apart agree, so that cross-counter identities
// can be checked on a quiet pool.
weft::Stats settled_stats(const weft::Runtime& rt) {
  weft::Stats prev = rt.stats();
  for (int i = 0; i < 250; ++i) {
    std::this_thread::sleep_for(20ms);
    weft::Stats now = rt.stats();
    if (now.json() == prev.json()) return now;
    prev = std::move(now);
  }
  ADD_FAILURE() << "the counters never settled:\n" << prev.table();
  return prev;
}

TEST(Stats, OneWorkerFibCountsEverySpawnAsAnInlineJoin) {
  weft::Config c = weft_test::counting_config();
  c.workers = 1;
  weft::Runtime rt(c);
  const int n = 20;
  ASSERT_EQ(rt.run([] { return weft_fib(n); }), serial_fib(n));
  const weft::Stats s = rt.stats();
  ASSERT_EQ(s.per_worker.size(), 1u);
  EXPECT_EQ(s.total.spawns, fib_spawns(n));
  EXPECT_EQ(s.total.inline_joins, fib_spawns(n));
  EXPECT_EQ(s.total.overflow_spawns, 0u);
  EXPECT_EQ(s.total.stolen_joins, 0u);
  EXPECT_EQ(s.total.steals, 0u);
  EXPECT_EQ(s.total.tasks_stolen, 0u);
  EXPECT_EQ(s.total.steal_attempts, 0u) << "a lone worker has nobody to steal from";
  EXPECT_EQ(s.total.leapfrogs, 0u);
  EXPECT_DOUBLE_EQ(s.total.tasks_per_steal(), 0.0);
}

// Each level spawns a leaf that stays pushed while the recursion goes on: on one worker,
// levels [0, task_slots) push and the rest overflow into inline spawns.
std::int64_t chain_holding_slots(int depth) {
  if (depth == 0) return 0;
  auto leaf = weft::spawn([] { return std::int64_t{1}; });
  const std::int64_t rest = chain_holding_slots(depth - 1);
  return rest + leaf.join();
}

TEST(Stats, OverflowSpawnsAreCountedExactly) {
  weft::Config c = weft_test::counting_config();
  c.workers = 1;
  c.task_slots = 16;
  weft::Runtime rt(c);
  ASSERT_EQ(rt.run([] { return chain_holding_slots(100); }), 100);
  const weft::Stats s = rt.stats();
  EXPECT_EQ(s.total.spawns, 100u);
  EXPECT_EQ(s.total.overflow_spawns, 100u - 16u);
  EXPECT_EQ(s.total.inline_joins, 16u);
}

using Param = std::tuple<std::string, unsigned>;
class StatsMultiWorker : public ::testing::TestWithParam<Param> {};

TEST_P(StatsMultiWorker, CountersAreConsistentAfterAParallelRun) {
  const auto& [spec, workers] = GetParam();
  weft::Runtime rt(weft_test::counting_config(spec, workers));
  // 24 tasks of fib(m) each; the root waits until a thief has started one before it joins
  // them, so at least one steal certainly happens (fixed:20 needs 20 available tasks).
  const int tasks = 24;
  const int m = weft_test::kSanitized ? 15 : 20;
  std::atomic<int> started{0};
  bool stolen = false;
  const std::int64_t sum = rt.run([&] {
    std::vector<weft::Future<std::int64_t>> fs;
    for (int i = 0; i < tasks; ++i) {
      fs.emplace_back(weft::spawn([&started] {
        started.fetch_add(1);
        return weft_fib(m);
      }));
    }
    stolen = weft_test::spin_until(
        [&] {
          weft::poll();  // the request mechanism hears thieves only here
          return started.load() > 0;
        },
        20s);
    std::int64_t total = 0;
    while (!fs.empty()) {
      total += fs.back().join();
      fs.pop_back();
    }
    return total;
  });
  ASSERT_TRUE(stolen) << "no thief started a task within 20 s";
  EXPECT_EQ(sum, tasks * serial_fib(m));
  const weft::Stats s = settled_stats(rt);
  const weft::WorkerStats& t = s.total;
  // Spawn calls are a property of the program, not of the schedule.
  EXPECT_EQ(t.spawns, tasks + tasks * fib_spawns(m));
  EXPECT_GE(t.steals, 1u);
  EXPECT_GE(t.stolen_joins, 1u);
  EXPECT_EQ(t.spawns, t.inline_joins + t.stolen_joins + t.overflow_spawns);
  EXPECT_EQ(t.overflow_spawns, 0u);
  EXPECT_GE(t.tasks_stolen, t.steals);
  EXPECT_LE(t.fenced_steals, t.steals);
  EXPECT_GE(t.steal_attempts, t.steals);
  EXPECT_EQ(t.steal_attempts, t.steals + t.failed_steals);
  EXPECT_EQ(sum_of(t.steal_sizes_seen), t.steal_attempts);
  // A steal saw at least one task waiting.
  EXPECT_LT(t.steal_sizes_seen[0], t.steal_attempts);
  EXPECT_LE(t.leapfrogs, t.steals);
  // Every stolen task is joined by its owner as a stolen join; proxies (k > 1) are stolen
  // tasks that no user join sees, so stolen_joins can only be smaller.
  EXPECT_LE(t.stolen_joins, t.tasks_stolen);
  if (spec == "one") {
    EXPECT_EQ(t.tasks_stolen, t.steals) << "one takes one task per steal";
    EXPECT_EQ(t.stolen_joins, t.tasks_stolen)
        << "without proxies every stolen task is a stolen join";
  }
  if (spec == "fixed:2") {
    EXPECT_EQ(t.tasks_stolen, 2 * t.steals);
  }
  if (spec == "fixed:20") {
    EXPECT_EQ(t.tasks_stolen, 20 * t.steals);
  }
  if (t.steals > 0) {
    EXPECT_DOUBLE_EQ(t.tasks_per_steal(),
                     static_cast<double>(t.tasks_stolen) / static_cast<double>(t.steals));
  }

  ASSERT_EQ(s.per_worker.size(), workers);
  for (const CounterField& f : counter_fields()) {
    std::uint64_t sum = 0;
    for (const weft::WorkerStats& w : s.per_worker) sum += w.*f.member;
    EXPECT_EQ(sum, t.*f.member) << f.name;
  }
  for (std::size_t i = 0; i < s.per_worker.size(); ++i) {
    const weft::WorkerStats& w = s.per_worker[i];
    EXPECT_EQ(w.spawns, w.inline_joins + w.stolen_joins + w.overflow_spawns) << "worker " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(PoliciesAndWorkers, StatsMultiWorker,
                         ::testing::Combine(::testing::Values("one", "fixed:2", "fixed:20", "half",
                                                              "adaptive"),
                                            ::testing::Values(2u, 4u)),
                         weft_test::PolicyCountName{});

TEST(Stats, ResetStatsZeroesAndCountingStartsAfresh) {
  weft::Runtime rt(weft_test::counting_config("half", 2));
  ASSERT_EQ(rt.run([] { return weft_fib(22); }), serial_fib(22));
  const weft::Stats before = settled_stats(rt);
  ASSERT_GT(before.total.spawns, 0u);
  rt.reset_stats();
  const weft::Stats after = rt.stats();
  for (const CounterField& f : counter_fields()) {
    EXPECT_EQ(after.total.*f.member, 0u) << f.name;
    for (const weft::WorkerStats& w : after.per_worker) EXPECT_EQ(w.*f.member, 0u) << f.name;
  }
  ASSERT_EQ(rt.run([] { return weft_fib(15); }), serial_fib(15));
  const weft::Stats again = settled_stats(rt);
  EXPECT_EQ(again.total.spawns, fib_spawns(15)) << "counting must restart from zero";
  EXPECT_EQ(again.total.spawns,
            again.total.inline_joins + again.total.stolen_joins + again.total.overflow_spawns);
}

// A reset must never write a worker's counters: a worker counting at that moment (spawning,
// or spinning on failed steals) would store its old value plus one over the zero, and the
// counter would keep its history. Resets race here with busy and spinning workers, four on
// two cores, and every reading is checked against what could have happened since its reset.
TEST(Stats, ResetWhileWorkersCountLosesNothing) {
  constexpr int kN = 18;
  const std::uint64_t per_run = fib_spawns(kN);
  weft::Runtime rt(weft_test::counting_config("adaptive", 4));
  std::atomic<std::int64_t> started{0};
  std::atomic<bool> done{false};
  const std::int64_t runs = weft_test::scaled(4000, 400);
  std::thread runner([&] {
    for (std::int64_t i = 0; i < runs; ++i) {
      started.fetch_add(1, std::memory_order_seq_cst);
      if (rt.run([] { return weft_fib(kN); }) != serial_fib(kN)) ADD_FAILURE() << "wrong fib";
    }
    done.store(true, std::memory_order_seq_cst);
  });
  std::int64_t checks = 0;
  while (!done.load(std::memory_order_seq_cst)) {
    const std::int64_t before = started.load(std::memory_order_seq_cst);
    rt.reset_stats();
    const weft::Stats s = rt.stats();
    const std::int64_t after = started.load(std::memory_order_seq_cst);
    // At most the run in flight at the reset plus those started since.
    const std::uint64_t bound = per_run * static_cast<std::uint64_t>(after - before + 1);
    ASSERT_LE(s.total.spawns, bound) << "a reset was lost (check " << checks << ")\n" << s.table();
    for (const weft::WorkerStats& w : s.per_worker) {
      ASSERT_LE(w.inline_joins, w.spawns) << s.table();
      ASSERT_LE(w.overflow_spawns, w.spawns) << s.table();
    }
    ++checks;
  }
  runner.join();
  EXPECT_GT(checks, 0);
  // The last run just returned: the idle workers are spinning on failed steals now.
  rt.reset_stats();
  ASSERT_EQ(rt.run([] { return weft_fib(kN); }), serial_fib(kN));
  const weft::Stats last = settled_stats(rt);
  EXPECT_EQ(last.total.spawns, per_run) << last.table();
  EXPECT_EQ(last.total.spawns,
            last.total.inline_joins + last.total.stolen_joins + last.total.overflow_spawns)
      << last.table();
  // Each attempt is counted once, by its outcome, so the reset cannot split one.
  EXPECT_EQ(last.total.steal_attempts, last.total.steals + last.total.failed_steals)
      << last.table();
  // A reset reads a worker's counters one after another while the worker may go on
  // counting, so one made while it spins on failed steals can leave its buckets apart from its
  // attempts by the attempts it made meanwhile (2 under ThreadSanitizer once). A reset of
  // settled workers leaves none in flight: then every attempt has its bucket.
  (void)settled_stats(rt);
  rt.reset_stats();
  ASSERT_EQ(rt.run([] { return weft_fib(kN); }), serial_fib(kN));
  const weft::Stats quiet = settled_stats(rt);
  for (const weft::WorkerStats& w : quiet.per_worker) {
    EXPECT_EQ(sum_of(w.steal_sizes_seen), w.steal_attempts) << quiet.json();
  }
}

// The running maximum restarts at a reset although only its worker ever writes it.
TEST(Stats, ResetRestartsTheMaximumStealStack) {
  weft::Runtime rt(weft_test::counting_config("half", 2));
  bool stole = false;
  for (int i = 0; i < 50 && !stole; ++i) {
    ASSERT_EQ(rt.run([] { return weft_fib(22); }), serial_fib(22));
    stole = settled_stats(rt).total.steals > 0;
  }
  if (!stole) GTEST_SKIP() << "no steal happened in 50 runs on this machine";
  ASSERT_GT(rt.stats().total.max_steal_stack_bytes, 0u);
  rt.reset_stats();
  EXPECT_EQ(rt.stats().total.max_steal_stack_bytes, 0u);
}

TEST(Stats, JsonAndTableOfARealRunNameEveryField) {
  weft::Runtime rt(weft_test::counting_config("one", 2));
  ASSERT_EQ(rt.run([] { return weft_fib(18); }), serial_fib(18));
  const weft::Stats s = settled_stats(rt);
  const std::string json = s.json();
  for (const CounterField& f : counter_fields()) {
    EXPECT_NE(json.find(std::string("\"") + f.name + "\":"), std::string::npos) << f.name;
  }
  EXPECT_NE(json.find("\"tasks_per_steal\":"), std::string::npos);
  EXPECT_NE(json.find("\"total\":{\"spawns\":" + std::to_string(fib_spawns(18)) + ","),
            std::string::npos)
      << json;
  const std::string table = s.table();
  EXPECT_NE(table.find("total"), std::string::npos);
  EXPECT_NE(table.find(std::to_string(fib_spawns(18))), std::string::npos) << table;
}

// Recurses `levels` frames deep (each holding a 128-byte array) and there spawns a busy
// tree, waits until a thief has started it, and joins it: the worker running the root then
// waits for a stolen task deep in its stack while the thief's stack holds stealable tasks.
std::int64_t deep_wait(int levels) {
  volatile char pad[128];
  pad[0] = static_cast<char>(levels);
  if (levels == 0) {
    std::atomic<bool> started{false};
    auto tree = weft::spawn([&started] {
      started.store(true);
      return weft_test::busy_tree(5, 7, true);  // 3125 leaves: 6 ms of work
    });
    EXPECT_TRUE(weft_test::spin_until(
        [&] {
          weft::poll();  // the request mechanism hears thieves only here
          return started.load();
        },
        20s))
        << "never stolen";
    return tree.join();
  }
  const std::int64_t r = deep_wait(levels - 1);
  return r + (pad[0] == static_cast<char>(levels) ? 0 : 1);
}

// About 800 KB of stack in every build (ASan's frames are several times larger): far above
// the tight limit below, far below the generous one.
constexpr int kDeepWaitLevels = weft_test::kAddressSanitizer ? 500 : 3000;

// Two workers (the root's and one thief) run deep_wait under `fraction`, `rounds` times or
// until `enough` says so.
template <class Enough>
weft::Stats deep_waits_under(double fraction, int rounds, Enough enough) {
  weft::Config c = weft_test::counting_config("one", 2);
  c.worker_stack_bytes = std::size_t{8} << 20;
  c.help_stack_fraction = fraction;
  weft::Runtime rt(c);
  const std::int64_t want = weft_test::busy_tree(5, 7, false);
  for (int round = 0; round < rounds; ++round) {
    EXPECT_EQ(rt.run([] { return deep_wait(kDeepWaitLevels); }), want);
    if (enough(rt.stats())) break;
  }
  return settled_stats(rt);
}

// The help bound (docs/TASK_STACK.md, "Join and its bound"): a waiting worker starts a
// stolen task only while its stack use is below help_stack_fraction * worker_stack_bytes,
// so the deepest steal start stays below that plus a few runtime frames. The program waits
// about 800 KB deep; the control run (a generous limit) shows that it steals there.
TEST(Stats, StealsStartBelowTheHelpLimit) {
  const double tight = 0.005;  // 42 KB of the 8 MiB stack
  const auto limit = static_cast<std::uint64_t>(tight * (8 << 20));
  const std::uint64_t slack = 16 << 10;
  const weft::Stats s = deep_waits_under(tight, 3, [](const weft::Stats&) { return false; });
  EXPECT_GE(s.total.stolen_joins, 3u) << "the root should have waited for its stolen tree";
  std::uint64_t max_seen = 0;
  for (const weft::WorkerStats& w : s.per_worker) {
    EXPECT_LE(w.max_steal_stack_bytes, limit + slack) << s.table();
    max_seen = std::max(max_seen, w.max_steal_stack_bytes);
  }
  EXPECT_EQ(s.total.max_steal_stack_bytes, max_seen) << "the total is the maximum, not a sum";

  const weft::Stats control = deep_waits_under(0.9, 20, [&](const weft::Stats& st) {
    return st.total.max_steal_stack_bytes > limit + slack;
  });
  EXPECT_GT(control.total.max_steal_stack_bytes, limit + slack)
      << "with a generous limit the program should steal deep in its stack (else the check "
         "above proves nothing)\n"
      << control.table();
  EXPECT_GT(control.total.leapfrogs, 0u) << control.table();
}

// ---- Formatting of hand-built values (label unit) ----

weft::WorkerStats numbered(std::uint64_t base) {
  weft::WorkerStats w;
  std::uint64_t v = base;
  for (const CounterField& f : counter_fields()) w.*f.member = v++;
  return w;
}

TEST(StatsFormat, StealSizeBucketsAreLog2) {
  EXPECT_EQ(weft::steal_size_bucket(-1), 0u);
  EXPECT_EQ(weft::steal_size_bucket(0), 0u);
  EXPECT_EQ(weft::steal_size_bucket(1), 1u);
  EXPECT_EQ(weft::steal_size_bucket(2), 2u);
  EXPECT_EQ(weft::steal_size_bucket(3), 2u);
  EXPECT_EQ(weft::steal_size_bucket(4), 3u);
  EXPECT_EQ(weft::steal_size_bucket(1 << 19), 20u);
  EXPECT_EQ(weft::steal_size_bucket(std::int64_t{1} << 40), weft::kStealSizeBuckets - 1);
}

TEST(StatsFormat, SumAddsEveryField) {
  weft::WorkerStats a = numbered(1);
  weft::WorkerStats b = numbered(100);
  a.steal_sizes_seen[3] = 2;
  b.steal_sizes_seen[3] = 5;
  b.steal_sizes_seen[0] = 1;
  a += b;
  EXPECT_EQ(a.steal_sizes_seen[3], 7u);
  EXPECT_EQ(a.steal_sizes_seen[0], 1u);
  std::uint64_t i = 0;
  for (const CounterField& f : counter_fields()) {
    EXPECT_EQ(a.*f.member, (1 + i) + (100 + i)) << f.name;
    ++i;
  }
}

TEST(StatsFormat, MaxStealStackIsAMaximumNotASum) {
  weft::WorkerStats a;
  weft::WorkerStats b;
  a.max_steal_stack_bytes = 4096;
  b.max_steal_stack_bytes = 1000;
  a.steals = 1;
  b.steals = 2;
  a += b;
  EXPECT_EQ(a.max_steal_stack_bytes, 4096u);
  EXPECT_EQ(a.steals, 3u);
  b += a;
  EXPECT_EQ(b.max_steal_stack_bytes, 4096u);
  weft::Stats s;
  s.per_worker = {a};
  s.total = a;
  EXPECT_NE(s.json().find("\"max_steal_stack\":4096"), std::string::npos) << s.json();
}

TEST(StatsFormat, TasksPerSteal) {
  weft::WorkerStats w;
  EXPECT_DOUBLE_EQ(w.tasks_per_steal(), 0.0);
  w.steals = 4;
  w.tasks_stolen = 10;
  EXPECT_DOUBLE_EQ(w.tasks_per_steal(), 2.5);
}

TEST(StatsFormat, JsonHasTotalThenWorkersWithEveryFieldInOrder) {
  weft::Stats s;
  s.spawns_counted = true;
  s.per_worker = {numbered(1), numbered(20)};
  s.total = s.per_worker[0];
  s.total += s.per_worker[1];
  s.per_worker[1].steals = 3;
  s.per_worker[1].tasks_stolen = 6;
  const std::string json = s.json();
  EXPECT_EQ(
      json.rfind(
          "{\"profiled\":false,\"spawns_counted\":true,\"frame_cost_ns\":0,\"membarrier_ns\":0,"
          "\"total\":{\"spawns\":21,\"inline_joins\":23,",
          0),
      0u)
      << json;
  EXPECT_NE(json.find(",\"workers\":[{\"spawns\":1,"), std::string::npos) << json;
  EXPECT_NE(json.find("},{\"spawns\":20,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"steals\":3,\"tasks_stolen\":6,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"steal_sizes_seen\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
                      "\"tasks_per_steal\":2,\"r_busy\":0,"),
            std::string::npos)
      << json;
  // The threads' object closes it, every field in ThreadStats' order.
  s.threads.made = 7;
  s.threads.heap_high_water = 9;
  s.threads.heap_bytes_cached = 10;
  const std::string with_threads = s.json();
  const std::size_t threads_at = with_threads.find("],\"threads\":{\"made\":7,\"live\":0,");
  ASSERT_NE(threads_at, std::string::npos) << with_threads;
  EXPECT_TRUE(with_threads.ends_with(",\"heap_high_water\":9,\"heap_bytes_cached\":10}}"))
      << with_threads;
  // Every field once per object: 3 objects.
  for (const CounterField& f : counter_fields()) {
    const std::string key = std::string("\"") + f.name + "\":";
    std::size_t count = 0;
    for (std::size_t pos = json.find(key); pos != std::string::npos;
         pos = json.find(key, pos + 1)) {
      ++count;
    }
    EXPECT_EQ(count, 3u) << f.name;
  }
  // Balanced braces and brackets, no trailing commas.
  int depth = 0;
  for (char ch : json) {
    if (ch == '{' || ch == '[') ++depth;
    if (ch == '}' || ch == ']') --depth;
    EXPECT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(json.find(",}"), std::string::npos);
  EXPECT_EQ(json.find(",]"), std::string::npos);
}

TEST(StatsFormat, JsonWithNoWorkers) {
  weft::Stats s;
  EXPECT_NE(s.json().find("\"workers\":[]"), std::string::npos) << s.json();
}

TEST(StatsFormat, TableHasAHeaderARowPerWorkerAndATotal) {
  weft::Stats s;
  s.spawns_counted = true;
  s.per_worker = {numbered(1), numbered(1000)};
  s.total = s.per_worker[0];
  s.total += s.per_worker[1];
  const std::string table = s.table();
  std::istringstream in(table);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u) << table;
  for (const CounterField& f : counter_fields()) {
    EXPECT_NE(lines[0].find(f.name), std::string::npos) << f.name;
  }
  EXPECT_EQ(lines[1].rfind("0", 0), 0u);
  EXPECT_EQ(lines[2].rfind("1", 0), 0u);
  EXPECT_EQ(lines[3].rfind("total", 0), 0u);
  EXPECT_NE(lines[3].find("1001"), std::string::npos);
  std::ostringstream streamed;
  streamed << s;
  EXPECT_EQ(streamed.str(), table);
}

// A runtime that does not count spawns (the default) reports them as unknown, never as 0, and
// counts everything else as before: steals, stolen joins and overflowing spawns.
TEST(Stats, UncountedSpawnsAreReportedAsNotCounted) {
  weft::Config c = weft_test::make_config("one", 2);
  c.task_slots = 4;  // some spawns overflow, which is counted either way
  ASSERT_FALSE(c.counts_spawns());
  weft::Runtime rt(c);
  ASSERT_EQ(rt.run([] { return weft_fib(18); }), serial_fib(18));
  const weft::Stats s = settled_stats(rt);
  EXPECT_FALSE(s.spawns_counted);
  EXPECT_EQ(s.total.spawns, 0u);
  EXPECT_EQ(s.total.inline_joins, 0u);
  EXPECT_GT(s.total.overflow_spawns, 0u);
  const std::string json = s.json();
  EXPECT_NE(json.find("\"spawns_counted\":false"), std::string::npos) << json;
  EXPECT_NE(json.find("\"total\":{\"spawns\":null,\"inline_joins\":null,\"overflow_spawns\":"),
            std::string::npos)
      << json;
  const std::string table = s.table();
  EXPECT_NE(table.find("spawns and inline_joins not counted"), std::string::npos) << table;
}

// Counting under the request mechanism, whose pending-request flag shares the spawn's one
// check with counting: a request served on the out-of-line path is still counted once.
TEST(Stats, CountingStacksCountUnderTheRequestMechanism) {
  weft::Config c = weft_test::counting_config("half", 2);
  c.mechanism = weft::StealMechanism::kRequest;
  weft::Runtime rt(c);
  for (int round = 0; round < 5; ++round) {
    ASSERT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
  }
  const weft::Stats s = settled_stats(rt);
  EXPECT_TRUE(s.spawns_counted);
  EXPECT_EQ(s.total.spawns, 5 * fib_spawns(20)) << s.table();
  EXPECT_EQ(s.total.spawns, s.total.inline_joins + s.total.stolen_joins + s.total.overflow_spawns);
}

}  // namespace

// Runtime lifecycle: building and destroying many runtimes, every worker count, several
// runtimes at once, and Config validation at construction.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft_test::serial_fib;
using weft_test::weft_fib;

TEST(Lifecycle, AThousandRuntimesInARow) {
  const int count = static_cast<int>(weft_test::scaled(1000, 100));
  int correct = 0;
  weft_test::with_watchdog(120s, "creating and destroying runtimes", [&] {
    for (int i = 0; i < count; ++i) {
      weft::Config c = weft_test::base_config();
      c.workers = 2;
      c.steal = i % 2 == 0 ? weft::StealPolicy::one() : weft::StealPolicy::half();
      weft::Runtime rt(c);
      if (rt.run([] { return weft_fib(10); }) == serial_fib(10)) ++correct;
    }
  });
  EXPECT_EQ(correct, count);
}

// Resident memory of this process, from /proc/self/statm (pages), in bytes.
std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int got = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// Task stacks are reserved, not touched: the largest slot count (4 GiB of slots per worker)
// costs a shallow program only the pages it reaches.
TEST(Lifecycle, TheLargestTaskStacksAreReservedNotTouched) {
  // The sanitizers keep shadow memory for mappings, which this bound does not describe.
  if (weft_test::kSanitized) GTEST_SKIP() << "resident memory is the sanitizer's here";
  weft::Config c = weft_test::base_config();
  c.workers = 4;
  c.task_slots = std::size_t{1} << 26;
  const std::size_t before = resident_bytes();
  weft::Runtime rt(c);
  EXPECT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
  const std::size_t grown = resident_bytes() - before;
  // 16 GiB reserved; a run of fib(20) touches a few pages of slots per worker. The bound
  // leaves room for the thread stacks' touched pages and the sanitizers' bookkeeping.
  EXPECT_LT(grown, std::size_t{256} << 20) << "resident memory grew by " << grown << " bytes";
}

TEST(Lifecycle, RuntimesThatNeverRunAreDestroyedCleanly) {
  weft_test::with_watchdog(60s, "destroying idle runtimes", [] {
    for (int i = 0; i < 50; ++i) {
      weft::Config c = weft_test::base_config();
      c.workers = 1 + i % 4;
      weft::Runtime rt(c);
      if (i % 2 == 0) std::this_thread::sleep_for(1ms);  // let some workers park first
    }
  });
}

TEST(Lifecycle, EveryWorkerCountFromOneToEight) {
  for (unsigned n = 1; n <= 8; ++n) {
    SCOPED_TRACE("workers = " + std::to_string(n));
    weft::Config c = weft_test::base_config();
    c.workers = n;
    weft::Runtime rt(c);
    EXPECT_EQ(rt.workers(), n);
    EXPECT_EQ(rt.config().workers, n);
    EXPECT_EQ(rt.config().resolved_workers(), n);
    EXPECT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
    EXPECT_EQ(rt.stats().per_worker.size(), n);
  }
}

TEST(Lifecycle, ZeroWorkersMeansTheHardwareThreads) {
  weft::Config c = weft_test::base_config();
  c.workers = 0;
  const unsigned hw = std::thread::hardware_concurrency();
  EXPECT_EQ(c.resolved_workers(), hw == 0 ? 1u : hw);
  weft::Runtime rt(c);
  EXPECT_EQ(rt.workers(), c.resolved_workers());
  EXPECT_EQ(rt.run([] { return weft_fib(16); }), serial_fib(16));
}

TEST(Lifecycle, RuntimeKeepsItsConfig) {
  weft::Config c = weft_test::base_config();
  c.workers = 3;
  c.steal = weft::StealPolicy::fixed(4);
  c.seed = 99;
  c.task_slots = 100;
  c.worker_stack_bytes = std::size_t{1} << 20;
  weft::Runtime rt(c);
  EXPECT_EQ(rt.config().steal.spec(), "fixed:4");
  EXPECT_EQ(rt.config().seed, 99u);
  EXPECT_EQ(rt.config().task_slots, 100u);
  EXPECT_EQ(rt.config().worker_stack_bytes, std::size_t{1} << 20);
  EXPECT_EQ(rt.run([] { return weft_fib(18); }), serial_fib(18));
}

TEST(Lifecycle, SeveralRuntimesAliveAtOnceFromSeveralThreads) {
  std::vector<std::unique_ptr<weft::Runtime>> rts;
  for (unsigned i = 0; i < 3; ++i) {
    rts.push_back(std::make_unique<weft::Runtime>(
        weft_test::make_config(weft_test::policy_specs()[i], 1 + i)));
  }
  std::atomic<int> correct{0};
  const int runs = static_cast<int>(weft_test::scaled(20, 4));
  weft_test::with_watchdog(60s, "three runtimes used from six threads", [&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t) {
      threads.emplace_back([&, t] {
        weft::Runtime& rt = *rts[static_cast<std::size_t>(t) % rts.size()];
        for (int i = 0; i < runs; ++i) {
          if (rt.run([] { return weft_fib(17); }) == serial_fib(17)) correct.fetch_add(1);
        }
      });
    }
    for (auto& th : threads) th.join();
  });
  EXPECT_EQ(correct.load(), 6 * runs);
  rts.clear();
}

TEST(Lifecycle, PinnedWorkersRun) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  c.pin = weft::Pinning::kOn;
  weft::Runtime rt(c);
  EXPECT_EQ(rt.run([] { return weft_fib(20); }), serial_fib(20));
}

// A worker thread that cannot be created (here: a 1 TiB stack, which the kernel refuses) is
// reported as std::system_error from the constructor, after the workers that did start were
// shut down and joined, and the process can go on building runtimes.
TEST(Lifecycle, AWorkerThatCannotStartIsReportedAndCleanedUp) {
  if (weft_test::kSanitized) GTEST_SKIP() << "needs RLIMIT_AS, which sanitizer runtimes defeat";
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  c.task_slots = 1024;
  c.worker_stack_bytes = std::size_t{1} << 30;  // the most Config allows: more than is left
  weft_test::with_watchdog(60s, "a runtime whose workers cannot start", [&] {
    const weft_test::AddressSpaceLimit limit(rlim_t{256} << 20);
    ASSERT_TRUE(limit.set());
    EXPECT_THROW(weft::Runtime rt(c), std::system_error);
  });
  weft::Config ok;
  ok.workers = 2;
  weft::Runtime rt(ok);
  EXPECT_EQ(rt.run([] { return weft_fib(15); }), serial_fib(15));
}

// ---- Config validation at construction ----

template <class Mutate>
std::string construction_error(Mutate mutate) {
  weft::Config c = weft_test::base_config();
  c.workers = 1;
  mutate(c);
  try {
    weft::Runtime rt(c);
  } catch (const weft::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigValidation, RuntimeRejectsBadConfigsWithMessagesNamingTheField) {
  struct Case {
    const char* field;
    void (*mutate)(weft::Config&);
  };
  const Case cases[] = {
      {"workers", [](weft::Config& c) { c.workers = 5000; }},
      {"task_slots", [](weft::Config& c) { c.task_slots = 1; }},
      {"task_slots", [](weft::Config& c) { c.task_slots = (std::size_t{1} << 26) + 1; }},
      {"worker_stack_bytes", [](weft::Config& c) { c.worker_stack_bytes = 4096; }},
      {"worker_stack_bytes", [](weft::Config& c) { c.worker_stack_bytes = 0; }},
      {"help_stack_fraction", [](weft::Config& c) { c.help_stack_fraction = -0.1; }},
      {"help_stack_fraction", [](weft::Config& c) { c.help_stack_fraction = 0.95; }},
      {"help_stack_fraction",
       [](weft::Config& c) { c.help_stack_fraction = std::numeric_limits<double>::quiet_NaN(); }},
  };
  for (const Case& k : cases) {
    const std::string message = construction_error(k.mutate);
    EXPECT_NE(message.find(k.field), std::string::npos)
        << "expected a ConfigError naming " << k.field << ", got \"" << message << "\"";
  }
}

TEST(ConfigValidation, BoundaryValuesAreAccepted) {
  weft::Config c = weft_test::base_config();
  c.workers = 1;
  c.task_slots = 2;
  c.worker_stack_bytes = std::size_t{64} << 10;
  c.help_stack_fraction = 0.0;
  EXPECT_NO_THROW(c.validate());
  c.help_stack_fraction = 0.9;
  c.workers = 4096;
  c.task_slots = std::size_t{1} << 26;
  EXPECT_NO_THROW(c.validate());
  // Small but valid: two slots and the minimum stack still run programs correctly.
  weft::Config small;
  small.workers = 2;
  small.task_slots = 2;
  small.worker_stack_bytes = std::size_t{256} << 10;
  small.help_stack_fraction = 0.0;
  weft::Runtime rt(small);
  EXPECT_EQ(rt.run([] { return weft_fib(16); }), serial_fib(16));
}

}  // namespace

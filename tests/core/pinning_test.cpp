// Config::pin: which workers get bound to which CPU (the rule, for any mask), and that a
// runtime's worker threads really run with the affinity the rule gives them.
#include "core/pinning.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "platform/native_thread.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using namespace std::chrono_literals;
using weft::Pinning;
using weft::detail::worker_cpus;

// Each worker's CPUs, and whether that is a binding.
std::vector<std::vector<int>> cpus_of(Pinning pin, unsigned workers, const std::vector<int>& mask,
                                      bool bound) {
  const weft::detail::WorkerCpus w = worker_cpus(pin, workers, mask);
  EXPECT_EQ(w.bound, bound);
  return w.cpus;
}

using Cpus = std::vector<std::vector<int>>;

TEST(PinningRule, AutoBindsExactlyWhenTheWorkersAreAsManyAsTheCpus) {
  const std::vector<int> mask{1, 3, 4};  // as taskset -c 1,3,4 leaves it
  EXPECT_EQ(cpus_of(Pinning::kAuto, 3, mask, true), (Cpus{{1}, {3}, {4}}));
  EXPECT_EQ(cpus_of(Pinning::kAuto, 2, mask, false), (Cpus{mask, mask}));  // room for the caller
  EXPECT_EQ(cpus_of(Pinning::kAuto, 4, mask, false), Cpus(4, mask));       // oversubscribed
  EXPECT_EQ(cpus_of(Pinning::kAuto, 1, {7}, false), (Cpus{{7}}));
}

TEST(PinningRule, OnBindsRoundRobinOverTheMaskAndOffNever) {
  const std::vector<int> mask{2, 5};
  EXPECT_EQ(cpus_of(Pinning::kOn, 5, mask, true), (Cpus{{2}, {5}, {2}, {5}, {2}}));
  EXPECT_EQ(cpus_of(Pinning::kOn, 1, {7}, true), (Cpus{{7}}));
  EXPECT_EQ(cpus_of(Pinning::kOff, 2, mask, false), (Cpus{mask, mask}));
  // A mask the kernel would not report sets nothing, whatever was asked.
  EXPECT_EQ(cpus_of(Pinning::kOn, 2, {}, false), (Cpus{{}, {}}));
  EXPECT_EQ(cpus_of(Pinning::kAuto, 2, {}, false), (Cpus{{}, {}}));
}

// The affinity of each worker thread, read on that thread: tasks that wait (for 10 s at most)
// until every worker has run one of them.
std::map<int, std::vector<int>> affinity_by_worker(weft::Runtime& rt) {
  std::map<int, std::vector<int>> seen;
  std::mutex m;
  const unsigned n = rt.workers();
  rt.run([&] {
    weft::scope([&](weft::Scope& s) {
      for (unsigned t = 0; t < 8 * n; ++t) {
        s.spawn([&] {
          const std::vector<int> cpus = weft::platform::thread_cpus();
          const auto deadline = std::chrono::steady_clock::now() + 10s;
          {
            std::lock_guard lock(m);
            seen[weft::this_worker_id()] = cpus;
          }
          // Hold this worker until the others have taken tasks too.
          while (std::chrono::steady_clock::now() < deadline) {
            {
              std::lock_guard lock(m);
              if (seen.size() == n) break;
            }
            std::this_thread::sleep_for(1ms);
          }
        });
      }
    });
  });
  return seen;
}

TEST(Pinning, TheWorkersRunWhereTheRuleSays) {
  const std::vector<int> allowed = weft::platform::allowed_cpus();
  ASSERT_FALSE(allowed.empty());
  if (allowed.size() < 2) GTEST_SKIP() << "one CPU: auto binds nobody, nothing to tell apart";
  for (const Pinning pin : {Pinning::kAuto, Pinning::kOn, Pinning::kOff}) {
    for (const unsigned workers :
         {static_cast<unsigned>(allowed.size()), 2u * static_cast<unsigned>(allowed.size())}) {
      weft::Config c = weft_test::base_config();
      c.workers = workers;
      c.pin = pin;
      weft::Runtime rt(c);
      const weft::detail::WorkerCpus expected = worker_cpus(pin, workers, allowed);
      EXPECT_EQ(rt.workers_pinned(), expected.bound);
      const auto seen = affinity_by_worker(rt);
      ASSERT_EQ(seen.size(), workers) << "not every worker ran a task within 10 s";
      for (const auto& [id, cpus] : seen) {
        EXPECT_EQ(cpus, expected.cpus.at(static_cast<std::size_t>(id))) << "worker " << id;
      }
    }
  }
}

// A runtime made inside a task runs on a worker that may be bound to one CPU; its own
// unbound workers still get every CPU of the process, not that worker's one.
TEST(Pinning, ARuntimeMadeInATaskOfABoundOneIsNotCrowdedOntoItsCpu) {
  const std::vector<int> allowed = weft::platform::allowed_cpus();
  if (allowed.size() < 2) GTEST_SKIP() << "one CPU: nothing to be crowded onto";
  weft::Config outer_config = weft_test::base_config();
  outer_config.workers = static_cast<unsigned>(allowed.size());
  outer_config.pin = Pinning::kOn;
  weft::Runtime outer(outer_config);
  std::map<int, std::vector<int>> seen;
  outer.run([&] {
    weft::Config inner_config = weft_test::base_config();
    inner_config.workers = static_cast<unsigned>(allowed.size()) + 1;  // auto: unbound
    weft::Runtime inner(inner_config);
    EXPECT_FALSE(inner.workers_pinned());
    seen = affinity_by_worker(inner);
  });
  ASSERT_EQ(seen.size(), allowed.size() + 1) << "not every worker ran a task within 10 s";
  for (const auto& [id, cpus] : seen) EXPECT_EQ(cpus, allowed) << "inner worker " << id;
}

}  // namespace

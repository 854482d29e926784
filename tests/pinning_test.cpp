// Config::pin: which workers get bound to which CPU (the rule, for any mask), and that a
// runtime's worker threads really run with the affinity the rule gives them.
#include "core/pinning.hpp"

#include <gtest/gtest.h>
#include <sched.h>

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

const std::vector<int> kUnbound2{-1, -1};

TEST(PinningRule, AutoBindsExactlyWhenTheWorkersAreAsManyAsTheCpus) {
  const std::vector<int> mask{1, 3, 4};  // as taskset -c 1,3,4 leaves it
  EXPECT_EQ(worker_cpus(Pinning::kAuto, 3, mask), (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(worker_cpus(Pinning::kAuto, 2, mask), kUnbound2);  // room for the caller
  EXPECT_EQ(worker_cpus(Pinning::kAuto, 4, mask), (std::vector<int>(4, -1)));  // oversubscribed
  EXPECT_EQ(worker_cpus(Pinning::kAuto, 1, std::vector<int>{7}), std::vector<int>{-1});
}

TEST(PinningRule, OnBindsRoundRobinOverTheMaskAndOffNever) {
  const std::vector<int> mask{2, 5};
  EXPECT_EQ(worker_cpus(Pinning::kOn, 5, mask), (std::vector<int>{2, 5, 2, 5, 2}));
  EXPECT_EQ(worker_cpus(Pinning::kOn, 1, std::vector<int>{7}), std::vector<int>{7});
  EXPECT_EQ(worker_cpus(Pinning::kOff, 2, mask), kUnbound2);
  // A mask the kernel would not report binds nobody, whatever was asked.
  EXPECT_EQ(worker_cpus(Pinning::kOn, 2, {}), kUnbound2);
  EXPECT_EQ(worker_cpus(Pinning::kAuto, 2, {}), kUnbound2);
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
          cpu_set_t set;
          CPU_ZERO(&set);
          EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
          std::vector<int> cpus;
          for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
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
      const std::vector<int> expected = worker_cpus(pin, workers, allowed);
      EXPECT_EQ(rt.workers_pinned(), expected.front() >= 0);
      const auto seen = affinity_by_worker(rt);
      ASSERT_EQ(seen.size(), workers) << "not every worker ran a task within 10 s";
      for (const auto& [id, cpus] : seen) {
        const int want = expected.at(static_cast<std::size_t>(id));
        if (want >= 0) {
          EXPECT_EQ(cpus, std::vector<int>{want}) << "worker " << id;
        } else {
          EXPECT_EQ(cpus, allowed) << "worker " << id;
        }
      }
    }
  }
}

}  // namespace

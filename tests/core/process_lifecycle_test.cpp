// A runtime across fork() and runtimes that run each other: each has a defined behaviour (an
// exception naming the problem) where it used to hang or crash.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "process_support.hpp"
#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using weft_test::serial_fib;
using weft_test::weft_fib;

// Exit codes of the forked child, each naming what went wrong there.
enum ChildExit { kChildOk = 0, kRunDidNotThrow = 10, kWrongException = 11, kNewRuntimeFailed = 12 };

TEST(Fork, AnInheritedRuntimeThrowsInTheChildAndIsDestroyedCleanly) {
  auto rt = std::make_unique<weft::Runtime>(weft_test::make_config("half", 2));
  ASSERT_EQ(rt->run([] { return weft_fib(20); }), serial_fib(20));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = kChildOk;
    try {
      (void)rt->run([] { return 1; });
      code = kRunDidNotThrow;
    } catch (const std::logic_error& e) {
      if (std::string(e.what()).find("fork") == std::string::npos) code = kWrongException;
    } catch (...) {
      code = kWrongException;
    }
    rt.reset();  // must neither hang nor crash
    // A fresh runtime works in the child. The sanitizer builds leave this part out:
    // ThreadSanitizer does not support threads started after a multi-threaded fork, and
    // GCC 12's AddressSanitizer allocator is not fork-safe (a size-class lock that one of the
    // parent's workers held at the fork, while it freed the finished job's memory, stays
    // held in the child, and the new workers' first allocation waits on it for ever: seen
    // in about 1 run in 50 with other tests beside it).
    if (code == kChildOk && !weft_test::kSanitized) {
      weft::Runtime fresh(weft_test::make_config("half", 2));
      if (fresh.run([] { return weft_fib(18); }) != serial_fib(18)) code = kNewRuntimeFailed;
    }
    _exit(code);
  }
  const std::optional<int> status = process_test::wait_for_exit(pid);
  if (!status) {
    kill(pid, SIGKILL);
    (void)waitpid(pid, nullptr, 0);
    FAIL() << "the child hung (killed after " << process_test::kPatience.count() << " s)";
  }
  ASSERT_TRUE(WIFEXITED(*status)) << "the child died (status " << *status << ")";
  EXPECT_EQ(WEXITSTATUS(*status), kChildOk);
  // The parent's runtime is untouched.
  EXPECT_EQ(rt->run([] { return weft_fib(20); }), serial_fib(20));
}

// A's task runs B, whose task runs A: with one worker each nobody is left to run the inner
// job, and the program used to hang. The inner run() throws instead, with any worker count.
TEST(NestedRuntimes, ACycleOfRunsThrowsInsteadOfHanging) {
  for (unsigned workers : {1u, 2u, 4u}) {
    weft_test::with_watchdog(std::chrono::seconds(60), "a cycle of nested runs", [workers] {
      weft::Runtime a(weft_test::make_config("one", workers));
      weft::Runtime b(weft_test::make_config("one", workers));
      try {
        (void)a.run([&] { return b.run([&] { return a.run([] { return 1; }); }); });
        ADD_FAILURE() << "the cycle was not refused with " << workers << " workers";
      } catch (const std::logic_error& e) {
        EXPECT_NE(std::string(e.what()).find("waiting"), std::string::npos) << e.what();
      }
      // Both runtimes still work, and so does nesting one way.
      EXPECT_EQ(a.run([&] { return b.run([] { return weft_fib(15); }); }), serial_fib(15));
      EXPECT_EQ(b.run([&] { return a.run([] { return weft_fib(15); }); }), serial_fib(15));
    });
  }
}

TEST(NestedRuntimes, ALongerCycleIsRefusedToo) {
  weft_test::with_watchdog(std::chrono::seconds(60), "a cycle of three runtimes", [] {
    weft::Runtime a(weft_test::make_config("one", 1));
    weft::Runtime b(weft_test::make_config("one", 1));
    weft::Runtime c(weft_test::make_config("one", 1));
    EXPECT_THROW((void)a.run([&] {
      return b.run([&] { return c.run([&] { return a.run([] { return 1; }); }); });
    }),
                 std::logic_error);
    // A chain without a cycle runs.
    EXPECT_EQ(a.run([&] { return b.run([&] { return c.run([] { return weft_fib(12); }); }); }),
              serial_fib(12));
  });
}

TEST(NestedRuntimes, ARunOfTheSameRuntimeFromItsOwnTaskIsACall) {
  weft::Runtime a(weft_test::make_config("one", 2));
  weft::Runtime b(weft_test::make_config("one", 2));
  EXPECT_EQ(a.run([&] { return b.run([&] { return b.run([] { return weft_fib(14); }); }); }),
            serial_fib(14));
}

}  // namespace

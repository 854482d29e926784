// Misuse of weft's threads and blocking primitives aborts with a message that says what went
// wrong, in every build: primitives outside a runtime, an unlock by a non-owner, destroying a
// joinable thread, an exception leaving a detached thread, a thread joining itself. A thread
// that overflows its stack is named with its stack's size; a deadlock is reported with what
// each thread and task waits on; Runtime::dump_threads() lists the threads.
#include <gtest/gtest.h>
#include <regex.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

using ::testing::KilledBySignal;

// A death test's stderr that lacks `text` (gtest without gmock has no Not(HasSubstr)).
class LacksMatcher : public ::testing::MatcherInterface<const std::string&> {
 public:
  explicit LacksMatcher(std::string text) : text_(std::move(text)) {}
  bool MatchAndExplain(const std::string& s, ::testing::MatchResultListener*) const override {
    return s.find(text_) == std::string::npos;
  }
  void DescribeTo(std::ostream* os) const override { *os << "lacks \"" << text_ << "\""; }

 private:
  std::string text_;
};

::testing::Matcher<const std::string&> Lacks(std::string text) {
  return ::testing::Matcher<const std::string&>(new LacksMatcher(std::move(text)));
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// POSIX extended syntax, as the death tests' patterns (std::regex trips GCC 12's
// maybe-uninitialized warning under ASan).
bool contains_regex(const std::string& text, const char* pattern) {
  regex_t re;
  if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
    ADD_FAILURE() << "bad pattern " << pattern;
    return false;
  }
  const bool found = regexec(&re, text.c_str(), 0, nullptr, 0) == 0;
  regfree(&re);
  return found;
}

class ThreadMisuseDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

weft::Config two_workers() {
  weft::Config c;
  c.workers = 2;
  c.thread_stack_bytes = std::size_t{256} << 10;  // sanitized builds too
  return c;
}

TEST_F(ThreadMisuseDeathTest, AMutexOutsideARuntimeAborts) {
  EXPECT_DEATH(
      {
        weft::mutex m;
        m.lock();
      },
      "weft::mutex::lock called outside a weft runtime");
}

TEST_F(ThreadMisuseDeathTest, AThreadOutsideARuntimeAborts) {
  EXPECT_DEATH({ weft::thread t([] {}); }, "weft::thread's constructor called outside");
}

TEST_F(ThreadMisuseDeathTest, UnlockByANonOwnerAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::mutex m;
          m.lock();
          weft::thread t([&] { m.unlock(); });
          t.join();
        });
      },
      "unlock of a weft::mutex by a thread or task that does not hold it");
}

TEST_F(ThreadMisuseDeathTest, UnlockOfAFreeMutexAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::mutex m;
          m.unlock();
        });
      },
      "unlock of a weft::mutex that is not locked");
}

TEST_F(ThreadMisuseDeathTest, DestroyingAJoinableThreadAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(two_workers());
        rt.run([] { weft::thread t([] {}); });
      },
      "a joinable weft::thread was destroyed");
}

TEST_F(ThreadMisuseDeathTest, AnExceptionLeavingADetachedThreadAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread([] {
            weft::this_thread::yield();
            throw std::runtime_error("lost");
          }).detach();
        });
      },
      "an exception left detached thread [0-9]+: lost");
}

TEST_F(ThreadMisuseDeathTest, JoiningANonJoinableThreadAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread t([] {});
          t.join();
          t.join();
        });
      },
      "join\\(\\) of a weft::thread that is not joinable");
}

// ---- Stack overflow ----

// Deep enough to overflow any stack: each level keeps a frame the compiler cannot drop.
volatile std::uint64_t g_depth_limit = ~std::uint64_t{0};

[[gnu::noinline]] std::uint64_t recurse(std::uint64_t depth) {
  volatile char frame[192];
  frame[depth % sizeof frame] = static_cast<char>(depth);
  if (depth >= g_depth_limit) return 0;
  return recurse(depth + 1) + static_cast<std::uint64_t>(frame[(depth + 1) % sizeof frame]);
}

// A fault the handler must leave alone: a write to a page that was just unmapped.
void write_to_an_unmapped_page() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  munmap(p, page);
  *static_cast<volatile char*>(p) = 1;
}

// AddressSanitizer owns SIGSEGV (weft installs no handler under it) and reports a stack
// overflow in its own words: the tests of the handler skip there.
constexpr const char* kAsanOwnsSigsegv = "AddressSanitizer handles SIGSEGV itself";

TEST_F(ThreadMisuseDeathTest, AThreadThatOverflowsItsStackIsNamedWithTheStacksSize) {
  if (weft_test::kAddressSanitizer) GTEST_SKIP() << kAsanOwnsSigsegv;
  EXPECT_EXIT(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread t([] { (void)recurse(0); }, {.stack_bytes = std::size_t{16} << 10});
          t.join();
        });
      },
      KilledBySignal(SIGABRT),
      "^weft: thread 1 overflowed its 16384-byte stack \\(WEFT_THREAD_STACK\\)\n$");
}

TEST_F(ThreadMisuseDeathTest, AFaultOutsideAnyGuardPageStillDiesOfSigsegv) {
  if (weft_test::kAddressSanitizer) GTEST_SKIP() << kAsanOwnsSigsegv;
  // Under TSan the default course of a SIGSEGV is TSan's own report, which then aborts.
  if (weft_test::kThreadSanitizer) GTEST_SKIP() << "ThreadSanitizer reports the fault itself";
  EXPECT_EXIT(
      {
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread t([] { write_to_an_unmapped_page(); });
          t.join();
        });
      },
      KilledBySignal(SIGSEGV), Lacks("overflowed"));
}

// A SIGSEGV handler the program had before its first Runtime still gets the faults that are
// not guard hits; guard hits are still reported.
void exit_from_the_programs_handler(int) {
  static const char kText[] = "the program's own handler\n";
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, kText, sizeof kText - 1);
  _exit(3);
}

void install_programs_handler() {
  struct sigaction action {};
  action.sa_handler = &exit_from_the_programs_handler;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
}

TEST_F(ThreadMisuseDeathTest, AFaultOutsideAnyGuardPageGoesToThePreviousHandler) {
  if (weft_test::kAddressSanitizer) GTEST_SKIP() << kAsanOwnsSigsegv;
  EXPECT_EXIT(
      {
        install_programs_handler();
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread t([] { write_to_an_unmapped_page(); });
          t.join();
        });
      },
      ::testing::ExitedWithCode(3), "^the program's own handler\n$");
  EXPECT_EXIT(
      {
        install_programs_handler();
        weft::Runtime rt(two_workers());
        rt.run([] {
          weft::thread t([] { (void)recurse(0); }, {.stack_bytes = std::size_t{16} << 10});
          t.join();
        });
      },
      KilledBySignal(SIGABRT), "^weft: thread 1 overflowed its 16384-byte stack");
}

// ---- The deadlock detector ----

// A death test's child that hangs (a deadlock nobody reported) dies of SIGALRM instead, which
// fails the test's expectation of SIGABRT.
constexpr unsigned kHangSeconds = 30;

weft::Config watched(weft::DeadlockAction action) {
  weft::Config c = two_workers();
  c.deadlock = action;
  c.deadlock_ms = 100;
  return c;
}

// Half of a lock-order deadlock: holds `mine`, says so, waits until the other thread holds
// `theirs`, then locks it (forever, once the other thread does the same the other way round).
void hold_mine_then_take_theirs(weft::mutex& mine, weft::binary_semaphore& mine_held,
                                weft::mutex& theirs, weft::binary_semaphore& theirs_held) {
  std::lock_guard hold(mine);
  mine_held.release();
  theirs_held.acquire();
  std::lock_guard take(theirs);
}

TEST_F(ThreadMisuseDeathTest, TwoThreadsLockingTwoMutexesInOppositeOrdersAreReported) {
  EXPECT_EXIT(
      {
        alarm(kHangSeconds);
        weft::Runtime rt(watched(weft::DeadlockAction::kAbort));
        rt.run([] {
          weft::mutex a, b;
          weft::binary_semaphore a_held(0), b_held(0);
          weft::thread t1([&] { hold_mine_then_take_theirs(a, a_held, b, b_held); });
          weft::thread t2([&] { hold_mine_then_take_theirs(b, b_held, a, a_held); });
          t1.join();
          t2.join();
        });
      },
      KilledBySignal(SIGABRT),
      "weft: deadlock: every worker is idle or waiting, no thread is ready, and nothing has "
      "changed for 100 ms \\(WEFT_DEADLOCK_MS\\); waiting:\n"
      "  thread 1: blocked, waits on weft::mutex 0x[0-9a-f]+ held by thread 2\n"
      "  thread 2: blocked, waits on weft::mutex 0x[0-9a-f]+ held by thread 1\n"
      "  a task on worker [01]: waits to join thread 1\n"
      "weft: aborting \\(WEFT_DEADLOCK=abort\\)\n$");
}

TEST_F(ThreadMisuseDeathTest, AJoinOfAThreadBlockedForeverIsReported) {
  EXPECT_EXIT(
      {
        alarm(kHangSeconds);
        weft::Runtime rt(watched(weft::DeadlockAction::kAbort));
        rt.run([] {
          weft::mutex m;
          weft::condition_variable never;
          weft::thread sleeper([&] {
            std::unique_lock lock(m);
            never.wait(lock, [] { return false; });
          });
          weft::thread joiner([&] { sleeper.join(); });
          joiner.join();
        });
      },
      KilledBySignal(SIGABRT),
      "waiting:\n"
      "  thread 1: blocked, waits on weft::condition_variable 0x[0-9a-f]+\n"
      "  thread 2: blocked, waits to join thread 1\n"
      "  a task on worker [01]: waits to join thread 2\n"
      "weft: aborting");
}

TEST_F(ThreadMisuseDeathTest, ATaskWaitingOnAMutexABlockedThreadHoldsIsReported) {
  // One worker: the task is the only one that could run anything, and it waits.
  EXPECT_EXIT(
      {
        alarm(kHangSeconds);
        weft::Config c = watched(weft::DeadlockAction::kAbort);
        c.workers = 1;
        weft::Runtime rt(c);
        rt.run([] {
          weft::mutex m;
          weft::barrier<> arrived(2);
          weft::thread holder([&] {
            std::lock_guard lock(m);
            arrived.arrive_and_wait();
            arrived.arrive_and_wait();  // nobody comes a second time
          });
          arrived.arrive_and_wait();
          std::lock_guard lock(m);
        });
      },
      KilledBySignal(SIGABRT),
      "waiting:\n"
      "  thread 1: blocked, waits on weft::barrier 0x[0-9a-f]+\n"
      "  a task on worker 0: waits on weft::mutex 0x[0-9a-f]+ held by thread 1\n"
      "weft: aborting");
}

// No task waits here: the run has returned, the destructor waits for the detached threads,
// and every worker is idle. Kept awake for ten seconds (Config::idle_awake_us), no worker naps
// as the watchman before the alarm, so the idle workers themselves must look.
TEST_F(ThreadMisuseDeathTest, DetachedThreadsDeadlockedAreReportedWhileTheWorkersStayAwake) {
  EXPECT_EXIT(
      {
        alarm(5);  // under the awake time: a report that waits for a nap dies of SIGALRM
        weft::Config c = watched(weft::DeadlockAction::kAbort);
        c.idle_awake_us = 10'000'000;
        weft::Runtime rt(c);
        rt.run([] {
          static weft::mutex a, b;
          static weft::binary_semaphore a_held(0), b_held(0);
          weft::thread([] { hold_mine_then_take_theirs(a, a_held, b, b_held); }).detach();
          weft::thread([] { hold_mine_then_take_theirs(b, b_held, a, a_held); }).detach();
        });
      },
      KilledBySignal(SIGABRT),
      "waiting:\n"
      "  thread [12]: blocked, waits on weft::mutex 0x[0-9a-f]+ held by thread [12]\n"
      "  thread [12]: blocked, waits on weft::mutex 0x[0-9a-f]+ held by thread [12]\n"
      "weft: aborting");
}

// Stuck for ten windows, then released from outside by a second run(): one report, and the
// program goes on.
std::string stuck_on_a_semaphore_then_released(weft::DeadlockAction action) {
  weft::Runtime rt(watched(action));
  weft::binary_semaphore go(0);
  ::testing::internal::CaptureStderr();
  weft_test::with_watchdog(std::chrono::seconds(kHangSeconds), "a released deadlock", [&] {
    std::thread runner([&] {
      rt.run([&] {
        weft::thread t([&] { go.acquire(); });
        t.join();
      });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    rt.run([&] { go.release(); });
    runner.join();
  });
  return ::testing::internal::GetCapturedStderr();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(DeadlockReport, ReportModePrintsOnceAndTheProgramGoesOn) {
  const std::string err = stuck_on_a_semaphore_then_released(weft::DeadlockAction::kReport);
  EXPECT_EQ(occurrences(err, "weft: deadlock:"), 1u) << err;
  EXPECT_TRUE(
      contains_regex(err,
                     "  thread [0-9]+: blocked, waits on weft::counting_semaphore 0x[0-9a-f]+\n"
                     "  a task on worker [01]: waits to join thread [0-9]+\n"
                     "weft: waiting on \\(WEFT_DEADLOCK=report\\)\n"))
      << err;
}

TEST(DeadlockReport, OffModeSaysNothing) {
  const std::string err = stuck_on_a_semaphore_then_released(weft::DeadlockAction::kOff);
  EXPECT_EQ(err, "");
}

// A thread that waits while a task computes is no deadlock, however long the task takes.
TEST(DeadlockReport, AWaitWhileAWorkerIsBusyIsNoDeadlock) {
  weft::Runtime rt(watched(weft::DeadlockAction::kAbort));
  ::testing::internal::CaptureStderr();
  rt.run([] {
    weft::mutex m;
    weft::condition_variable cv;
    bool ready = false;
    weft::thread waiter([&] {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return ready; });
    });
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
    while (std::chrono::steady_clock::now() < end) {
    }
    {
      std::lock_guard lock(m);
      ready = true;
    }
    cv.notify_one();
    waiter.join();
  });
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// ---- Runtime::dump_threads ----

// A thread holds a mutex (yielding until told to stop) while another blocks on it; the dump,
// taken from outside the run, must name the blocked one, the mutex and its holder.
std::string dump_with_a_thread_blocked_on_a_mutex(bool debug) {
  weft::Config c = two_workers();
  c.thread_debug = debug;
  weft::Runtime rt(c);
  std::atomic<bool> held{false}, stop{false};
  std::atomic<std::uint64_t> holder_number{0}, waiter_number{0};
  std::atomic<const void*> mutex_address{nullptr};
  std::thread runner([&] {
    rt.run([&] {
      weft::mutex m;
      mutex_address = &m;
      weft::thread holder([&] {
        holder_number = weft::this_thread::get_id().number();
        std::lock_guard lock(m);
        held = true;
        while (!stop) weft::this_thread::yield();
      });
      while (!held) std::this_thread::yield();
      weft::thread waiter([&] {
        waiter_number = weft::this_thread::get_id().number();
        std::lock_guard lock(m);
      });
      holder.join();
      waiter.join();
    });
  });
  std::ostringstream expected;
  std::string dump;
  for (int i = 0; i < 2000; ++i) {  // up to 20 s for the waiter to block
    std::ostringstream out;
    rt.dump_threads(out);
    dump = out.str();
    if (waiter_number != 0) {
      expected.str("");
      expected << "  thread " << waiter_number << ": blocked, waits on weft::mutex "
               << mutex_address.load() << " held by thread " << holder_number << "\n";
      if (dump.find(expected.str()) != std::string::npos) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stop = true;
  runner.join();
  EXPECT_TRUE(contains(dump, expected.str())) << dump;
  EXPECT_TRUE(contains_regex(dump, "^weft: 2 live threads, [01] tasks? waiting")) << dump;
  EXPECT_TRUE(contains_regex(dump, "  thread [0-9]+: (ready|running)\n")) << dump;
  return dump;
}

TEST(DumpThreads, ListsABlockedThreadAndTheMutexItWaitsOn) {
  const std::string dump = dump_with_a_thread_blocked_on_a_mutex(false);
  EXPECT_FALSE(contains(dump, "parked at")) << dump;
}

TEST(DumpThreads, WithThreadDebugABlockedThreadCarriesTheBacktraceOfItsPark) {
  const std::string dump = dump_with_a_thread_blocked_on_a_mutex(true);
  EXPECT_TRUE(contains_regex(dump,
                             "held by thread [0-9]+\n"
                             "    parked at \\(WEFT_THREAD_DEBUG\\):\n"
                             "      #0 [^\n]*\n"
                             "      #1 "))
      << dump;
}

TEST(DumpThreads, AnIdleRuntimeHasNoThreads) {
  weft::Runtime rt(two_workers());
  std::ostringstream out;
  rt.dump_threads(out);
  EXPECT_EQ(out.str(), "weft: 0 live threads, 0 tasks waiting on weft primitives\n");
}

// ---- Stacks the system will not give ----

TEST(ThreadStacks, AStackTheSystemRefusesNamesVmMaxMapCount) {
  if (weft_test::kSanitized) GTEST_SKIP() << "sanitizer runtimes reserve address space too";
  weft::Runtime rt(two_workers());
  std::string message;
  {
    weft_test::AddressSpaceLimit limit(std::size_t{64} << 20);
    if (!limit.set()) GTEST_SKIP() << "cannot lower RLIMIT_AS here";
    rt.run([&] {
      try {
        weft::thread t([] {}, {.stack_bytes = std::size_t{512} << 20});
        t.join();
      } catch (const std::system_error& e) {
        message = e.what();
      }
    });
  }
  EXPECT_TRUE(contains(message, "vm.max_map_count")) << message;
  // The refused thread's block went back for the next thread: threads work as before.
  int ran = 0;
  rt.run([&] {
    for (int i = 0; i < 3; ++i) weft::thread([&] { ++ran; }).join();
  });
  EXPECT_EQ(ran, 3);
}

}  // namespace

// Misuse of weft's threads and blocking primitives aborts with a message that says what went
// wrong, in every build: primitives outside a runtime, an unlock by a non-owner, destroying a
// joinable thread, an exception leaving a detached thread, a thread joining itself.
#include <gtest/gtest.h>

#include <stdexcept>

#include "weft/weft.hpp"

namespace {

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

}  // namespace

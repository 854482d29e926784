// Misuse that weft promises to catch in every build: joining futures out of LIFO order (with
// or without an explicit context), and joining a future on a thread that did not spawn it,
// abort with a message saying so.
// Death tests fork (the threadsafe style re-executes the binary for the one test), so they
// live in their own executable.
#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/context.hpp"
#include "weft/weft.hpp"

namespace {

weft::Config one_worker() {
  weft::Config c;
  c.workers = 1;
  return c;
}

class MisuseDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(MisuseDeathTest, JoiningOutOfLifoOrderAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(one_worker());
        rt.run([] {
          auto a = weft::spawn([] { return 1; });
          auto b = weft::spawn([] { return 2; });
          const int x = a.join();  // a is older than b: out of order
          const int y = b.join();
          return x + y;
        });
      },
      "LIFO");
}

// The explicit-context join (weft/context.hpp) of a future that is not the newest takes the
// ordinary join's path, which catches it.
TEST_F(MisuseDeathTest, JoiningOutOfLifoOrderWithAContextAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(one_worker());
        rt.run([] {
          weft::Ctx c = weft::context();
          auto a = weft::spawn(c, [](weft::Ctx) { return 1; });
          auto b = weft::spawn(c, [](weft::Ctx) { return 2; });
          const int x = weft::join(c, a);  // a is older than b: out of order
          const int y = weft::join(c, b);
          return x + y;
        });
      },
      "LIFO");
}

TEST_F(MisuseDeathTest, OutOfOrderJoinIsCaughtWithManyWorkersToo) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(weft_test::make_config("half", 4));
        rt.run([] {
          auto a = weft::spawn([] { return weft_test::weft_fib(12); });
          auto b = weft::spawn([] { return weft_test::weft_fib(12); });
          auto c = weft::spawn([] { return weft_test::weft_fib(12); });
          const auto y = b.join();  // c is the newest
          return y + c.join() + a.join();
        });
      },
      "LIFO");
}

TEST_F(MisuseDeathTest, JoiningOnAnotherThreadAborts) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(one_worker());
        rt.run([] {
          auto f = weft::spawn([] { return 1; });
          std::thread other([&f] { (void)f.join(); });
          other.join();
          return 0;
        });
      },
      "did not spawn the task");
}

// A std::vector of futures destroyed unjoined destroys them oldest first, which is out of
// order; the message points to the container that joins newest first.
TEST_F(MisuseDeathTest, AVectorOfUnjoinedFuturesAbortsNamingFutureVector) {
  EXPECT_DEATH(
      {
        weft::Runtime rt(one_worker());
        rt.run([] {
          std::vector<weft::Future<int>> futures;
          for (int i = 0; i < 4; ++i) futures.push_back(weft::spawn([i] { return i; }));
          return 0;  // unjoined: ~vector destroys futures[0] first
        });
      },
      "weft::FutureVector");
}

// Correct use in the same shapes does not die (the death tests above are not vacuous).
TEST(Misuse, CorrectOrderDoesNotAbort) {
  weft::Runtime rt(one_worker());
  const int r = rt.run([] {
    auto a = weft::spawn([] { return 1; });
    auto b = weft::spawn([] { return 2; });
    const int y = b.join();
    const int x = a.join();
    return x * 10 + y;
  });
  EXPECT_EQ(r, 12);
}

TEST(Misuse, JoiningAnEmptyFutureThrowsLogicError) {
  weft::Future<int> empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_THROW((void)empty.join(), std::logic_error);
  weft::Runtime rt(one_worker());
  rt.run([] {
    auto f = weft::spawn([] { return 5; });
    EXPECT_TRUE(f.valid());
    EXPECT_EQ(f.join(), 5);
    EXPECT_FALSE(f.valid());
    EXPECT_THROW((void)f.join(), std::logic_error);
    auto g = weft::spawn([] { return 6; });
    weft::Future<int> moved = std::move(g);
    EXPECT_FALSE(g.valid());  // NOLINT(bugprone-use-after-move): checking the moved-from state
    EXPECT_THROW((void)g.join(), std::logic_error);
    EXPECT_EQ(moved.join(), 6);
  });
}

}  // namespace

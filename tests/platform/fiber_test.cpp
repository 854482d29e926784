// The platform layer of user-level threads: guarded, pooled stacks and the fcontext switch
// with its sanitizer annotations. Contexts ping-pong, many fibers take turns, a fiber moves
// between OS threads mid-run, exceptions unwind on a fiber's own stack, a reused stack runs a
// new fiber, and an overflow faults on the guard page.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "platform/fiber_context.hpp"
#include "platform/fiber_stack.hpp"
#include "platform/noipa.hpp"

namespace {

using weft::platform::ExecutionContext;
using weft::platform::FiberStack;
using weft::platform::FiberStackPool;

// Sanitized builds need deeper stacks (ASan's redzones, TSan's frames).
constexpr std::size_t kStackBytes = 256 * 1024;

// One fiber on a stack of its own, mapped for the test and unmapped after it.
struct OwnedFiber {
  explicit OwnedFiber(weft::platform::FiberEntry entry)
      : stack(weft::platform::map_fiber_stack(kStackBytes)) {
    context.prepare(stack.bottom(), stack.usable_bytes(), entry);
  }
  ~OwnedFiber() { weft::platform::unmap_fiber_stack(stack); }
  FiberStack stack;
  ExecutionContext context;
};

// A fiber that counts: each switch back adds what it was sent, and sends its total back.
struct Counter {
  ExecutionContext* caller = nullptr;
  std::int64_t total = 0;
  int rounds = 0;
};

void count_entry(ExecutionContext& self, void* data) {
  auto& c = *static_cast<Counter*>(data);
  for (int r = 0; r < c.rounds; ++r) {
    void* sent = self.switch_to(*c.caller, &c.total);
    c.total += *static_cast<std::int64_t*>(sent);
  }
  self.exit_to(*c.caller, nullptr);
}

TEST(FiberContext, PingPongPassesDataBothWays) {
  OwnedFiber owned(&count_entry);
  ExecutionContext& fiber = owned.context;
  ExecutionContext main_ctx;
  main_ctx.adopt_thread();
  Counter c{&main_ctx, 0, 1000};
  void* got = main_ctx.switch_to(fiber, &c);  // the first run starts the count
  std::int64_t expect = 0;
  for (std::int64_t i = 1; i <= 1000; ++i) {
    ASSERT_EQ(*static_cast<std::int64_t*>(got), expect);
    got = main_ctx.switch_to(fiber, &i);
    expect += i;
  }
  EXPECT_EQ(got, nullptr) << "the fiber's exit sends nothing";
  EXPECT_EQ(c.total, 1000 * 1001 / 2);
}

// Round robin over many fibers, each resumed by the main context in turn.
TEST(FiberContext, ManyFibersTakeTurns) {
  constexpr int kFibers = 200;
  constexpr int kRounds = 20;
  FiberStackPool pool(kStackBytes, kFibers);
  ExecutionContext main_ctx;
  main_ctx.adopt_thread();
  std::vector<FiberStack> stacks;
  std::vector<ExecutionContext> fibers(kFibers);
  std::vector<Counter> counters(kFibers);
  for (int f = 0; f < kFibers; ++f) {
    stacks.push_back(pool.acquire());
    fibers[f].prepare(stacks[f].bottom(), stacks[f].usable_bytes(), &count_entry);
    counters[f] = Counter{&main_ctx, 0, kRounds};
    main_ctx.switch_to(fibers[f], &counters[f]);
  }
  EXPECT_EQ(pool.live(), static_cast<std::size_t>(kFibers));
  for (std::int64_t r = 0; r < kRounds; ++r) {
    for (int f = 0; f < kFibers; ++f) {
      std::int64_t add = f + 1;
      main_ctx.switch_to(fibers[f], &add);
    }
  }
  for (int f = 0; f < kFibers; ++f) {
    EXPECT_EQ(counters[f].total, (f + 1) * kRounds) << "fiber " << f;
    pool.release(stacks[f]);
  }
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.pooled(), static_cast<std::size_t>(kFibers));
}

// A fiber suspended on one OS thread resumes on another: its frames, locals and the data
// it receives move with it. The hand-off between the threads is a release/acquire pair (FC3).
struct Traveller {
  ExecutionContext* home = nullptr;  // the context of the thread running it now
  std::vector<std::thread::id> seen;
  std::int64_t local_sum = 0;
};

// The compiler takes pthread_self() (inside get_id) for a pure function of nothing and
// reuses its first answer across the switches, which is wrong once the fiber has moved: read
// it through a function it may not look into (llvm #98479 is the thread_local version).
WEFT_NOIPA std::thread::id current_thread_id() { return std::this_thread::get_id(); }

void travel_entry(ExecutionContext& self, void* data) {
  auto& t = *static_cast<Traveller*>(data);
  std::int64_t on_my_stack = 0;
  for (int hop = 0; hop < 3; ++hop) {
    t.seen.push_back(current_thread_id());
    on_my_stack += hop + 1;
    self.switch_to(*t.home, nullptr);  // `home` is rewritten by whoever resumes us next
  }
  t.local_sum = on_my_stack;
  self.exit_to(*t.home, nullptr);
}

TEST(FiberContext, AFiberResumesOnAnotherThread) {
  OwnedFiber owned(&travel_entry);
  ExecutionContext& fiber = owned.context;
  Traveller t;
  std::atomic<int> turn{0};  // thread h runs the fiber's hop h; release/acquire orders them
  auto hop = [&](int mine) {
    while (turn.load(std::memory_order_acquire) != mine) std::this_thread::yield();
    ExecutionContext here;
    here.adopt_thread();
    t.home = &here;
    here.switch_to(fiber, &t);
    turn.store(mine + 1, std::memory_order_release);
  };
  std::vector<std::thread> threads;
  for (int h = 0; h < 4; ++h) threads.emplace_back(hop, h);
  for (std::thread& th : threads) th.join();
  ASSERT_EQ(t.seen.size(), 3u);
  EXPECT_NE(t.seen[0], t.seen[1]);
  EXPECT_NE(t.seen[1], t.seen[2]);
  EXPECT_EQ(t.local_sum, 1 + 2 + 3) << "the fiber's own locals survived the moves";
}

// An exception thrown and caught on a fiber's stack unwinds there, between switches.
void throwing_entry(ExecutionContext& self, void* data) {
  auto& c = *static_cast<Counter*>(data);
  for (int r = 0; r < c.rounds; ++r) {
    try {
      self.switch_to(*c.caller, nullptr);
      throw std::runtime_error("round " + std::to_string(r));
    } catch (const std::runtime_error& e) {
      if (e.what() == "round " + std::to_string(r)) ++c.total;
    }
  }
  self.exit_to(*c.caller, nullptr);
}

TEST(FiberContext, ExceptionsUnwindOnTheFibersStack) {
  OwnedFiber owned(&throwing_entry);
  ExecutionContext main_ctx;
  main_ctx.adopt_thread();
  Counter c{&main_ctx, 0, 50};
  for (int r = 0; r <= 50; ++r) main_ctx.switch_to(owned.context, &c);
  EXPECT_EQ(c.total, 50);
}

// A stack whose fiber finished goes back to the pool and carries the next fiber.
TEST(FiberStackPool, AReleasedStackIsReusedForANewFiber) {
  FiberStackPool pool(kStackBytes, 4);
  ExecutionContext main_ctx;
  main_ctx.adopt_thread();
  void* first_mapping = nullptr;
  for (int f = 0; f < 10; ++f) {
    const FiberStack s = pool.acquire();
    if (f == 0) first_mapping = s.mapping;
    EXPECT_EQ(s.mapping, first_mapping) << "a pooled stack is reused, fiber " << f;
    EXPECT_GE(s.usable_bytes(), kStackBytes);
    ExecutionContext fiber;
    fiber.prepare(s.bottom(), s.usable_bytes(), &count_entry);
    Counter c{&main_ctx, 0, 3};
    main_ctx.switch_to(fiber, &c);
    for (std::int64_t i = 1; i <= 3; ++i) main_ctx.switch_to(fiber, &i);
    EXPECT_EQ(c.total, 6);
    pool.release(s);
    EXPECT_EQ(pool.pooled(), 1u);
  }
}

TEST(FiberStackPool, KeepsAtMostItsLimitIdle) {
  FiberStackPool pool(4096, 2);
  std::vector<FiberStack> stacks;
  for (int i = 0; i < 5; ++i) stacks.push_back(pool.acquire());
  EXPECT_EQ(pool.live(), 5u);
  for (const FiberStack& s : stacks) pool.release(s);
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.pooled(), 2u);
}

// Batches for a caller's own cache: taking maps nothing, giving back keeps up to the limit.
TEST(FiberStackPool, TakesOnlyIdleStacksAndGivesBackUpToItsLimit) {
  FiberStackPool pool(4096, 3);
  FiberStack out[5];
  EXPECT_EQ(pool.take_idle(out, 5), 0u) << "nothing idle: nothing mapped either";
  for (FiberStack& s : out) s = pool.acquire();
  EXPECT_EQ(pool.live(), 5u);
  pool.give_back(out, 5);
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.pooled(), 3u) << "two over the limit are unmapped";
  FiberStack again[5];
  EXPECT_EQ(pool.take_idle(again, 2), 2u);
  EXPECT_EQ(pool.pooled(), 1u);
  EXPECT_EQ(pool.live(), 2u);
  EXPECT_EQ(pool.take_idle(again + 2, 3), 1u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(again[i].mapping, nullptr);
    weft::platform::forget_frames(again[i]);
    again[i].bottom()[0] = 1;  // still mapped, still writable
  }
  pool.give_back(again, 3);
  EXPECT_EQ(pool.pooled(), 3u);
}

TEST(FiberStack, AnImpossibleStackNamesTheLimit) {
  try {
    weft::platform::map_fiber_stack(std::size_t{1} << 50);
    FAIL() << "a 2^50-byte stack was mapped";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("thread stack"), std::string::npos) << e.what();
  }
}

TEST(FiberStack, TheGuardPageIsBelowTheUsableStack) {
  const FiberStack s = weft::platform::map_fiber_stack(8192);
  EXPECT_EQ(s.guard_bytes, weft::platform::page_bytes());
  EXPECT_TRUE(s.guards(s.mapping));
  EXPECT_TRUE(s.guards(s.bottom() - 1));
  EXPECT_FALSE(s.guards(s.bottom()));
  s.bottom()[0] = 1;  // the usable part is writable, down to its lowest byte
  s.top()[-1] = 1;
  weft::platform::unmap_fiber_stack(s);
}

// Writing into the guard page kills the process (SIGSEGV), rather than corrupting memory.
TEST(FiberStackDeathTest, WritingIntoTheGuardPageFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const FiberStack s = weft::platform::map_fiber_stack(8192);
  EXPECT_DEATH(
      {
        volatile char* guard = s.bottom() - 1;
        *guard = 1;
      },
      "");
  weft::platform::unmap_fiber_stack(s);
}

}  // namespace

// MaybeFuture (include/weft/maybe_future.hpp), what spawn_if returns: a task run at once
// holds its value inline and allocates nothing; a spawned one keeps every Future rule; moves,
// destruction, exceptions and the conversion to Future keep each outcome exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include <weft/weft.hpp>

#include "test_support.hpp"

// Counts the allocations this thread makes while `t_counting` is set (this test binary
// only), to show that a cut-off task allocates nothing.
namespace {
thread_local bool t_counting = false;
thread_local std::size_t t_allocations = 0;
// Out of line: GCC would otherwise see free() meet a pointer from operator new, and warn.
[[gnu::noinline]] void release(void* p) noexcept { std::free(p); }
}  // namespace

void* operator new(std::size_t n) {
  if (t_counting) ++t_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
// Task slots are over-aligned, so they come through these.
void* operator new(std::size_t n, std::align_val_t a) {
  if (t_counting) ++t_allocations;
  const std::size_t align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }

namespace {

// A value that counts its live copies, so a lost or doubled outcome shows.
struct Tracked {
  static inline std::atomic<int> live{0};
  std::string text;
  explicit Tracked(std::string t) : text(std::move(t)) { ++live; }
  Tracked(Tracked&& o) noexcept : text(std::move(o.text)) { ++live; }
  Tracked(const Tracked&) = delete;
  ~Tracked() { --live; }
};

TEST(MaybeFuture, ACutOffTaskAllocatesNothing) {
  weft::Config c = weft_test::base_config();
  c.workers = 1;
  weft::Runtime rt(c);
  const std::size_t allocations = rt.run([] {
    t_counting = true;
    t_allocations = 0;
    long sum = 0;
    for (int round = 0; round < 20; ++round) {
      // 64 pending at once: a ready slot per task would outrun any free list at first.
      std::vector<weft::MaybeFuture<long>> pending;
      pending.reserve(64);
      t_allocations = 0;  // the reserve above is the test's, not weft's
      for (int i = 0; i < 64; ++i) pending.push_back(weft::spawn_if(false, [i] { return 2L * i; }));
      for (int i = 63; i >= 0; --i) sum += pending[static_cast<std::size_t>(i)].join();
      if (t_allocations != 0) break;
    }
    const std::size_t made = t_allocations;
    t_counting = false;
    EXPECT_EQ(sum, 20L * 63 * 64);
    return made;
  });
  EXPECT_EQ(allocations, 0u) << "a task run at its spawn_if must hold its value inline";
}

TEST(MaybeFuture, HeldValuesMoveAndJoinInAnyOrderOnAnyThread) {
  ASSERT_EQ(Tracked::live.load(), 0);
  {
    std::vector<weft::MaybeFuture<Tracked>> held;
    for (int i = 0; i < 100; ++i) {
      held.push_back(weft::spawn_if(false, [i] { return Tracked(std::to_string(i)); }));
    }
    EXPECT_EQ(Tracked::live.load(), 100) << "one live value per held outcome, moves included";
    // In spawn order, not LIFO: nothing was pushed on a task stack.
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ(held[static_cast<std::size_t>(i)].join().text, std::to_string(i));
      EXPECT_FALSE(held[static_cast<std::size_t>(i)].valid());
    }
    std::thread other([&held] {
      for (int i = 50; i < 75; ++i) {
        EXPECT_EQ(held[static_cast<std::size_t>(i)].join().text, std::to_string(i));
      }
    });
    other.join();
    EXPECT_EQ(Tracked::live.load(), 25) << "joined values are gone, unjoined ones kept";
  }
  EXPECT_EQ(Tracked::live.load(), 0) << "destroying an unjoined holder destroys its value";
}

TEST(MaybeFuture, ExceptionsAndVoidTasks) {
  auto thrown = weft::spawn_if(false, []() -> int { throw std::runtime_error("cut"); });
  EXPECT_TRUE(thrown.valid());
  auto moved = std::move(thrown);
  EXPECT_FALSE(thrown.valid());  // NOLINT: checking the moved-from state is the point
  EXPECT_THROW(moved.join(), std::runtime_error);
  EXPECT_THROW(moved.join(), std::logic_error) << "a joined holder is empty";

  int ran = 0;
  auto done = weft::spawn_if(false, [&ran] { ++ran; });
  EXPECT_EQ(ran, 1);
  done.join();
  auto unjoined_throw = weft::spawn_if(false, []() -> void { throw std::runtime_error("x"); });
  (void)unjoined_throw;  // destroyed unjoined: its exception is dropped, as a Future's is
}

// A closure whose copy throws fails the spawn_if itself, either way, as it fails a spawn:
// nothing ran, so there is no outcome to hold.
TEST(MaybeFuture, AClosureThatCannotBeCopiedFailsTheSpawnIf) {
  struct CopyThrows {
    int* runs;
    CopyThrows(int* r) : runs(r) {}  // NOLINT: implicit for brevity
    CopyThrows(const CopyThrows&) { throw std::runtime_error("copy"); }
    int operator()() const { return ++*runs; }
  };
  int runs = 0;
  const CopyThrows task(&runs);
  for (bool cond : {false, true}) {
    EXPECT_THROW((void)weft::spawn_if(cond, task), std::runtime_error) << cond;
  }
  EXPECT_EQ(runs, 0);
}

// A value whose move throws when told to.
struct Fragile {
  static inline int live = 0;
  static inline bool fail = false;
  int v;
  explicit Fragile(int x) : v(x) { ++live; }
  Fragile(Fragile&& o) : v(o.v) {  // NOLINT: may throw, on purpose
    if (fail) throw std::runtime_error("move");
    ++live;
  }
  ~Fragile() { --live; }
};

// A held value whose move throws, in a move assignment: the target ends empty (its own value
// destroyed once), the source keeps its value.
TEST(MaybeFuture, AFailedMoveAssignmentLosesNothingAndDropsNothingTwice) {
  {
    weft::MaybeFuture<Fragile> a = weft::spawn_if(false, [] { return Fragile(1); });
    weft::MaybeFuture<Fragile> b = weft::spawn_if(false, [] { return Fragile(2); });
    EXPECT_EQ(Fragile::live, 2);
    Fragile::fail = true;
    EXPECT_THROW(b = std::move(a), std::runtime_error);
    Fragile::fail = false;
    EXPECT_FALSE(b.valid());
    EXPECT_EQ(Fragile::live, 1);
    EXPECT_EQ(a.join().v, 1);
  }
  EXPECT_EQ(Fragile::live, 0) << "each value destroyed exactly once";
}

// Converted to Future<T> (e.g. to keep mixed futures together), each case keeps its outcome:
// a held value, a held exception, a spawned task.
TEST(MaybeFuture, ConvertsToFutureKeepingEachOutcome) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  weft::Runtime rt(c);
  const int total = rt.run([] {
    std::vector<weft::Future<int>> futures;
    for (int i = 0; i < 300; ++i) {
      futures.push_back(weft::spawn_if(i % 3 != 0, [i] {
        if (i % 10 == 7) throw std::runtime_error("seven");
        return i;
      }));
    }
    int sum = 0;
    int thrown = 0;
    for (int left = 300; left > 0; --left) {
      try {
        sum += futures.back().join();  // newest first: the spawned ones are on the stack
      } catch (const std::runtime_error&) {
        ++thrown;
      }
      futures.pop_back();
    }
    EXPECT_EQ(thrown, 30);
    return sum;
  });
  int expected = 0;
  for (int i = 0; i < 300; ++i) expected += i % 10 == 7 ? 0 : i;
  EXPECT_EQ(total, expected);
}

// A spawned task behind a MaybeFuture that is destroyed unjoined (an exception leaving the
// frame) is joined by the destructor: it runs exactly once, before its captures go away.
TEST(MaybeFuture, AnUnjoinedSpawnedTaskIsJoinedByTheDestructor) {
  weft::Config c = weft_test::base_config();
  c.workers = 2;
  weft::Runtime rt(c);
  for (int round = 0; round < weft_test::scaled(200); ++round) {
    std::atomic<int> runs{0};
    rt.run([&runs] {
      try {
        auto a = weft::spawn_if(true, [&runs] { ++runs; });
        auto b = weft::spawn_if(false, [&runs] { ++runs; });
        auto d = weft::spawn_if(true, [&runs] { ++runs; });
        throw std::runtime_error("leave the frame");
      } catch (const std::runtime_error&) {
      }
    });
    ASSERT_EQ(runs.load(), 3) << "round " << round;
  }
}

}  // namespace

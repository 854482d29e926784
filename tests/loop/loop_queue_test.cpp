// Whitebox tests of the non-locking PCB queue (src/loop/pcb_queue.*): each of the
// paper's Fig. 6 configurations and the rare interleavings of its correctness pairs,
// forced by delays injected at the queue's QueuePoints, and a random-delay stress driver.
// Also the chunk plans: every schedule partitions [0, n) exactly.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "loop/chunk_plan.hpp"
#include "loop/pcb_queue.hpp"
#include "test_support.hpp"

namespace {

namespace wd = weft::detail;
using namespace std::chrono_literals;

// Installs a delay hook for the test's duration.
class DelayHook {
 public:
  explicit DelayHook(std::function<void(wd::QueuePoint)> fn) {
    current() = std::move(fn);
    wd::g_queue_delay.store(&call);
  }
  ~DelayHook() {
    wd::g_queue_delay.store(nullptr);
    current() = nullptr;
  }
  DelayHook(const DelayHook&) = delete;
  DelayHook& operator=(const DelayHook&) = delete;

 private:
  static std::function<void(wd::QueuePoint)>& current() {
    static std::function<void(wd::QueuePoint)> fn;
    return fn;
  }
  static void call(wd::QueuePoint p) {
    if (current()) current()(p);
  }
};

struct QueueFixture : ::testing::Test {
  wd::PcbQueue q;
  wd::LoopCounters counters;

  // An owner's fork of `chunks` chunks on b (fields, number_left, then the publish).
  void publish(wd::Pcb& b, std::int64_t chunks) {
    b.plan.chunks = static_cast<std::uint64_t>(chunks);
    b.number_left.store(chunks);
    q.publish(b, wd::pack_work(++b.seq, chunks), counters);
  }
  // An owner's Rule 1 take of its own chunk, telling the queue of the last one.
  bool take_own(wd::Pcb& b) {
    bool last = false;
    if (wd::take_next(b, last) < 0) return false;
    if (last) q.emptied(b, counters);
    return true;
  }
};

TEST_F(QueueFixture, OneNodeQueueIsRemovedWhenEmptied) {  // Fig. 6(a)
  wd::Pcb a;
  publish(a, 2);
  EXPECT_EQ(q.head(), &a);
  EXPECT_EQ(q.tail(), &a);
  EXPECT_EQ(a.state.load(), 2);  // nonempty head
  ASSERT_NE(q.take({}, counters).pcb, nullptr);
  EXPECT_EQ(q.head(), &a);
  const wd::QueueTake t = q.take({}, counters);
  ASSERT_EQ(t.pcb, &a);
  EXPECT_TRUE(t.last);
  EXPECT_EQ(q.head(), nullptr);
  EXPECT_EQ(q.tail(), nullptr);
  EXPECT_EQ(a.state.load(), 0);
  EXPECT_EQ(counters.dequeued.get(), 1u);
  EXPECT_EQ(q.take({}, counters).pcb, nullptr);
}

TEST_F(QueueFixture, PcbsAppendedToARemovedTailAreRecovered) {  // Fig. 6(b) and (c)
  wd::Pcb a, b, c;
  publish(a, 1);
  {
    // The dequeuer of a has set head_ to null and not yet swapped tail_: enqueuers append b
    // and c behind a, where nobody will look ("misplaced").
    bool once = true;
    DelayHook hook([&](wd::QueuePoint p) {
      if (p == wd::QueuePoint::kDequeueBeforeTailSwap && once) {
        once = false;
        publish(b, 3);
        publish(c, 3);
        EXPECT_EQ(q.head(), nullptr);
        EXPECT_EQ(a.next.load(), &b);
      }
    });
    ASSERT_TRUE(take_own(a));  // the last chunk: a is an empty head, we dequeue it
  }
  EXPECT_EQ(counters.misplaced.get(), 1u);
  EXPECT_EQ(q.head(), &b);
  EXPECT_EQ(q.tail(), &c);
  EXPECT_EQ(b.next.load(), &c);
  EXPECT_EQ(a.state.load(), 0);
  EXPECT_EQ(b.state.load(), 2);  // nonempty head
  EXPECT_EQ(c.state.load(), 3);
  int taken = 0;
  while (q.take({}, counters).pcb != nullptr) ++taken;
  EXPECT_EQ(taken, 6);
  EXPECT_EQ(q.head(), nullptr);
}

TEST_F(QueueFixture, AnEmptyInteriorPcbIsReusedInPlace) {
  wd::Pcb x, y, z;
  publish(x, 1);
  publish(y, 1);
  publish(z, 1);
  ASSERT_TRUE(take_own(y));  // y: an empty interior hole
  EXPECT_EQ(y.state.load(), 2);
  EXPECT_EQ(q.head(), &x);
  publish(y, 4);  // y's owner forks again at the same depth
  EXPECT_EQ(counters.reused_in_place.get(), 1u);
  EXPECT_EQ(y.state.load(), 3);
  EXPECT_EQ(x.next.load(), &y);
  EXPECT_EQ(y.next.load(), &z);
  int taken = 0;
  while (q.take({}, counters).pcb != nullptr) ++taken;
  EXPECT_EQ(taken, 6);
}

TEST_F(QueueFixture, AProducerWaitsForADequeueInProgress) {  // dequeue, produce
  wd::Pcb x, y;
  publish(x, 1);
  publish(y, 1);
  std::thread producer;
  std::atomic<bool> produced{false};
  {
    bool once = true;
    DelayHook hook([&](wd::QueuePoint p) {
      if (p == wd::QueuePoint::kDequeueAfterHeadStore && once) {
        once = false;
        // x is being removed (state 1): its owner reuses it now and must wait.
        producer = std::thread([&] {
          publish(x, 2);
          produced = true;
        });
        std::this_thread::sleep_for(50ms);
        EXPECT_FALSE(produced.load()) << "the producer did not wait for the dequeue";
      }
    });
    ASSERT_TRUE(take_own(x));
    producer.join();
  }
  EXPECT_TRUE(produced.load());
  EXPECT_EQ(counters.reused_in_place.get(), 0u);
  EXPECT_EQ(q.head(), &y);
  EXPECT_EQ(y.next.load(), &x);  // enqueued afresh, at the tail
  EXPECT_EQ(q.tail(), &x);
  int taken = 0;
  while (q.take({}, counters).pcb != nullptr) ++taken;
  EXPECT_EQ(taken, 3);
}

TEST_F(QueueFixture, APcbEmptiedWhileItIsEnqueuedOnAnEmptyQueueIsDequeuedByItsEnqueuer) {
  wd::Pcb a;
  {
    bool once = true;
    DelayHook hook([&](wd::QueuePoint p) {
      if (p == wd::QueuePoint::kEnqueueAfterSwap && once) {
        once = false;
        ASSERT_TRUE(take_own(a));  // its owner takes the only chunk before the link
      }
    });
    publish(a, 1);
  }
  EXPECT_EQ(q.head(), nullptr);
  EXPECT_EQ(q.tail(), nullptr);
  EXPECT_EQ(a.state.load(), 0);
}

TEST_F(QueueFixture, IsolatedTakesSkipLoopsNotNestedAndOtherInstances) {
  wd::Pcb outer, inner, other;
  publish(outer, 1);
  inner.parent.store(&outer);
  inner.parent_seq.store(outer.seq);
  publish(inner, 2);
  publish(other, 2);
  ASSERT_TRUE(take_own(outer));
  const wd::TakeFilter within{&outer, outer.seq};
  EXPECT_EQ(q.take(within, counters).pcb, &inner);
  EXPECT_EQ(q.take(within, counters).pcb, &inner);
  EXPECT_EQ(q.take(within, counters).pcb, nullptr);  // `other` is not nested
  // A stale instance number: inner now belongs to another loop of outer's PCB.
  publish(inner, 2);
  EXPECT_EQ(q.take(wd::TakeFilter{&outer, outer.seq + 1}, counters).pcb, nullptr);
}

// Many threads fork, take and reuse PCBs at once while random delays hit every queue
// point: every chunk of every instance is taken exactly once, and the queue ends empty.
TEST(QueueStress, RandomDelaysNeverLoseOrDuplicateAChunk) {
  constexpr int kThreads = 6;
  constexpr int kDepth = 3;
  constexpr std::int64_t kMaxChunks = 8;
  const int rounds = static_cast<int>(weft_test::scaled(20000, 2000));
  wd::PcbQueue q;
  struct Owner {
    wd::Pcb pcbs[kDepth];
    std::atomic<std::uint32_t> marks[kDepth][kMaxChunks]{};
  };
  std::vector<Owner> owners(kThreads);
  std::atomic<std::int64_t> published{0}, taken{0};
  std::atomic<int> duplicates{0};
  std::atomic<bool> stop{false};
  std::atomic<int> owners_done{0};
  DelayHook hook([](wd::QueuePoint) {
    thread_local std::minstd_rand rng(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    const unsigned r = rng() % 16;
    if (r == 0) std::this_thread::yield();
    if (r == 1) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 50));
  });
  auto run_chunk = [&](Owner& o, int d, wd::QueueTake t) {
    const std::uint32_t before = o.marks[d][t.index].exchange(t.seq);
    if (before >= t.seq) duplicates.fetch_add(1);
    taken.fetch_add(1);
    o.pcbs[d].number_left.fetch_sub(1, std::memory_order_release);
  };
  auto help_once = [&](wd::LoopCounters& counters) {
    const wd::QueueTake t = q.take({}, counters);
    if (t.pcb == nullptr) return false;  // (take() told the queue of a last chunk itself)
    for (Owner& o : owners) {
      for (int d = 0; d < kDepth; ++d) {
        if (&o.pcbs[d] == t.pcb) run_chunk(o, d, t);
      }
    }
    return true;
  };
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id) {
    threads.emplace_back([&, id] {
      wd::LoopCounters counters;
      std::minstd_rand rng(static_cast<unsigned>(id) + 1);
      Owner& me = owners[static_cast<std::size_t>(id)];
      for (int r = 0; r < rounds; ++r) {
        const int d = static_cast<int>(rng() % kDepth);
        wd::Pcb& b = me.pcbs[d];
        const std::int64_t chunks = 1 + static_cast<std::int64_t>(rng() % kMaxChunks);
        b.plan.chunks = static_cast<std::uint64_t>(chunks);
        b.number_left.store(chunks, std::memory_order_relaxed);
        const std::uint32_t seq = ++b.seq;
        q.publish(b, wd::pack_work(seq, chunks), counters);
        published.fetch_add(chunks);
        for (;;) {  // Rule 2, then Rule 1
          bool last = false;
          const std::int64_t i = wd::take_next(b, last);
          if (i < 0) break;
          if (last) q.emptied(b, counters);
          run_chunk(me, d, wd::QueueTake{&b, static_cast<std::uint64_t>(i), seq, last});
        }
        while (b.number_left.load(std::memory_order_acquire) != 0) {  // Rule 3
          if (!help_once(counters)) std::this_thread::yield();
        }
        if (rng() % 4 == 0) help_once(counters);
      }
      owners_done.fetch_add(1);
      while (!stop.load()) {
        if (!help_once(counters)) std::this_thread::yield();
      }
    });
  }
  // Each owner waits for its loop's chunks before it forks again, so once every owner is
  // done, every chunk was taken.
  ASSERT_TRUE(weft_test::spin_until([&] { return owners_done.load() == kThreads; }, 120s));
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(duplicates.load(), 0);
  EXPECT_EQ(taken.load(), published.load());
  EXPECT_EQ(q.head(), nullptr);
  EXPECT_EQ(q.tail(), nullptr);
}

// Every schedule's chunks partition [0, n): contiguous, non-empty unless n is small,
// ending at n, and as many as the plan says.
TEST(ChunkPlan, EverySchedulePartitionsTheRangeExactly) {
  const std::vector<weft::Schedule> schedules = {
      weft::Schedule::static_chunks(), weft::Schedule::dynamic(1), weft::Schedule::dynamic(3),
      weft::Schedule::guided(1),       weft::Schedule::guided(4),  weft::Schedule::factoring()};
  for (const weft::Schedule& s : schedules) {
    for (unsigned p : {1u, 2u, 3u, 8u, 64u}) {
      for (std::uint64_t n : {1ull, 2ull, 7ull, 63ull, 64ull, 65ull, 1000ull, 123457ull}) {
        const wd::ChunkPlan plan = wd::ChunkPlan::make(n, s, p);
        wd::ChunkCursor cursor(plan);
        std::uint64_t at = 0;
        for (std::uint64_t i = 0; i < plan.chunks; ++i) {
          const wd::ChunkBounds c = cursor.bounds(i);
          ASSERT_EQ(c.begin, at) << s.spec() << " p=" << p << " n=" << n << " chunk " << i;
          ASSERT_GT(c.end, c.begin) << s.spec() << " p=" << p << " n=" << n << " chunk " << i;
          at = c.end;
        }
        EXPECT_EQ(at, n) << s.spec() << " p=" << p << " n=" << n;
      }
    }
  }
}

// auto: factoring with a floor, laid in two halves. The chunks partition the range; even
// indices run up from 0 to the split and odd ones up from the split to n, each half without
// a gap, so the last (smallest) chunks of the two halves are the split apart; no chunk is
// shorter than the floor but the equal chunks of the tail (at least half of it) and one
// last chunk shorter than the floor itself.
TEST(ChunkPlan, AutoIsAPartitionInTwoHalvesWithAFloor) {
  for (unsigned p : {1u, 2u, 3u, 8u}) {
    for (std::uint64_t n : {1ull, 2ull, 7ull, 64ull, 150ull, 300ull, 1000ull, 123457ull}) {
      for (std::uint64_t floor : {1ull, 2ull, 50ull, 150ull, 1000ull, 1ull << 50}) {
        const std::string where = "p=" + std::to_string(p) + " n=" + std::to_string(n) +
                                  " floor=" + std::to_string(floor);
        const wd::ChunkPlan plan = wd::ChunkPlan::make(n, weft::Schedule::automatic(), p, floor);
        ASSERT_LE(plan.split, n) << where;
        wd::ChunkCursor cursor(plan);
        std::uint64_t low = 0, high = plan.split, below_half_floor = 0;
        for (std::uint64_t i = 0; i < plan.chunks; ++i) {
          const wd::ChunkBounds c = cursor.bounds(i);
          ASSERT_GT(c.end, c.begin) << where << " #" << i;
          std::uint64_t& half = i % 2 == 0 ? low : high;
          ASSERT_EQ(c.begin, half) << where << " #" << i;
          half = c.end;
          if (c.end - c.begin < floor / 2) ++below_half_floor;
        }
        EXPECT_EQ(low, plan.split) << where << ": the low half must end at the split";
        EXPECT_EQ(high, n) << where << ": the high half must end at n";
        EXPECT_LE(below_half_floor, 1u) << where;
        // Two workers or more: the halves are within one chunk of each other's size.
        if (p > 1 && n > 1) {
          EXPECT_GE(plan.split, 1u) << where;
          EXPECT_LE(plan.split, n / 2 + cursor.bounds(0).end) << where;
        }
      }
    }
  }
  // 300 rows on 2 workers: factoring's 16 chunks, the halves [0, 150) and [150, 300).
  const wd::ChunkPlan plain = wd::ChunkPlan::make(300, weft::Schedule::automatic(), 2);
  EXPECT_EQ(plain.chunks, 16u);
  EXPECT_EQ(plain.split, 150u);
  wd::ChunkCursor cursor(plain);
  EXPECT_EQ(cursor.bounds(0).begin, 0u);
  EXPECT_EQ(cursor.bounds(0).end, 75u);
  EXPECT_EQ(cursor.bounds(1).begin, 150u);
  EXPECT_EQ(cursor.bounds(1).end, 225u);
  EXPECT_EQ(cursor.bounds(2).begin, 75u);
  EXPECT_EQ(cursor.bounds(3).begin, 225u);
  EXPECT_EQ(cursor.bounds(14).end, 150u);  // the low half's last chunk
  EXPECT_EQ(cursor.bounds(15).end, 300u);  // the high half's
  // With a floor of 50: 75, 75, then the 150 left as 2 equal chunks, not 50, 50, 50.
  EXPECT_EQ(wd::ChunkPlan::make(300, weft::Schedule::automatic(), 2, 50).chunks, 4u);
  const wd::ChunkPlan tail = wd::ChunkPlan::make(150, weft::Schedule::automatic(), 2, 50);
  EXPECT_EQ(tail.chunks, 2u);
  wd::ChunkCursor tail_cursor(tail);
  EXPECT_EQ(tail_cursor.bounds(0).end - tail_cursor.bounds(0).begin, 75u);
  // Under two floors, at most P equal chunks; under one, one chunk.
  EXPECT_EQ(wd::ChunkPlan::make(300, weft::Schedule::automatic(), 2, 150).chunks, 2u);
  EXPECT_EQ(wd::ChunkPlan::make(290, weft::Schedule::automatic(), 2, 150).chunks, 2u);
  EXPECT_EQ(wd::ChunkPlan::make(300, weft::Schedule::automatic(), 2, 1000).chunks, 1u);
  // The floor and the layout are auto's alone: factoring named by the user keeps the
  // paper's chunks, in order.
  const wd::ChunkPlan named = wd::ChunkPlan::make(300, weft::Schedule::factoring(), 2, 50);
  EXPECT_EQ(named.chunks, 16u);
  wd::ChunkCursor named_cursor(named);
  EXPECT_EQ(named_cursor.bounds(1).begin, 75u);
}

TEST(ChunkPlan, FactoringHandsOutBatchesOfPChunksOfACeilingOfRemainingOver2P) {
  const wd::ChunkPlan plan = wd::ChunkPlan::make(1000, weft::Schedule::factoring(), 4);
  wd::ChunkCursor cursor(plan);
  // R = 1000: 4 chunks of 125; R = 500: 4 of 63; R = 248: 4 of 31 ...
  EXPECT_EQ(cursor.bounds(0).end - cursor.bounds(0).begin, 125u);
  EXPECT_EQ(cursor.bounds(3).end, 500u);
  EXPECT_EQ(cursor.bounds(4).end - cursor.bounds(4).begin, 63u);
  EXPECT_EQ(cursor.bounds(8).end - cursor.bounds(8).begin, 31u);
}

}  // namespace

// The counting build (src/loop/shared_access.hpp): this test compiles the PCB queue
// with WEFT_COUNT_SHARED_ACCESSES=1 and pins how many accesses to shared memory each common
// operation makes, beside the paper's figures (Hummel & Schonberg, section 6). Ours differ
// where the design does: a chunk of one's own loop is one fetch_sub, because number_left is
// paid once per worker per loop rather than once per chunk.
#include <gtest/gtest.h>

#include <cstdint>

#include "loop/pcb_queue.hpp"
#include "loop/shared_access.hpp"

static_assert(WEFT_COUNT_SHARED_ACCESSES == 1, "build this test with the counting switch on");

namespace {

namespace wd = weft::detail;

struct Counting : ::testing::Test {
  wd::PcbQueue q;
  wd::LoopCounters counters;

  template <class F>
  std::uint64_t accesses(F&& f) {
    const std::uint64_t before = wd::t_shared_accesses;
    f();
    return wd::t_shared_accesses - before;
  }
  void publish(wd::Pcb& b, std::int64_t chunks) {
    b.plan.chunks = static_cast<std::uint64_t>(chunks);
    q.publish(b, wd::pack_work(++b.seq, chunks), counters);
  }
};

TEST_F(Counting, AChunkOfTheLoopAWorkerHoldsIsOneAccess) {  // paper: 2
  wd::Pcb b;
  publish(b, 10);
  bool last = false;
  EXPECT_EQ(accesses([&] { EXPECT_GE(wd::take_next(b, last), 0); }), 1u);
}

TEST_F(Counting, AChunkFromANonEmptyQueueHeadIsThreeAccesses) {  // paper: 3
  wd::Pcb b;
  publish(b, 10);
  EXPECT_EQ(accesses([&] { EXPECT_EQ(q.take({}, counters).pcb, &b); }), 3u);
}

TEST_F(Counting, AppendingToANonEmptyQueueIsTwoAccesses) {  // paper: 3
  wd::Pcb a, b;
  publish(a, 10);
  // The producer's part before the append: its state increment, then (the PCB is new) its
  // state, link and counter stores; then the append's swap and link.
  EXPECT_EQ(accesses([&] { publish(b, 10); }), 1u + 4u + 2u);
}

TEST_F(Counting, ReusingAPcbInPlaceIsTwoAccesses) {  // paper: 5
  wd::Pcb a, b, c;
  publish(a, 1);
  publish(b, 1);
  publish(c, 1);
  bool last = false;
  ASSERT_GE(wd::take_next(b, last), 0);
  ASSERT_TRUE(last);
  q.emptied(b, counters);
  EXPECT_EQ(accesses([&] { publish(b, 10); }), 2u);
  EXPECT_EQ(counters.reused_in_place.get(), 1u);
}

TEST_F(Counting, RemovingAnEmptyHeadBeforeANonEmptyOneIsFiveAccesses) {  // paper: 5
  wd::Pcb a, b;
  publish(a, 1);
  publish(b, 10);
  bool last = false;
  ASSERT_GE(wd::take_next(a, last), 0);
  // The emptied event's decrement (it fetches 2: a is the head), then the dequeue: read a's
  // link, move head_, complete a's removal, decrement b's state for becoming the head.
  EXPECT_EQ(accesses([&] { q.emptied(a, counters); }), 1u + 2u + 2u);
  EXPECT_EQ(q.head(), &b);
}

TEST_F(Counting, AForkThatReusesItsPcbAndStartsIsThreeAccesses) {  // paper: under 6
  // With a non-empty queue, a fork at a depth its worker forked at before reuses the PCB in
  // place (2) and starts its first chunk (1); number_left's store (loop_worker.cpp) is one
  // more, outside the queue.
  wd::Pcb a, b;
  publish(a, 10);
  publish(b, 1);
  bool last = false;
  ASSERT_GE(wd::take_next(b, last), 0);
  q.emptied(b, counters);  // b: an empty interior hole
  EXPECT_EQ(accesses([&] {
              publish(b, 10);
              EXPECT_GE(wd::take_next(b, last), 0);
            }),
            3u);
}

}  // namespace

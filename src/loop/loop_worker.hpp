// A worker's side of parallel loops under the PCB schemes (pcb, dlist): its stack of PCBs,
// its loop frame stack, the fork with the paper's three rules, and the search for loops to help.
//
//   Rule 1  a worker that runs a chunk of a loop keeps taking chunks of that loop (one
//           fetch_sub each, on the instance it holds) until none is left;
//   Rule 2  the worker that forks a loop takes its first chunk itself;
//   Rule 3  the owner runs what follows the loop once every chunk has finished; while it
//           waits it helps only with loops nested in this one (isolation), so a lock held
//           across the loop cannot be wanted by work it picks up.
// Because of Rule 3 a loop's PCB and its owner's loop frame are freed by their owner in LIFO
// order: both live on per-worker stacks, with no allocation and no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/activity_clock.hpp"
#include "loop/loop_frame_store.hpp"
#include "loop/loop_queue.hpp"
#include "weft/detail/loop_body.hpp"
#include "weft/loop.hpp"

namespace weft::detail {

class Worker;
class Pool;

class LoopWorker {
 public:
  // Loops nested deeper than this on one worker run serially (counted in serial_forks).
  static constexpr unsigned kPcbDepth = 64;

  LoopWorker(Worker& worker, Pool& pool);

  // A loop forked on this worker (weft::detail::run_loop).
  void run(std::uint64_t n, const LoopBody& body, const LoopOptions& options);

  // A look at the loop queue by a worker with nothing else to do: takes a chunk of the first
  // loop that has one, runs that loop's chunks (Rule 1) and returns true; false if nothing
  // was found. `watching` is the worker's watchman flag (sleep.hpp): a find may hand the
  // role on, and wakes a sleeper when chunks are left.
  bool help(bool& watching) noexcept;

  // The chunk this worker is running, if any: a loop forked now is nested in it. A task the
  // worker starts by stealing is not inside that chunk, so steals clear it around the task.
  struct Context {
    Pcb* pcb = nullptr;
    std::uint32_t seq = 0;
  };
  Context clear_context() noexcept {
    const Context c = running_;
    running_ = Context{};
    return c;
  }
  void restore_context(Context c) noexcept { running_ = c; }

  LoopCounters counters;

 private:
  // What adaptive fork last measured of a loop body (a body's run function is one per call
  // site and body type): its time per iteration on this worker, from the timed start of
  // each loop, and from this worker's chunks when it last forked the body under auto. The
  // start is short and cold (lines the other worker wrote last: about twice the chunks'
  // pace on the rows of Gauss-Jordan 150); it decides whether to fork at all, where erring
  // towards a fork is cheap. Auto's floor uses the chunks' pace when it has one: a floor
  // halved cut those steps into 5-6 chunks where 2-3 do, each a take and a hand-over.
  struct LoopPace {
    decltype(LoopBody::run) run = nullptr;
    double ns_per_iteration = 0.0;
    double chunk_ns_per_iteration = 0.0;  // 0: not measured for this body
    std::uint32_t uses = 0;
  };
  // What work_on did: chunks taken, and (when asked to count them) the iterations it ran.
  struct WorkDone {
    std::uint64_t chunks = 0;
    std::uint64_t iterations = 0;
  };
  static constexpr std::size_t kPaces = 64;  // direct-mapped by the body's run function

  void run_segment(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                   const LoopOptions& options, Schedule schedule);
  // Adaptive fork with somebody idle: runs the start of [base, base + len) serially in
  // doubling slices until one takes kMinTimedNs, and the rest serially too if at that pace
  // it would take less than worth_ns. Returns how much it ran (the start, or all of it);
  // folds the state it used.
  std::uint64_t start_timed(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                            const LoopOptions& options, LoopPace& pace, double worth_ns);
  // Adaptive fork, lazy: runs [base, base + len) serially in pieces until a worker goes idle
  // or the loop is stopped; returns how much it ran. Folds the state it used.
  std::uint64_t start_lazily(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                             const LoopOptions& options);
  // What a fork must save to be worth it now (less when an idle worker is awake).
  double fork_worth_ns() const noexcept;
  // Forks the loop and runs the owner's part; with a pace, times the owner's chunks into it.
  void fork(std::uint64_t base, const ChunkPlan& plan, const LoopBody& body,
            const LoopOptions& options, LoopPace* pace);
  // Rule 1 on the instance `seq` of b, starting with chunk `first` (or taking one, -1).
  // With `idle_when_leaving`, the worker is counted idle again before its departure lets the
  // owner go on (help()).
  // kCountIterations: for the owner timing auto's chunks only; every other caller keeps
  // the per-chunk path free of the count (3 instructions a chunk of an empty body).
  template <bool kCountIterations = false>
  WorkDone work_on(Pcb& b, std::uint32_t seq, std::int64_t first, bool owner,
                   bool idle_when_leaving = false) noexcept;
  // Joins a loop found in the queue (take t), runs its chunks as busy time and enters
  // `after`; traced as a kLoop event. `idle_when_leaving` as for work_on.
  void join_loop(const QueueTake& t, Activity after, bool idle_when_leaving = false) noexcept;
  // Rule 3: the owner waits for b's chunks to finish, helping with nested loops only.
  void wait_for_members(Pcb& b) noexcept;
  // Rule 1's next chunk of b (telling the queue of the last one), or -1.
  std::int64_t take_own(Pcb& b) noexcept;
  // Claims every chunk of b not handed out yet (a stop); returns how many.
  std::uint64_t stop_rest(Pcb& b) noexcept;
  // A frame for the loop's private state from Config::loop_frames' home; nullptr if full.
  void* allocate_loop_frame(const LoopBody& body) noexcept;
  void free_loop_frame(void* loop_frame, bool on_heap, const LoopBody& body) noexcept;
  // Whether the owner of a new loop would get a loop frame (else the loop runs serially).
  bool loop_frame_available(const LoopBody& body) noexcept;

  Worker& worker_;
  Pool& pool_;
  LoopQueue& queue_;
  std::unique_ptr<Pcb[]> pcbs_;
  unsigned depth_ = 0;
  LoopFrameStack loop_frames_;
  Context running_;
  LoopPace paces_[kPaces];
  std::uint64_t clock_cost_ns_ = 0;  // one read of monotonic_ns(), subtracted from a slice's time
};

}  // namespace weft::detail

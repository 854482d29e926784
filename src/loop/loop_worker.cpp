#include "loop/loop_worker.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <new>
#include <utility>

#include "core/activity_clock.hpp"
#include "core/pool.hpp"
#include "core/worker.hpp"
#include "loop/serial_loop.hpp"
#include "loop/spin_wait.hpp"
#include "loop/split_loop.hpp"

namespace weft::detail {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept { return a / b + (a % b != 0); }

// Adaptive fork, lazy: the serial start runs in pieces of about 1/(8P) of the range, and
// looks for an idle worker between pieces.
constexpr std::uint64_t kLazyPiecesPerWorker = 8;

// Adaptive fork with somebody idle: the start of a loop runs serially and is timed; the
// rest is forked only if, at that pace, it would take at least what a fork costs: about
// half a microsecond when an idle worker is awake (the hand-over of the PCB's lines, its
// arrival, the owner's wait for its last chunk; measured with two workers), tens of
// microseconds when every idle worker sleeps and must be woken first. A loop shorter than a
// few times that runs faster alone.
//
// The timed start is slices of 1, 2, 4, ... iterations until one slice alone takes
// kMinTimedNs, less the cost of reading the clock (measured once per worker: about 20 ns
// here, 40 under ThreadSanitizer); the pace is that slice's, or the one before's if faster.
// So the helpers wait about 250-500 ns, or one iteration where that is longer, whatever
// the loop's length. The start was one slice of 1/64 of the loop, timed clock included: on
// 2^20 iterations of 1 ns the helpers waited 16 us; a loop of 300 columns of 130 us kept
// them waiting for four columns; and one or two 1.3 ns elements of a vectorised row took
// 25-60 ns each, so rows of 120 elements (160 ns) were forked.
constexpr std::uint64_t kMinTimedNs = 250;
constexpr double kForkWorthAwakeNs = 3000.0;
constexpr double kForkWorthAsleepNs = 30000.0;
// A pace is trusted for this many loops of its body, then timed again.
constexpr std::uint32_t kRetimeEvery = 64;
// The auto schedule's smallest chunk, in time at the loop's measured pace. Each chunk is a
// take on the PCB's shared counter and, at the loop's end, a hand-over the owner may wait
// for; a chunk shorter than a fork is worth costs more than the balance it buys. With two
// workers, factoring's tail of 1-iteration chunks made short loops (300 rows of ~60 ns)
// 1.45-2x slower than static's two chunks; with this floor they run within noise of it,
// and loops of long iterations keep factoring's tail.
constexpr double kAutoChunkNs = kForkWorthAwakeNs;

// The auto schedule's smallest chunk for a loop whose iterations take `ns_per_iteration`
// (1 when it measured as 0: a loop faster than the clock's resolution).
std::uint64_t min_auto_chunk(double ns_per_iteration) noexcept {
  if (!(ns_per_iteration > 0.0)) return 1;
  const double k = kAutoChunkNs / ns_per_iteration;
  return k < 1.0 ? 1 : k > 1e15 ? std::uint64_t{1} << 50 : static_cast<std::uint64_t>(k);
}

void record(Pcb& b, std::exception_ptr e) noexcept {
  // relaxed: the owner reads `error` only after number_left reached 0 (PCB2), and we write it
  // before our own departure's release.
  if (!b.failed.exchange(true, std::memory_order_relaxed)) b.error = std::move(e);
}

}  // namespace

LoopWorker::LoopWorker(Worker& worker, Pool& pool)
    : worker_(worker), pool_(pool), queue_(pool.loop_queue()), pcbs_(new Pcb[kPcbDepth]) {
  for (unsigned i = 0; i < kPcbDepth; ++i) pcbs_[i].owner = worker.id;
  // The least of a few back-to-back reads: what a timed slice pays for its clock.
  clock_cost_ns_ = ~std::uint64_t{0};
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t a = monotonic_ns();
    clock_cost_ns_ = std::min(clock_cost_ns_, monotonic_ns() - a);
  }
}

void LoopWorker::run(std::uint64_t n, const LoopBody& body, const LoopOptions& options) {
  // Adaptive fork's common case, nobody idle, was decided inline (weft/loop.hpp); a loop
  // that gets here either may fork or met a worker going idle, and run_segment decides.
  const Config& config = pool_.config();
  const Schedule schedule = options.schedule.value_or(config.schedule);
  if (config.loops == LoopScheme::kSplit) {
    if (pool_.size() > 1) {
      run_split(n, body, options, schedule, pool_.size());
    } else {
      counters.serial_forks.bump();
      run_serially(body, 0, n, options, schedule, 1);
    }
    return;
  }
  // Only dynamic:K can cut a range into more chunks than one PCB counts: run it as
  // consecutive segments of at most kMaxPcbChunks chunks.
  std::uint64_t segment = n;
  if (schedule.kind() == Schedule::Kind::kDynamic &&
      ceil_div(n, schedule.chunk()) > kMaxPcbChunks) {
    segment = kMaxPcbChunks * schedule.chunk();
  }
  for (std::uint64_t base = 0; base < n; base += segment) {
    if (options.control != nullptr && options.control->stopped()) return;
    run_segment(base, std::min(segment, n - base), body, options, schedule);
  }
}

void LoopWorker::run_segment(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                             const LoopOptions& options, Schedule schedule) {
  const auto serially = [&] {
    counters.serial_forks.bump();
    run_serially(body, base, base + len, options, schedule, pool_.size());
  };
  // The serial decisions come first and need no chunk plan: an inner loop that adaptive
  // forking runs serially costs a few loads and one call of its body.
  const AdaptiveFork adaptive = pool_.config().adaptive_fork;
  const bool nobody_idle = pool_.idle_workers() == 0;
  if (len < 2 || depth_ == kPcbDepth || !loop_frame_available(body) ||
      (adaptive == AdaptiveFork::kOn && nobody_idle)) {
    return serially();
  }
  // A serial start, under either adaptive mode: it runs part of the range (or all of it)
  // and says how much; the rest, if any, is forked below.
  std::uint64_t done = 0;
  std::uint64_t min_chunk = 1;
  LoopPace* timed = nullptr;  // auto's floor: the pace its chunks are timed into
  if (adaptive == AdaptiveFork::kLazy && nobody_idle) {
    done = start_lazily(base, len, body, options);
  } else if (adaptive != AdaptiveFork::kOff) {
    // Somebody is idle. Fork only what is worth handing over. A loop this worker timed
    // recently (the same body: the same call site) is judged by its pace then; otherwise its
    // start runs serially, timed, and the rest runs serially too when it would take less
    // than a fork costs.
    LoopPace& pace = paces_[(reinterpret_cast<std::uintptr_t>(body.run) >> 4) % kPaces];
    const double worth = fork_worth_ns();
    if (pace.run == body.run && ++pace.uses % kRetimeEvery != 0 &&
        pace.ns_per_iteration * static_cast<double>(len) < worth) {
      return serially();
    }
    done = start_timed(base, len, body, options, pace, worth);
    if (schedule.kind() == Schedule::Kind::kAuto) {
      timed = &pace;
      min_chunk = min_auto_chunk(pace.chunk_ns_per_iteration > 0.0 ? pace.chunk_ns_per_iteration
                                                                   : pace.ns_per_iteration);
    }
  }
  if (done == len || (options.control != nullptr && options.control->stopped())) {
    if (done > 0) counters.serial_forks.bump();
    return;
  }
  base += done;
  len -= done;
  // The slice judged the rest worth a fork: the floor may make its chunks fewer, never fewer
  // than one per worker (a pace from another call of the body may be stale; serially, it
  // would never be measured again).
  min_chunk = std::min<std::uint64_t>(min_chunk, std::max<std::uint64_t>(1, len / pool_.size()));
  const ChunkPlan plan = ChunkPlan::make(len, schedule, pool_.size(), min_chunk);
  if (plan.chunks < 2) return serially();
  fork(base, plan, body, options, timed);
}

double LoopWorker::fork_worth_ns() const noexcept {
  return pool_.idle_worker_awake() ? kForkWorthAwakeNs : kForkWorthAsleepNs;
}

std::uint64_t LoopWorker::start_timed(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                                      const LoopOptions& options, LoopPace& pace, double worth_ns) {
  // The slice and, if the rest is not worth a fork, the rest: one state, folded once.
  OwnedState state(body);
  std::uint64_t slice = 1;
  std::uint64_t done = 0;
  // The pace: the last slice's, or the one before's if that was faster (a slice preempted
  // or interrupted takes a timeslice, and would fork a loop of nanoseconds).
  double last = 0.0;
  double before_last = std::numeric_limits<double>::infinity();
  for (std::uint64_t from = monotonic_ns();;) {
    body.run(body, state.get(), base + done, base + done + slice);
    done += slice;
    const std::uint64_t now = monotonic_ns();
    // This slice alone, less the clock's own cost.
    const std::uint64_t took = now - from > clock_cost_ns_ ? now - from - clock_cost_ns_ : 0;
    last = static_cast<double>(took) / static_cast<double>(slice);
    if (took >= kMinTimedNs || done == len) break;
    if (options.control != nullptr && options.control->stopped()) break;
    before_last = last;
    from = now;
    slice = std::min(2 * slice, len - done);
  }
  if (pace.run != body.run) pace.chunk_ns_per_iteration = 0.0;  // another body's slot
  pace.run = body.run;
  pace.ns_per_iteration = std::min(last, before_last);
  const bool stopped = options.control != nullptr && options.control->stopped();
  const bool worth =
      len - done >= 2 && pace.ns_per_iteration * static_cast<double>(len - done) >= worth_ns;
  if (!worth && !stopped && done < len) {
    body.run(body, state.get(), base + done, base + len);
    done = len;
  }
  if (body.fold != nullptr) body.fold(body, state.get());
  return done;
}

std::uint64_t LoopWorker::start_lazily(std::uint64_t base, std::uint64_t len, const LoopBody& body,
                                       const LoopOptions& options) {
  const std::uint64_t piece =
      std::max<std::uint64_t>(1, len / (kLazyPiecesPerWorker * pool_.size()));
  std::uint64_t done = 0;
  OwnedState state(body);
  while (done < len && pool_.idle_workers() == 0) {
    if (options.control != nullptr && options.control->stopped()) break;
    const std::uint64_t end = done + std::min(piece, len - done);
    body.run(body, state.get(), base + done, base + end);
    done = end;
  }
  if (body.fold != nullptr) body.fold(body, state.get());
  return done;
}

void LoopWorker::fork(std::uint64_t base, const ChunkPlan& plan, const LoopBody& body,
                      const LoopOptions& options, LoopPace* pace) {
  Pcb& b = pcbs_[depth_];
  b.body = &body;
  b.plan = plan;
  b.base = base;
  b.control = options.control;
  b.failed.store(false, std::memory_order_relaxed);
  b.error = nullptr;
  b.parent.store(running_.pcb, std::memory_order_relaxed);
  b.parent_seq.store(running_.seq, std::memory_order_relaxed);
  b.number_left.store(static_cast<std::int64_t>(plan.chunks), std::memory_order_relaxed);
  const std::uint32_t seq = ++b.seq;
  ++depth_;
  queue_.publish(b, pack_work(seq, static_cast<std::int64_t>(plan.chunks)), counters);
  counters.forked.bump();
  // A fork reaches a sleeping worker here; a napping watchman would find it within its nap.
  if (pool_.has_sleepers()) pool_.notify_work();
  const std::uint64_t start = pace != nullptr ? monotonic_ns() : 0;
  const WorkDone own = pace != nullptr ? work_on<true>(b, seq, -1, /*owner=*/true)
                                       : work_on(b, seq, -1, /*owner=*/true);  // Rule 2
  // The slot is the body's unless a loop nested in the chunks hashed to it meanwhile.
  if (pace != nullptr && own.iterations > 0 && pace->run == body.run) {
    pace->chunk_ns_per_iteration =
        static_cast<double>(monotonic_ns() - start) / static_cast<double>(own.iterations);
  }
  wait_for_members(b);  // Rule 3
  --depth_;
  if (b.failed.load(std::memory_order_relaxed)) std::rethrow_exception(std::exchange(b.error, {}));
}

// Inline: every chunk passes here (only this file calls it).
[[gnu::always_inline]] inline std::int64_t LoopWorker::take_own(Pcb& b) noexcept {
  bool last = false;
  const std::int64_t index = take_next(b, last);
  if (last) queue_.emptied(b, counters);
  return index;
}

template <bool kCountIterations>
LoopWorker::WorkDone LoopWorker::work_on(Pcb& b, std::uint32_t seq, std::int64_t index, bool owner,
                                         bool idle_when_leaving) noexcept {
  if (index < 0 && (index = take_own(b)) < 0) return {};  // the owner found none left
  const Context saved = running_;
  running_ = Context{&b, seq};
  const LoopBody& body = *b.body;
  LoopControl* const control = b.control;
  const std::uint64_t base = b.base;
  ChunkCursor cursor(b.plan);
  void* state = nullptr;
  bool state_on_heap = false;  // our loop frame stack was full: a helper still helps
  std::uint64_t ran = 0;       // chunks this worker took
  std::uint64_t skipped = 0;   // chunks it claimed without running them (a stop)
  std::uint64_t iterations = 0;
  try {
    if (body.state_size != 0) {
      state = allocate_loop_frame(body);
      if (state == nullptr) {
        state = ::operator new (body.state_size, std::align_val_t{body.state_align});
        state_on_heap = true;
      }
      try {
        body.make_state(body, state);
      } catch (...) {
        free_loop_frame(state, state_on_heap, body);
        state = nullptr;
        throw;
      }
    }
    // Rule 1: the loop's chunks, one fetch_sub each, until none is left.
    do {
      ++ran;
      if (control != nullptr && control->stopped()) {
        skipped += stop_rest(b);
        break;
      }
      const ChunkBounds c = cursor.bounds(static_cast<std::uint64_t>(index));
      if (c.begin < c.end) body.run(body, state, base + c.begin, base + c.end);
      if constexpr (kCountIterations) iterations += c.end - c.begin;
      // Under the request mechanism a chunk boundary is where this worker answers thieves.
      if (worker_.stack.request_flagged()) worker_.serve_requests();
    } while ((index = take_own(b)) >= 0);
  } catch (...) {
    record(b, std::current_exception());
    skipped += stop_rest(b);
  }
  (owner ? counters.owner_chunks : counters.helper_chunks).add(ran);
  if (state != nullptr) {
    if (body.fold != nullptr) {
      try {
        body.fold(body, state);
      } catch (...) {
        record(b, std::current_exception());
      }
    }
    body.destroy(state);
    free_loop_frame(state, state_on_heap, body);
  }
  running_ = saved;
  // Before the release below, so that an owner that reads 0 also sees this worker idle
  // (the count is a relaxed RMW that the release orders): its next loop may start at once.
  if (idle_when_leaving) worker_.set_idle(true);
  // PCB2: after this, b may be reused by its owner; nothing below may touch it.
  b.number_left.fetch_sub(static_cast<std::int64_t>(ran + skipped), std::memory_order_release);
  return {ran, iterations};
}

void LoopWorker::join_loop(const QueueTake& t, Activity after, bool idle_when_leaving) noexcept {
  ActivityClock& clock = worker_.clock();
  const std::uint64_t joined = clock.loop_joined();
  const std::int32_t owner = t.pcb->owner;  // fixed: safe to read before the chunks run
  clock.enter(Activity::kTask);
  const std::uint64_t chunks = work_on(*t.pcb, t.seq, static_cast<std::int64_t>(t.index),
                                       /*owner=*/false, idle_when_leaving)
                                   .chunks;
  clock.enter(after);
  clock.loop_left(joined, owner, static_cast<std::int64_t>(chunks));
}

std::uint64_t LoopWorker::stop_rest(Pcb& b) noexcept {
  // We hold a chunk of this instance (PCB2), so the compare-exchange cannot meet another one.
  std::uint64_t w = b.work.load(std::memory_order_relaxed);
  for (;;) {
    const std::int64_t m = multiplicity_of(w);
    if (m <= 0) return 0;
    if (b.work.compare_exchange_weak(w, pack_work(seq_of(w), 0), std::memory_order_relaxed)) {
      queue_.emptied(b, counters);  // we claimed the last chunk (PCB3)
      return static_cast<std::uint64_t>(m);
    }
  }
}

void LoopWorker::wait_for_members(Pcb& b) noexcept {
  // acquire: PCB2, the members' chunks (their writes, a reduction's folds) happen-before the
  // code after the loop.
  if (b.number_left.load(std::memory_order_acquire) == 0) return;
  ActivityClock& clock = worker_.clock();
  const Activity prev = clock.enter(Activity::kIdle);
  const TakeFilter nested{&b, b.seq};
  SpinWait wait;
  while (b.number_left.load(std::memory_order_acquire) != 0) {
    if (queue_.maybe_has_work()) {
      const QueueTake t = queue_.take(nested, counters);
      if (t.pcb != nullptr) {
        join_loop(t, Activity::kIdle);
        wait.reset();
        continue;
      }
    }
    if (worker_.stack.request_flagged()) worker_.serve_requests();
    wait.once();
  }
  clock.enter(prev);
}

bool LoopWorker::help(bool& watching) noexcept {
  if (!queue_.maybe_has_work()) return false;
  ActivityClock& clock = worker_.clock();
  const Activity prev = clock.enter(Activity::kSteal);
  const QueueTake t = queue_.take(TakeFilter{}, counters);
  if (t.pcb == nullptr) {
    clock.enter(prev);
    return false;
  }
  // A worker that was idle is idle again the moment it leaves the loop, and is counted so
  // before its departure lets the owner go on: the owner's next loop, which may start at
  // once (the steps of an outer serial loop), then sees a worker to fork to. Counted only
  // when it got back to its idle loop, that worker would miss such a loop's adaptive fork
  // whenever the owner came first, and the loop would run serially.
  const bool was_idle = worker_.counted_idle();
  worker_.set_idle(false);
  // Chunks left behind wake one more sleeper: a loop fills the pool in a chain.
  pool_.after_steal(watching, !t.last);
  join_loop(t, prev, was_idle);
  return true;
}

void* LoopWorker::allocate_loop_frame(const LoopBody& body) noexcept {
  if (pool_.config().loop_frames == LoopFrames::kPool) {
    try {
      return pool_.loop_frame_pool().allocate(body.state_size, body.state_align);
    } catch (...) {
      return nullptr;
    }
  }
  return loop_frames_.push(body.state_size, body.state_align);
}

bool LoopWorker::loop_frame_available(const LoopBody& body) noexcept {
  if (body.state_size == 0 || pool_.config().loop_frames == LoopFrames::kPool) return true;
  void* loop_frame = loop_frames_.push(body.state_size, body.state_align);
  if (loop_frame == nullptr) return false;
  loop_frames_.pop(loop_frame);
  return true;
}

void LoopWorker::free_loop_frame(void* loop_frame, bool on_heap, const LoopBody& body) noexcept {
  if (on_heap) {
    ::operator delete (loop_frame, std::align_val_t{body.state_align});
  } else if (pool_.config().loop_frames == LoopFrames::kPool) {
    pool_.loop_frame_pool().release(loop_frame);
  } else {
    loop_frames_.pop(loop_frame);
  }
}

}  // namespace weft::detail

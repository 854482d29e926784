// Parallel loops: parallel_for and parallel_reduce, nestable to any depth.
//
//   weft::parallel_for(0, n, [&](int i) { a[i] = f(b[i]); });
//   weft::parallel_for(0, n, [&](int b, int e) { for (int i = b; i < e; ++i) a[i] += 1; });
//   double s = weft::parallel_reduce(0, n, 0.0,
//       [&](int b, int e, double acc) { for (int i = b; i < e; ++i) acc += x[i]; return acc; },
//       std::plus<>{});
//
// Rules:
//   - Indices are any standard integer type; lo and hi take their common type, and a bound
//     that does not fit it (lo = -1 with an unsigned hi) throws std::invalid_argument.
//     lo >= hi runs nothing; otherwise exactly hi - lo iterations run, for any 64-bit bounds.
//   - A body takes one index (i) or a chunk (b, e): a plain loop the compiler can vectorise.
//     Bodies are called concurrently through a const reference.
//   - parallel_for(lo, hi, init, body): init() makes one private state for each worker that
//     joins the loop, reused for all the chunks that worker runs; body(state, i) or
//     body(state, b, e).
//   - parallel_reduce(lo, hi, identity, body, combine): body(b, e, acc) returns acc folded
//     over a chunk, combine(a, b) joins two partial results. By default each worker folds
//     its own chunks and the partials are combined in no fixed order, so combine must be
//     associative and commutative. With LoopOptions::deterministic the range is cut into
//     leaves that depend on hi - lo only, combined left to right in a fixed tree: the
//     result is bit-identical (floats included) for any worker count and schedule, and
//     combine need only be associative.
//   - Inside a runtime's task the loop runs in parallel (docs/LOOPS.md, "The
//     schemes"); bodies may spawn, join, open scopes and run loops of their own. Outside any
//     runtime it runs serially on the calling thread.
//   - A chunk that throws stops the loop: no further chunk starts, running chunks finish,
//     and the loop rethrows the first exception. LoopOptions::control stops it on request
//     (find-any): chunks not yet started are skipped.
//   - Iterations run to completion: a body that waits for another iteration of the same
//     loop (a flag set by a later index) may wait forever, since that iteration may be
//     queued behind it on the same worker.
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/detail/loop_body.hpp"
#include "weft/detail/worker_core.hpp"
#include "weft/schedule.hpp"

namespace weft {

// Stops a loop early: chunks not yet started are skipped. Pass it in LoopOptions::control
// and call stop() from any body (or any thread).
class LoopControl {
 public:
  // relaxed: a hint read at each chunk boundary; the loop's end orders everything else.
  void stop() noexcept { stopped_.store(true, std::memory_order_relaxed); }
  bool stopped() const noexcept { return stopped_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> stopped_{false};
};

struct LoopOptions {
  // Empty: the runtime's Config::schedule (WEFT_SCHEDULE), or auto outside a runtime.
  std::optional<Schedule> schedule = std::nullopt;
  // parallel_reduce: a result bit-identical for any worker count and schedule.
  bool deterministic = false;
  LoopControl* control = nullptr;
};

namespace detail {

template <class T>
concept LoopIndex =
    std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool> &&
    !std::same_as<std::remove_cv_t<T>, char> && !std::same_as<std::remove_cv_t<T>, wchar_t> &&
    !std::same_as<std::remove_cv_t<T>, char8_t> && !std::same_as<std::remove_cv_t<T>, char16_t> &&
    !std::same_as<std::remove_cv_t<T>, char32_t>;

template <class I, class V>
I loop_bound(V v, const char* name) {
  if (!std::in_range<I>(v)) {
    throw std::invalid_argument(std::string("weft: the loop bound ") + name + " = " +
                                std::to_string(v) +
                                " does not fit the loop's index type (the common type of lo "
                                "and hi); give both bounds the same type");
  }
  return static_cast<I>(v);
}

// Adaptive fork's common case, decided inline: on a worker whose runtime forks loops only
// while some worker is idle, and nobody is, the loop is a plain call of its body, which the
// compiler can inline and vectorise with the code around it. One relaxed load of a line that
// changes only when a worker goes idle or finds work.
inline bool loop_runs_inline(const LoopOptions& options) noexcept {
  WorkerCore* const w = current_worker();
  const std::atomic<std::int32_t>* const idle = w->loop_idle;
  if (idle == nullptr || options.control != nullptr || idle->load(std::memory_order_relaxed) != 0) {
    return false;
  }
  w->inline_loops.bump();
  return true;
}

// A loop's range as the runtime sees it: offsets [0, n) from lo.
template <class I>
struct LoopRange {
  I lo;
  std::uint64_t n;
  // The index at offset k (k <= n): modular arithmetic in the unsigned type, exact because
  // the result lies in [lo, hi].
  I at(std::uint64_t k) const noexcept {
    using U = std::make_unsigned_t<I>;
    return static_cast<I>(static_cast<U>(static_cast<U>(lo) + static_cast<U>(k)));
  }
};

template <class L, class H>
auto loop_range(L lo_in, H hi_in) {
  using I = std::common_type_t<L, H>;
  using U = std::make_unsigned_t<I>;
  const I lo = loop_bound<I>(lo_in, "lo");
  const I hi = loop_bound<I>(hi_in, "hi");
  const std::uint64_t n =
      hi > lo ? static_cast<std::uint64_t>(static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo)))
              : 0;
  return LoopRange<I>{lo, n};
}

// Calls a body on offsets [b, e): once with the chunk's bounds, or once per index.
template <class I, class Body, class... State>
void call_body(const Body& body, const LoopRange<I>& r, std::uint64_t b, std::uint64_t e,
               State&... state) {
  if constexpr (std::is_invocable_v<const Body&, State&..., I, I>) {
    std::invoke(body, state..., r.at(b), r.at(e));
  } else {
    static_assert(std::is_invocable_v<const Body&, State&..., I>,
                  "a loop body takes (i) or (b, e), after the state when there is an init");
    for (std::uint64_t k = b; k < e; ++k) std::invoke(body, state..., r.at(k));
  }
}

template <class I, class Body>
struct ForLoop {
  LoopRange<I> range;
  const Body& body;

  static void run(const LoopBody& self, void*, std::uint64_t b, std::uint64_t e) {
    const auto& c = *static_cast<const ForLoop*>(self.context);
    call_body(c.body, c.range, b, e);
  }
  LoopBody erased() const noexcept {
    LoopBody lb;
    lb.run = &run;
    lb.context = this;
    return lb;
  }
};

template <class State>
void destroy_state(void* state) noexcept {
  std::launder(static_cast<State*>(state))->~State();
}

// The erased form of a loop whose workers each keep a State.
template <class State>
LoopBody erase_with_state(decltype(LoopBody::run) run, decltype(LoopBody::make_state) make,
                          decltype(LoopBody::fold) fold, const void* context) noexcept {
  LoopBody lb;
  lb.run = run;
  lb.make_state = make;
  lb.fold = fold;
  lb.destroy = &destroy_state<State>;
  lb.state_size = sizeof(State);
  lb.state_align = alignof(State);
  lb.context = context;
  return lb;
}

template <class I, class Init, class Body>
struct ForLoopWithState {
  using State = std::decay_t<std::invoke_result_t<const Init&>>;
  LoopRange<I> range;
  const Init& init;
  const Body& body;

  static void run(const LoopBody& self, void* state, std::uint64_t b, std::uint64_t e) {
    const auto& c = *static_cast<const ForLoopWithState*>(self.context);
    call_body(c.body, c.range, b, e, *std::launder(static_cast<State*>(state)));
  }
  static void make(const LoopBody& self, void* mem) {
    ::new (mem) State(std::invoke(static_cast<const ForLoopWithState*>(self.context)->init));
  }
  LoopBody erased() const noexcept { return erase_with_state<State>(&run, &make, nullptr, this); }
};

// A reduction's workers each fold their chunks into their own accumulator (the state);
// leaving the loop, each folds it into the shared result under a lock.
template <class I, class T, class Body, class Combine>
struct ReduceLoop {
  LoopRange<I> range;
  const T& identity;
  const Body& body;
  const Combine& combine;
  std::mutex mutex;
  std::optional<T> result;  // guarded by mutex

  static ReduceLoop& of(const LoopBody& self) {
    return *static_cast<ReduceLoop*>(const_cast<void*>(self.context));
  }
  static void run(const LoopBody& self, void* state, std::uint64_t b, std::uint64_t e) {
    ReduceLoop& c = of(self);
    T& acc = *std::launder(static_cast<T*>(state));
    acc = std::invoke(c.body, c.range.at(b), c.range.at(e), std::move(acc));
  }
  static void make(const LoopBody& self, void* mem) { ::new (mem) T(of(self).identity); }
  static void fold(const LoopBody& self, void* state) {
    ReduceLoop& c = of(self);
    T& acc = *std::launder(static_cast<T*>(state));
    std::lock_guard lock(c.mutex);
    if (c.result) {
      *c.result = std::invoke(c.combine, std::move(*c.result), std::move(acc));
    } else {
      c.result.emplace(std::move(acc));
    }
  }
  LoopBody erased() noexcept { return erase_with_state<T>(&run, &make, &fold, this); }
};

// Deterministic reductions cut the range into this many leaves at most, whatever the
// worker count: enough for any machine's workers to share, few enough to keep in memory.
inline constexpr std::uint64_t kDeterministicLeaves = 4096;

// Leaf j of `leaves` over n: [floor(j n / leaves), floor((j + 1) n / leaves)).
inline std::uint64_t leaf_start(std::uint64_t j, std::uint64_t leaves, std::uint64_t n) noexcept {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(j) * n / leaves);
}

template <class T, class Combine>
T combine_tree(std::vector<std::optional<T>>& part, std::size_t lo, std::size_t hi,
               const Combine& combine, const T& identity) {
  if (hi - lo == 1) return part[lo] ? std::move(*part[lo]) : T(identity);  // a stopped leaf
  const std::size_t mid = lo + (hi - lo) / 2;
  T left = combine_tree(part, lo, mid, combine, identity);
  return std::invoke(combine, std::move(left), combine_tree(part, mid, hi, combine, identity));
}

}  // namespace detail

template <detail::LoopIndex L, detail::LoopIndex H, class Body>
requires(!std::same_as<std::decay_t<Body>, LoopOptions>) void parallel_for(
    L lo, H hi, const Body& body, const LoopOptions& options = {}) {
  const auto range = detail::loop_range(lo, hi);
  if (range.n == 0) return;
  if (detail::loop_runs_inline(options)) return detail::call_body(body, range, 0, range.n);
  const detail::ForLoop<decltype(range.lo), Body> loop{range, body};
  detail::run_loop(range.n, loop.erased(), options);
}

template <detail::LoopIndex L, detail::LoopIndex H, class Init, class Body>
requires std::is_invocable_v<const Init&> &&
    (!std::same_as<std::decay_t<Body>, LoopOptions>)void parallel_for(
        L lo, H hi, const Init& init, const Body& body, const LoopOptions& options = {}) {
  const auto range = detail::loop_range(lo, hi);
  if (range.n == 0) return;
  if (detail::loop_runs_inline(options)) {
    auto state = std::invoke(init);
    return detail::call_body(body, range, 0, range.n, state);
  }
  const detail::ForLoopWithState<decltype(range.lo), Init, Body> loop{range, init, body};
  detail::run_loop(range.n, loop.erased(), options);
}

template <detail::LoopIndex L, detail::LoopIndex H, class T, class Body, class Combine>
T parallel_reduce(L lo, H hi, const T& identity, const Body& body, const Combine& combine,
                  const LoopOptions& options = {}) {
  const auto range = detail::loop_range(lo, hi);
  if (range.n == 0) return identity;
  using I = decltype(range.lo);
  if (!options.deterministic) {
    if (detail::loop_runs_inline(options)) {
      return std::invoke(body, range.lo, range.at(range.n), T(identity));
    }
    detail::ReduceLoop<I, T, Body, Combine> loop{range, identity, body, combine, {}, {}};
    detail::run_loop(range.n, loop.erased(), options);
    return loop.result ? std::move(*loop.result) : identity;
  }
  const std::uint64_t leaves = std::min(range.n, detail::kDeterministicLeaves);
  std::vector<std::optional<T>> part(static_cast<std::size_t>(leaves));
  const auto leaf = [&](std::uint64_t j) {
    const std::uint64_t b = detail::leaf_start(j, leaves, range.n);
    const std::uint64_t e = detail::leaf_start(j + 1, leaves, range.n);
    part[static_cast<std::size_t>(j)].emplace(
        std::invoke(body, range.at(b), range.at(e), T(identity)));
  };
  parallel_for(std::uint64_t{0}, leaves, leaf, options);
  return detail::combine_tree(part, 0, part.size(), combine, identity);
}

}  // namespace weft

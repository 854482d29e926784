// The explicit-context forms of invoke, spawn and join, for hot recursions.
//
//   long fib(weft::Ctx c, int n) {
//     if (n < 2) return n;
//     auto [a, b] = weft::invoke(c, [n](weft::Ctx c) { return fib(c, n - 1); },
//                                   [n](weft::Ctx c) { return fib(c, n - 2); });
//     return a + b;
//   }
//   rt.run([] { return fib(weft::context(), 40); });
//
// A Ctx is one word: the top of the task stack the calling code pushes to (its worker's, or
// its user-level thread's, which moves with the thread from worker to worker), passed by
// value from task to task as Lace's task macros pass the deque head. The forms of
// weft/invoke.hpp and weft/future.hpp read that top from memory at every spawn: the join
// before stored it, so the load waits for the store to be forwarded, and every node of a
// recursion carries that wait on its critical path. Here the top travels in a register and
// memory is only compared against, which the branch predictor takes off the path.
//
// The top is a hint, never trusted. Each push first checks that the stack's T is the top the
// Ctx names (one compare against memory): a Ctx that is not current (kept from before another
// push, copied into a task that runs elsewhere, used outside a runtime) takes the path of the
// forms without a context, which is always right. So a Ctx may be copied, kept, and mixed
// with spawn/join and invoke; it is only faster when it is current.
//
// The guarantees are the other forms': exceptions at the join (f's when both throw), the LIFO
// check, an unjoined future joined when its frame unwinds, serial elision outside a runtime.
// Tasks may take a Ctx or nothing; one that a thief runs gets the context of where it runs.
//
// Why a scalar (an enum over the word) and not a class: GCC 12 splits no function whose
// split-off part uses an aggregate parameter ("use of non-ssa function parameter"), so with a
// class the `n < 2` test stays inside every call instead of moving into the callers, and the
// recursion does not become a loop (docs/TASK_STACK.md, "Forms over the task stack").
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "weft/detail/worker_core.hpp"
#include "weft/future.hpp"
#include "weft/invoke.hpp"

namespace weft {

// The top of the calling code's task stack, as a value (see above). Get one from context()
// or as a task's argument; its value has no meaning of its own.
enum class Ctx : std::uintptr_t {};

namespace detail {
inline Slot* slot_of(Ctx c) noexcept {
  return reinterpret_cast<Slot*>(static_cast<std::uintptr_t>(c));
}
inline Ctx ctx_of(Slot* s) noexcept {
  return static_cast<Ctx>(reinterpret_cast<std::uintptr_t>(s));
}
}  // namespace detail

// The calling code's context: its worker's (or user-level thread's) task stack and top;
// outside any runtime, the serial worker's, where every spawn runs at once.
inline Ctx context() noexcept { return detail::ctx_of(detail::current_worker()->stack.top()); }

namespace detail {
// Calls a task with `c` if it takes a Ctx, else with nothing.
template <class F>
decltype(auto) call_in(F&& f, Ctx c) {
  if constexpr (std::is_invocable_v<F, Ctx>) {
    return std::invoke(std::forward<F>(f), c);
  } else {
    return std::invoke(std::forward<F>(f));
  }
}

template <class F>
using CtxResult =
    typename std::conditional_t<std::is_invocable_v<F, Ctx>, std::invoke_result<F, Ctx>,
                                std::invoke_result<F>>::type;

template <class F>
ValueOf<CtxResult<F>> call_in_for_value(F&& f, Ctx c) {
  if constexpr (std::is_void_v<CtxResult<F>>) {
    call_in(std::forward<F>(f), c);
    return Unit{};
  } else {
    return call_in(std::forward<F>(f), c);
  }
}

template <class F>
void check_ctx_task() {
  static_assert(std::is_invocable_v<F, Ctx> || std::is_invocable_v<F>,
                "weft: a task of the Ctx forms must be callable with a weft::Ctx or with nothing");
  static_assert(std::is_move_constructible_v<std::decay_t<F>>, "weft: the task must be movable");
}

// What a Ctx task is in its slot: a closure of no arguments, as every slot holds. A thief, or
// any join that is not the Ctx form's inline one, runs it with the context of where it runs
// then; the Ctx join's inline run calls `fn` with its own context instead.
template <class Fn>
struct WithCtx {
  using CtxTask = Fn;
  Fn fn;
  CtxResult<Fn&&> operator()() { return call_in(std::move(fn), context()); }
};

template <class Fn>
using CtxFuture = SpawnedFuture<WithCtx<Fn>>;
template <class Fn>
using CtxTaskResult = SpawnResult<WithCtx<Fn>>;

// The Ctx task a future's stored closure C holds (in its slot, or boxed), or void.
template <class C>
struct CtxTaskOf {
  using type = void;
};
template <class Fn>
struct CtxTaskOf<WithCtx<Fn>> {
  using type = Fn;
};
template <class Fn>
struct CtxTaskOf<BoxedClosure<WithCtx<Fn>>> {
  using type = Fn;
};

// invoke's push found the Ctx not current, or the stack diverting spawns (full, a steal
// request pending, counting, the serial worker's): the form without a context decides.
template <class F, class G>
[[gnu::noinline]] auto ctx_invoke_slow(F f, G g) {
  return weft::invoke(WithCtx<F>{std::move(f)}, WithCtx<G>{std::move(g)});
}
template <class Fn>
[[gnu::noinline]] std::uintptr_t ctx_spawn_slow(Fn fn) {
  return spawn_word(WithCtx<Fn>{std::move(fn)});
}

// The joins whose check failed, out of line: a thief at the slot, the stack fenced or a request
// pending (contended); the slot not the newest (not top: the ordinary join reports misuse).
template <class Fn>
[[gnu::noinline]] CtxTaskResult<Fn> ctx_join_contended(WorkerCore* w, Slot* s) {
  return FutureAccess::join_contended<CtxFuture<Fn>>(w, s);
}
template <class Fn>
[[gnu::noinline]] CtxTaskResult<Fn> ctx_join_word(std::uintptr_t word) {
  return FutureAccess::join_word<CtxFuture<Fn>>(word);
}

// Joins the newest task, pushed into `s` (top_if() said so): inline, with the context `s`,
// when no thief is at it; else as Future::join does.
template <class Fn>
CtxTaskResult<Fn> ctx_join_top(WorkerCore* w, Slot* s) {
  if (w->stack.pop_top(s)) [[likely]] {
    // Move the closure out first, as Future::run_inline does: its own pushes reuse the slot.
    using Stored = WithCtx<Fn>;
    if constexpr (kFitsInSlot<Stored>) {
      Stored* in_slot = s->as<Stored>();
      Fn fn(std::move(in_slot->fn));
      in_slot->~Stored();
      return call_in(std::move(fn), ctx_of(s));
    } else {
      auto* in_slot = s->as<BoxedClosure<Stored>>();
      auto boxed = std::move(in_slot->fn);
      in_slot->~BoxedClosure<Stored>();
      return call_in(std::move(*boxed).fn, ctx_of(s));
    }
  }
  return ctx_join_contended<Fn>(w, s);
}

// Joins the task this frame pushed into `s`: ctx_join_top() if it is still the newest, else
// the ordinary join, which reports the misuse.
template <class Fn>
CtxTaskResult<Fn> ctx_join_pushed(Slot* s) {
  WorkerCore* const w = current_worker();  // read again: a user-level thread may have moved
  if (w->stack.top_if(reinterpret_cast<std::uintptr_t>(s))) [[likely]] {
    return ctx_join_top<Fn>(w, s);
  }
  return ctx_join_word<Fn>(reinterpret_cast<std::uintptr_t>(s));
}

// True when `c` names the stack's top and the stack takes a push there.
inline bool ctx_can_push(WorkerCore* w, Slot* s) noexcept {
  return w->stack.top_is(s) && !w->stack.diverts(s);
}
}  // namespace detail

// weft::invoke(f, g) with a context: f is pushed (a thief may take it), g runs here with the
// context one slot higher, then f is joined, inline with this context when no thief took it.
// Returns both values (weft::Unit for void); f's exception wins when both throw.
template <class F, class G>
auto invoke(Ctx c, F&& f, G&& g) -> std::pair<detail::ValueOf<detail::CtxResult<std::decay_t<F>>>,
                                              detail::ValueOf<detail::CtxResult<G>>> {
  using Fn = std::decay_t<F>;
  using Stored = detail::WithCtx<Fn>;
  using RF = detail::CtxTaskResult<Fn>;
  using VG = detail::ValueOf<detail::CtxResult<G>>;
  detail::check_ctx_task<F>();
  detail::check_ctx_task<G>();
  detail::Slot* const s = detail::slot_of(c);
  detail::WorkerCore* const w = detail::current_worker();
  if (!detail::ctx_can_push(w, s)) [[unlikely]] {
    return detail::ctx_invoke_slow(Fn(std::forward<F>(f)), std::decay_t<G>(std::forward<G>(g)));
  }
  detail::push_task<Stored, RF>(w, s, Stored{Fn(std::forward<F>(f))});
  VG b = [&]() -> VG {
    try {
      return detail::call_in_for_value(std::forward<G>(g), detail::ctx_of(s + 1));
    } catch (...) {
      detail::join_first_after_throw<detail::CtxFuture<Fn>>(reinterpret_cast<std::uintptr_t>(s));
      throw;
    }
  }();
  if constexpr (std::is_void_v<RF>) {
    detail::ctx_join_pushed<Fn>(s);
    return {Unit{}, std::move(b)};
  } else {
    RF a = detail::ctx_join_pushed<Fn>(s);
    return {std::move(a), std::move(b)};
  }
}

// weft::spawn(f) with a context, which moves one slot up (the next push's). The future is an
// ordinary one: join it with join(c, future) to run it inline with the context and move c
// back down, or with future.join() (c is then not current: its next push takes the slow path).
template <class F>
auto spawn(Ctx& c, F&& f) -> detail::CtxFuture<std::decay_t<F>> {
  using Fn = std::decay_t<F>;
  detail::check_ctx_task<F>();
  detail::Slot* const s = detail::slot_of(c);
  detail::WorkerCore* const w = detail::current_worker();
  if (!detail::ctx_can_push(w, s)) [[unlikely]] {
    const std::uintptr_t word = detail::ctx_spawn_slow<Fn>(Fn(std::forward<F>(f)));
    c = context();
    return detail::FutureAccess::make<detail::CtxFuture<Fn>>(word);
  }
  c = detail::ctx_of(s + 1);
  return detail::FutureAccess::make<detail::CtxFuture<Fn>>(
      detail::push_task<detail::WithCtx<Fn>, detail::CtxTaskResult<Fn>>(
          w, s, detail::WithCtx<Fn>{Fn(std::forward<F>(f))}));
}

// future.join() with a context: a future from spawn(c, f) that names the newest task runs
// inline with the context of its slot; any other is joined as Future::join does. Afterwards c
// is the stack's top again.
template <class T, class C>
T join(Ctx& c, Future<T, C>& future) {
  const std::uintptr_t word = detail::FutureAccess::release(future);
  using Fn = typename detail::CtxTaskOf<C>::type;
  if constexpr (!std::is_void_v<Fn>) {
    detail::WorkerCore* const w = detail::current_worker();
    if (detail::Slot* const s = w->stack.top_if(word)) [[likely]] {
      c = detail::ctx_of(s);  // T is s once the join returns, whichever way it goes
      return detail::ctx_join_top<Fn>(w, s);
    }
  }
  struct Resync {
    Ctx& c;
    ~Resync() { c = context(); }
  } resync{c};
  return detail::FutureAccess::join_word<Future<T, C>>(word);
}

}  // namespace weft

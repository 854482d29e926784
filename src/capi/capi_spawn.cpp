// weft_spawn, weft_join and weft_poll: weft::spawn of a two-word closure, the future kept in
// C as its one word (future.hpp's FutureAccess) between the two calls. Also what weft.h's
// inline weft_spawn_nothrow and weft_join_nothrow need from here: the task's exec function,
// the join's contended path, and the check that the header's offsets are this build's.
#include <cstddef>
#include <cstdint>

#include "capi/last_error.hpp"
#include "weft/future.hpp"
#include "weft/poll.hpp"
#include "weft/weft.h"

namespace {

// The C task: fn and arg, the two words the worker's task slot holds.
struct CTask {
  void* (*fn)(void*);
  void* arg;
  void* operator()() const { return fn(arg); }
};
using CFuture = weft::SpawnedFuture<CTask>;

// weft.h's inline spawn writes a task as this file's spawn does, and its inline join pops it
// as Future::join does: at the offsets it names. Any change of layout fails here.
using weft::detail::Slot;
using weft::detail::TaskStack;
using weft::detail::WorkerCore;
static_assert(offsetof(WorkerCore, stack) == 0);
static_assert(TaskStack::field_offsets().tail == WEFT_DETAIL_TAIL);
static_assert(TaskStack::field_offsets().head == WEFT_DETAIL_HEAD);
static_assert(TaskStack::field_offsets().limit == WEFT_DETAIL_LIMIT);
static_assert(sizeof(weft::detail::Counter) == sizeof(std::uint64_t));
static_assert(sizeof(Slot) == WEFT_DETAIL_SLOT_BYTES);
static_assert(offsetof(Slot, exec) == 0);
static_assert(offsetof(Slot, storage) + offsetof(CTask, fn) == WEFT_DETAIL_SLOT_FN);
static_assert(offsetof(Slot, storage) + offsetof(CTask, arg) == WEFT_DETAIL_SLOT_ARG);
static_assert(weft::detail::kFitsInSlot<CTask>);
static_assert(sizeof(weft_future) == sizeof(std::uintptr_t));

// The refusals are out of line and cold, so that the hot paths build no std::string and need
// no stack frame of their own beyond the task's call.
[[gnu::noinline, gnu::cold]] weft_future spawn_refused() {
  weft::capi::fail(WEFT_ERROR_ARGUMENT, "weft_spawn: fn is NULL");
  return weft_future{weft::detail::kEmptyFuture};
}

[[gnu::noinline, gnu::cold]] void* join_refused(const weft_future* future) {
  weft::capi::fail(WEFT_ERROR_ARGUMENT,
                   future == nullptr
                       ? "weft_join: the future is NULL"
                       : "weft_join: the future is empty (already joined, or never spawned)");
  return nullptr;
}

[[gnu::noinline, gnu::cold]] void* join_threw() {
  weft::capi::fail_with_current_exception(WEFT_ERROR_EXCEPTION, "weft_join");
  return nullptr;
}

}  // namespace

extern "C" {

weft_future weft_spawn(void* (*fn)(void*), void* arg) {
  if (fn == nullptr) [[unlikely]]
    return spawn_refused();
  CFuture f = weft::spawn(CTask{fn, arg});
  return weft_future{weft::detail::FutureAccess::release(f)};
}

void* weft_join(weft_future* future) {
  // A zeroed future is as empty as a joined one: word 0 names no slot.
  if (future == nullptr || future->opaque <= weft::detail::kEmptyFuture) [[unlikely]] {
    return join_refused(future);
  }
  CFuture f = weft::detail::FutureAccess::make<CFuture>(future->opaque);
  future->opaque = weft::detail::kEmptyFuture;
  try {
    return f.join();
  } catch (...) {
    return join_threw();
  }
}

// weft_join_nothrow's way to weft_join when its inline pop does not apply.
void* weft_detail_join_word(std::uintptr_t word) {
  weft_future future{word};
  return weft_join(&future);
}

void weft_poll(void) { weft::poll(); }

// The exec of a task pushed by weft_spawn_nothrow: the one weft_spawn's tasks have (a thief
// runs it; no exception leaves it).
weft::detail::Outcome weft_detail_c_exec(Slot* s) noexcept {
  return weft::detail::exec_closure<weft::detail::StoredClosure<CTask>, void*>(s);
}

// weft_join_nothrow popped the slot and found a thief at it (or a request pending): settle as
// weft_join would, reporting the task's exception if the thief's run threw.
void* weft_detail_join_popped(std::uintptr_t word) {
  try {
    return weft::detail::FutureAccess::join_contended<CFuture>(weft::detail::current_worker(),
                                                               reinterpret_cast<Slot*>(word));
  } catch (...) {
    return join_threw();
  }
}
}

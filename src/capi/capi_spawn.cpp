// weft_spawn, weft_join and weft_poll: weft::spawn of a two-word closure, the future kept in
// C as its one word (future.hpp's FutureAccess) between the two calls.
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

void weft_poll(void) { weft::poll(); }
}

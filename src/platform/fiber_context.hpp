// Execution contexts for user-level threads: a saved register state on a stack of its own,
// switched with Boost.Context's fcontext (jump_fcontext: a few dozen instructions, no system
// call, no signal mask), annotated for the sanitizers.
//
// A context is either running, on exactly one OS thread, or suspended, with its saved state
// in `fctx_`. switch_to(from, to, data) suspends `from`, the running context, and resumes
// `to`; it returns `data` from whoever later switches back to `from`, which may happen on
// another OS thread. Invariants (the scheduler above keeps FC1 and FC3; this file keeps FC2):
//   FC1 A suspended context is resumed by one switch at most per suspension.
//   FC2 `from.fctx_` is written on the far side of the jump, by the code that resumes (it
//       receives the handle from jump_fcontext), before that code does anything else: the
//       handle is valid from that store until `from` is resumed.
//   FC3 A thread that resumes a context another thread suspended is ordered after that
//       store (the scheduler's lock, or its release/acquire hand-off, does it).
// Code on a fiber may wake on another OS thread after any switch: what it derives from the
// thread (a thread_local's address, pthread_self()) must be read again afterwards, through a
// call the compiler cannot see into, since it takes those for constant within a function.
// A fiber's entry function never returns: it ends with exit_to(), which resumes another
// context and tells the sanitizers the fiber is gone; its stack may then be reused.
//
// Sanitizers. Debian's fcontext is built without Boost's ASan hooks (BOOST_USE_ASAN is
// ignored), so every switch here tells AddressSanitizer which stack it is entering
// (__sanitizer_start_switch_fiber before the jump, __sanitizer_finish_switch_fiber after),
// and ThreadSanitizer which fiber (__tsan_switch_to_fiber, from a function it does not
// instrument, right before the jump). A thread's own stack becomes a context through
// adopt_thread(); ASan learns its bounds on the first switch away from it.
#pragma once

#include <cstddef>

namespace weft::platform {

class ExecutionContext;

// What a fiber runs: `self` is its context, `data` what the first switch to it passed.
using FiberEntry = void (*)(ExecutionContext& self, void* data);

class ExecutionContext {
 public:
  ExecutionContext() = default;
  ExecutionContext(const ExecutionContext&) = delete;
  ExecutionContext& operator=(const ExecutionContext&) = delete;
  ~ExecutionContext();

  // The calling thread's own stack, as a context to switch away from and back to.
  void adopt_thread() noexcept;
  // A fiber that will run entry(*this, data) on [bottom, bottom + bytes) when first
  // switched to (stacks grow down from bottom + bytes).
  void prepare(void* bottom, std::size_t bytes, FiberEntry entry) noexcept;

  // Suspends `*this` (which must be running on the calling thread) and resumes `to`.
  // Returns the data passed by the switch that resumes `*this`.
  void* switch_to(ExecutionContext& to, void* data) noexcept;
  // Like switch_to, but `*this` has finished and is never resumed.
  [[noreturn]] void exit_to(ExecutionContext& to, void* data) noexcept;

 private:
  struct Handoff;
  friend struct ContextSwitch;

  void* fctx_ = nullptr;        // the saved state while suspended (FC2)
  FiberEntry entry_ = nullptr;  // a prepared fiber's, until it first runs
  // For ASan: the stack this context runs on, and its fake stack while suspended.
  const void* stack_bottom_ = nullptr;
  std::size_t stack_bytes_ = 0;
  void* fake_stack_ = nullptr;
  // For TSan: this context's fiber, and whether this object created it (fibers) or took
  // the thread's own (adopt_thread).
  void* tsan_fiber_ = nullptr;
  bool owns_tsan_fiber_ = false;
};

}  // namespace weft::platform

#include "platform/fiber_context.hpp"

#include <boost/context/detail/fcontext.hpp>
#include <cstdio>
#include <cstdlib>

#include "weft/detail/sanitizers.hpp"

#if WEFT_DETAIL_ASAN
#include <sanitizer/asan_interface.h>
#endif
#if WEFT_DETAIL_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace weft::platform {

namespace fc = boost::context::detail;

// What one switch carries across the jump: who suspended (to store its handle, FC2), who
// is resumed (a fiber's first run needs it), the data, and whether `from` is finished.
struct ExecutionContext::Handoff {
  ExecutionContext* from;
  ExecutionContext* to;
  void* data;
  bool from_finished;
};

// The steps of a switch, with the sanitizers' annotations, in the order they must happen.
struct ContextSwitch {
  // Just before the jump, on the suspending side.
  static void leave(ExecutionContext::Handoff& h) noexcept {
#if WEFT_DETAIL_ASAN
    // A finished context passes no save slot: ASan then frees its fake stack.
    __sanitizer_start_switch_fiber(h.from_finished ? nullptr : &h.from->fake_stack_,
                                   h.to->stack_bottom_, h.to->stack_bytes_);
#else
    (void)h;
#endif
  }

  // Just after the jump, on the resumed side: `t` is what jump_fcontext delivered.
  static ExecutionContext::Handoff& arrive(fc::transfer_t t, ExecutionContext& self) noexcept {
    auto& h = *static_cast<ExecutionContext::Handoff*>(t.data);
    h.from->fctx_ = t.fctx;  // FC2
#if WEFT_DETAIL_ASAN
    const void* from_bottom = nullptr;
    std::size_t from_bytes = 0;
    __sanitizer_finish_switch_fiber(self.fake_stack_, &from_bottom, &from_bytes);
    self.fake_stack_ = nullptr;
    // How a thread's own context learns its stack's bounds: from its first switch away.
    if (!h.from_finished) {
      h.from->stack_bottom_ = from_bottom;
      h.from->stack_bytes_ = from_bytes;
    }
#else
    (void)self;
#endif
    return h;
  }

  // The jump itself, uninstrumented for TSan: nothing may run between telling it the
  // new fiber and switching to it.
#if WEFT_DETAIL_TSAN
  __attribute__((no_sanitize("thread")))
#endif
  static fc::transfer_t
  jump(ExecutionContext::Handoff& h) noexcept {
#if WEFT_DETAIL_TSAN
    __tsan_switch_to_fiber(h.to->tsan_fiber_, 0);
#endif
    return fc::jump_fcontext(h.to->fctx_, &h);
  }

  // A fiber's first run, on its own stack.
  static void trampoline(fc::transfer_t t) noexcept {
    auto& first = *static_cast<ExecutionContext::Handoff*>(t.data);
    ExecutionContext& self = *first.to;
    const ExecutionContext::Handoff& h = arrive(t, self);
    const FiberEntry entry = self.entry_;
    self.entry_ = nullptr;
    entry(self, h.data);
    std::fputs("weft: a user-level thread's entry function returned instead of exiting\n", stderr);
    std::abort();
  }
};

ExecutionContext::~ExecutionContext() {
#if WEFT_DETAIL_TSAN
  if (owns_tsan_fiber_) __tsan_destroy_fiber(tsan_fiber_);
#endif
}

void ExecutionContext::adopt_thread() noexcept {
#if WEFT_DETAIL_TSAN
  tsan_fiber_ = __tsan_get_current_fiber();
  owns_tsan_fiber_ = false;
#endif
}

void ExecutionContext::prepare(void* bottom, std::size_t bytes, FiberEntry entry) noexcept {
  entry_ = entry;
  stack_bottom_ = bottom;
  stack_bytes_ = bytes;
  fake_stack_ = nullptr;
  fctx_ = fc::make_fcontext(static_cast<char*>(bottom) + bytes, bytes, &ContextSwitch::trampoline);
#if WEFT_DETAIL_TSAN
  // A fresh fiber each time: a finished one's shadow call stack never unwound.
  if (owns_tsan_fiber_) __tsan_destroy_fiber(tsan_fiber_);
  tsan_fiber_ = __tsan_create_fiber(0);
  owns_tsan_fiber_ = true;
#endif
}

void* ExecutionContext::switch_to(ExecutionContext& to, void* data) noexcept {
  Handoff h{this, &to, data, false};
  ContextSwitch::leave(h);
  const fc::transfer_t t = ContextSwitch::jump(h);
  return ContextSwitch::arrive(t, *this).data;
}

void ExecutionContext::exit_to(ExecutionContext& to, void* data) noexcept {
  Handoff h{this, &to, data, true};
  ContextSwitch::leave(h);
  ContextSwitch::jump(h);
  std::fputs("weft: a finished user-level thread was resumed\n", stderr);
  std::abort();
}

}  // namespace weft::platform

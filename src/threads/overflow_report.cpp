// The guard-fault lookup for user-level threads. It runs in a signal handler on the faulting
// OS thread (GF1 in platform/guard_fault.hpp): it reads only that thread's tls_worker (TR1 in
// worker_switch.cpp: the core of the thread it is running) and that thread's stack, which no
// other OS thread changes while it runs.
#include "threads/overflow_report.hpp"

#include "platform/guard_fault.hpp"
#include "threads/uthread.hpp"

namespace weft::detail {

namespace {

std::size_t describe_overflow(const void* address, char* message, std::size_t capacity) noexcept {
  // Through a call the compiler cannot see into: a fiber may have moved between OS threads.
  const WorkerCore* const core = current_worker_uncached();
  const UThread* const t = core != nullptr ? core->thread : nullptr;
  if (t == nullptr || !t->stack.guards(address)) return 0;
  platform::SignalSafeText text(message, capacity);
  text << "weft: thread " << static_cast<unsigned long long>(t->number) << " overflowed its "
       << static_cast<unsigned long long>(t->stack.usable_bytes())
       << "-byte stack (WEFT_THREAD_STACK)\n";
  return text.size();
}

}  // namespace

void install_overflow_report() noexcept {
  (void)platform::install_guard_fault_handler(&describe_overflow);
}

}  // namespace weft::detail

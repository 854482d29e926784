// The guard-page fault handler and the alternate signal stacks it runs on (GF1-GF3 in
// guard_fault.hpp).
#include "platform/guard_fault.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "weft/detail/sanitizers.hpp"

namespace weft::platform {

namespace {

// The lookup, stored before the handler is installed (GF3).
std::atomic<GuardFaultLookup> g_lookup{nullptr};
std::atomic<bool> g_installed{false};
// The handlers found at installation, for faults that are not ours (GF2). Written once,
// before our handler is installed, and only read afterwards.
struct sigaction g_previous_segv {};
struct sigaction g_previous_bus {};

// Room for the handler, the lookup and a libc call or two; mapped lazily, so the untouched
// pages cost only address space.
constexpr std::size_t kMinAltStackBytes = std::size_t{64} << 10;

void pass_on(int signal, siginfo_t* info, void* context) noexcept {
  const struct sigaction& previous = signal == SIGBUS ? g_previous_bus : g_previous_segv;
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  // GF2: the default course. A fault re-executes and faults again under the old action; a
  // signal somebody sent (si_code <= 0: kill, sigqueue, tgkill) would not, so send it again:
  // blocked while this handler runs, it is delivered as the handler returns.
  ::sigaction(signal, &previous, nullptr);
  if (info->si_code <= 0) ::raise(signal);
}

void on_fault(int signal, siginfo_t* info, void* context) noexcept {
  const GuardFaultLookup lookup = g_lookup.load(std::memory_order_acquire);
  char message[256];
  const std::size_t n = lookup != nullptr ? lookup(info->si_addr, message, sizeof message) : 0;
  if (n == 0) {
    pass_on(signal, info, context);
    return;
  }
  // GF1: one write(2); the return value is moot, since we abort whatever it says.
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, n);
  std::abort();
}

std::size_t alt_stack_bytes() noexcept {
#ifdef _SC_SIGSTKSZ
  const long minimum = ::sysconf(_SC_SIGSTKSZ);  // glibc 2.34+: what this CPU needs
#else
  const long minimum = SIGSTKSZ;
#endif
  return std::max(kMinAltStackBytes, minimum > 0 ? static_cast<std::size_t>(minimum) * 4 : 0);
}

}  // namespace

bool install_guard_fault_handler(GuardFaultLookup lookup) noexcept {
  // ASan's own SIGSEGV handler reports a stack overflow (on its own alternate stacks).
  if (WEFT_DETAIL_ASAN) return false;
  bool expected = false;
  if (!g_installed.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
    return true;  // GF3: the first lookup stays
  }
  g_lookup.store(lookup, std::memory_order_release);
  ::sigaction(SIGSEGV, nullptr, &g_previous_segv);
  ::sigaction(SIGBUS, nullptr, &g_previous_bus);
  struct sigaction action {};
  action.sa_sigaction = &on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGSEGV, &action, nullptr);
  ::sigaction(SIGBUS, &action, nullptr);
  return true;
}

AlternateSignalStack::AlternateSignalStack() noexcept {
  if (!g_installed.load(std::memory_order_acquire) || WEFT_DETAIL_ASAN) return;
  stack_t current{};
  // A thread that has one already (a sanitizer's, a caller's) keeps it.
  if (::sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) return;
  const std::size_t bytes = alt_stack_bytes();
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) return;  // an overflow then dies of a plain SIGSEGV, as without us
  stack_t stack{};
  stack.ss_sp = p;
  stack.ss_size = bytes;
  if (::sigaltstack(&stack, nullptr) != 0) {
    ::munmap(p, bytes);
    return;
  }
  mapping_ = p;
  bytes_ = bytes;
}

AlternateSignalStack::~AlternateSignalStack() {
  if (mapping_ == nullptr) return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  ::sigaltstack(&off, nullptr);
  ::munmap(mapping_, bytes_);
}

SignalSafeText& SignalSafeText::operator<<(const char* text) noexcept {
  for (; *text != '\0' && len_ < cap_; ++text) buf_[len_++] = *text;
  return *this;
}

SignalSafeText& SignalSafeText::operator<<(unsigned long long value) noexcept {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0 && len_ < cap_) buf_[len_++] = digits[--n];
  return *this;
}

}  // namespace weft::platform

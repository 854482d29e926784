// Faults on a guard page, reported in words instead of a bare SIGSEGV: a SIGSEGV and SIGBUS
// handler that asks a lookup whether the faulting address is a guard page it knows, and what
// to say about it, and an alternate signal stack for each OS thread that runs fibers (a
// fiber that overflowed has no stack left for the handler).
//
// The platform layer knows nothing of what runs on a stack: the lookup is the caller's
// (the core names the user-level thread and its stack size). Invariants:
//   GF1 The handler and the lookup are async-signal-safe: no locks, no allocation, no stdio;
//       the message goes out with one write(2). The lookup reads only what the faulting OS
//       thread itself wrote (its thread-local state, the stack it runs on).
//   GF2 A fault the lookup does not claim goes to the handler that was there before: a
//       handler function is called; SIG_DFL or SIG_IGN is put back and the handler returns,
//       so the faulting instruction runs again and the fault takes its default course (the
//       kernel kills for a synchronous fault it cannot deliver, even under SIG_IGN).
//   GF3 The handler is installed once per process; later calls change nothing. The lookup
//       is stored (release) before the handler is, and read with acquire.
#pragma once

#include <cstddef>

namespace weft::platform {

// Writes what to say about a fault at `address` into `message` (at most `capacity` bytes,
// a trailing newline included) and returns its length; 0 when the address is no guard page
// it knows. Called in a signal handler (GF1).
using GuardFaultLookup = std::size_t (*)(const void* address, char* message,
                                         std::size_t capacity) noexcept;

// Installs the handler (GF3). Returns false where it is not installed: under AddressSanitizer,
// which owns SIGSEGV and reports a stack overflow itself.
bool install_guard_fault_handler(GuardFaultLookup lookup) noexcept;

// While alive, the calling OS thread's alternate signal stack, where the handler runs. Made
// and destroyed on the same OS thread; does nothing where the handler is not installed.
class AlternateSignalStack {
 public:
  AlternateSignalStack() noexcept;
  ~AlternateSignalStack();
  AlternateSignalStack(const AlternateSignalStack&) = delete;
  AlternateSignalStack& operator=(const AlternateSignalStack&) = delete;

 private:
  void* mapping_ = nullptr;
  std::size_t bytes_ = 0;
};

// Async-signal-safe text building for lookups: appends to a fixed buffer, truncating.
class SignalSafeText {
 public:
  SignalSafeText(char* buffer, std::size_t capacity) noexcept : buf_(buffer), cap_(capacity) {}
  SignalSafeText& operator<<(const char* text) noexcept;
  SignalSafeText& operator<<(unsigned long long value) noexcept;
  std::size_t size() const noexcept { return len_; }

 private:
  char* buf_;
  std::size_t cap_;
  std::size_t len_ = 0;
};

}  // namespace weft::platform

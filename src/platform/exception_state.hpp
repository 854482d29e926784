// The C++ runtime's record of the exceptions being handled, which it keeps per OS thread
// (the Itanium C++ ABI's __cxa_eh_globals: the chain of caught exceptions, newest first, and
// the count of thrown but not yet caught ones). A fiber that parks inside a catch handler
// and resumes on another OS thread must take that record with it: otherwise a `throw;` there
// finds no exception ("terminate called without an active exception"), and the OS thread it
// left believes an exception is still being handled. The switch code swaps the record at
// every switch to and from a fiber.
#pragma once

#include <utility>

namespace weft::platform {

// The record's layout (libstdc++ and libc++abi agree on these two fields on every target this
// project builds for; ARM's EHABI adds a third, which a fiber never leaves set between
// switches).
struct ExceptionState {
  void* caught = nullptr;  // the ABI's caughtExceptions
  unsigned int uncaught = 0;
};

// The calling OS thread's record (fixed for the thread's life: callers may keep it).
ExceptionState* thread_exception_state() noexcept;

// Exchanges an OS thread's record with `other`: once before switching to a fiber (which
// installs the fiber's record and keeps the thread's in `other`) and once after it switched
// back (which puts both back).
inline void swap_exception_state(ExceptionState& thread_record, ExceptionState& other) noexcept {
  std::swap(thread_record.caught, other.caught);
  std::swap(thread_record.uncaught, other.uncaught);
}

// The two swaps of a switch straight from fiber `from` to fiber `to` in one rotation:
// `from` takes its record back from the OS thread's, which takes `to`'s, and `to` keeps the
// thread's own, which `from` kept while it ran.
inline void hand_exception_state(ExceptionState& thread_record, ExceptionState& from,
                                 ExceptionState& to) noexcept {
  const ExceptionState own = from;
  from = thread_record;
  thread_record = to;
  to = own;
}

}  // namespace weft::platform

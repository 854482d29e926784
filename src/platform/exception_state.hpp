// The C++ runtime's record of the exceptions being handled, which it keeps per OS thread
// (the Itanium C++ ABI's __cxa_eh_globals: the chain of caught exceptions, newest first, and
// the count of thrown but not yet caught ones). A fiber that parks inside a catch handler
// and resumes on another OS thread must take that record with it: otherwise a `throw;` there
// finds no exception ("terminate called without an active exception"), and the OS thread it
// left believes an exception is still being handled. The switch code swaps the record at
// every switch to and from a fiber.
#pragma once

namespace weft::platform {

struct ExceptionState {
  void* caught = nullptr;  // the ABI's caughtExceptions
  unsigned int uncaught = 0;
};

// Exchanges the calling OS thread's record with `other`: called once before switching to a
// fiber (which installs the fiber's record and keeps the thread's in `other`) and once after
// it switched back (which puts both back).
void swap_exception_state(ExceptionState& other) noexcept;

}  // namespace weft::platform

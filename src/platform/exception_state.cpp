// swap_exception_state over the Itanium ABI's __cxa_get_globals (libstdc++ and libc++abi
// agree on the two fields this reads on every target this project builds for; ARM's EHABI
// adds a third, which a fiber never leaves non-null between switches).
#include "platform/exception_state.hpp"

#include <cxxabi.h>

#include <utility>

namespace weft::platform {

namespace {
// The layout of __cxa_eh_globals, which <cxxabi.h> declares but does not define.
struct EhGlobals {
  void* caught_exceptions;
  unsigned int uncaught_exceptions;
};
}  // namespace

void swap_exception_state(ExceptionState& other) noexcept {
  auto* const globals = reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals());
  std::swap(globals->caught_exceptions, other.caught);
  std::swap(globals->uncaught_exceptions, other.uncaught);
}

}  // namespace weft::platform

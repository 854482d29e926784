// thread_exception_state over the Itanium ABI's __cxa_get_globals, which <cxxabi.h> declares
// without defining the struct it returns (exception_state.hpp mirrors its layout).
#include "platform/exception_state.hpp"

#include <cxxabi.h>

namespace weft::platform {

ExceptionState* thread_exception_state() noexcept {
  return reinterpret_cast<ExceptionState*>(abi::__cxa_get_globals());
}

}  // namespace weft::platform

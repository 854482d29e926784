#include "platform/virtual_memory.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace weft::platform {

void* reserve_zeroed(std::size_t bytes, const char* what) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw std::system_error(
        errno, std::generic_category(),
        std::string("weft: cannot reserve ") + std::to_string(bytes) + " bytes for " + what);
  }
  return p;
}

void release_reserved(void* base, std::size_t bytes) noexcept {
  if (base != nullptr) ::munmap(base, bytes);
}

}  // namespace weft::platform

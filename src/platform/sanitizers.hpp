// Which sanitizer this translation unit is built with, and the annotations the platform
// layer gives them; each is a no-op in a build without that sanitizer.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_ASAN 1
#endif
#endif
#ifndef WEFT_ASAN
#define WEFT_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define WEFT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TSAN 1
#endif
#endif
#ifndef WEFT_TSAN
#define WEFT_TSAN 0
#endif

#if WEFT_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace weft::platform {

// Clears ASan's poisoning of [p, p + bytes) (redzones of frames that never returned).
inline void unpoison_memory(const void* p, std::size_t bytes) noexcept {
#if WEFT_ASAN
  __asan_unpoison_memory_region(p, bytes);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace weft::platform

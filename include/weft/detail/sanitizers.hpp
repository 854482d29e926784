// Which sanitizer this translation unit is built with, for the few places that must act
// differently under one: WEFT_DETAIL_TSAN and WEFT_DETAIL_ASAN are 1 or 0.
// GCC says so with __SANITIZE_*__, clang with __has_feature.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define WEFT_DETAIL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_DETAIL_TSAN 1
#endif
#endif
#ifndef WEFT_DETAIL_TSAN
#define WEFT_DETAIL_TSAN 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_DETAIL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_DETAIL_ASAN 1
#endif
#endif
#ifndef WEFT_DETAIL_ASAN
#define WEFT_DETAIL_ASAN 0
#endif

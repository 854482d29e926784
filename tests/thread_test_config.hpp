// The Config the user-level thread tests run under: a worker count, a scheduler, and thread
// stacks deep enough for sanitized builds (ASan's redzones, TSan's frames).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "weft/config.hpp"
#include "weft/detail/sanitizers.hpp"

namespace weft_test {

inline constexpr std::size_t kThreadStackBytes =
    (WEFT_DETAIL_ASAN || WEFT_DETAIL_TSAN) ? std::size_t{256} << 10 : std::size_t{16} << 10;

inline weft::Config thread_config(weft::ThreadSched sched, unsigned workers,
                                  std::size_t quota = 0) {
  weft::Config c;
  c.workers = workers;
  c.thread_sched = sched;
  c.thread_stack_bytes = kThreadStackBytes;
  c.mem_quota_bytes = quota;
  return c;
}

// Names a scheduler-parameterised test after its scheduler (".../df").
inline std::string sched_name(const ::testing::TestParamInfo<weft::ThreadSched>& info) {
  return weft::thread_sched_name(info.param);
}

}  // namespace weft_test

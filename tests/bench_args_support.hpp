// Helpers the weft-bench argument tests share: parse a command line given as a brace list,
// or get the one-line message of the UsageError it throws.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"

namespace bench_test {

inline weft_bench::Options parse(std::initializer_list<std::string_view> args) {
  const std::vector<std::string_view> v(args);
  return weft_bench::parse_args(v);
}

// The message of the UsageError that parsing `args` throws ("" if none).
inline std::string error_of(std::initializer_list<std::string_view> args) {
  try {
    (void)parse(args);
  } catch (const weft_bench::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace bench_test

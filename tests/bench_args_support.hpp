// Helpers the weft-bench argument tests share: parse a command line given as a brace list,
// get the one-line message of the UsageError it throws, or set WEFT_* variables for a test.
#pragma once

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/bench/cli/args.hpp"

namespace bench_test {

inline bench_cli::Options parse(std::initializer_list<std::string_view> args) {
  const std::vector<std::string_view> v(args);
  return bench_cli::parse_args(v);
}

// The message of the UsageError that parsing `args` throws ("" if none).
inline std::string error_of(std::initializer_list<std::string_view> args) {
  try {
    (void)parse(args);
  } catch (const bench_cli::UsageError& e) {
    return e.what();
  }
  return "";
}

// Sets (or, for a null value, unsets) environment variables for the test's length,
// restoring them after.
class ScopedEnv {
 public:
  ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name);
      saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
      if (value != nullptr) {
        setenv(name, value, 1);
      } else {
        unsetenv(name);
      }
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, old] : saved_) {
      if (old) {
        setenv(name.c_str(), old->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace bench_test

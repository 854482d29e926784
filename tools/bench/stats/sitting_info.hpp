// What a benchmark document says about the sitting that made it, so that a figure can be
// traced to the build, the machine and the command: the commit the program was built from,
// the compiler and flags, the CPU model, the kernel, the date, the seed of the sitting's
// random order and resamples, and the command line.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace bench_stats {

struct SittingInfo {
  std::string commit;      // "<hash>", "<hash>-dirty" or "unknown"
  std::string compiler;    // "GNU 12.2.0"
  std::string flags;       // the C++ flags of the build type ("-O3 -DNDEBUG")
  std::string build_type;  // "Release"
  std::string cpu_model;   // /proc/cpuinfo's first "model name", "" if none
  std::string kernel;      // uname's release, "" if unknown
  std::string date_utc;    // "2026-12-07T12:34:56Z", when the sitting began
  std::uint64_t seed = 0;
  std::string command_line;  // the program's arguments, each quoted for a POSIX shell if needed
};

// The sitting that starts now, run with `args` (argv, the program's name first).
SittingInfo current_sitting(std::span<const std::string_view> args, std::uint64_t seed);

// `args` joined by spaces, each word single-quoted where a shell would split or expand it.
std::string shell_command_line(std::span<const std::string_view> args);

// The fields as members of a JSON object, without braces: "\"commit\":\"…\",…,\"command\":\"…\"".
std::string sitting_json_members(const SittingInfo& info);

}  // namespace bench_stats

#include "tools/bench/stats/sitting_info.hpp"

#include <sys/utsname.h>

#include <ctime>
#include <fstream>

#include "build_info.hpp"  // generated: cmake/WeftBuildInfo.cmake
#include "workloads/common/text_format.hpp"

namespace bench_stats {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? u.release : "";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool needs_quotes(std::string_view word) {
  if (word.empty()) return true;
  for (char c : word) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("-_./:=,+@%").find(c) != std::string_view::npos;
    if (!plain) return true;
  }
  return false;
}

}  // namespace

std::string shell_command_line(std::span<const std::string_view> args) {
  std::string line;
  for (std::string_view word : args) {
    if (!line.empty()) line += ' ';
    if (!needs_quotes(word)) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word) {
      if (c == '\'') {
        line += "'\\''";
      } else {
        line += c;
      }
    }
    line += '\'';
  }
  return line;
}

SittingInfo current_sitting(std::span<const std::string_view> args, std::uint64_t seed) {
  SittingInfo s;
  s.commit = WEFT_BUILD_COMMIT;
  s.compiler = WEFT_BUILD_COMPILER;
  s.flags = WEFT_BUILD_FLAGS;
  s.build_type = WEFT_BUILD_TYPE;
  s.cpu_model = cpu_model();
  s.kernel = kernel_release();
  s.date_utc = utc_now();
  s.seed = seed;
  s.command_line = shell_command_line(args);
  return s;
}

std::string sitting_json_members(const SittingInfo& s) {
  using common::quote;
  return "\"commit\":" + quote(s.commit) + ",\"compiler\":" + quote(s.compiler) +
         ",\"flags\":" + quote(s.flags) + ",\"build_type\":" + quote(s.build_type) +
         ",\"cpu_model\":" + quote(s.cpu_model) + ",\"kernel\":" + quote(s.kernel) +
         ",\"date\":" + quote(s.date_utc) + ",\"seed\":" + std::to_string(s.seed) +
         ",\"command_line\":" + quote(s.command_line);
}

}  // namespace bench_stats

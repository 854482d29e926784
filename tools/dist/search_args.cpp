#include "tools/dist/search_args.hpp"

#include <charconv>

#include "weft/config.hpp"
#include "workloads/common/output_file.hpp"

namespace dist {

bool parse_u64_in(std::string_view text, std::uint64_t low, std::uint64_t high,
                  std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc{} && p == end && !text.empty() && value >= low && value <= high;
}

std::string search_args_usage() {
  return "  --steal  chunks a victim gives for n releasable ones: one, half or fixed:D (one)\n"
         "  --chunk  nodes a chunk (default 32)   --poll  nodes between polls, 0 adaptive (0)\n"
         "  --repeat repetitions, median reported (3)   --seed  the victims' stream (1)\n"
         "  --json   write rank 0's results to FILE\n";
}

std::string for_each_flag(
    int argc, char** argv, bool& help,
    const std::function<std::string(std::string_view flag, std::string_view value)>& take) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      help = true;
      return "";
    }
    if (i + 1 >= argc) return std::string(flag) + ": expected a value after it";
    if (std::string error = take(flag, argv[++i]); !error.empty()) return error;
  }
  return "";
}

std::optional<std::string> parse_search_arg(std::string_view flag, std::string_view value,
                                            SearchArgs& a) {
  std::uint64_t n = 0;
  const std::string v(value);
  if (flag == "--steal") {
    if (value == "adaptive") {
      return "--steal adaptive: expected one, half or fixed:D (ranks keep no steal history)";
    }
    try {
      a.search.policy = weft::StealPolicy::parse(value, "--steal");
    } catch (const weft::ConfigError& e) {
      return e.what();
    }
    a.steal = v;
  } else if (flag == "--chunk") {
    if (!parse_u64_in(value, 1, 1u << 20, n)) {
      return "--chunk " + v + ": expected >= 1 (and at most 1048576)";
    }
    a.search.chunk = n;
  } else if (flag == "--poll") {
    if (!parse_u64_in(value, 0, 1'000'000, n)) {
      return "--poll " + v + ": expected 0 (adaptive) to 1000000";
    }
    a.search.poll_interval = static_cast<unsigned>(n);
  } else if (flag == "--repeat") {
    if (!parse_u64_in(value, 1, 1000, n)) return "--repeat " + v + ": expected 1 to 1000";
    a.repeat = static_cast<int>(n);
  } else if (flag == "--seed") {
    if (!parse_u64_in(value, 0, UINT64_MAX, n)) return "--seed " + v + ": expected a number";
    a.search.seed = n;
  } else if (flag == "--json") {
    if (const std::string e = bench_cli::check_replaceable(v); !e.empty()) {
      return "--json " + v + ": " + e;
    }
    a.json = v;
  } else {
    return std::nullopt;
  }
  return std::string();
}

}  // namespace dist

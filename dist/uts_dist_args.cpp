#include "dist/uts_dist_args.hpp"

#include <charconv>
#include <string_view>
#include <vector>

#include "uts/presets.hpp"
#include "uts/tree_flags.hpp"
#include "weft/config.hpp"

namespace weft::dist {
namespace {

bool parse_u64(std::string_view text, std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc{} && p == end && !text.empty();
}

}  // namespace

std::string uts_dist_usage() {
  return "usage: weft-uts-dist [--tree NAME] [-t -b -m -q -d -a -r -g -f VALUE ...]\n"
         "                     [--steal one|half|fixed:D] [--chunk C] [--poll K] [--repeat R]\n"
         "                     [--seed S] [--json FILE]\n"
         "  Unbalanced Tree Search over MPI ranks with work stealing between them; run it under\n"
         "  mpirun (scripts/mpirun.sh), or alone as one rank. Every run's counts are checked.\n"
         "  --tree   a preset (T1..T5, T1L..T3L, A, B; default T3); reference flags go over it\n"
         "  --steal  chunks a victim gives for n releasable ones (default one)\n"
         "  --chunk  nodes a chunk (default 32)   --poll  nodes between polls, 0 adaptive (0)\n"
         "  --repeat repetitions, median reported (3)   --seed  the victims' stream (1)\n"
         "  --json   write rank 0's results to FILE\n";
}

std::string parse_uts_dist_args(int argc, char** argv, UtsDistArgs& a) {
  const uts::Preset* preset = uts::find_preset(a.tree_name);
  std::vector<std::string_view> tree_flags;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      a.help = true;
      return "";
    }
    if (i + 1 >= argc) return std::string(flag) + ": expected a value after it";
    const std::string_view value = argv[++i];
    std::uint64_t n = 0;
    if (flag == "--tree") {
      preset = uts::find_preset(value);
      if (preset == nullptr) {
        return "--tree " + std::string(value) + ": expected T1..T5, T1L..T3L, A or B";
      }
      a.tree_name = std::string(preset->name);
    } else if (flag == "--steal") {
      if (value == "adaptive") {
        return "--steal adaptive: expected one, half or fixed:D (ranks keep no steal history)";
      }
      try {
        a.search.policy = weft::StealPolicy::parse(value, "--steal");
      } catch (const weft::ConfigError& e) {
        return e.what();
      }
      a.steal = std::string(value);
    } else if (flag == "--chunk") {
      if (!parse_u64(value, n) || n < 1 || n > (1u << 20)) {
        return "--chunk " + std::string(value) + ": expected >= 1 (and at most 1048576)";
      }
      a.search.chunk = n;
    } else if (flag == "--poll") {
      if (!parse_u64(value, n) || n > 1'000'000) {
        return "--poll " + std::string(value) + ": expected 0 (adaptive) to 1000000";
      }
      a.search.poll_interval = static_cast<unsigned>(n);
    } else if (flag == "--repeat") {
      if (!parse_u64(value, n) || n < 1 || n > 1000) {
        return "--repeat " + std::string(value) + ": expected 1 to 1000";
      }
      a.repeat = static_cast<int>(n);
    } else if (flag == "--seed") {
      if (!parse_u64(value, n)) return "--seed " + std::string(value) + ": expected a number";
      a.search.seed = n;
    } else if (flag == "--json") {
      a.json = std::string(value);
    } else if (flag.size() == 2 && flag[0] == '-') {
      tree_flags.push_back(flag);
      tree_flags.push_back(value);
    } else {
      return std::string(flag) + ": unknown option (--help lists them)";
    }
  }
  a.tree = preset->params;
  a.published = preset;
  if (!tree_flags.empty()) {
    const std::string error = uts::parse_tree_args(tree_flags, a.tree);
    if (!error.empty()) return error;
    a.tree_name = std::string(preset->name) + " " + uts::to_args(a.tree);
    a.published = nullptr;  // no published size: counted serially on rank 0 first
  }
  return "";
}

}  // namespace weft::dist

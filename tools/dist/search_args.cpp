#include "tools/dist/search_args.hpp"

#include <cstdint>
#include <string_view>

#include "weft/config.hpp"
#include "workloads/common/output_file.hpp"

namespace dist {
namespace {}  // namespace

std::vector<common::Flag> search_flags(SearchArgs& a) {
  return {
      {"--steal", "P",
       "chunks a victim gives for n releasable ones: one, half or fixed:D\n(default one)",
       [&a](std::string_view v) {
         // Adaptive steals by the thief's own history, which a rank does not keep.
         if (v == "adaptive") {
           throw common::UsageError(common::argument("--steal", v),
                                    "expected one, half or fixed:D (ranks keep no steal history)");
         }
         a.search.policy = weft::StealPolicy::parse(v, "--steal");
         a.steal = std::string(v);
       }},
      {"--chunk", "C", "nodes a chunk, 1 to 1048576 (default 32)",
       [&a](std::string_view v) {
         a.search.chunk = static_cast<std::size_t>(
             common::parse_integer(common::argument("--chunk", v), v, 1, std::int64_t{1} << 20));
       }},
      {"--poll", "K", "nodes between polls, 0 adaptive, up to 1000000 (default 0)",
       [&a](std::string_view v) {
         a.search.poll_interval = static_cast<unsigned>(
             common::parse_integer(common::argument("--poll", v), v, 0, 1'000'000));
       }},
      {"--repeat", "R", "repetitions, 1 to 1000, the median reported (default 3)",
       [&a](std::string_view v) {
         a.repeat =
             static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, 1000));
       }},
      {"--seed", "S", "the victims' random stream (default 1)",
       [&a](std::string_view v) {
         a.search.seed = common::parse_u64(common::argument("--seed", v), v);
       }},
      {"--json", "FILE", "write rank 0's results to FILE",
       [&a](std::string_view v) {
         const std::string path(v);
         if (const std::string e = bench_cli::check_replaceable(path); !e.empty()) {
           throw common::UsageError(common::argument("--json", v), e);
         }
         a.json = path;
       }},
  };
}

std::string parse_flags(const common::FlagTable& table, int argc, char** argv, bool& help) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    help = !table.parse(args);
  } catch (const common::UsageError& e) {
    return e.what();
  } catch (const weft::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace dist

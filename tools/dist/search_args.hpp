// The command-line options every weft::dist program shares, parsed alike on every rank:
// --steal, --chunk, --poll, --seed, --repeat and --json (a file that can be written whole).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tools/dist/search_core.hpp"

namespace dist {

struct SearchArgs {
  SearchOptions search;
  std::string steal = "one";
  int repeat = 3;
  std::string json;  // "" for none
};

// nullopt when `flag` is not one of these; otherwise "" or what is wrong with `value`, e.g.
// "--chunk 0: expected >= 1 (and at most 1048576)".
std::optional<std::string> parse_search_arg(std::string_view flag, std::string_view value,
                                            SearchArgs& args);

// Walks a command line of "FLAG VALUE" pairs, handing each to `take`, which returns "" or
// what is wrong. Stops at -h or --help (setting `help`) and at the first error, which it
// returns; a flag without a value is one ("--n: expected a value after it").
std::string for_each_flag(
    int argc, char** argv, bool& help,
    const std::function<std::string(std::string_view flag, std::string_view value)>& take);

// The usage lines for these options, for a program's --help.
std::string search_args_usage();

// Whether `text` is, all of it, a decimal number in [low, high]; if so, it is in `value`.
bool parse_u64_in(std::string_view text, std::uint64_t low, std::uint64_t high,
                  std::uint64_t& value);

}  // namespace dist

// The command-line options every weft::dist program shares, parsed alike on every rank:
// --steal, --chunk, --poll, --seed, --repeat and --json (a file that can be written whole),
// as rows of the program's flag table (workloads/common/flags.hpp).
#pragma once

#include <string>
#include <vector>

#include "tools/dist/search_core.hpp"
#include "workloads/common/flags.hpp"

namespace dist {

struct SearchArgs {
  SearchOptions search;
  std::string steal = "one";
  int repeat = 3;
  std::string json;  // "" for none
};

// The rows of these options, parsed into `args`; a bad value throws common::UsageError, e.g.
// "--steal adaptive: expected one, half or fixed:D (ranks keep no steal history)", or
// weft::ConfigError for a steal policy weft rejects.
std::vector<common::Flag> search_flags(SearchArgs& args);

// Parses argv[1..argc) with `table`, as dist_program_main's parse does: returns "" or what is
// wrong (the message of the UsageError or weft::ConfigError thrown); `help` is set at --help
// or -h.
std::string parse_flags(const common::FlagTable& table, int argc, char** argv, bool& help);

}  // namespace dist

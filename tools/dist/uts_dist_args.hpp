// weft-uts-dist's command line, parsed alike on every rank before anything runs.
#pragma once

#include <cstdint>
#include <string>

#include "tools/dist/search_args.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree.hpp"

namespace dist {

struct UtsDistArgs {
  std::string tree_name = "T3";  // the preset, and the reference flags over it if any
  uts::TreeParams tree;          // the preset's, with any reference flags over it
  // The preset whose published size (and leaves and depth, where published) every run must
  // match; nullptr for a custom tree, which rank 0 counts serially first.
  const uts::Preset* published = nullptr;
  SearchArgs common;  // --steal --chunk --poll --seed --repeat --json
  bool help = false;
};

// "" or what is wrong, e.g. "--chunk 0: expected a whole number from 1 to 1048576, got "0"";
// every flag is a row of one table (uts_dist_args.cpp), which also writes --help.
std::string parse_uts_dist_args(int argc, char** argv, UtsDistArgs& args);

// --help: the usage, what the program does, and the table's option list.
std::string uts_dist_usage();

}  // namespace dist

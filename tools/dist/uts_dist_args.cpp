#include "tools/dist/uts_dist_args.hpp"

#include <string_view>
#include <vector>

#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree_flags.hpp"

namespace dist {
namespace {

// The reference's tree flags (workloads/uts/tree_flags.hpp): each goes over --tree's preset.
struct TreeFlag {
  std::string_view name, value, help;
};
constexpr TreeFlag kTreeFlags[] = {
    {"-t", "T", "the tree's type: 0 binomial, 1 geometric, 2 hybrid, 3 balanced"},
    {"-b", "B", "the root's branching factor b0"},
    {"-r", "R", "the root's seed"},
    {"-m", "M", "binomial: the children of a non-leaf node"},
    {"-q", "Q", "binomial: the probability of a non-leaf node"},
    {"-d", "D", "geometric and balanced: the depth parameter gen_mx"},
    {"-a", "A", "geometric: the shape, 0 linear, 1 exponential, 2 cyclic, 3 fixed"},
    {"-f", "F", "hybrid: the depth it turns binomial at, a fraction of gen_mx"},
    {"-g", "G", "the SHA-1 evaluations per child (extra work only; default 1)"},
};

// What the table gathers before the tree is made: the preset and the tree flags over it,
// applied once every argument is read (--tree may come after them).
struct TreeChoice {
  const uts::Preset* preset = nullptr;
  std::vector<std::string_view> tree_flags;  // "-q", "0.2", ...
};

common::FlagTable flag_table(UtsDistArgs& a, TreeChoice& choice) {
  std::vector<common::Flag> flags{
      {"--tree", "NAME", "a preset: T1..T5, T1L..T3L, A or B (default T3)",
       [&choice](std::string_view v) {
         choice.preset = uts::find_preset(v);
         if (choice.preset == nullptr) {
           throw common::UsageError(common::argument("--tree", v),
                                    "expected T1..T5, T1L..T3L, A or B");
         }
       }},
  };
  for (const TreeFlag& t : kTreeFlags) {
    flags.push_back({t.name, t.value, t.help, [&choice, name = t.name](std::string_view v) {
                       choice.tree_flags.push_back(name);
                       choice.tree_flags.push_back(v);
                     }});
  }
  for (common::Flag& f : search_flags(a.common)) flags.push_back(std::move(f));
  return common::FlagTable(std::move(flags));
}

}  // namespace

std::string uts_dist_usage() {
  UtsDistArgs scratch;
  TreeChoice choice{uts::find_preset(scratch.tree_name), {}};
  return "usage: weft-uts-dist [--tree NAME] [-t -b -m -q -d -a -r -g -f VALUE ...]\n"
         "                     [--steal one|half|fixed:D] [--chunk C] [--poll K] [--repeat R]\n"
         "                     [--seed S] [--json FILE]\n"
         "  Unbalanced Tree Search over MPI ranks with work stealing between them; run it under\n"
         "  mpirun (scripts/mpirun.sh), or alone as one rank. Every run's counts are checked.\n"
         "  The reference's tree flags (-t ... -g) go over the preset; a tree so changed has no\n"
         "  published size, so rank 0 counts it serially first.\n" +
         flag_table(scratch, choice).options_help();
}

std::string parse_uts_dist_args(int argc, char** argv, UtsDistArgs& a) {
  TreeChoice choice{uts::find_preset(a.tree_name), {}};
  if (std::string error = parse_flags(flag_table(a, choice), argc, argv, a.help);
      !error.empty() || a.help) {
    return error;
  }
  a.tree_name = std::string(choice.preset->name);
  a.tree = choice.preset->params;
  a.published = choice.preset;
  if (!choice.tree_flags.empty()) {
    const std::string tree_error = uts::parse_tree_args(choice.tree_flags, a.tree);
    if (!tree_error.empty()) return tree_error;
    a.tree_name = std::string(choice.preset->name) + " " + uts::to_args(a.tree);
    a.published = nullptr;  // no published size: counted serially on rank 0 first
  }
  return "";
}

}  // namespace dist

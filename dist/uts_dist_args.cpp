#include "dist/uts_dist_args.hpp"

#include <string_view>
#include <vector>

#include "uts/presets.hpp"
#include "uts/tree_flags.hpp"

namespace weft::dist {

std::string uts_dist_usage() {
  return "usage: weft-uts-dist [--tree NAME] [-t -b -m -q -d -a -r -g -f VALUE ...]\n"
         "                     [--steal one|half|fixed:D] [--chunk C] [--poll K] [--repeat R]\n"
         "                     [--seed S] [--json FILE]\n"
         "  Unbalanced Tree Search over MPI ranks with work stealing between them; run it under\n"
         "  mpirun (scripts/mpirun.sh), or alone as one rank. Every run's counts are checked.\n"
         "  --tree   a preset (T1..T5, T1L..T3L, A, B; default T3); reference flags go over it\n" +
         search_args_usage();
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
    if (flag == "--tree") {
      preset = uts::find_preset(value);
      if (preset == nullptr) {
        return "--tree " + std::string(value) + ": expected T1..T5, T1L..T3L, A or B";
      }
      a.tree_name = std::string(preset->name);
    } else if (auto error = parse_search_arg(flag, value, a.common)) {
      if (!error->empty()) return *error;
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

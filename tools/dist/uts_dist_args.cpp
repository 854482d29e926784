#include "tools/dist/uts_dist_args.hpp"

#include <string_view>
#include <vector>

#include "workloads/uts/presets.hpp"
#include "workloads/uts/tree_flags.hpp"

namespace dist {

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
  const std::string error =
      for_each_flag(argc, argv, a.help, [&](std::string_view flag, std::string_view value) {
        if (flag == "--tree") {
          preset = uts::find_preset(value);
          if (preset == nullptr) {
            return "--tree " + std::string(value) + ": expected T1..T5, T1L..T3L, A or B";
          }
          a.tree_name = std::string(preset->name);
        } else if (auto e = parse_search_arg(flag, value, a.common)) {
          return *e;
        } else if (flag.size() == 2 && flag[0] == '-') {
          tree_flags.push_back(flag);
          tree_flags.push_back(value);
        } else {
          return std::string(flag) + ": unknown option (--help lists them)";
        }
        return std::string();
      });
  if (!error.empty() || a.help) return error;
  a.tree = preset->params;
  a.published = preset;
  if (!tree_flags.empty()) {
    const std::string tree_error = uts::parse_tree_args(tree_flags, a.tree);
    if (!tree_error.empty()) return tree_error;
    a.tree_name = std::string(preset->name) + " " + uts::to_args(a.tree);
    a.published = nullptr;  // no published size: counted serially on rank 0 first
  }
  return "";
}

}  // namespace dist

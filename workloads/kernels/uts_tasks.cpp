// UTS workload: preset lookup, and the check of the counts against the published ones (or,
// where a source publishes none, against the sequential traversal).
#include "workloads/kernels/uts_tasks.hpp"

#include "workloads/uts/presets.hpp"
#include "workloads/uts/uts_seq.hpp"

namespace kernels {
namespace {

std::string preset_names() {
  std::string names;
  for (const uts::Preset& p : uts::presets()) {
    if (!names.empty()) names += ", ";
    names += p.name;
  }
  return names;
}

bool knows_everything(const Uts::KnownCounts& known) {
  return known.nodes && known.leaves && known.max_depth;
}

std::string describe(const uts::Counts& c) {
  return "nodes=" + std::to_string(c.nodes) + " leaves=" + std::to_string(c.leaves) +
         " depth=" + std::to_string(c.max_depth);
}

}  // namespace

Uts::Params Uts::parse(std::string_view size) {
  const uts::Preset* preset = uts::find_preset(size);
  if (preset == nullptr) {
    throw SizeError("uts: '" + std::string(size) + "' is not a preset (one of " + preset_names() +
                    ")");
  }
  return Params{std::string(preset->name), preset->params,
                KnownCounts{preset->nodes, preset->leaves, preset->max_depth}};
}

Uts::Uts(const Params& params) : name_(params.name), tree_(params.tree), known_(params.known) {}

std::string Uts::verify() const {
  // Only what the source leaves out is computed, and only then: B's sequential traversal
  // takes seconds.
  const uts::Counts reference =
      knows_everything(known_) ? uts::Counts{} : uts::traverse_sequential(tree_);
  const uts::Counts expected{known_.nodes.value_or(reference.nodes),
                             known_.leaves.value_or(reference.leaves),
                             known_.max_depth.value_or(reference.max_depth)};
  if (counts_ == expected) return "";
  return "uts " + name_ + ": counted " + describe(counts_) + ", expected " + describe(expected) +
         (knows_everything(known_) ? " (published)" : " (published or sequential)");
}

std::string Uts::result() const { return describe(counts_); }

}  // namespace kernels

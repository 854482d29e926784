#include "tools/sim/dag/dag_median.hpp"

#include <algorithm>
#include <string>

namespace sim {
namespace {

// "" if `run` has `first`'s tasks and ops but for the work ops' times, else where not.
std::string difference(const Dag& first, const Dag& run) {
  if (run.tasks() != first.tasks() || run.ops.size() != first.ops.size())
    return std::to_string(run.tasks()) + " tasks and " + std::to_string(run.ops.size()) +
           " ops, the first run " + std::to_string(first.tasks()) + " and " +
           std::to_string(first.ops.size());
  for (std::uint64_t t = 0; t < first.tasks(); ++t) {
    if (run.first_op[t + 1] != first.first_op[t + 1])
      return "task " + std::to_string(t) + " has another number of ops";
    for (std::uint64_t i = first.first_op[t]; i < first.first_op[t + 1]; ++i) {
      const DagOp a = first.ops[i], b = run.ops[i];
      if (a.kind() != b.kind() || (a.kind() != DagOpKind::kWork && a != b))
        return "task " + std::to_string(t) + " op " + std::to_string(i - first.first_op[t]) +
               " differs";
    }
  }
  return "";
}

}  // namespace

Dag median_dag(const std::vector<Dag>& runs) {
  if (runs.empty()) throw std::invalid_argument("median_dag: no recordings");
  const Dag& first = runs.front();
  for (std::size_t r = 1; r < runs.size(); ++r) {
    if (const std::string d = difference(first, runs[r]); !d.empty())
      throw RecordingMismatch("run " + std::to_string(r + 1) +
                              " spawned or joined otherwise: " + d);
  }
  Dag dag;
  dag.spec = first.spec;
  dag.clock_cost_ps = first.clock_cost_ps;
  dag.unit_ps = first.unit_ps;
  dag.first_op.reserve(first.first_op.size());
  dag.ops.reserve(first.ops.size());
  std::vector<std::uint64_t> times(runs.size());
  for (std::uint64_t t = 0; t < first.tasks(); ++t) {
    for (std::uint64_t i = first.first_op[t]; i < first.first_op[t + 1]; ++i) {
      DagOp op = first.ops[i];
      if (op.kind() == DagOpKind::kWork) {
        for (std::size_t r = 0; r < runs.size(); ++r) times[r] = runs[r].ops[i].operand();
        const auto middle = times.begin() + static_cast<std::ptrdiff_t>((times.size() - 1) / 2);
        std::nth_element(times.begin(), middle, times.end());
        if (*middle == 0) continue;
        op = DagOp::make(DagOpKind::kWork, *middle);
      }
      dag.ops.push_back(op);
    }
    dag.first_op.push_back(dag.ops.size());
  }
  return dag;
}

}  // namespace sim

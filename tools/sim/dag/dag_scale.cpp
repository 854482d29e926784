#include "tools/sim/dag/dag_scale.hpp"

#include <cmath>
#include <string>

namespace sim {

void scale_work(Dag& dag, double factor) {
  if (!std::isfinite(factor) || factor <= 0) {
    throw std::invalid_argument("work scale must be finite and positive, not " +
                                std::to_string(factor));
  }
  for (DagOp& op : dag.ops) {
    if (op.kind() != DagOpKind::kWork) continue;
    const double scaled = std::round(static_cast<double>(op.operand()) * factor);
    if (scaled > static_cast<double>(DagOp::kMaxOperand)) {
      throw std::invalid_argument("work scale " + std::to_string(factor) + " overflows a work op");
    }
    op = DagOp::make(DagOpKind::kWork, static_cast<std::uint64_t>(scaled));
  }
}

double work_scale_to_serial(const Dag& dag, std::uint64_t serial_ps, std::uint64_t added_ps) {
  const std::uint64_t work_ps = dag.work_units() * dag.unit_ps;
  if (work_ps == 0 || serial_ps == 0) {
    throw std::invalid_argument("cannot scale: the recording's work is " + std::to_string(work_ps) +
                                " ps and the serial run's " + std::to_string(serial_ps) + " ps");
  }
  return static_cast<double>(serial_ps + added_ps) / static_cast<double>(work_ps);
}

}  // namespace sim

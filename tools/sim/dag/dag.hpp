// A recorded task DAG (docs/WDAG.md), held in two flat arrays so that a DAG of millions of
// tasks costs 8 bytes per op and 8 per task, not an allocation per task.
//
// Invariants of every Dag that record or read_wdag hands out: task 0 is the root; task t's
// ops are ops[first_op[t], first_op[t + 1]) and end with its only kEnd; every other task is
// spawned exactly once, by a task of lower index; each kJoin names the joining task's newest
// child not yet joined (weft's LIFO rule), and a task ends with all its children joined.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim {

enum class DagOpKind : std::uint8_t { kWork = 0, kSpawn = 1, kJoin = 2, kEnd = 3 };

// One op in a word: the operand above two bits of kind. kWork's operand is its duration in
// the DAG's time units, kSpawn's and kJoin's the child task's index, kEnd's zero.
struct DagOp {
  std::uint64_t word = 0;

  static constexpr std::uint64_t kMaxOperand = (std::uint64_t{1} << 62) - 1;
  static DagOp make(DagOpKind kind, std::uint64_t operand) {
    return DagOp{operand << 2 | static_cast<std::uint64_t>(kind)};
  }
  DagOpKind kind() const { return static_cast<DagOpKind>(word & 3); }
  std::uint64_t operand() const { return word >> 2; }
  bool operator==(const DagOp&) const = default;
};

struct Dag {
  std::string spec;                 // the workload recorded, "strassen:1024"
  std::uint64_t clock_cost_ps = 0;  // what one clock read cost, subtracted from each segment
  std::uint64_t unit_ps = 1000;     // a work operand's unit
  std::vector<std::uint64_t> first_op{0};
  std::vector<DagOp> ops;

  std::uint64_t tasks() const { return first_op.size() - 1; }
  // The sum of the work ops, in units.
  std::uint64_t work_units() const {
    std::uint64_t sum = 0;
    for (const DagOp op : ops)
      if (op.kind() == DagOpKind::kWork) sum += op.operand();
    return sum;
  }
  bool operator==(const Dag&) const = default;
};

// A .wdag that is not one. The message names the file, the byte offset and the field.
class WdagError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sim

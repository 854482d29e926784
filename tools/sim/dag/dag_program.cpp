#include "tools/sim/dag/dag_program.hpp"

namespace sim {
namespace {

class DagStrand final : public Strand {
 public:
  DagStrand(const Dag& dag, std::uint64_t task) : dag_(dag), next_(dag.first_op[task]) {}

  Op next() override {
    const DagOp op = dag_.ops[next_++];
    switch (op.kind()) {
      case DagOpKind::kWork: return Op::work(op.operand() * dag_.unit_ps);
      case DagOpKind::kSpawn: return Op::spawn(std::make_unique<DagStrand>(dag_, op.operand()));
      case DagOpKind::kJoin: return Op::join();  // the engine joins the newest, as the DAG says
      case DagOpKind::kEnd: break;
    }
    --next_;  // an ended strand keeps answering end
    return Op::end();
  }

 private:
  const Dag& dag_;
  std::uint64_t next_;
};

}  // namespace

std::unique_ptr<Strand> dag_program(const Dag& dag) { return std::make_unique<DagStrand>(dag, 0); }

}  // namespace sim

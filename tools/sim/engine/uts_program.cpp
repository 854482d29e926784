#include "tools/sim/engine/uts_program.hpp"

namespace sim {
namespace {

class UtsStrand final : public Strand {
 public:
  // The root (index < 0), or child `index` of `parent`.
  UtsStrand(const uts::Tree& tree, const UtsCosts& costs, const uts::Node& parent,
            std::int32_t index)
      : tree_(tree), costs_(costs), node_(parent), index_(index) {}

  Op next() override {
    if (step_ == 0) {
      if (index_ >= 0) node_ = tree_.child(node_, index_);
      children_ = tree_.num_children(node_);
      ++step_;
      return Op::work(costs_.node_ps(tree_.params()));
    }
    // Steps 1..n spawn children 0..n-1; steps n+1..2n join them, newest first.
    const int k = step_++;
    if (k <= children_) {
      return Op::spawn(std::make_unique<UtsStrand>(tree_, costs_, node_, k - 1));
    }
    if (k <= 2 * children_) return Op::join();
    return Op::end();
  }

 private:
  const uts::Tree& tree_;
  const UtsCosts& costs_;
  uts::Node node_;  // the parent's until the first step, then this task's own
  std::int32_t index_;
  int children_ = 0;
  int step_ = 0;
};

}  // namespace

std::unique_ptr<Strand> uts_program(const uts::Tree& tree, const UtsCosts& costs) {
  return std::make_unique<UtsStrand>(tree, costs, tree.root(), -1);
}

}  // namespace sim

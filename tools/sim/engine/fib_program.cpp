#include "tools/sim/engine/fib_program.hpp"

#include <vector>

#include "workloads/common/fib_reference.hpp"

namespace sim {
namespace {

// The task's inline calls are frames of one strand: fib(n-2) runs in its caller's task.
class FibStrand final : public Strand {
 public:
  FibStrand(int n, const FibCosts& costs) : costs_(costs) { frames_.push_back({n, 0}); }

  Op next() override {
    while (!frames_.empty()) {
      const std::size_t top = frames_.size() - 1;
      const int n = frames_[top].n;
      if (n < 2) {
        frames_.pop_back();
        return Op::work(costs_.leaf_ps);
      }
      switch (frames_[top].step++) {
        case 0: return Op::work(costs_.node_ps);
        case 1: return Op::spawn(std::make_unique<FibStrand>(n - 1, costs_));
        case 2: frames_.push_back({n - 2, 0}); continue;
        case 3: return Op::join();
        default: frames_.pop_back(); continue;
      }
    }
    return Op::end();
  }

 private:
  struct Frame {
    int n;
    int step;
  };
  const FibCosts& costs_;
  std::vector<Frame> frames_;
};

}  // namespace

std::unique_ptr<Strand> fib_program(int n, const FibCosts& costs) {
  return std::make_unique<FibStrand>(n, costs);
}

std::uint64_t fib_spawns(int n) {
  return static_cast<std::uint64_t>(common::fib_by_iteration(n + 1)) - 1;
}

}  // namespace sim

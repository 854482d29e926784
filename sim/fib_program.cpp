#include "sim/fib_program.hpp"

#include <vector>

namespace weft_sim {
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
  std::uint64_t a = 0, b = 1;  // fib(0), fib(1)
  for (int i = 0; i < n + 1; ++i) {
    const std::uint64_t next = a + b;
    a = b;
    b = next;
  }
  return a - 1;  // a = fib(n + 1)
}

}  // namespace weft_sim

// N-Queens: the size parser and the check against the known solution counts.
#include "workloads/kernels/nqueens.hpp"

#include <array>

namespace kernels {
namespace {

// OEIS A000170: the number of ways to place n non-attacking queens on an n x n board, for
// n = 1..20. Independent of this code (published counts, not recorded runs).
constexpr std::array<std::int64_t, NQueens::kMaxN> kKnownSolutions = {
    1,    0,     0,     2,      10,      4,        40,       92,        352,        724,
    2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884};

}  // namespace

NQueens::Params NQueens::parse(std::string_view size) {
  return Params{static_cast<int>(parse_count(size, "nqueens", 1, kMaxN))};
}

NQueens::NQueens(const Params& params) : n_(params.n) {
  if (n_ < 1 || n_ > kMaxN) {
    throw SizeError("nqueens: n = " + std::to_string(n_) + " is out of range [1, " +
                    std::to_string(kMaxN) + "]");
  }
}

std::int64_t NQueens::known_solutions(int n) {
  return n >= 1 && n <= kMaxN ? kKnownSolutions[static_cast<std::size_t>(n - 1)] : -1;
}

std::string NQueens::verify() const {
  const std::int64_t expected = known_solutions(n_);
  if (solutions_ == expected) return "";
  return "nqueens(" + std::to_string(n_) + ") counted " + std::to_string(solutions_) +
         " solutions, expected " + std::to_string(expected) + " (OEIS A000170)";
}

std::string NQueens::result() const { return "solutions=" + std::to_string(solutions_); }

}  // namespace kernels

// N-Queens, the fine-grained irregular workload: count the placements of n non-attacking
// queens on an n x n board by exhaustive search, every safe partial placement a task, no
// cutoff (the plain version of the Barcelona OpenMP Tasks Suite's nqueens). Verified against
// the known solution counts (OEIS A000170).
//
// The algorithm is fixed, because the Rayon peer implements exactly the same one:
//   count(n, j, board): board holds the columns of the queens of rows 0..j-1. If j == n it
//   is one solution. Otherwise, for each column i in 0..n-1 that is safe (for every k < j:
//   board[k] != i and |board[k] - i| != j - k) a child task, with its own copy of the board
//   extended by i, computes count(n, j + 1, board'). The children of one node are spawned in
//   one scope and each writes its count into its own slot of a local array of n counts,
//   summed after the scope.
// The board copy travels in the child's closure (as BOTS copies it before the task), so a
// child shares nothing with its siblings and a thief needs nothing from the parent's frame
// but the slot it writes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class NQueens {
 public:
  static constexpr std::string_view kName = "nqueens";
  static constexpr std::string_view kDefault = "13";
  // The largest n whose count the table in nqueens.cpp knows; it would take days in tasks.
  static constexpr int kMaxN = 20;

  struct Params {
    int n = 13;
  };
  static Params parse(std::string_view size);

  // Throws SizeError unless 1 <= params.n <= kMaxN (the board and the table end there).
  explicit NQueens(const Params& params);

  template <class Par>
  void compute(Par& par) {
    solutions_ = count(par, static_cast<std::int8_t>(n_), 0, Board{});
  }
  std::string verify() const;
  // The published number of solutions for n in [1, kMaxN] (OEIS A000170); -1 outside.
  static std::int64_t known_solutions(int n);
  std::string result() const;

  std::int64_t solutions() const { return solutions_; }
  // Test-only: replaces the computed count, so that a test can show verify() rejects a
  // wrong one (nothing but verify() reads it afterwards).
  void set_solutions_for_testing(std::int64_t solutions) { solutions_ = solutions; }

 private:
  // Columns of the queens of rows 0..j-1; the rest is unused.
  using Board = std::array<std::int8_t, kMaxN>;

  static bool is_safe(const Board& board, int row, int column) {
    for (int k = 0; k < row; ++k) {
      const int diff = board[static_cast<std::size_t>(k)] - column;
      if (diff == 0 || diff == row - k || diff == k - row) return false;
    }
    return true;
  }

  // One child: count(n, row + 1, board) into *out. A named struct rather than a lambda so
  // that its size is visible: 40 bytes, which weft keeps in the task slot (48 bytes of
  // storage) instead of boxing it on the heap.
  template <class Par>
  struct Child {
    Par* par;
    std::int64_t* out;
    Board board;  // the parent's board extended by this child's column
    std::int8_t n;
    std::int8_t row;  // the row this child places next: j + 1 of the spec
    void operator()() const { *out = count(*par, n, row, board); }
  };

  template <class Par>
  static std::int64_t count(Par& par, std::int8_t n, std::int8_t row, const Board& board) {
    static_assert(sizeof(Child<Par>) <= 48, "keep the child closure in weft's task slot");
    if (row == n) return 1;
    std::array<std::int64_t, kMaxN> child_counts{};  // slot i: column i's subtree
    par.scope([&](auto& s) {
      for (std::int8_t column = 0; column < n; ++column) {
        if (!is_safe(board, row, column)) continue;
        Child<Par> child{&par, &child_counts[static_cast<std::size_t>(column)], board, n,
                         static_cast<std::int8_t>(row + 1)};
        child.board[static_cast<std::size_t>(row)] = column;
        s.spawn(child);
      }
    });
    std::int64_t sum = 0;
    for (int i = 0; i < n; ++i) sum += child_counts[static_cast<std::size_t>(i)];
    return sum;
  }

  int n_;
  std::int64_t solutions_ = -1;  // -1 until compute: never a valid count
};

}  // namespace kernels

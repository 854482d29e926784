// Sparse-LU, the coarse-grained, non-recursive workload (seed 000 Sect. 4.1.4, after the
// Barcelona OpenMP Tasks Suite): LU factorisation without pivoting of a block-sparse matrix
// of B x B blocks, each S x S floats ("50x100" is the paper's size).
//
// Layout: a B x B array of block pointers, null for a zero block; blocks are allocated only
// where the matrix is nonzero, and the factorisation allocates the fill-in it creates.
//
// Task structure, for each step kk along the diagonal (the loop itself is serial):
//   lu0   factorise the diagonal block A[kk][kk] in place (on the calling task);
//   scope one task per nonzero A[kk][jj], jj > kk (fwd: solve with L of the diagonal) and
//         one per nonzero A[ii][kk], ii > kk (bdiv: solve with U of the diagonal); joined;
//   scope one task per (ii, jj) with A[ii][kk] and A[kk][jj] nonzero (bmod: the Schur
//         update A[ii][jj] -= A[ii][kk] * A[kk][jj]), allocating A[ii][jj] when null.
// A task is one block kernel (S^3 / 3 to 2 S^3 flops, ~1e6 at S = 100): no grain size to
// tune. The parallelism is flat, unlike the recursive workloads': one task spawns all of a
// step's children and they spawn nothing, so every steal is from that task's worker, and
// each step ends in a join of all its children. The load is uneven because the number of
// tasks per step follows the sparsity pattern and shrinks towards the end.
//
// Verification compares every block with the serial factorisation of the same input (cached
// per size and seed: computing it costs a serial run) and checks L * U against the input
// (times a pseudo-random vector), so that a kernel bug shared by both runs is caught too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class SparseLu {
 public:
  static constexpr std::string_view kName = "sparselu";
  static constexpr std::string_view kDefault = "50x100";
  struct Params {
    int blocks = 50;       // B: blocks per side
    int block_size = 100;  // S: rows (and columns) per block
    std::uint64_t seed = 0x5ba45e1u;
  };
  // "BxS", 1 <= B <= 200, 1 <= S <= 500.
  static Params parse(std::string_view size);

  explicit SparseLu(const Params& params);

  template <class Par>
  void compute(Par& par) {
    for (int kk = 0; kk < blocks_per_side_; ++kk) {
      lu0(block(kk, kk), block_size_);
      solve_row_and_column(par, kk);
      update_trailing(par, kk);
    }
  }

  std::string verify() const;
  std::string result() const;

  // Whether block (ii, jj) is stored (nonzero), for tests of the sparsity and the fill-in.
  bool has_block(int ii, int jj) const { return block(ii, jj) != nullptr; }
  int nonzero_blocks() const;

 private:
  friend struct SparseLuTestAccess;  // tests corrupt the output to show verify() is not vacuous
  using Block = std::unique_ptr<float[]>;

  // The four block kernels, out of line in sparselu.cpp so that the parallel run and the
  // serial reference execute the very same machine code (see verify()).
  static void lu0(float* diag, int s);
  static void fwd(const float* diag, float* row_block, int s);
  static void bdiv(const float* diag, float* column_block, int s);
  static void bmod(const float* left, const float* upper, float* target, int s);
  static Block zero_block(int s);

  template <class Par>
  void solve_row_and_column(Par& par, int kk) {
    const float* diag = block(kk, kk);
    const int s = block_size_;
    par.scope([&](auto& scope) {
      for (int jj = kk + 1; jj < blocks_per_side_; ++jj)
        if (float* b = block(kk, jj)) scope.spawn([diag, b, s] { fwd(diag, b, s); });
      for (int ii = kk + 1; ii < blocks_per_side_; ++ii)
        if (float* b = block(ii, kk)) scope.spawn([diag, b, s] { bdiv(diag, b, s); });
    });
  }

  template <class Par>
  void update_trailing(Par& par, int kk) {
    const int s = block_size_;
    par.scope([&](auto& scope) {
      for (int ii = kk + 1; ii < blocks_per_side_; ++ii) {
        const float* left = block(ii, kk);
        if (!left) continue;
        for (int jj = kk + 1; jj < blocks_per_side_; ++jj) {
          const float* upper = block(kk, jj);
          if (!upper) continue;
          // Only this task touches slot (ii, jj) during this step, so it may allocate the
          // fill-in itself (zeroing in parallel rather than on the spawning task); the
          // scope's join publishes the new pointer to the next step.
          Block* target = &blocks_[index(ii, jj)];
          scope.spawn([left, upper, target, s] {
            if (!*target) *target = zero_block(s);
            bmod(left, upper, target->get(), s);
          });
        }
      }
    });
  }

  std::size_t index(int ii, int jj) const {
    return static_cast<std::size_t>(ii) * static_cast<std::size_t>(blocks_per_side_) +
           static_cast<std::size_t>(jj);
  }
  float* block(int ii, int jj) const { return blocks_[index(ii, jj)].get(); }

  // The sparsity rule of the input (which blocks are nonzero before factorising).
  static bool initially_nonzero(int ii, int jj);
  // The same input factorised by the serial elision, computed once per (B, S, seed).
  static std::shared_ptr<const SparseLu> serial_reference(const Params& params);
  // The input's element (r, c) in global coordinates, regenerated from the seed.
  float input_element(std::int64_t r, std::int64_t c) const;
  // "" if L * U times a pseudo-random vector matches the input times it, else why not.
  std::string check_product() const;
  // A matrix-vector product and, beside it, the same product of the absolute values (the
  // scale of its rounding errors).
  struct Product {
    std::vector<double> value, magnitude;
  };
  Product times_upper(const std::vector<double>& x) const;
  Product times_lower(const Product& y) const;
  std::vector<double> input_times(const std::vector<double>& x) const;
  // The global row or column of element `within` of block row or column `block_index`.
  std::size_t global(int block_index, int within) const;

  int blocks_per_side_;
  int block_size_;
  std::uint64_t seed_;
  std::vector<Block> blocks_;  // B x B, row-major; null for a zero block
  // The input's sum of |off-diagonal elements| of each global row: its diagonal element is
  // 1 + that sum (strict diagonal dominance, so no pivoting is needed).
  std::vector<double> row_abs_sums_;
};

}  // namespace kernels

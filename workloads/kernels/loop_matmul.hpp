// The integer matrix multiply of Hummel & Schonberg's experiment (seed 003, Sect. 7), a
// nested parallel loop in all six orders of its three loops:
//
//   PARALLEL DO I = 1,N
//     PARALLEL DO J = 1,N
//       DO K = 1,N
//         C(I,J) = C(I,J) + A(I,K) * B(K,J)
//
// The size is "N:ORDER[:SEED]", ORDER a permutation of ijk read outermost first: "kij" is
// serial K outermost, parallel I, parallel J inside it; "ijk" is parallel I, parallel J,
// serial K innermost. The serial K sits outermost in two orders, in the middle in two and
// innermost in two, so the orders range from a few coarse nested loops (ijk: N² tasks of N
// multiply-adds) to N loops of N² single multiply-adds (kij), which is what makes the program
// a test of a loop runtime's overheads. The paper ran N = 150 and 300.
//
// Integers, so that the product is exact whatever order the K sums run in and any wrong
// entry is wrong, never rounded: int32 entries in [-kMaxEntry, kMaxEntry], whose sums of up
// to kMaxOrder products cannot overflow. Every parallel loop's body takes a chunk (b, e), as
// OpenMP and oneTBB compile their loops, so a chunk of the innermost loop vectorises.
//
// Each (I, J) entry is written by one iteration of the parallel pair at a time, and the K
// steps of one entry run in order on one thread (K serial inside) or are separated by the
// join of the parallel loops (K serial outside), so the nest is race-free in every order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class MatmulLoops {
 public:
  static constexpr std::string_view kName = "matmul-loops";
  static constexpr std::string_view kDefault = "300:ijk";
  static constexpr std::size_t kMaxOrder = 4096;
  // |C| <= kMaxOrder * kMaxEntry^2 + kMaxEntry < 2^31.
  static constexpr std::int32_t kMaxEntry = 500;

  enum class Order : std::uint8_t { kIjk, kIkj, kJik, kJki, kKij, kKji };

  struct Params {
    std::size_t n = 300;
    Order order = Order::kIjk;
    std::uint64_t seed = 1;
  };
  // "N:ORDER[:SEED]", N in [1, kMaxOrder]; throws SizeError.
  static Params parse(std::string_view size);
  static std::string_view order_name(Order order);

  explicit MatmulLoops(const Params& params);

  template <class Par>
  void compute(Par& par);
  // C·x = C0·x + A·(B·x) for two seeded vectors x of odd 64-bit numbers, in arithmetic
  // modulo 2^64 (Freivalds' check, O(N²) where recomputing C is O(N³)). Exact for one wrong
  // entry: it changes (C·x)[i] by d·x[j], nonzero mod 2^64 because d is a nonzero int32
  // difference and x[j] is odd. Several wrong entries escape only if their weighted sums
  // vanish mod 2^64 for both vectors.
  std::string verify() const;
  std::string result() const;  // "sum(C) = ..."
  std::uint64_t iterations() const { return n_ * n_ * n_; }

  // Tests corrupt C to see verify() catch it.
  std::vector<std::int32_t>& output() { return c_; }

 private:
  std::int32_t* c_row(std::size_t i) { return c_.data() + i * n_; }
  const std::int32_t* a_row(std::size_t i) const { return a_.data() + i * n_; }
  const std::int32_t* b_row(std::size_t i) const { return b_.data() + i * n_; }

  std::size_t n_;
  Order order_;
  std::uint64_t seed_;
  std::vector<std::int32_t> a_, b_, c_;  // row-major N×N; C starts as the seeded C0
};

template <class Par>
void MatmulLoops::compute(Par& par) {
  const std::size_t n = n_;
  // The parallel loops over I and J by the depth at which each sits in the nest.
  const auto over = [&](int depth, const auto& body) {
    par.for_range(depth, 0, n, [&](std::size_t b, std::size_t e) {
      for (std::size_t x = b; x < e; ++x) body(x);
    });
  };
  // C(i, j) += A(i, k) * B(k, j) over the K loop, on one entry.
  const auto dot = [&](std::size_t i, std::size_t j) {
    const std::int32_t* a = a_row(i);
    std::int32_t sum = c_row(i)[j];
    for (std::size_t k = 0; k < n; ++k) sum += a[k] * b_row(k)[j];
    c_row(i)[j] = sum;
  };
  // Row i of C += a * row k of B over the columns [b, e), the innermost parallel J loop.
  const auto row_update = [&](std::size_t i, std::size_t k, std::size_t b, std::size_t e) {
    const std::int32_t a = a_row(i)[k];
    std::int32_t* __restrict c = c_row(i);
    const std::int32_t* __restrict bk = b_row(k);
    for (std::size_t j = b; j < e; ++j) c[j] += a * bk[j];
  };
  // Column j of C += column k of A * b over the rows [b, e), the innermost parallel I loop.
  const auto column_update = [&](std::size_t j, std::size_t k, std::size_t b, std::size_t e) {
    const std::int32_t bkj = b_row(k)[j];
    for (std::size_t i = b; i < e; ++i) c_row(i)[j] += a_row(i)[k] * bkj;
  };
  switch (order_) {
    case Order::kIjk:
      over(0, [&](std::size_t i) { over(1, [&](std::size_t j) { dot(i, j); }); });
      break;
    case Order::kJik:
      over(0, [&](std::size_t j) { over(1, [&](std::size_t i) { dot(i, j); }); });
      break;
    case Order::kIkj:
      over(0, [&](std::size_t i) {
        for (std::size_t k = 0; k < n; ++k)
          par.for_range(1, 0, n, [&](std::size_t b, std::size_t e) { row_update(i, k, b, e); });
      });
      break;
    case Order::kJki:
      over(0, [&](std::size_t j) {
        for (std::size_t k = 0; k < n; ++k)
          par.for_range(1, 0, n, [&](std::size_t b, std::size_t e) { column_update(j, k, b, e); });
      });
      break;
    case Order::kKij:
      for (std::size_t k = 0; k < n; ++k) {
        over(0, [&](std::size_t i) {
          par.for_range(1, 0, n, [&](std::size_t b, std::size_t e) { row_update(i, k, b, e); });
        });
      }
      break;
    case Order::kKji:
      for (std::size_t k = 0; k < n; ++k) {
        over(0, [&](std::size_t j) {
          par.for_range(1, 0, n, [&](std::size_t b, std::size_t e) { column_update(j, k, b, e); });
        });
      }
      break;
  }
}

}  // namespace kernels

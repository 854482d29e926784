// The divide-and-conquer matrix multiply of seed 004 Fig. 4 (Narlikar & Blelloch), the
// allocation-heavy workload: C = A·B for n×n doubles, n a power of two in [16, 8192].
//
// Each call splits A, B and C into quadrants and allocates a temporary T of the same order
// as C, then computes the eight quadrant products as eight tasks of one scope:
//   C11 = A11·B11   C12 = A11·B12   C21 = A21·B11   C22 = A21·B12
//   T11 = A12·B21   T12 = A12·B22   T21 = A22·B21   T22 = A22·B22
// and after the join C += T. The temporary is the point of the benchmark: with all eight
// products in parallel there is no way around it without losing parallelism (the paper says
// as much), so how many of them are live at once depends on the scheduler's order, and a
// breadth-first scheduler's memory blows up. T is allocated in every call, inside whatever
// task makes the call, and freed before the call returns (unique_ptr, so on every path).
// C += T runs by row bands in parallel, as the paper's Matrix_Add recurses in parallel.
//
// Below the base order (64, the paper's K too) the tuned serial kernel of dense_kernel.hpp
// multiplies directly. Measured serially (CPU time of compute, median of 5, plain -O3) for
// base 16/32/64/128/256: 1024 took 0.24/0.16/0.14/0.13/0.14 s, 2048 1.93/1.36/1.05/1.02/
// 0.99 s. Below 64 the calls, allocations and additions per flop cost up to 2x; above it the
// gain is at most 6%, for 8x fewer leaf tasks per doubling (512 at 1024 with base 128).
// Params::base lowers it for tests that want deep task trees at small sizes.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "workloads/kernels/dense_kernel.hpp"
#include "workloads/kernels/workload.hpp"

namespace kernels {

class Matmul : public dense::SquareProduct {
 public:
  static constexpr std::string_view kName = "matmul";
  static constexpr std::string_view kDefault = "1024";
  static Params parse(std::string_view size);

  explicit Matmul(const Params& params);

  template <class Par>
  void compute(Par& par) {
    multiply(par, a_.block(), b_.block(), c_.block());
  }
  std::string verify() const;

 private:
  struct Product {
    dense::ConstBlock left, right;
    dense::Block out;
  };

  // out = left·right, recursively, for blocks of one order.
  template <class Par>
  void multiply(Par& par, dense::ConstBlock a, dense::ConstBlock b, dense::Block c);
  // c += t for rows [first, last).
  static void add_rows(dense::Block c, dense::ConstBlock t, std::size_t first, std::size_t last);
};

template <class Par>
void Matmul::multiply(Par& par, dense::ConstBlock a, dense::ConstBlock b, dense::Block c) {
  if (c.order <= base_) {
    dense::multiply_block(a, b, c);
    return;
  }
  const dense::Buffer temporary = dense::allocate(c.order * c.order);  // this call's T
  const dense::Block t = dense::block_in(temporary, 0, c.order);
  const auto a11 = a.quadrant(0, 0), a12 = a.quadrant(0, 1);
  const auto a21 = a.quadrant(1, 0), a22 = a.quadrant(1, 1);
  const auto b11 = b.quadrant(0, 0), b12 = b.quadrant(0, 1);
  const auto b21 = b.quadrant(1, 0), b22 = b.quadrant(1, 1);
  const std::array<Product, 8> products = {{
      {a11, b11, c.quadrant(0, 0)},
      {a11, b12, c.quadrant(0, 1)},
      {a21, b12, c.quadrant(1, 1)},
      {a21, b11, c.quadrant(1, 0)},
      {a12, b21, t.quadrant(0, 0)},
      {a12, b22, t.quadrant(0, 1)},
      {a22, b22, t.quadrant(1, 1)},
      {a22, b21, t.quadrant(1, 0)},
  }};
  par.scope([&](auto& s) {
    for (const Product& product : products) {
      s.spawn([this, &par, task = &product] { multiply(par, task->left, task->right, task->out); });
    }
  });
  dense::for_row_bands(par, 0, c.order, c.order,
                       [&](std::size_t first, std::size_t last) { add_rows(c, t, first, last); });
}

}  // namespace kernels

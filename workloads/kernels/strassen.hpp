// Strassen's matrix multiply, the regular-parallelism workload of seed 000 Sect. 4.1.3:
// C = A·B for n×n doubles, n a power of two in [16, 8192] (the paper runs 1024, 2048, 4096).
//
// Each level splits A, B and C into quadrants and forms Strassen's seven products
//   M1 = (A11+A22)(B11+B22)   M2 = (A21+A22)B11         M3 = A11(B12-B22)
//   M4 = A22(B21-B11)         M5 = (A11+A12)B22         M6 = (A21-A11)(B11+B12)
//   M7 = (A12-A22)(B21+B22)
// as seven tasks of one scope; each task forms its own operand sums (serially: while seven
// siblings run there is parallelism enough) in scratch that lives only as long as the task,
// then recurses. M1, M2, M3 and M6 are written straight into C11, C21, C12 and C22, so a level
// allocates only M4, M5 and M7 (3/4 n^2 doubles instead of 7/4). After the join
//   C22 = M6 + M1 - M2 + M3,  C11 = M1 + M4 - M5 + M7,  C12 = M3 + M5,  C21 = M2 + M4
// are done in that order element by element (C22 first: it reads M1, M2, M3 before they
// are overwritten), by row bands in parallel, because after the join of the top levels the
// other workers have nothing else to do.
//
// Below the base order (64) the tuned serial kernel of dense_kernel.hpp multiplies directly.
// Measured serially (CPU time of compute, median of 5, plain -O3, this 2-core Zen box) for
// base 16/32/64/128/256: 1024 took 0.14/0.10/0.090/0.091/0.11 s, 2048 0.86/0.69/0.65/0.68/
// 0.70 s. Smaller bases pay a level of additions and allocations for few saved multiplies;
// larger ones multiply blocks whose B part (128 KiB at 128) no longer fits in L1. 64 and 128
// tie, and 64 gives 7x more leaf tasks (2401 at 1024) to balance over the workers.
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

class Strassen : public dense::SquareProduct {
 public:
  static constexpr std::string_view kName = "strassen";
  static constexpr std::string_view kDefault = "1024";
  static Params parse(std::string_view size);

  explicit Strassen(const Params& params);

  template <class Par>
  void compute(Par& par) {
    multiply(par, a_.block(), b_.block(), c_.block());
  }
  std::string verify() const;

 private:
  // An operand of one of the seven products: a quadrant, or a quadrant plus or minus another.
  struct Operand {
    dense::ConstBlock first;
    dense::ConstBlock second;  // used when sign != 0
    int sign;                  // 0: first alone; +1: first + second; -1: first - second
  };
  static Operand just(dense::ConstBlock x) { return {x, x, 0}; }
  static Operand sum(dense::ConstBlock x, dense::ConstBlock y) { return {x, y, +1}; }
  static Operand difference(dense::ConstBlock x, dense::ConstBlock y) { return {x, y, -1}; }
  struct Product {
    Operand left, right;
    dense::Block out;
  };

  template <class Par>
  void multiply(Par& par, dense::ConstBlock a, dense::ConstBlock b, dense::Block c);
  template <class Par>
  void run_product(Par& par, const Product& product);
  // `operand` as a block: the quadrant itself, or its sum written into `scratch` (order h,
  // contiguous), after which scratch advances past it.
  static dense::ConstBlock materialise(const Operand& operand, double*& scratch);
  // The four updates of C's quadrants from the seven products, for rows [first, last) of
  // each quadrant. m4, m5, m7 are the products that have no place in C.
  static void combine_rows(dense::Block c, dense::ConstBlock m4, dense::ConstBlock m5,
                           dense::ConstBlock m7, std::size_t first, std::size_t last);
};

template <class Par>
void Strassen::multiply(Par& par, dense::ConstBlock a, dense::ConstBlock b, dense::Block c) {
  if (c.order <= base_) {
    dense::multiply_block(a, b, c);
    return;
  }
  const std::size_t h = c.order / 2;
  const dense::Buffer extra = dense::allocate(3 * h * h);  // M4, M5, M7
  const dense::Block m4 = dense::block_in(extra, 0, h);
  const dense::Block m5 = dense::block_in(extra, h * h, h);
  const dense::Block m7 = dense::block_in(extra, 2 * h * h, h);
  const auto a11 = a.quadrant(0, 0), a12 = a.quadrant(0, 1);
  const auto a21 = a.quadrant(1, 0), a22 = a.quadrant(1, 1);
  const auto b11 = b.quadrant(0, 0), b12 = b.quadrant(0, 1);
  const auto b21 = b.quadrant(1, 0), b22 = b.quadrant(1, 1);
  const std::array<Product, 7> products = {{
      {sum(a11, a22), sum(b11, b22), c.quadrant(0, 0)},         // M1 -> C11
      {sum(a21, a22), just(b11), c.quadrant(1, 0)},             // M2 -> C21
      {just(a11), difference(b12, b22), c.quadrant(0, 1)},      // M3 -> C12
      {just(a22), difference(b21, b11), m4},                    // M4
      {sum(a11, a12), just(b22), m5},                           // M5
      {difference(a21, a11), sum(b11, b12), c.quadrant(1, 1)},  // M6 -> C22
      {difference(a12, a22), sum(b21, b22), m7},                // M7
  }};
  par.scope([&](auto& s) {
    for (const Product& product : products) {
      s.spawn([this, &par, task = &product] { run_product(par, *task); });
    }
  });
  // Each row of a band updates one row of each of C's four quadrants.
  dense::for_row_bands(par, 0, h, 4 * h, [&](std::size_t first, std::size_t last) {
    combine_rows(c, m4, m5, m7, first, last);
  });
}

template <class Par>
void Strassen::run_product(Par& par, const Product& product) {
  const std::size_t h = product.out.order;
  const int sums = (product.left.sign != 0) + (product.right.sign != 0);
  const dense::Buffer scratch =
      sums > 0 ? dense::allocate(static_cast<std::size_t>(sums) * h * h) : dense::Buffer{};
  double* next = scratch.get();
  const dense::ConstBlock left = materialise(product.left, next);
  const dense::ConstBlock right = materialise(product.right, next);
  multiply(par, left, right, product.out);
}

}  // namespace kernels

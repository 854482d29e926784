// The dense-matrix pieces the Strassen and divide-and-conquer matmul workloads share, so that
// the two differ only in how they recurse: a square row-major matrix of doubles and views of
// its blocks, per-call temporaries, the serial base-case kernel, a row-band parallel loop for
// the O(n^2) additions, and the sampled check of a product against direct dot products.
//
// The kernel computes C = A·B in i-k-j order with k unrolled by four: the innermost loop runs
// along a row of C and four rows of B, all contiguous, so GCC -O3 vectorises it with plain
// SSE2 (the project's release flags have no -march), and each load/store of C carries four
// multiply-adds instead of one. Measured on 64×64 blocks of a 1024-wide matrix this runs at
// about 20 GFlop/s against 15 for the plain i-k-j loop; holding two rows of C (a 2×4 register
// block) measured no better, so the simpler form stays. It is noinline on purpose: one copy
// of the machine code serves every Par, so the serial and parallel runs of a workload round
// identically and their outputs agree bit for bit.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels::dense {

// The orders parse accepts: at least one 16×16 block, at most 3 × 512 MiB of inputs+output.
inline constexpr std::size_t kMinOrder = 16;
inline constexpr std::size_t kMaxOrder = 8192;

// Additions split into row bands of at least this many elements (256 KiB of one operand,
// tens of microseconds): enough to make a task's overhead negligible, small enough that the
// top-level additions of a 1024 matrix still give every worker a share.
inline constexpr std::size_t kBandElements = std::size_t{1} << 15;

// The inputs' seeds, shared by both workloads so that for one order they multiply the same A
// and B.
inline constexpr std::uint64_t kSeedA = 0xA11CE;
inline constexpr std::uint64_t kSeedB = 0xB0B;

// A square block of a row-major matrix: `order` rows of `order` elements, row i starting at
// data + i * stride. Small and trivially copyable, so tasks can capture blocks by value.
template <class T>
struct BasicBlock {
  T* data;
  std::size_t stride;
  std::size_t order;

  T* row(std::size_t i) const { return data + i * stride; }
  // Quadrant (r, c), r and c in {0, 1}, of an even-order block.
  BasicBlock quadrant(std::size_t r, std::size_t c) const {
    const std::size_t half = order / 2;
    return {data + r * half * stride + c * half, stride, half};
  }
  operator BasicBlock<const T>() const requires(!std::is_const_v<T>) {
    return {data, stride, order};
  }
};
using Block = BasicBlock<double>;
using ConstBlock = BasicBlock<const double>;

// A per-call temporary: uninitialised (every user overwrites it before reading), freed on
// every exit path by unique_ptr. A failed allocation throws std::bad_alloc out of compute
// on weft, oneTBB and the serial elision; OpenMP cannot carry it out of a task and
// terminates.
using Buffer = std::unique_ptr<double[]>;
inline Buffer allocate(std::size_t elements) {
  return std::make_unique_for_overwrite<double[]>(elements);
}
// A contiguous block of order n in `buffer` at element offset `offset`.
inline Block block_in(const Buffer& buffer, std::size_t offset, std::size_t n) {
  return {buffer.get() + offset, n, n};
}

// An n×n row-major matrix that owns its elements.
class Matrix {
 public:
  Matrix(std::size_t n, double fill) : n_(n), values_(n * n, fill) {}

  // Elements uniform in [-1, 1], each a hash of (seed, index): deterministic and independent
  // of the order of filling. The seed is hashed first, so that two seeds' index streams
  // start 2^64-randomly apart instead of being shifted copies of each other.
  static Matrix random(std::size_t n, std::uint64_t seed) {
    Matrix m(n, 0.0);
    const std::uint64_t start = mix(seed);
    for (std::size_t i = 0; i < m.values_.size(); ++i) m.values_[i] = unit_interval(mix(start + i));
    return m;
  }

  std::size_t order() const { return n_; }
  double at(std::size_t i, std::size_t j) const { return values_[i * n_ + j]; }
  Block block() { return {values_.data(), n_, n_}; }
  ConstBlock block() const { return {values_.data(), n_, n_}; }
  std::span<double> values() { return values_; }
  std::span<const double> values() const { return values_; }

  // SplitMix64's finaliser (applied to seed + index, so a counter-based generator).
  static std::uint64_t mix(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  static double unit_interval(std::uint64_t bits) {
    return static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;  // 53 bits -> [0, 2) -> [-1, 1)
  }

  std::size_t n_;
  std::vector<double> values_;
};

// c[j] += a0·b0[j] + a1·b1[j] + a2·b2[j] + a3·b3[j] for j < n: the kernel's inner loop.
// Restrict parameters, which GCC honours where it ignores restrict locals, let it vectorise
// without a runtime overlap check.
inline void multiply_add_row(std::size_t n, double* __restrict c, double a0, double a1, double a2,
                             double a3, const double* __restrict b0, const double* __restrict b1,
                             const double* __restrict b2, const double* __restrict b3) {
  for (std::size_t j = 0; j < n; ++j) c[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
}

// C = A·B for three blocks of one order, a multiple of 4 (every order here is a power of two
// of at least 16). C must not overlap A or B.
[[gnu::noinline]] inline void multiply_block(ConstBlock a, ConstBlock b, Block c) {
  const std::size_t n = c.order;
  assert(a.order == n && b.order == n && n % 4 == 0);
  for (std::size_t i = 0; i < n; ++i) {
    double* ci = c.row(i);
    const double* ai = a.row(i);
    std::fill_n(ci, n, 0.0);
    for (std::size_t k = 0; k < n; k += 4)
      multiply_add_row(n, ci, ai[k], ai[k + 1], ai[k + 2], ai[k + 3], b.row(k), b.row(k + 1),
                       b.row(k + 2), b.row(k + 3));
  }
}

// Calls fn(begin, end) on disjoint bands of rows covering [first, last), in parallel when
// the rows hold enough elements to pay for the tasks. fn is shared by reference: it must
// only touch the rows it is given.
template <class Par, class Fn>
void for_row_bands(Par& par, std::size_t first, std::size_t last, std::size_t elements_per_row,
                   const Fn& fn) {
  if (last - first < 2 || (last - first) * elements_per_row <= kBandElements) {
    fn(first, last);
    return;
  }
  const std::size_t middle = first + (last - first) / 2;
  par.invoke([&] { for_row_bands(par, first, middle, elements_per_row, fn); },
             [&] { for_row_bands(par, middle, last, elements_per_row, fn); });
}

inline bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// The order in `size` ("1024", "2^11"): a power of two in [kMinOrder, kMaxOrder]. Throws
// SizeError("<what>: '<size>' ...") otherwise.
inline std::size_t parse_order(std::string_view size, std::string_view what) {
  const auto n = static_cast<std::size_t>(parse_count(size, what, kMinOrder, kMaxOrder));
  if (!is_power_of_two(n))
    throw SizeError(std::string(what) + ": '" + std::string(size) +
                    "' is not a power of two (the recursion halves the order down to its base)");
  return n;
}

// For a workload's constructor, which tests may call with Params parse never makes: throws
// SizeError unless n is an order parse accepts and base a power of two of at least kMinOrder;
// returns n, so that a constructor can check before it allocates.
inline std::size_t check_orders(std::string_view what, std::size_t n, std::size_t base) {
  if (!is_power_of_two(n) || n < kMinOrder || n > kMaxOrder)
    throw SizeError(std::string(what) + ": order " + std::to_string(n) +
                    " is not a power of two in [16, 8192]");
  if (!is_power_of_two(base) || base < kMinOrder)
    throw SizeError(std::string(what) + ": base order " + std::to_string(base) +
                    " is not a power of two of at least 16");
  return n;
}

// Checks C = A·B: every entry of C must be finite (the workloads start C as NaN, so this
// also catches any block no task wrote), and at 256 pseudo-random entries plus the four
// corners (which lie in the four quadrants)
//   |C[i][j] - dot| <= tolerance · Σ_k |A[i][k]·B[k][j]|,
// the dot product taken directly in long double. Returns "" or the first failure.
inline std::string check_product(const Matrix& a, const Matrix& b, const Matrix& c,
                                 double tolerance) {
  const std::size_t n = c.order();
  char text[256];
  for (std::size_t index = 0; index < n * n; ++index) {
    const double value = c.values()[index];
    if (!std::isfinite(value)) {
      std::snprintf(text, sizeof text, "C[%zu][%zu] = %g: not finite", index / n, index % n, value);
      return text;
    }
  }
  const auto check_entry = [&](std::size_t i, std::size_t j) -> std::string {
    long double dot = 0, magnitude = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const long double term = static_cast<long double>(a.at(i, k)) * b.at(k, j);
      dot += term;
      magnitude += std::fabs(term);
    }
    const long double error = std::fabs(c.at(i, j) - dot);
    if (error <= tolerance * magnitude) return "";
    std::snprintf(text, sizeof text, "C[%zu][%zu] = %.17g, expected %.17Lg (error %.3Le > %.3Le)",
                  i, j, c.at(i, j), dot, error, tolerance * magnitude);
    return text;
  };
  const std::size_t corners[4][2] = {{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  for (const auto& corner : corners) {
    if (std::string failure = check_entry(corner[0], corner[1]); !failure.empty()) return failure;
  }
  constexpr std::uint64_t kSampleSeed = 0x5a3b1e5ca11ab1e5ULL;
  for (std::uint64_t s = 0; s < 256; ++s) {
    const std::uint64_t bits = Matrix::mix(kSampleSeed + s);
    std::string failure = check_entry((bits & 0xffffffffu) % n, (bits >> 32) % n);
    if (!failure.empty()) return failure;
  }
  return "";
}

// "C[0][0]=… trace=…": a short account of the product, deterministic up to rounding.
inline std::string summary(const Matrix& c) {
  double trace = 0;
  for (std::size_t i = 0; i < c.order(); ++i) trace += c.at(i, i);
  char text[96];
  std::snprintf(text, sizeof text, "C[0][0]=%.6e trace=%.6e", c.at(0, 0), trace);
  return text;
}

// What Strassen and Matmul share: C = A·B of order n with A and B from fixed seeds (the same
// for both, so a test can compare the two), C started as NaN (so that any entry no task wrote
// fails check_product), the base order at or below which the kernel multiplies, and the
// output the tests compare and spoil. Each derived workload adds its recursion and its
// verify(), whose tolerance is its algorithm's.
class SquareProduct {
 public:
  // Both recursions measured best at 64 (the numbers are in strassen.hpp and matmul.hpp).
  static constexpr std::size_t kBaseOrder = 64;
  struct Params {
    std::size_t n = 1024;
    std::size_t base = kBaseOrder;  // a power of two >= 16; orders <= base use the kernel
  };

  std::string result() const { return summary(c_); }
  // The product, row-major. Tests compare runs with it.
  std::span<const double> output() const { return c_.values(); }
  // Test hook: lets a test damage the product to show that verify() notices.
  std::span<double> output_for_test() { return c_.values(); }

 protected:
  // Checks the orders before allocating; throws SizeError naming `what`.
  SquareProduct(std::string_view what, const Params& params)
      : n_(check_orders(what, params.n, params.base)),
        base_(params.base),
        a_(Matrix::random(params.n, kSeedA)),
        b_(Matrix::random(params.n, kSeedB)),
        c_(params.n, std::numeric_limits<double>::quiet_NaN()) {}

  std::size_t n_;
  std::size_t base_;
  Matrix a_, b_, c_;
};

}  // namespace kernels::dense

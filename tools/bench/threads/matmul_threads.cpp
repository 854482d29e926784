#include "tools/bench/threads/matmul_threads.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <weft/memory.hpp>
#include <weft/thread.hpp>

#include "tools/bench/threads/fork_join.hpp"
#include "workloads/kernels/dense_kernel.hpp"

namespace bench_threads {
namespace {

using kernels::dense::Block;
using kernels::dense::ConstBlock;

constexpr std::size_t kAlign = 64;
constexpr std::uint64_t kSeedA = 0xA11CE;
constexpr std::uint64_t kSeedB = 0xB0B;

double* allocate_doubles(std::size_t count) {
  return static_cast<double*>(weft::allocate(count * sizeof(double), kAlign));
}
void free_doubles(double* p, std::size_t count) {
  weft::deallocate(p, count * sizeof(double), kAlign);
}

// The temporary T of one call: weft::allocate'd, freed on every way out.
class Temporary {
 public:
  explicit Temporary(std::size_t n) : n_(n), data_(allocate_doubles(n * n)) {}
  ~Temporary() { free_doubles(data_, n_ * n_); }
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;
  Block block() const { return {data_, n_, n_}; }

 private:
  std::size_t n_;
  double* data_;
};

// c += t for blocks of one order (noinline: one copy of the code, so every version rounds
// the same).
[[gnu::noinline]] void add_block(Block c, ConstBlock t) {
  for (std::size_t i = 0; i < c.order; ++i) {
    double* __restrict ci = c.row(i);
    const double* __restrict ti = t.row(i);
    for (std::size_t j = 0; j < c.order; ++j) ci[j] += ti[j];
  }
}

template <class Calls>
void add(Block c, ConstBlock t) {
  if (c.order <= kMatmulAddBase) {
    add_block(c, t);
    return;
  }
  Calls::fork_join([=] { add<Calls>(c.quadrant(0, 0), t.quadrant(0, 0)); },
                   [=] { add<Calls>(c.quadrant(0, 1), t.quadrant(0, 1)); },
                   [=] { add<Calls>(c.quadrant(1, 0), t.quadrant(1, 0)); },
                   [=] { add<Calls>(c.quadrant(1, 1), t.quadrant(1, 1)); });
}

// Figure 4: C11 = A11·B11 + A12·B21, C12 = A11·B12 + A12·B22, C21 = A21·B11 + A22·B21,
// C22 = A21·B12 + A22·B22, the first products into C, the second into T, then C += T.
template <class Calls>
void multiply(ConstBlock a, ConstBlock b, Block c) {
  if (c.order <= kMatmulBase) {
    kernels::dense::multiply_block(a, b, c);
    return;
  }
  const Temporary temporary(c.order);
  const Block t = temporary.block();
  Calls::fork_join([=] { multiply<Calls>(a.quadrant(0, 0), b.quadrant(0, 0), c.quadrant(0, 0)); },
                   [=] { multiply<Calls>(a.quadrant(0, 0), b.quadrant(0, 1), c.quadrant(0, 1)); },
                   [=] { multiply<Calls>(a.quadrant(1, 0), b.quadrant(0, 1), c.quadrant(1, 1)); },
                   [=] { multiply<Calls>(a.quadrant(1, 0), b.quadrant(0, 0), c.quadrant(1, 0)); },
                   [=] { multiply<Calls>(a.quadrant(0, 1), b.quadrant(1, 0), t.quadrant(0, 0)); },
                   [=] { multiply<Calls>(a.quadrant(0, 1), b.quadrant(1, 1), t.quadrant(0, 1)); },
                   [=] { multiply<Calls>(a.quadrant(1, 1), b.quadrant(1, 1), t.quadrant(1, 1)); },
                   [=] { multiply<Calls>(a.quadrant(1, 1), b.quadrant(1, 0), t.quadrant(1, 0)); });
  add<Calls>(c, t);
}

void fill(double* m, std::size_t count, std::uint64_t seed) {
  const std::uint64_t start = kernels::dense::Matrix::mix(seed);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t bits = kernels::dense::Matrix::mix(start + i);
    m[i] = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;  // [-1, 1)
  }
}

}  // namespace

MatmulInputs::MatmulInputs(std::size_t n) : n_(n), a_(nullptr), b_(nullptr), c_(nullptr) {
  if (!std::has_single_bit(n) || n < kMatmulMinOrder)
    throw std::invalid_argument("matmul: order " + std::to_string(n) +
                                " is not a power of two of at least " +
                                std::to_string(kMatmulMinOrder));
  a_ = allocate_doubles(n * n);
  b_ = allocate_doubles(n * n);
  c_ = allocate_doubles(n * n);
  fill(a_, n * n, kSeedA);
  fill(b_, n * n, kSeedB);
  clear_product();
}

MatmulInputs::~MatmulInputs() {
  free_doubles(a_, n_ * n_);
  free_doubles(b_, n_ * n_);
  free_doubles(c_, n_ * n_);
}

void MatmulInputs::clear_product() {
  std::fill_n(c_, n_ * n_, std::numeric_limits<double>::quiet_NaN());
}

void MatmulInputs::multiply(MatmulVersion version) {
  const ConstBlock a{a_, n_, n_}, b{b_, n_, n_};
  const Block c{c_, n_, n_};
  switch (version) {
    case MatmulVersion::kSerial: bench_threads::multiply<PlainCalls>(a, b, c); return;
    case MatmulVersion::kTasks: bench_threads::multiply<TaskPerCall>(a, b, c); return;
    case MatmulVersion::kThreads: {
      weft::thread root([=] { bench_threads::multiply<ThreadPerCall>(a, b, c); });
      root.join();
      return;
    }
  }
}

std::string MatmulInputs::check_against_dot_products() const {
  const std::size_t n = n_;
  char text[200];
  for (std::size_t k = 0; k < n * n; ++k) {
    if (!std::isfinite(c_[k])) {
      std::snprintf(text, sizeof text, "C[%zu][%zu] = %g is not finite", k / n, k % n, c_[k]);
      return text;
    }
  }
  // |C[i][j] - dot| <= 1e-12 · n · Σ|A[i][k]·B[k][j]|: far above double rounding, far below
  // any real mistake (a missing or doubled product changes an entry by about its size).
  const auto check_entry = [&](std::size_t i, std::size_t j) -> std::string {
    long double dot = 0, magnitude = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const long double term = static_cast<long double>(a_[i * n + k]) * b_[k * n + j];
      dot += term;
      magnitude += std::fabs(term);
    }
    const long double error = std::fabs(c_[i * n + j] - dot);
    if (error <= 1e-12L * static_cast<long double>(n) * magnitude) return "";
    std::snprintf(text, sizeof text, "C[%zu][%zu] = %.17g, expected %.17Lg", i, j, c_[i * n + j],
                  dot);
    return text;
  };
  // Freivalds: w = C·x against z = A·(B·x), x in [0.5, 1) so that no column of C escapes,
  // with the same tolerance against Σ_j |(A·|B|)[i][j]|·x[j] bounded by |A|·(|B|·x).
  for (std::uint64_t round = 0; round < 2; ++round) {
    std::vector<long double> x(n), bx(n, 0), abs_bx(n, 0);
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t bits = kernels::dense::Matrix::mix(0xF4E1 + round * n + j);
      x[j] = 0.5L + static_cast<long double>(bits >> 11) * 0x1.0p-54L;
    }
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t j = 0; j < n; ++j) {
        bx[k] += b_[k * n + j] * x[j];
        abs_bx[k] += std::fabs(b_[k * n + j]) * x[j];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      long double cx = 0, abx = 0, magnitude = 0;
      for (std::size_t j = 0; j < n; ++j) cx += c_[i * n + j] * x[j];
      for (std::size_t k = 0; k < n; ++k) {
        abx += a_[i * n + k] * bx[k];
        magnitude += std::fabs(a_[i * n + k]) * abs_bx[k];
      }
      if (std::fabs(cx - abx) > 1e-12L * static_cast<long double>(n) * magnitude) {
        std::snprintf(text, sizeof text, "row %zu of C·x = %.17Lg, A·(B·x) = %.17Lg", i, cx, abx);
        return text;
      }
    }
  }
  const std::size_t corners[4][2] = {{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  for (const auto& ij : corners)
    if (std::string e = check_entry(ij[0], ij[1]); !e.empty()) return e;
  for (std::uint64_t s = 0; s < 128; ++s) {
    const std::uint64_t bits = kernels::dense::Matrix::mix(0xC0FFEE + s);
    if (std::string e = check_entry((bits & 0xffffffffu) % n, (bits >> 32) % n); !e.empty())
      return e;
  }
  return "";
}

std::string MatmulInputs::check_equal(const std::vector<double>& reference) const {
  const std::size_t count = n_ * n_;
  if (reference.size() != count) return "the reference has another order";
  if (std::memcmp(reference.data(), c_, count * sizeof(double)) == 0) return "";
  for (std::size_t k = 0; k < count; ++k) {
    if (std::bit_cast<std::uint64_t>(reference[k]) != std::bit_cast<std::uint64_t>(c_[k])) {
      char text[160];
      std::snprintf(text, sizeof text, "C[%zu][%zu] = %.17g, the serial elision's %.17g", k / n_,
                    k % n_, c_[k], reference[k]);
      return text;
    }
  }
  return "";
}

}  // namespace bench_threads

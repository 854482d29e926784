// Sparse-LU's input, block kernels and verification (the task structure is in
// sparselu.hpp). The kernels are plain loops whose innermost loop runs along a row with
// unit stride and no reduction, so GCC -O3 vectorises them without reassociating anything;
// __restrict tells it the blocks do not overlap (they are distinct allocations).
#include "workloads/kernels/sparselu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "workloads/kernels/par.hpp"

namespace kernels {
namespace {

// splitmix64's finaliser: a good 64-bit mix, so element values are a pure function of
// (seed, row, column) and any element of the input can be regenerated for verification.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1): 24 random bits, exactly representable in a float.
float off_diagonal_value(std::uint64_t seed, std::int64_t r, std::int64_t c) {
  const std::uint64_t bits =
      mix(seed ^ mix((static_cast<std::uint64_t>(r) << 32) | static_cast<std::uint64_t>(c)));
  return static_cast<float>(static_cast<double>(bits >> 40) * 0x1p-23 - 1.0);
}

// The pseudo-random vector of the product check, in [-1, 1).
double probe_element(std::uint64_t seed, std::size_t c) {
  return static_cast<double>(mix(mix(seed) ^ c) >> 11) * 0x1p-52 * 2.0 - 1.0;
}

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

int parse_dimension(std::string_view text, std::string_view what, int hi) {
  return static_cast<int>(parse_count(text, what, 1, hi));
}

}  // namespace

SparseLu::Params SparseLu::parse(std::string_view size) {
  const std::size_t x = size.find_first_of("xX");
  if (x == std::string_view::npos)
    throw SizeError("sparselu: '" + std::string(size) +
                    "' is not BxS (B blocks per side x S floats per block side, e.g. 50x100)");
  Params p;
  p.blocks = parse_dimension(size.substr(0, x), "sparselu blocks per side", 200);
  p.block_size = parse_dimension(size.substr(x + 1), "sparselu block size", 500);
  return p;
}

// The sparsity rule, BOTS-style: the tridiagonal band of blocks is nonzero; off the band
// only blocks with an even row and an even column can be, and of those the ones above the
// diagonal lie in rows 0, 6, 12, ... (even multiples of 3) and the ones below in columns
// 0, 6, 12, ... . The pattern is symmetric and a third of the off-band (even, even) blocks
// are nonzero (364 of 2500 blocks at B = 50). Step 0 already fills in every (even, even)
// block and the even blocks of row and column 1; at the end 1300 of 2500 are stored.
bool SparseLu::initially_nonzero(int ii, int jj) {
  if (std::abs(ii - jj) <= 1) return true;
  if (ii % 2 != 0 || jj % 2 != 0) return false;
  return ii < jj ? ii % 3 == 0 : jj % 3 == 0;
}

SparseLu::Block SparseLu::zero_block(int s) {
  return std::make_unique<float[]>(static_cast<std::size_t>(s) * static_cast<std::size_t>(s));
}

SparseLu::SparseLu(const Params& params)
    : blocks_per_side_(params.blocks), block_size_(params.block_size), seed_(params.seed) {
  const int s = block_size_;
  const std::int64_t n = std::int64_t{blocks_per_side_} * s;
  blocks_.resize(index(blocks_per_side_ - 1, blocks_per_side_ - 1) + 1);
  row_abs_sums_.assign(static_cast<std::size_t>(n), 0.0);
  for (int ii = 0; ii < blocks_per_side_; ++ii) {
    for (int jj = 0; jj < blocks_per_side_; ++jj) {
      if (!initially_nonzero(ii, jj)) continue;
      Block b = zero_block(s);
      for (int i = 0; i < s; ++i) {
        const std::int64_t r = std::int64_t{ii} * s + i;
        for (int j = 0; j < s; ++j) {
          const std::int64_t c = std::int64_t{jj} * s + j;
          if (r == c) continue;  // set below, once the row's sum is known
          const float v = off_diagonal_value(seed_, r, c);
          b[static_cast<std::size_t>(i) * s + j] = v;
          row_abs_sums_[static_cast<std::size_t>(r)] += std::abs(v);
        }
      }
      blocks_[index(ii, jj)] = std::move(b);
    }
  }
  for (int ii = 0; ii < blocks_per_side_; ++ii)
    for (int i = 0; i < s; ++i)
      block(ii, ii)[static_cast<std::size_t>(i) * s + i] =
          input_element(std::int64_t{ii} * s + i, std::int64_t{ii} * s + i);
}

float SparseLu::input_element(std::int64_t r, std::int64_t c) const {
  if (!initially_nonzero(static_cast<int>(r / block_size_), static_cast<int>(c / block_size_)))
    return 0.0f;
  if (r == c) return static_cast<float>(1.0 + row_abs_sums_[static_cast<std::size_t>(r)]);
  return off_diagonal_value(seed_, r, c);
}

// Kernels. Blocks are row-major: element (i, j) of a block is b[i * s + j].

// diag = L * U in place (L unit lower triangular, U upper), no pivoting.
void SparseLu::lu0(float* diag, int s) {
  for (int k = 0; k < s; ++k) {
    const float* __restrict pivot_row = diag + static_cast<std::size_t>(k) * s;
    for (int i = k + 1; i < s; ++i) {
      float* __restrict row = diag + static_cast<std::size_t>(i) * s;
      row[k] /= pivot_row[k];
      const float l = row[k];
      for (int j = k + 1; j < s; ++j) row[j] -= l * pivot_row[j];
    }
  }
}

// row_block = L^-1 * row_block, L the unit lower triangle of the factorised diagonal block.
void SparseLu::fwd(const float* __restrict diag, float* __restrict row_block, int s) {
  for (int k = 0; k < s; ++k) {
    const float* __restrict source = row_block + static_cast<std::size_t>(k) * s;
    for (int i = k + 1; i < s; ++i) {
      float* __restrict target = row_block + static_cast<std::size_t>(i) * s;
      const float l = diag[static_cast<std::size_t>(i) * s + k];
      for (int j = 0; j < s; ++j) target[j] -= l * source[j];
    }
  }
}

// column_block = column_block * U^-1, U the upper triangle of the factorised diagonal block.
void SparseLu::bdiv(const float* __restrict diag, float* __restrict column_block, int s) {
  for (int i = 0; i < s; ++i) {
    float* __restrict row = column_block + static_cast<std::size_t>(i) * s;
    for (int k = 0; k < s; ++k) {
      const float* __restrict u_row = diag + static_cast<std::size_t>(k) * s;
      row[k] /= u_row[k];
      const float l = row[k];
      for (int j = k + 1; j < s; ++j) row[j] -= l * u_row[j];
    }
  }
}

// target -= left * upper. The i-k-j order keeps the inner loop a unit-stride axpy; each
// target element still receives its s products in increasing k, a fixed order.
void SparseLu::bmod(const float* __restrict left, const float* __restrict upper,
                    float* __restrict target, int s) {
  for (int i = 0; i < s; ++i) {
    float* __restrict target_row = target + static_cast<std::size_t>(i) * s;
    for (int k = 0; k < s; ++k) {
      const float l = left[static_cast<std::size_t>(i) * s + k];
      const float* __restrict upper_row = upper + static_cast<std::size_t>(k) * s;
      for (int j = 0; j < s; ++j) target_row[j] -= l * upper_row[j];
    }
  }
}

int SparseLu::nonzero_blocks() const {
  return static_cast<int>(
      std::count_if(blocks_.begin(), blocks_.end(), [](const Block& b) { return b != nullptr; }));
}

std::shared_ptr<const SparseLu> SparseLu::serial_reference(const Params& params) {
  // One entry: a sweep runs one size many times in a row, and keeping every size would keep
  // hundreds of megabytes alive. The lock is held while computing so that concurrent
  // verifiers of the same size compute it once.
  static std::mutex mutex;
  static Params cached_params;
  static std::shared_ptr<const SparseLu> cached;
  std::lock_guard lock(mutex);
  if (!cached || cached_params.blocks != params.blocks ||
      cached_params.block_size != params.block_size || cached_params.seed != params.seed) {
    cached.reset();  // free the old one before building the new
    auto reference = std::make_shared<SparseLu>(params);
    SerialPar serial;
    reference->compute(serial);
    cached = std::move(reference);
    cached_params = params;
  }
  return cached;
}

// Every block must equal the serial factorisation's bit for bit, not just within a
// tolerance: each block receives its updates (one bmod per step kk, then one fwd, bdiv or
// lu0) in the same order whatever the schedule, the kernels are the same out-of-line code,
// and nothing is reduced across tasks. So any difference means a task ran too early, too
// late or twice, i.e. a scheduling bug, which a tolerance could hide.
std::string SparseLu::verify() const {
  const auto reference = serial_reference(Params{blocks_per_side_, block_size_, seed_});
  const std::size_t elements = static_cast<std::size_t>(block_size_) * block_size_;
  for (int ii = 0; ii < blocks_per_side_; ++ii) {
    for (int jj = 0; jj < blocks_per_side_; ++jj) {
      const float* got = block(ii, jj);
      const float* want = reference->block(ii, jj);
      if ((got == nullptr) != (want == nullptr))
        return format("block (%d,%d) is %s, the serial factorisation's is %s", ii, jj,
                      got ? "nonzero" : "null", want ? "nonzero" : "null");
      if (!got || std::memcmp(got, want, elements * sizeof(float)) == 0) continue;
      for (std::size_t e = 0; e < elements; ++e)
        if (std::memcmp(&got[e], &want[e], sizeof(float)) != 0)
          return format("block (%d,%d) element (%zu,%zu) is %.9g, the serial factorisation's %.9g",
                        ii, jj, e / static_cast<std::size_t>(block_size_),
                        e % static_cast<std::size_t>(block_size_), static_cast<double>(got[e]),
                        static_cast<double>(want[e]));
    }
  }
  return check_product();
}

// L * (U * x) == A * x for a pseudo-random vector x (Freivalds' check), in double: it costs
// a few passes over the nonzeros instead of a matrix product, and it sees every row, so a
// wrong kernel or a lost update anywhere shows (an error E = L * U - A goes unseen only if
// E * x happens to vanish). Each row's error is measured against (|L| * (|U| * |x|))[r], the
// scale of float LU's rounding errors. Measured, it is 0.33 * sqrt(n) * 2^-24 of that at
// n = 240, 2000 and 5000 (the per-element errors add up like a random walk); one skipped
// bmod leaves 4e-4 or more. The tolerance, 8 * sqrt(n) * 2^-24 (3.4e-5 at 50x100), sits
// between the two with a factor of 10 or more to either side.
std::string SparseLu::check_product() const {
  const std::size_t n = static_cast<std::size_t>(blocks_per_side_) * block_size_;
  std::vector<double> x(n);
  for (std::size_t c = 0; c < n; ++c) x[c] = probe_element(seed_, c);
  const Product lux = times_lower(times_upper(x));
  const std::vector<double> ax = input_times(x);
  const double relative_tolerance = 8.0 * std::sqrt(static_cast<double>(n)) * 0x1p-24;
  for (std::size_t r = 0; r < n; ++r)
    if (!(std::abs(lux.value[r] - ax[r]) <= relative_tolerance * lux.magnitude[r]))
      return format("(L*U*x)[%zu] = %.9g but (A*x)[%zu] = %.9g: L*U is not the input", r,
                    lux.value[r], r, ax[r]);
  return "";
}

std::size_t SparseLu::global(int block_index, int within) const {
  return static_cast<std::size_t>(block_index) * static_cast<std::size_t>(block_size_) +
         static_cast<std::size_t>(within);
}

// U * x, U being the blocks on and right of the diagonal, a diagonal block from its diagonal.
SparseLu::Product SparseLu::times_upper(const std::vector<double>& x) const {
  const int s = block_size_;
  Product y{std::vector<double>(x.size()), std::vector<double>(x.size())};
  for (int kb = 0; kb < blocks_per_side_; ++kb) {
    for (int jb = kb; jb < blocks_per_side_; ++jb) {
      const float* u = block(kb, jb);
      if (!u) continue;
      for (int i = 0; i < s; ++i) {
        for (int j = jb == kb ? i : 0; j < s; ++j) {
          const double term = u[static_cast<std::size_t>(i) * s + j] * x[global(jb, j)];
          y.value[global(kb, i)] += term;
          y.magnitude[global(kb, i)] += std::abs(term);
        }
      }
    }
  }
  return y;
}

// L * y, L being unit lower triangular: its diagonal is an implicit 1 (the stored diagonal
// belongs to U).
SparseLu::Product SparseLu::times_lower(const Product& y) const {
  const int s = block_size_;
  Product z = y;
  for (int rb = 0; rb < blocks_per_side_; ++rb) {
    for (int kb = 0; kb <= rb; ++kb) {
      const float* l = block(rb, kb);
      if (!l) continue;
      for (int i = 0; i < s; ++i) {
        for (int j = 0; j < (kb == rb ? i : s); ++j) {
          const double l_ij = l[static_cast<std::size_t>(i) * s + j];
          z.value[global(rb, i)] += l_ij * y.value[global(kb, j)];
          z.magnitude[global(rb, i)] += std::abs(l_ij) * y.magnitude[global(kb, j)];
        }
      }
    }
  }
  return z;
}

// A * x, the input regenerated element by element.
std::vector<double> SparseLu::input_times(const std::vector<double>& x) const {
  std::vector<double> ax(x.size());
  for (int rb = 0; rb < blocks_per_side_; ++rb) {
    for (int cb = 0; cb < blocks_per_side_; ++cb) {
      if (!initially_nonzero(rb, cb)) continue;
      for (int i = 0; i < block_size_; ++i) {
        const std::size_t r = global(rb, i);
        for (int j = 0; j < block_size_; ++j) {
          const std::size_t c = global(cb, j);
          const float a = input_element(static_cast<std::int64_t>(r), static_cast<std::int64_t>(c));
          ax[r] += double{a} * x[c];
        }
      }
    }
  }
  return ax;
}

std::string SparseLu::result() const {
  double checksum = 0;
  const std::size_t elements = static_cast<std::size_t>(block_size_) * block_size_;
  for (const Block& b : blocks_)
    if (b)
      for (std::size_t e = 0; e < elements; ++e) checksum += b[e];
  return format("blocks %d of %d, checksum %.6e", nonzero_blocks(),
                blocks_per_side_ * blocks_per_side_, checksum);
}

}  // namespace kernels

// The six-order integer multiply (loop_matmul.hpp): parsing, the seeded input, the check.
#include "workloads/kernels/loop_matmul.hpp"

#include <algorithm>
#include <array>

#include "workloads/kernels/seed_mix.hpp"

namespace kernels {
namespace {

constexpr std::array<std::string_view, 6> kOrderNames = {"ijk", "ikj", "jik", "jki", "kij", "kji"};

// A, B, C0 and the verification vectors are consecutive stretches of the seed's one stream,
// N² elements each (the vectors N each): part k starts at k·N².
constexpr std::uint64_t kPartA = 0, kPartB = 1, kPartC = 2, kPartX = 3;
constexpr std::uint64_t kChecks = 2;

std::int32_t entry(std::uint64_t bits) {
  constexpr auto span = static_cast<std::uint64_t>(2 * MatmulLoops::kMaxEntry + 1);
  return static_cast<std::int32_t>(bits % span) - MatmulLoops::kMaxEntry;
}

std::vector<std::int32_t> seeded_matrix(std::size_t n, std::uint64_t seed, std::uint64_t part) {
  std::vector<std::int32_t> m(n * n);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = entry(seeded(seed, part * n * n + i));
  return m;
}

// y = M·x modulo 2^64, M row-major N×N.
std::vector<std::uint64_t> times(const std::vector<std::int32_t>& m, std::size_t n,
                                 const std::vector<std::uint64_t>& x) {
  std::vector<std::uint64_t> y(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += static_cast<std::uint64_t>(m[i * n + j]) * x[j];
    y[i] = sum;
  }
  return y;
}

}  // namespace

MatmulLoops::Params MatmulLoops::parse(std::string_view size) {
  const auto fields = split_size(size, 1, 3, "N:ORDER[:SEED] (e.g. 300:kij)");
  Params p;
  p.n = static_cast<std::size_t>(
      parse_count(fields[0], "N", 1, static_cast<std::int64_t>(kMaxOrder)));
  if (fields.size() > 1) {
    const auto* it = std::find(kOrderNames.begin(), kOrderNames.end(), fields[1]);
    if (it == kOrderNames.end()) {
      throw SizeError("order '" + std::string(fields[1]) +
                      "': expected a permutation of ijk (ijk, ikj, jik, jki, kij, kji)");
    }
    p.order = static_cast<Order>(it - kOrderNames.begin());
  }
  if (fields.size() > 2) p.seed = parse_seed(fields[2]);
  return p;
}

std::string_view MatmulLoops::order_name(Order order) {
  return kOrderNames[static_cast<std::size_t>(order)];
}

MatmulLoops::MatmulLoops(const Params& params)
    : n_(params.n),
      order_(params.order),
      seed_(params.seed),
      a_(seeded_matrix(n_, seed_, kPartA)),
      b_(seeded_matrix(n_, seed_, kPartB)),
      c_(seeded_matrix(n_, seed_, kPartC)) {}

std::string MatmulLoops::verify() const {
  const std::vector<std::int32_t> c0 = seeded_matrix(n_, seed_, kPartC);
  for (std::uint64_t check = 0; check < kChecks; ++check) {
    std::vector<std::uint64_t> x(n_);
    for (std::size_t j = 0; j < n_; ++j)
      x[j] = seeded(seed_, kPartX * n_ * n_ + check * n_ + j) | 1;
    const std::vector<std::uint64_t> got = times(c_, n_, x);
    const std::vector<std::uint64_t> c0x = times(c0, n_, x);
    const std::vector<std::uint64_t> abx = times(a_, n_, times(b_, n_, x));
    for (std::size_t i = 0; i < n_; ++i) {
      if (got[i] != c0x[i] + abx[i]) {
        return "row " + std::to_string(i) + " of C differs from C0 + A·B (order " +
               std::string(order_name(order_)) + ")";
      }
    }
  }
  return "";
}

std::string MatmulLoops::result() const {
  std::int64_t sum = 0;
  for (const std::int32_t v : c_) sum += v;
  return "sum(C) = " + std::to_string(sum);
}

}  // namespace kernels

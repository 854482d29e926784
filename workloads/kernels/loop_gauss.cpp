// The Gauss-Jordan nest (loop_gauss.hpp): parsing, the seeded system, the bit-for-bit check.
#include "workloads/kernels/loop_gauss.hpp"

#include <cstdio>
#include <cstring>

#include "workloads/kernels/par.hpp"
#include "workloads/kernels/seed_mix.hpp"

namespace kernels {

GaussJordan::Params GaussJordan::parse(std::string_view size) {
  const auto fields = split_size(size, 1, 2, "N[:SEED] (e.g. 300)");
  Params p;
  p.n = static_cast<std::size_t>(
      parse_count(fields[0], "N", 1, static_cast<std::int64_t>(kMaxOrder)));
  if (fields.size() > 1) p.seed = parse_seed(fields[1]);
  return p;
}

GaussJordan::GaussJordan(const Params& params)
    : n_(params.n), seed_(params.seed), a_(params.n * (params.n + 1)) {
  const std::size_t w = width();
  for (std::size_t j = 0; j < n_; ++j) {
    for (std::size_t k = 0; k < w; ++k) {
      a_[j * w + k] =
          j == k ? static_cast<double>(n_ + 1) : 2.0 * unit_uniform(seeded(seed_, j * w + k)) - 1.0;
    }
  }
}

std::string GaussJordan::verify() const {
  GaussJordan reference(Params{n_, seed_});
  SerialPar serial;
  reference.eliminate(serial, reference.a_);
  const std::size_t w = width();
  for (std::size_t e = 0; e < a_.size(); ++e) {
    if (std::memcmp(&a_[e], &reference.a_[e], sizeof(double)) != 0) {
      char why[160];
      std::snprintf(why, sizeof why, "A(%zu,%zu) = %a, the serial run's is %a", e / w + 1,
                    e % w + 1, a_[e], reference.a_[e]);
      return why;
    }
  }
  return "";
}

std::string GaussJordan::result() const {
  const std::size_t w = width();
  double sum = 0;
  for (std::size_t j = 0; j < n_; ++j) sum += a_[j * w + n_] / a_[j * w + j];
  char text[64];
  std::snprintf(text, sizeof text, "sum(x) = %.17g", sum);
  return text;
}

std::uint64_t GaussJordan::iterations() const {
  // Step I updates N - 1 rows of N - I elements (I from 1).
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n_; ++i) total += (n_ - 1) * (width() - (i + 1));
  return total;
}

}  // namespace kernels

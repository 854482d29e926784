// The Gauss-Jordan loop nest of Hummel & Schonberg's experiment (seed 003, Sect. 7), from a
// program that (back) solves a linear system, on the N×(N+1) augmented matrix A:
//
//   DO I = 1,N
//     PARALLEL DO J = 1,N
//       IF I .NE. J THEN
//         PARALLEL DO K = I+1,N+1
//           A(J,K) = A(J,K) - (A(J,I)*A(I,K))/A(I,I)
//
// One inner iteration updates one element, so the grain is a handful of flops whatever N
// is: the paper's test of pure loop overhead. The size is "N[:SEED]"; the paper ran 150 and
// 300.
//
// Race-free as the paper writes it: step I writes rows J != I at columns K > I only, so the
// pivot row I, the pivot A(I,I) and each row's multiplier A(J,I) (column I) stay as they
// were while step I runs; the serial I loop orders the steps. (Column I is not cleared,
// only never read again.) Each element is therefore computed by the same operations on the
// same values in any schedule, and the output must be bit-identical to the serial run's:
// verify() compares every element with a serial run of the same nest. The update is
// A - (B*C)/D, a product feeding a division, so no fused multiply-add can change its rounding
// in one compiled copy and not another.
//
// The matrix is seeded and diagonally dominant (off-diagonal entries uniform in [-1, 1),
// the diagonal N + 1), so no pivot comes near zero and the values stay tame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class GaussJordan {
 public:
  static constexpr std::string_view kName = "gauss-jordan";
  static constexpr std::string_view kDefault = "300";
  static constexpr std::size_t kMaxOrder = 4096;

  struct Params {
    std::size_t n = 300;
    std::uint64_t seed = 1;
  };
  // "N[:SEED]", N in [1, kMaxOrder]; throws SizeError.
  static Params parse(std::string_view size);

  explicit GaussJordan(const Params& params);

  template <class Par>
  void compute(Par& par) {
    eliminate(par, a_);
  }
  std::string verify() const;
  std::string result() const;  // "sum(x) = ..." over x(J) = A(J,N+1)/A(J,J)
  std::uint64_t iterations() const;

  // Tests corrupt A to see verify() catch it.
  std::vector<double>& output() { return a_; }

 private:
  std::size_t width() const { return n_ + 1; }

  // The nest on `a` (N rows of width()).
  template <class Par>
  void eliminate(Par& par, std::vector<double>& a) const;

  std::size_t n_;
  std::uint64_t seed_;
  std::vector<double> a_;
};

template <class Par>
void GaussJordan::eliminate(Par& par, std::vector<double>& a) const {
  const std::size_t n = n_, w = width();
  for (std::size_t i = 0; i < n; ++i) {
    const double* pivot_row = a.data() + i * w;
    par.for_range(0, 0, n, [&, i, pivot_row](std::size_t jb, std::size_t je) {
      for (std::size_t j = jb; j < je; ++j) {
        if (j == i) continue;
        double* row = a.data() + j * w;
        par.for_range(1, i + 1, w, [row, pivot_row, i](std::size_t kb, std::size_t ke) {
          for (std::size_t k = kb; k < ke; ++k)
            row[k] = row[k] - (row[i] * pivot_row[k]) / pivot_row[i];
        });
      }
    });
  }
}

}  // namespace kernels

// The divide-and-conquer multiply (matmul.hpp): parsing, the input, C += T by rows and the
// check. The recursion is in the header, templated on the backend; C += T is not, so every
// backend runs the same machine code.
#include "workloads/kernels/matmul.hpp"

#include <string>

namespace kernels {

Matmul::Params Matmul::parse(std::string_view size) {
  return Params{.n = dense::parse_order(size, kName)};
}

Matmul::Matmul(const Params& params) : SquareProduct(kName, params) {}

void Matmul::add_rows(dense::Block c, dense::ConstBlock t, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) {
    double* __restrict ci = c.row(i);
    const double* __restrict ti = t.row(i);
    for (std::size_t j = 0; j < c.order; ++j) ci[j] += ti[j];
  }
}

// Every entry is a conventional dot product (summed in another order), whose rounding error
// is at most about n·u·Σ|A[i][k]·B[k][j]| with u = 2^-53; the tolerance n·2^-52 allows twice
// that, and the reference is summed in long double, so its own error does not count.
std::string Matmul::verify() const {
  return dense::check_product(a_, b_, c_, static_cast<double>(n_) * 0x1.0p-52);
}

}  // namespace kernels

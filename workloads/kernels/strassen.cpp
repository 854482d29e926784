// Strassen (strassen.hpp): parsing, the input, the serial pieces of a level (operand sums,
// the combination of the seven products) and the check. The recursion is in the header,
// templated on the backend; these are not, so every backend runs the same machine code.
#include "workloads/kernels/strassen.hpp"

#include <string>

namespace kernels {

Strassen::Params Strassen::parse(std::string_view size) {
  return Params{.n = dense::parse_order(size, kName)};
}

Strassen::Strassen(const Params& params) : SquareProduct(kName, params) {}

dense::ConstBlock Strassen::materialise(const Operand& operand, double*& scratch) {
  if (operand.sign == 0) return operand.first;
  const std::size_t h = operand.first.order;
  const dense::Block out{scratch, h, h};
  scratch += h * h;
  for (std::size_t i = 0; i < h; ++i) {
    const double* __restrict x = operand.first.row(i);
    const double* __restrict y = operand.second.row(i);
    double* __restrict o = out.row(i);
    if (operand.sign > 0) {
      for (std::size_t j = 0; j < h; ++j) o[j] = x[j] + y[j];
    } else {
      for (std::size_t j = 0; j < h; ++j) o[j] = x[j] - y[j];
    }
  }
  return out;
}

namespace {

// One row of each quadrant of the combination. Restrict parameters, which GCC honours where
// it ignores restrict locals, let the loop vectorise.
void combine_row(std::size_t h, double* __restrict c11, double* __restrict c12,
                 double* __restrict c21, double* __restrict c22, const double* __restrict m4,
                 const double* __restrict m5, const double* __restrict m7) {
  for (std::size_t j = 0; j < h; ++j) {
    // On entry C11 = M1, C12 = M3, C21 = M2, C22 = M6.
    c22[j] += c11[j] - c21[j] + c12[j];  // C22 = M6 + M1 - M2 + M3, before M1..M3 change
    c11[j] += m4[j] - m5[j] + m7[j];     // C11 = M1 + M4 - M5 + M7
    c12[j] += m5[j];                     // C12 = M3 + M5
    c21[j] += m4[j];                     // C21 = M2 + M4
  }
}

}  // namespace

void Strassen::combine_rows(dense::Block c, dense::ConstBlock m4, dense::ConstBlock m5,
                            dense::ConstBlock m7, std::size_t first, std::size_t last) {
  const dense::Block c11 = c.quadrant(0, 0), c12 = c.quadrant(0, 1);
  const dense::Block c21 = c.quadrant(1, 0), c22 = c.quadrant(1, 1);
  for (std::size_t i = first; i < last; ++i)
    combine_row(c11.order, c11.row(i), c12.row(i), c21.row(i), c22.row(i), m4.row(i), m5.row(i),
                m7.row(i));
}

// Strassen's error bound grows faster with n than the conventional product's (normwise, not
// elementwise), so the tolerance grows with n: 1e-9·n of Σ|A[i][k]·B[k][j]|, which at 8192
// is still orders of magnitude below what a wrong quadrant or sign produces.
std::string Strassen::verify() const {
  return dense::check_product(a_, b_, c_, 1e-9 * static_cast<double>(n_));
}

}  // namespace kernels

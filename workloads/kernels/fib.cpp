#include "workloads/kernels/fib.hpp"

namespace kernels {

Fib::Params Fib::parse(std::string_view size) {
  // fib(92) is the largest that fits a 64-bit long; 50 already takes hours in tasks.
  return Params{static_cast<int>(parse_count(size, "fib", 0, 50))};
}

std::string Fib::verify() const {
  const long a = fib_by_iteration(n_);
  if (value_ == a) return "";
  return "fib(" + std::to_string(n_) + ") = " + std::to_string(value_) + ", expected " +
         std::to_string(a);
}

std::string Fib::result() const {
  return "fib(" + std::to_string(n_) + ") = " + std::to_string(value_);
}

}  // namespace kernels

// matmul: Narlikar & Blelloch's Figure 4, the divide-and-conquer matrix multiply with a
// thread per recursive call. Mult(A, B, C, n): at n <= 64 the serial kernel; otherwise
// allocate a temporary T of n x n doubles with weft::allocate, fork 8 calls (four quadrant
// products into C, four into T), join them, add T into C by a divide-and-conquer addition
// forked the same way down to 128 x 128 blocks, and free T. A, B and C are weft::allocate'd
// too, so that the heap figures count them as the paper's Figure 5 does; the serial run's
// high-water mark is S1 = 3n^2 doubles plus one chain of temporaries (n^2 + n^2/4 + ...).
//
// Three versions of the one recursion: the serial elision (plain calls), threads (each call
// a weft::thread, the root too, so that the memory quota applies from the top) and tasks
// (weft::scope), all with the same allocations. They compute bit-identical products: the
// kernel and the additions are the same code in the same order whatever ran them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench_threads {

inline constexpr std::size_t kMatmulBase = 64;      // orders <= this multiply serially
inline constexpr std::size_t kMatmulAddBase = 128;  // orders <= this add serially
inline constexpr std::size_t kMatmulMinOrder = 2 * kMatmulBase;

enum class MatmulVersion { kSerial, kThreads, kTasks };

// A, B and C of order n (a power of two >= kMatmulMinOrder), weft::allocate'd; A and B hold
// fixed pseudo-random values in [-1, 1].
class MatmulInputs {
 public:
  explicit MatmulInputs(std::size_t n);
  ~MatmulInputs();
  MatmulInputs(const MatmulInputs&) = delete;
  MatmulInputs& operator=(const MatmulInputs&) = delete;

  std::size_t order() const { return n_; }
  std::size_t bytes() const { return 3 * n_ * n_ * sizeof(double); }
  // Fills C with NaN, so that an entry no run writes fails the check.
  void clear_product();
  // C = A·B by `version` (kThreads and kTasks inside a Runtime's run()).
  void multiply(MatmulVersion version);

  // "" if every entry of C is finite, C·x matches A·(B·x) for two pseudo-random vectors x
  // (Freivalds' check: O(n^2), and an error in any entry moves its row's component), and C
  // matches direct long-double dot products at the corners and 128 pseudo-random entries;
  // else the first mismatch.
  std::string check_against_dot_products() const;
  // "" if C equals `reference` bit for bit; else the first difference.
  std::string check_equal(const std::vector<double>& reference) const;
  std::vector<double> product() const { return {c_, c_ + n_ * n_}; }
  double* product_for_test() { return c_; }

 private:
  std::size_t n_;
  double* a_;
  double* b_;
  double* c_;
};

}  // namespace bench_threads

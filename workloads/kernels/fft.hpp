// FFT, the recursive divide-and-conquer workload (seed 000 Sect. 4.1.5, after the
// Barcelona OpenMP Tasks Suite): the one-dimensional DFT of n = 2^k complex<double> points
// (2^22 by default; the paper's 32M and 64M are 2^25 and 2^26) by recursive radix-2
// Cooley-Tukey, decimation in time.
//
// Out of place: the transform of the n/2 even-indexed inputs goes to the first half of the
// output, that of the odd-indexed ones to the second half (both read the input with twice
// the stride, so the input is never modified and no bit-reversal pass is needed), and the
// combine step merges the halves in place with n/2 butterflies.
//
// Task structure: the two half-size transforms are a par.invoke, down to kLeafPoints; the
// combine loop of a level is split in halves by par.invoke until a range has at most
// kCombineGrain butterflies. Both grains are far above any runtime's spawn cost (a 64-point
// leaf is ~200 butterflies plus 64 strided loads; a combine range ~4096 butterflies, some
// microseconds) and far below the per-worker share at the default size, so every backend
// has parallel slack: for n = 2^22 the recursion makes 2^16 - 1 invokes (2^16 leaves) and
// the combine splits some 4600 more. The leaves read the input with stride n/64, which
// misses the cache on every load: on a 2^22 transform they take more than half the time
// (the gather is the bit-reversal permutation, done lazily).
//
// The twiddle factors are built in the constructor (untimed): the n/2 roots
// w_n^k = exp(-2 pi i k / n), and in front of them each smaller level's m/2 roots w_m^k
// (copies of every (n/m)-th one), n entries in all. Reading a sub-transform's roots with
// stride n/m from the single n/2 table instead costs a cache and TLB miss per butterfly on
// the middle levels: the whole transform took twice as long at 2^22.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

class Fft {
 public:
  static constexpr std::string_view kName = "fft";
  static constexpr std::string_view kDefault = "2^22";
  struct Params {
    int log2_points = 22;
    std::uint64_t seed = 0xff7u;
  };
  // A power-of-two point count from 2^4 to 2^27: "4194304", "2^22", or with a binary
  // suffix "32M" (2^25), "64M" (2^26), "16K".
  static Params parse(std::string_view size);

  explicit Fft(const Params& params);

  template <class Par>
  void compute(Par& par) {
    transform(par, input_.data(), 1, output_.data(), points_);
  }
  std::string verify() const;
  std::string result() const;

 private:
  friend struct FftTestAccess;  // tests corrupt the output to show verify() is not vacuous
  using Complex = std::complex<double>;

  static constexpr std::size_t kLeafPoints = 64;      // transforms this small run serially
  static constexpr std::size_t kCombineGrain = 4096;  // butterflies per combine task

  // out[0, n) = DFT of the n points in[0], in[stride], ..., in[(n - 1) * stride].
  template <class Par>
  void transform(Par& par, const Complex* in, std::size_t stride, Complex* out,
                 std::size_t n) const {
    if (n <= kLeafPoints) {
      leaf_transform(in, stride, out, n);
      return;
    }
    const std::size_t half = n / 2;
    par.invoke([&] { transform(par, in, 2 * stride, out, half); },
               [&] { transform(par, in + stride, 2 * stride, out + half, half); });
    combine(par, out, n, 0, half);
  }

  // Butterflies k in [lo, hi) of the size-n combine over out[0, n).
  template <class Par>
  void combine(Par& par, Complex* out, std::size_t n, std::size_t lo, std::size_t hi) const {
    if (hi - lo <= kCombineGrain) {
      butterflies(out, n, lo, hi);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    par.invoke([&] { combine(par, out, n, lo, mid); }, [&] { combine(par, out, n, mid, hi); });
  }

  // The serial kernels, in fft.cpp.
  void leaf_transform(const Complex* in, std::size_t stride, Complex* out, std::size_t n) const;
  void butterflies(Complex* out, std::size_t n, std::size_t lo, std::size_t hi) const;

  // The checks verify() makes, each "" or a reason.
  std::string check_sampled_frequencies() const;
  std::string check_inverse() const;

  std::size_t points_;
  int log2_points_;
  std::uint64_t seed_;
  std::vector<Complex> input_;
  std::vector<Complex> output_;
  // twiddles_[m/2 + k] = exp(-2 pi i k / m) for each level m = 2, 4, ..., points_ and
  // k < m/2 (entry 0 is unused).
  std::vector<Complex> twiddles_;
  // The m/2 roots of a size-m transform's combine, contiguous.
  const Complex* level_roots(std::size_t m) const { return twiddles_.data() + m / 2; }
};

}  // namespace kernels

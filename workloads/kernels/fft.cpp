// FFT's input, twiddle table, serial kernels and verification (the task structure is in
// fft.hpp).
//
// Complex products are written out by hand: std::complex's operator* must handle infinities
// and NaNs the C99 way (a call to __muldc3 unless -ffast-math), which would dominate the
// butterflies.
#include "workloads/kernels/fft.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "workloads/kernels/par.hpp"

namespace kernels {
namespace {

using Complex = std::complex<double>;

Complex times(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// exp(-2 pi i k / n) for an exact integer phase k mod n.
Complex root_of_unity(std::uint64_t k, std::uint64_t n) {
  const double angle =
      -2.0 * std::numbers::pi * static_cast<double>(k % n) / static_cast<double>(n);
  return {std::cos(angle), std::sin(angle)};
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double uniform_signed(std::uint64_t bits) {  // [-1, 1)
  return static_cast<double>(bits >> 11) * 0x1p-52 - 1.0;
}

// The bit reversal of the 6-bit indices of a 64-point leaf; a leaf of 2^b points uses
// the table shifted right by 6 - b.
constexpr int kLeafBits = 6;
constexpr std::array<std::uint8_t, 64> kBitReversed6 = [] {
  std::array<std::uint8_t, 64> table{};
  for (unsigned j = 0; j < 64; ++j) {
    unsigned r = 0;
    for (int b = 0; b < kLeafBits; ++b) r |= ((j >> b) & 1u) << (kLeafBits - 1 - b);
    table[j] = static_cast<std::uint8_t>(r);
  }
  return table;
}();

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace

Fft::Params Fft::parse(std::string_view size) {
  constexpr std::int64_t kMin = std::int64_t{1} << 4, kMax = std::int64_t{1} << 27;
  const auto fail = [&](std::string_view why) {
    return SizeError("fft: '" + std::string(size) + "' " + std::string(why));
  };
  std::int64_t points = 0;
  const char suffix = size.empty() ? '\0' : size.back();
  if (suffix == 'K' || suffix == 'k' || suffix == 'M' || suffix == 'm') {
    const int shift = (suffix == 'K' || suffix == 'k') ? 10 : 20;
    // The range is checked below on the whole count, so the message quotes the whole size.
    points = parse_count(size.substr(0, size.size() - 1), "fft", 1, kMax) << shift;
  } else {
    points = parse_count(size, "fft", kMin, kMax);
  }
  if (points < kMin || points > kMax) throw fail("is out of range [2^4, 2^27] points");
  if ((points & (points - 1)) != 0) throw fail("is not a power of two");
  Params p;
  p.log2_points = std::countr_zero(static_cast<std::uint64_t>(points));
  return p;
}

Fft::Fft(const Params& params)
    : points_(std::size_t{1} << params.log2_points),
      log2_points_(params.log2_points),
      seed_(params.seed),
      input_(points_),
      output_(points_),
      twiddles_(points_) {
  for (std::size_t j = 0; j < points_; ++j) {
    const std::uint64_t bits = mix(seed_ ^ mix(j));
    input_[j] = {uniform_signed(bits), uniform_signed(mix(bits))};
  }
  const std::size_t top = points_ / 2;
  for (std::size_t k = 0; k < top; ++k) twiddles_[top + k] = root_of_unity(k, points_);
  // Smaller levels copy every (n/m)-th root, so their values are the top level's exactly.
  for (std::size_t half = top / 2; half >= 1; half /= 2)
    for (std::size_t k = 0; k < half; ++k) twiddles_[half + k] = twiddles_[top + k * (top / half)];
}

// Gathers the strided points in bit-reversed order, then runs the radix-2 stages in place.
void Fft::leaf_transform(const Complex* in, std::size_t stride, Complex* out, std::size_t n) const {
  const int shift = kLeafBits - std::countr_zero(n);
  for (std::size_t j = 0; j < n; ++j) out[kBitReversed6[j] >> shift] = in[j * stride];
  for (std::size_t len = 2; len <= n; len *= 2) {
    const std::size_t half = len / 2;
    const Complex* roots = level_roots(len);
    for (std::size_t start = 0; start < n; start += len) {
      for (std::size_t k = 0; k < half; ++k) {
        const Complex even = out[start + k];
        const Complex odd = times(out[start + k + half], roots[k]);
        out[start + k] = even + odd;
        out[start + k + half] = even - odd;
      }
    }
  }
}

void Fft::butterflies(Complex* out, std::size_t n, std::size_t lo, std::size_t hi) const {
  const std::size_t half = n / 2;
  const Complex* roots = level_roots(n);
  for (std::size_t k = lo; k < hi; ++k) {
    const Complex even = out[k];
    const Complex odd = times(out[k + half], roots[k]);
    out[k] = even + odd;
    out[k + half] = even - odd;
  }
}

// (a) The output at 8 frequencies (0, 1, n/2, n-1 and 4 drawn from the seed) against the
// DFT's definition, summed directly: independent of the FFT code and of its twiddle table.
// The kernel exp(-2 pi i j f / n) advances by one complex product per point and is
// recomputed from cos/sin of the exact phase every 1024 points, so its drift stays small.
// Errors are relative to ||x||_2, the typical magnitude of an output element; measured,
// they are 1e-15 to 5e-13 from 2^4 to 2^25 points (mostly the direct sum's). The tolerance,
// 1e-11 * log2 n, is hundreds of times above that and many orders below what a wrong or
// missing butterfly produces (errors of the order of the output itself).
std::string Fft::check_sampled_frequencies() const {
  double norm_squared = 0;
  for (const Complex& x : input_) norm_squared += std::norm(x);
  const double scale = std::sqrt(norm_squared);
  const double tolerance = 1e-11 * log2_points_ * scale;
  const std::uint64_t n = points_;
  std::array<std::uint64_t, 8> frequencies = {0, 1, n / 2, n - 1};
  for (std::size_t t = 4; t < frequencies.size(); ++t) frequencies[t] = mix(seed_ + t) % n;
  constexpr std::size_t kResync = 1024;
  for (const std::uint64_t f : frequencies) {
    const Complex rotation = root_of_unity(f, n);
    Complex sum = 0, kernel = 0;
    for (std::size_t j = 0; j < points_; ++j) {
      kernel = j % kResync == 0 ? root_of_unity(j * f % n, n) : times(kernel, rotation);
      sum += times(input_[j], kernel);
    }
    const double error = std::abs(output_[f] - sum);
    if (!(error <= tolerance))
      return format("X[%llu] = (%.9e, %.9e) but the DFT's definition gives (%.9e, %.9e)",
                    static_cast<unsigned long long>(f), output_[f].real(), output_[f].imag(),
                    sum.real(), sum.imag());
  }
  return "";
}

// (b) The inverse transform of the output, conj(FFT(conj(X))) / n by the serial elision,
// against the input: this one sees every output element. A wrong element moves every
// inverse point by its error / n, so the tolerance is tight: a correct round trip misses
// by 2e-16 to 2.5e-15 (measured, 2^4 to 2^25 points, inputs in [-1, 1)), and the tolerance
// is 1e-14 * log2 n, so at 2^22 an output element off by ~1e-9 of its magnitude fails.
std::string Fft::check_inverse() const {
  std::vector<Complex> conjugated(points_), round_trip(points_);
  for (std::size_t k = 0; k < points_; ++k) conjugated[k] = std::conj(output_[k]);
  SerialPar serial;
  transform(serial, conjugated.data(), 1, round_trip.data(), points_);
  const double inverse_n = 1.0 / static_cast<double>(points_);
  const double tolerance = 1e-14 * log2_points_;
  double worst = 0;
  std::size_t worst_at = 0;
  for (std::size_t j = 0; j < points_; ++j) {
    const double error = std::abs(std::conj(round_trip[j]) * inverse_n - input_[j]);
    if (std::isnan(error)) return format("the inverse transform of the output is NaN at %zu", j);
    if (error > worst) {
      worst = error;
      worst_at = j;
    }
  }
  if (worst > tolerance)
    return format("the inverse transform misses input[%zu] by %.3e (tolerance %.1e)", worst_at,
                  worst, tolerance);
  return "";
}

std::string Fft::verify() const {
  std::string error = check_sampled_frequencies();
  if (error.empty()) error = check_inverse();
  return error;
}

std::string Fft::result() const {
  return format("X[1]=(%.6e,%.6e)", output_[1].real(), output_[1].imag());
}

}  // namespace kernels

// Sort: the size parser, the deterministic input, and the check against std::sort.
#include "workloads/kernels/sort.hpp"

#include <stdexcept>

namespace kernels {
namespace {

// splitmix64 (Steele, Lea & Flood 2014; Vigna's public-domain code): one step of the
// generator the input is drawn from.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

std::vector<std::int32_t> make_input(std::size_t n, std::uint64_t seed) {
  std::vector<std::int32_t> input(n);
  std::uint64_t state = seed;
  // The top 32 bits, reinterpreted as two's complement: negative values included.
  for (std::int32_t& x : input) x = static_cast<std::int32_t>(splitmix64(state) >> 32);
  return input;
}

std::size_t checked_size(std::int64_t n) {
  if (n < 1 || n > Sort::kMaxElements) {
    throw SizeError("sort: n = " + std::to_string(n) + " is out of range [1, " +
                    std::to_string(Sort::kMaxElements) + "]");
  }
  return static_cast<std::size_t>(n);
}

std::size_t checked_cutoff(std::size_t cutoff, const char* which) {
  if (cutoff == 0) throw std::invalid_argument(std::string("sort: ") + which + " must be >= 1");
  return cutoff;
}

}  // namespace

Sort::Params Sort::parse(std::string_view size) {
  return Params{parse_count(size, "sort", 1, kMaxElements)};
}

Sort::Sort(const Params& params)
    : sort_cutoff_(checked_cutoff(params.sort_cutoff, "sort cutoff")),
      merge_cutoff_(checked_cutoff(params.merge_cutoff, "merge cutoff")),
      input_(make_input(checked_size(params.n), kSeed)),
      data_(input_),
      scratch_(input_.size()) {}

std::string Sort::verify() const {
  const auto unsorted = std::is_sorted_until(data_.begin(), data_.end());
  if (unsorted != data_.end()) {
    return "sort: output not sorted at index " + std::to_string(unsorted - data_.begin()) + " (" +
           std::to_string(*(unsorted - 1)) + " before " + std::to_string(*unsorted) + ")";
  }
  // Sorted, but is it the input's elements? Compare with the reference sort of the input.
  std::vector<std::int32_t> expected = input_;
  std::sort(expected.begin(), expected.end());
  const auto [got, want] = std::mismatch(data_.begin(), data_.end(), expected.begin());
  if (got == data_.end()) return "";
  return "sort: output is sorted but not the input's elements: index " +
         std::to_string(got - data_.begin()) + " holds " + std::to_string(*got) + ", expected " +
         std::to_string(*want);
}

std::string Sort::result() const {
  const auto [min, max] = std::minmax_element(data_.begin(), data_.end());
  return "sorted n=" + std::to_string(data_.size()) + " min=" + std::to_string(*min) +
         " max=" + std::to_string(*max);
}

}  // namespace kernels

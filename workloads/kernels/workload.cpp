#include "workloads/kernels/workload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace kernels {
namespace {

bool parse_int(std::string_view text, std::int64_t& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::int64_t parse_count(std::string_view text, std::string_view what, std::int64_t lo,
                         std::int64_t hi) {
  const auto fail = [&](std::string_view why) {
    return SizeError(std::string(what) + ": '" + std::string(text) + "' " + std::string(why));
  };
  std::int64_t value = 0;
  std::int64_t base = 0, exponent = 0;
  const std::size_t caret = text.find('^');
  const std::size_t e = text.find_first_of("eE");
  if (caret != std::string_view::npos || e != std::string_view::npos) {
    const std::size_t at = caret != std::string_view::npos ? caret : e;
    if (!parse_int(text.substr(0, at), base) || !parse_int(text.substr(at + 1), exponent) ||
        exponent < 0 || exponent > 62 || base < 1)
      throw fail("is not a count (write e.g. 4096, 2^22 or 1e7)");
    if (caret == std::string_view::npos) {
      // 1e7 is base * 10^exponent.
      const double v = static_cast<double>(base) * std::pow(10.0, static_cast<double>(exponent));
      if (v > static_cast<double>(hi)) throw fail("is too large");
      value = static_cast<std::int64_t>(v);
    } else {
      const double v = std::pow(static_cast<double>(base), static_cast<double>(exponent));
      if (v > static_cast<double>(hi)) throw fail("is too large");
      value = static_cast<std::int64_t>(v);
    }
  } else if (!parse_int(text, value)) {
    throw fail("is not a count (write e.g. 4096, 2^22 or 1e7)");
  }
  if (value < lo || value > hi)
    throw fail("is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return value;
}

std::uint64_t parse_seed(std::string_view text) {
  return static_cast<std::uint64_t>(
      parse_count(text, "SEED", 0, std::numeric_limits<std::int64_t>::max()));
}

std::vector<std::string_view> split_size(std::string_view size, std::size_t min, std::size_t max,
                                         std::string_view form) {
  std::vector<std::string_view> fields;
  for (std::size_t at = 0;;) {
    const std::size_t colon = size.find(':', at);
    fields.push_back(size.substr(at, colon == std::string_view::npos ? colon : colon - at));
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  const bool empty_field =
      std::find(fields.begin(), fields.end(), std::string_view()) != fields.end();
  if (fields.size() < min || fields.size() > max || empty_field)
    throw SizeError("'" + std::string(size) + "': expected " + std::string(form));
  return fields;
}

}  // namespace kernels

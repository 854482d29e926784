// The shaped loop nests (loop_shapes.hpp): trip counts, parsing and the slot checks.
#include "workloads/kernels/loop_shapes.hpp"

#include <algorithm>
#include <cmath>

#include "workloads/kernels/seed_mix.hpp"

namespace kernels {

TwoLevelNest::TwoLevelNest(std::string_view name, std::vector<std::size_t> trips)
    : name_(name), trips_(std::move(trips)), offset_(trips_.size() + 1, 0) {
  for (std::size_t i = 0; i < trips_.size(); ++i) offset_[i + 1] = offset_[i] + trips_[i];
  if (offset_.back() > kMaxIterations) {
    throw SizeError(std::string(name_) + ": " + std::to_string(offset_.back()) +
                    " iterations, more than " + std::to_string(kMaxIterations));
  }
  slots_.assign(offset_.back(), 0);
}

std::string TwoLevelNest::verify() const {
  for (std::size_t i = 0; i < trips_.size(); ++i) {
    for (std::size_t j = 0; j < trips_[i]; ++j) {
      const std::uint32_t got = slots_[offset_[i] + j];
      if (got == stamp(i, j)) continue;
      const char* what = got == 0                 ? "never ran"
                         : got == 2 * stamp(i, j) ? "ran twice"
                                                  : "holds a wrong value";
      return "iteration (" + std::to_string(i) + ", " + std::to_string(j) + ") " + what;
    }
  }
  return "";
}

std::string TwoLevelNest::result() const {
  std::uint64_t sum = 0;
  for (const std::uint32_t s : slots_) sum += s;
  return "iterations " + std::to_string(slots_.size()) + ", sum " + std::to_string(sum);
}

TriangleLoops::Params TriangleLoops::parse(std::string_view size) {
  return {static_cast<std::size_t>(parse_count(size, "N", 1, std::int64_t{1} << 14))};
}

namespace {

std::vector<std::size_t> triangle(std::size_t n) {
  std::vector<std::size_t> trips(n);
  for (std::size_t i = 0; i < n; ++i) trips[i] = i + 1;
  return trips;
}

// Inverse-transform sampling: min / U^(1/shape) for U uniform in (0, 1], capped.
std::vector<std::size_t> pareto(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> trips(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double u = 1.0 - unit_uniform(seeded(seed, i));
    const double t = static_cast<double>(ParetoLoops::kParetoMinTrips) /
                     std::pow(u, 1.0 / ParetoLoops::kParetoShape);
    trips[i] = t >= static_cast<double>(ParetoLoops::kParetoMaxTrips) ? ParetoLoops::kParetoMaxTrips
                                                                      : static_cast<std::size_t>(t);
  }
  return trips;
}

}  // namespace

TriangleLoops::TriangleLoops(const Params& params) : TwoLevelNest(kName, triangle(params.n)) {}

ParetoLoops::Params ParetoLoops::parse(std::string_view size) {
  const auto fields = split_size(size, 1, 2, "N[:SEED] (e.g. 20000:7)");
  Params p;
  p.n = static_cast<std::size_t>(parse_count(fields[0], "N", 1, std::int64_t{1} << 22));
  if (fields.size() > 1) p.seed = parse_seed(fields[1]);
  return p;
}

ParetoLoops::ParetoLoops(const Params& params)
    : TwoLevelNest(kName, pareto(params.n, params.seed)) {}

NarrowLoops::Params NarrowLoops::parse(std::string_view size) {
  const std::size_t x = size.find('x');
  Params p;
  const std::string_view inner = x == std::string_view::npos ? size : size.substr(x + 1);
  if (x != std::string_view::npos) {
    p.outer = static_cast<std::size_t>(parse_count(size.substr(0, x), "OUTER", 1, 4096));
  }
  p.inner = static_cast<std::size_t>(
      parse_count(inner, "INNER", 1, static_cast<std::int64_t>(kMaxIterations)));
  if (p.outer * p.inner > kMaxIterations) {
    throw SizeError("'" + std::string(size) + "': " + std::to_string(p.outer * p.inner) +
                    " iterations, more than " + std::to_string(kMaxIterations));
  }
  return p;
}

NarrowLoops::NarrowLoops(const Params& params)
    : TwoLevelNest(kName, std::vector<std::size_t>(params.outer, params.inner)) {}

EmptyLoop::Params EmptyLoop::parse(std::string_view size) {
  return {static_cast<std::size_t>(parse_count(size, "N", 1, std::int64_t{1} << 30))};
}

std::string EmptyLoop::verify() const {
  const auto wrong =
      std::find_if(hits_.begin(), hits_.end(), [](std::uint8_t h) { return h != 1; });
  if (wrong == hits_.end()) return "";
  return "iteration " + std::to_string(wrong - hits_.begin()) + " ran " + std::to_string(*wrong) +
         " times";
}

std::string EmptyLoop::result() const { return "iterations " + std::to_string(hits_.size()); }

}  // namespace kernels

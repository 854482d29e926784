// Schedule: construction, parsing and printing of loop schedules.
#include "weft/schedule.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

#include "weft/config.hpp"

namespace weft {

namespace {

void check_chunk(const char* name, std::uint64_t k) {
  if (k < 1 || k > Schedule::kMaxChunk) {
    throw std::invalid_argument(std::string("weft::Schedule::") + name + "(" + std::to_string(k) +
                                "): the chunk size must be from 1 to 2^62");
  }
}

}  // namespace

Schedule Schedule::dynamic(std::uint64_t k) {
  check_chunk("dynamic", k);
  return Schedule(Kind::kDynamic, k);
}

Schedule Schedule::guided(std::uint64_t k) {
  check_chunk("guided", k);
  return Schedule(Kind::kGuided, k);
}

std::string Schedule::allowed_specs() {
  return "static, dynamic[:K], guided[:K], factoring, auto (K from 1 to 2^62)";
}

Schedule Schedule::parse(std::string_view spec, std::string_view setting) {
  auto bad = [&](const std::string& why) {
    return ConfigError(std::string(setting) + "=\"" + std::string(spec) + "\": " + why +
                       " (allowed: " + allowed_specs() + ")");
  };
  if (spec == "static") return static_chunks();
  if (spec == "factoring") return factoring();
  if (spec == "auto") return automatic();
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  if (name != "dynamic" && name != "guided") throw bad("unknown schedule");
  std::uint64_t k = 1;
  if (colon != std::string_view::npos) {
    const std::string_view digits = spec.substr(colon + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
      throw bad("the chunk size after \"" + std::string(name) + ":\" must be a whole number");
    }
    if (k < 1 || k > kMaxChunk) throw bad("the chunk size must be from 1 to 2^62");
  }
  return name == "dynamic" ? Schedule(Kind::kDynamic, k) : Schedule(Kind::kGuided, k);
}

std::string Schedule::spec() const {
  switch (kind_) {
    case Kind::kStatic: return "static";
    case Kind::kDynamic: return "dynamic:" + std::to_string(chunk_);
    case Kind::kGuided: return "guided:" + std::to_string(chunk_);
    case Kind::kFactoring: return "factoring";
    case Kind::kAuto: return "auto";
  }
  return "?";
}

}  // namespace weft

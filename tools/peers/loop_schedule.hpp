// The loop schedule a peer runs its loop variants under (the peer protocol's --schedule):
// weft's Schedule specs (include/weft/schedule.hpp), parsed again here because the peers do
// not link weft, plus "default", the peer's own natural choice. weft-bench compare passes each
// of its --schedule specs as Schedule::spec() writes them, so that every peer loop variant
// runs once per schedule beside weft's run of the same schedule. How each backend maps a
// schedule is in omp_par.hpp and tbb_par.hpp.
#pragma once

#include <charconv>
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "workloads/kernels/workload.hpp"

namespace peers {

struct LoopSchedule {
  enum class Kind : std::uint8_t { kDefault, kStatic, kDynamic, kGuided, kFactoring, kAuto };

  Kind kind = Kind::kDefault;
  std::uint64_t chunk = 0;  // K of dynamic:K and guided:K; 0 for the others

  // K up to 2^62, as weft's Schedule::kMaxChunk.
  static constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 62;

  bool is_default() const { return kind == Kind::kDefault; }

  // K for the runtimes that take an int (OpenMP's chunk, grainsize): K capped at INT_MAX,
  // which is already more iterations than any loop workload has.
  int int_chunk() const { return chunk > INT_MAX ? INT_MAX : static_cast<int>(chunk); }

  // "default", "static", "dynamic:4", "guided:1", "factoring", "auto": what parse() reads.
  std::string spec() const {
    switch (kind) {
      case Kind::kDefault: return "default";
      case Kind::kStatic: return "static";
      case Kind::kDynamic: return "dynamic:" + std::to_string(chunk);
      case Kind::kGuided: return "guided:" + std::to_string(chunk);
      case Kind::kFactoring: return "factoring";
      case Kind::kAuto: return "auto";
    }
    return "default";
  }

  // "default", "static", "dynamic[:K]", "guided[:K]", "factoring" or "auto", K in [1, 2^62]
  // (1 when left out); throws kernels::SizeError "--schedule <text>: <what is wrong>".
  static LoopSchedule parse(std::string_view text) {
    const auto fail = [text](std::string_view why) {
      return kernels::SizeError("--schedule " + std::string(text) + ": " + std::string(why));
    };
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    LoopSchedule s;
    if (name == "default") {
      s.kind = Kind::kDefault;
    } else if (name == "static") {
      s.kind = Kind::kStatic;
    } else if (name == "dynamic") {
      s.kind = Kind::kDynamic;
    } else if (name == "guided") {
      s.kind = Kind::kGuided;
    } else if (name == "factoring") {
      s.kind = Kind::kFactoring;
    } else if (name == "auto") {
      s.kind = Kind::kAuto;
    } else {
      throw fail(
          "unknown schedule (allowed: default, static, dynamic[:K], guided[:K], "
          "factoring, auto)");
    }
    const bool takes_chunk = s.kind == Kind::kDynamic || s.kind == Kind::kGuided;
    if (colon == std::string_view::npos) {
      if (takes_chunk) s.chunk = 1;
      return s;
    }
    if (!takes_chunk) throw fail("only dynamic and guided take a chunk size");
    const std::string_view k = text.substr(colon + 1);
    const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), s.chunk);
    if (k.empty() || ec != std::errc() || end != k.data() + k.size() || s.chunk == 0 ||
        s.chunk > kMaxChunk)
      throw fail("the chunk size must be an integer from 1 to 2^62");
    return s;
  }
};

}  // namespace peers

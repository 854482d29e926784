// How a parallel loop's iterations are cut into chunks. Every schedule is a pure function
// from a chunk's index to its bounds, so one fetch-and-add on a shared counter hands out a
// chunk, whichever worker takes it and whenever.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace weft {

class Schedule {
 public:
  enum class Kind : std::uint8_t {
    kStatic,     // one chunk per worker, of equal size (within one iteration)
    kDynamic,    // chunks of K iterations
    kGuided,     // each chunk 1/P of what the chunks before it left (at least K), then K
    kFactoring,  // batches of P chunks, each ceil(R/2P) of the R left (Hummel et al. 1992)
    kAuto,       // the runtime's choice: factoring, laid in two halves of the range, with
                 // no chunk under ~3 µs of the loop's measured pace (docs/LOOPS.md,
                 // "Schedules")
  };

  static constexpr Schedule static_chunks() noexcept { return Schedule(Kind::kStatic, 0); }
  // K >= 1; dynamic(0) throws std::invalid_argument.
  static Schedule dynamic(std::uint64_t k = 1);
  static Schedule guided(std::uint64_t k = 1);
  static constexpr Schedule factoring() noexcept { return Schedule(Kind::kFactoring, 0); }
  static constexpr Schedule automatic() noexcept { return Schedule(Kind::kAuto, 0); }

  // Parses "static", "dynamic[:K]", "guided[:K]", "factoring" or "auto" (K from 1 to 2^62);
  // throws ConfigError (a std::invalid_argument) naming `setting`, the value and what is
  // allowed otherwise.
  static Schedule parse(std::string_view spec, std::string_view setting = "schedule");
  // What parse() accepts, for messages and --help texts.
  static std::string allowed_specs();
  // The spec parse() accepts back: "dynamic:4".
  std::string spec() const;

  constexpr Schedule() noexcept = default;  // auto
  constexpr Kind kind() const noexcept { return kind_; }
  // K for dynamic and guided; 0 for the others.
  constexpr std::uint64_t chunk() const noexcept { return chunk_; }
  friend constexpr bool operator==(const Schedule&, const Schedule&) noexcept = default;

  static constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 62;

 private:
  constexpr Schedule(Kind kind, std::uint64_t chunk) noexcept : kind_(kind), chunk_(chunk) {}
  Kind kind_ = Kind::kAuto;
  std::uint64_t chunk_ = 0;
};

}  // namespace weft

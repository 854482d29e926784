// Loop nests shaped to stress a nested-loop scheduler where the paper's two programs do not:
//
//   triangle-loops:N       PARALLEL i < N { PARALLEL j <= i }: inner trip counts 1..N, so
//                          equal outer chunks carry unequal work.
//   pareto-loops:N[:SEED]  PARALLEL i < N { PARALLEL j < t(i) }, t(i) seeded and heavy-tailed
//                          (Pareto, shape kParetoShape, at least kParetoMinTrips, at most
//                          kParetoMaxTrips): a few outer iterations hold most of the work.
//   narrow-loops:OxI       PARALLEL i < O { PARALLEL j < I }: an outer loop narrower than the
//                          workers (O = 1 by default), so only the inner loop can feed them.
//   empty-loop:N           PARALLEL i < N of a near-empty body: the cost of a chunk itself
//                          (time per iteration is time per chunk under dynamic:1).
//
// Every inner iteration (i, j) adds stamp(i, j), an odd 32-bit hash of a few rounds, to its
// own slot, which starts at zero; verify() checks every slot holds exactly its stamp, which
// catches an iteration skipped (0), repeated (2·stamp, never the stamp since it is odd) or
// given the wrong indices. empty-loop's body adds one to its byte, checked the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/kernels/workload.hpp"

namespace kernels {

// The inner iteration's work: kStampRounds rounds of a 32-bit multiply-xorshift hash (a few
// nanoseconds), odd.
inline constexpr int kStampRounds = 4;
inline std::uint32_t stamp(std::size_t i, std::size_t j) {
  auto x = static_cast<std::uint32_t>(i * 0x9e3779b9u) ^ static_cast<std::uint32_t>(j);
  for (int r = 0; r < kStampRounds; ++r) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
  }
  return x | 1u;
}

// A two-level nest over a ragged index space: outer i < trips.size(), inner j < trips[i],
// slot offset(i) + j. The named workloads below only choose the trip counts.
class TwoLevelNest {
 public:
  template <class Par>
  void compute(Par& par);
  std::string verify() const;
  std::string result() const;  // "iterations ..., sum ..."
  std::uint64_t iterations() const { return slots_.size(); }

  // Tests corrupt a slot to see verify() catch it.
  std::vector<std::uint32_t>& output() { return slots_; }

  static constexpr std::uint64_t kMaxIterations = std::uint64_t{1} << 28;  // 1 GiB of slots

 protected:
  // Trip counts as given; throws SizeError if their sum exceeds kMaxIterations.
  TwoLevelNest(std::string_view name, std::vector<std::size_t> trips);

 private:
  std::string_view name_;
  std::vector<std::size_t> trips_;
  std::vector<std::size_t> offset_;  // prefix sums of trips_
  std::vector<std::uint32_t> slots_;
};

template <class Par>
void TwoLevelNest::compute(Par& par) {
  par.for_range(0, 0, trips_.size(), [&](std::size_t ib, std::size_t ie) {
    for (std::size_t i = ib; i < ie; ++i) {
      std::uint32_t* slot = slots_.data() + offset_[i];
      par.for_range(1, 0, trips_[i], [slot, i](std::size_t jb, std::size_t je) {
        for (std::size_t j = jb; j < je; ++j) slot[j] += stamp(i, j);
      });
    }
  });
}

class TriangleLoops : public TwoLevelNest {
 public:
  static constexpr std::string_view kName = "triangle-loops";
  static constexpr std::string_view kDefault = "2000";
  struct Params {
    std::size_t n = 2000;
  };
  static Params parse(std::string_view size);  // "N", N in [1, 2^14]
  explicit TriangleLoops(const Params& params);
};

class ParetoLoops : public TwoLevelNest {
 public:
  static constexpr std::string_view kName = "pareto-loops";
  static constexpr std::string_view kDefault = "20000";
  // Shape 1.2: the mean (6·kParetoMinTrips before the cap) is dominated by the tail.
  static constexpr double kParetoShape = 1.2;
  static constexpr std::size_t kParetoMinTrips = 16;
  static constexpr std::size_t kParetoMaxTrips = std::size_t{1} << 16;
  struct Params {
    std::size_t n = 20000;
    std::uint64_t seed = 1;
  };
  static Params parse(std::string_view size);  // "N[:SEED]", N in [1, 2^22]
  explicit ParetoLoops(const Params& params);
};

class NarrowLoops : public TwoLevelNest {
 public:
  static constexpr std::string_view kName = "narrow-loops";
  static constexpr std::string_view kDefault = "1x2^20";
  struct Params {
    std::size_t outer = 1;
    std::size_t inner = std::size_t{1} << 20;
  };
  // "OxI" or "I" (O = 1), O in [1, 4096], O·I at most kMaxIterations
  static Params parse(std::string_view size);
  explicit NarrowLoops(const Params& params);
};

class EmptyLoop {
 public:
  static constexpr std::string_view kName = "empty-loop";
  static constexpr std::string_view kDefault = "1e6";
  struct Params {
    std::size_t n = 1000000;
  };
  static Params parse(std::string_view size);  // "N", N in [1, 2^30]
  explicit EmptyLoop(const Params& params) : hits_(params.n, 0) {}

  template <class Par>
  void compute(Par& par) {
    // One add to memory the check reads afterwards: nothing the compiler may delete, and as
    // little as a body can do.
    par.for_range(0, 0, hits_.size(), [this](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) ++hits_[i];
    });
  }
  std::string verify() const;
  std::string result() const;  // "iterations N"
  std::uint64_t iterations() const { return hits_.size(); }

  std::vector<std::uint8_t>& output() { return hits_; }

 private:
  std::vector<std::uint8_t> hits_;
};

}  // namespace kernels

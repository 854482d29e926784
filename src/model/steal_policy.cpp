// The steal policies: how many of a victim's n available (oldest) tasks a thief claims.
// Adding a policy means adding a Strategy here and a branch in StealPolicy::parse.
#include <charconv>
#include <limits>
#include <string>

#include "weft/config.hpp"

namespace weft {
namespace {

class OneStrategy final : public StealPolicy::Strategy {
 public:
  std::int64_t amount(const StealView& v) const noexcept override {
    return v.available >= 1 ? 1 : 0;
  }
  std::string spec() const override { return "one"; }
};

class FixedStrategy final : public StealPolicy::Strategy {
 public:
  explicit FixedStrategy(std::int64_t d) : d_(d) {}
  // Exactly d or nothing: below d the steal fails, as the paper's st_sta does.
  std::int64_t amount(const StealView& v) const noexcept override {
    return v.available >= d_ ? d_ : 0;
  }
  std::string spec() const override { return "fixed:" + std::to_string(d_); }

 private:
  std::int64_t d_;
};

class HalfStrategy final : public StealPolicy::Strategy {
 public:
  // ceil(n/2) = floor(n_total/2) where n_total = n + 1 counts the victim's running task.
  std::int64_t amount(const StealView& v) const noexcept override {
    return v.available >= 1 ? (v.available + 1) / 2 : 0;
  }
  std::string spec() const override { return "half"; }
};

// Ours: take half while the tasks the thief stole lately brought little work for what a
// steal cost it, one task once they bring plenty. Half amortises the cost of a steal over many
// tasks when stolen pieces are small (UTS's binomial trees: most stolen subtrees are a few nodes);
// one keeps the victim's locality and avoids taking most of the work when the oldest task
// is most of it (divide and conquer: each older task is about twice the size of the next).
// docs/STRATEGIES.md has the measurements behind kPlentyOfWork.
class AdaptiveStrategy final : public StealPolicy::Strategy {
 public:
  // Work per stolen task, in multiples of a steal's cost, from which one task is enough.
  static constexpr double kPlentyOfWork = 32.0;

  std::int64_t amount(const StealView& v) const noexcept override {
    if (v.available < 1) return 0;
    // Knowing nothing (0: no steal ended or running) counts as little work: the very first
    // steal of a run finds the victim's stack shallow, where half and one differ by a task
    // or two. Claims nested in a running first steal see its lower bound (steal_history.hpp).
    const bool plenty = v.task_work_per_steal_cost >= kPlentyOfWork;
    return plenty ? 1 : (v.available + 1) / 2;
  }
  std::string spec() const override { return "adaptive"; }
  bool reads_thief_history() const noexcept override { return true; }
};

// Fixed lengths above this are rejected: a larger claim cannot be held by a task stack of
// the default size and would only ever fail.
constexpr std::int64_t kMaxFixedLength = 1 << 20;

}  // namespace

StealPolicy StealPolicy::one() { return StealPolicy(std::make_shared<OneStrategy>()); }

StealPolicy StealPolicy::half() { return StealPolicy(std::make_shared<HalfStrategy>()); }

StealPolicy StealPolicy::adaptive() { return StealPolicy(std::make_shared<AdaptiveStrategy>()); }

StealPolicy StealPolicy::fixed(std::int64_t d) {
  if (d < 1 || d > kMaxFixedLength) {
    throw ConfigError("steal policy fixed:" + std::to_string(d) +
                      ": the length must be from 1 to " + std::to_string(kMaxFixedLength));
  }
  return StealPolicy(std::make_shared<FixedStrategy>(d));
}

std::string StealPolicy::allowed_specs() {
  return "one, half, adaptive, fixed:D (D from 1 to 1048576)";
}

StealPolicy StealPolicy::parse(std::string_view spec, std::string_view setting) {
  auto bad = [&](const std::string& why) {
    return ConfigError(std::string(setting) + "=\"" + std::string(spec) + "\": " + why +
                       " (allowed: " + allowed_specs() + ")");
  };
  if (spec == "one") return one();
  if (spec == "half") return half();
  if (spec == "adaptive") return adaptive();
  constexpr std::string_view kFixed = "fixed:";
  if (spec.substr(0, kFixed.size()) == kFixed) {
    const std::string_view digits = spec.substr(kFixed.size());
    std::int64_t d = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
      throw bad("the length after \"fixed:\" must be a whole number");
    }
    if (d < 1 || d > kMaxFixedLength) throw bad("the length must be from 1 to 1048576");
    return fixed(d);
  }
  throw bad("unknown steal policy");
}

}  // namespace weft

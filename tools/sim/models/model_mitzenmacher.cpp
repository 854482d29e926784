#include "tools/sim/models/model_mitzenmacher.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/steal_amount.hpp"
#include "tools/sim/models/model_random.hpp"

namespace sim {
namespace {

void check(unsigned processors, double lambda, unsigned threshold) {
  if (processors < 2) throw std::invalid_argument("mitzenmacher model: fewer than 2 processors");
  if (!(lambda > 0.0 && lambda < 1.0))
    throw std::invalid_argument("mitzenmacher model: lambda outside (0, 1)");
  if (threshold < 2) throw std::invalid_argument("mitzenmacher model: threshold below 2");
}

// The number of processors holding at least i tasks, for each i >= 1, and its integral over
// time. Each level is integrated lazily, when its count changes, so an event costs O(1)
// rather than one addition per level.
class Tail {
 public:
  explicit Tail(unsigned processors) : count_{processors}, area_{0.0}, since_{0.0} {}

  void add(std::size_t level, double now) {
    if (level >= count_.size()) {
      count_.push_back(0);
      area_.push_back(0.0);
      since_.push_back(now);
    }
    settle(level, now);
    ++count_[level];
  }
  void remove(std::size_t level, double now) {
    settle(level, now);
    --count_[level];
  }
  // Brings every level's integral up to `now`; with `restart` drops what it held, so that
  // the average covers only what follows.
  void settle_all(double now, bool restart) {
    for (std::size_t level = 0; level < count_.size(); ++level) {
      settle(level, now);
      if (restart) area_[level] = 0.0;
    }
  }
  // The time averages s_0, s_1, ... over a window of `span`, up to the last level ever held.
  std::vector<double> averages(double span) const {
    std::vector<double> s;
    const double whole = static_cast<double>(count_[0]) * span;
    for (double a : area_) s.push_back(a / whole);
    while (s.size() > 1 && s.back() == 0.0) s.pop_back();
    return s;
  }

 private:
  void settle(std::size_t level, double now) {
    area_[level] += static_cast<double>(count_[level]) * (now - since_[level]);
    since_[level] = now;
  }
  std::vector<std::uint64_t> count_;
  std::vector<double> area_;
  std::vector<double> since_;
};

}  // namespace

MitzenmacherResult simulate_mitzenmacher(const MitzenmacherConfig& config) {
  check(config.processors, config.lambda, config.threshold);
  if (!(config.time > 0.0)) throw std::invalid_argument("mitzenmacher model: time not positive");
  const std::uint32_t n = config.processors;
  const double arrival_rate = config.lambda * n;
  const double warmup = config.time / 5;
  std::vector<std::uint32_t> load(n, 0);
  // The busy processors, each completing at rate 1: a completion happens at one of them
  // drawn uniformly. busy_slot[p] is p's place in `busy`.
  std::vector<std::uint32_t> busy;
  std::vector<std::uint32_t> busy_slot(n, 0);
  Tail tail(n);
  ModelRandom random(config.seed);
  MitzenmacherResult result;
  double now = 0.0;
  const auto raise = [&](std::uint32_t p) {
    tail.add(++load[p], now);
    if (load[p] == 1) {
      busy_slot[p] = static_cast<std::uint32_t>(busy.size());
      busy.push_back(p);
    }
  };
  const auto lower = [&](std::uint32_t p) {
    tail.remove(load[p]--, now);
    if (load[p] == 0) {
      const std::uint32_t last = busy.back();
      busy[busy_slot[p]] = last;
      busy_slot[last] = busy_slot[p];
      busy.pop_back();
    }
  };
  bool warmed = false;
  while (true) {
    const double rate = arrival_rate + static_cast<double>(busy.size());
    const double next = now + random.exponential(rate);
    if (!warmed && next >= warmup) {
      tail.settle_all(warmup, true);
      warmed = true;
    }
    if (next >= config.time) break;
    now = next;
    if (random.unit() * rate < arrival_rate) {
      ++result.arrivals;
      raise(random.below(n));
      continue;
    }
    const std::uint32_t p = busy[random.below(static_cast<std::uint32_t>(busy.size()))];
    lower(p);
    ++result.completions;
    if (load[p] != 0) continue;
    ++result.steal_attempts;
    const std::uint32_t victim = random.other_than(p, n);
    if (load[victim] < config.threshold) continue;
    const std::int64_t amount =
        weft::detail::steal_amount(config.policy, static_cast<std::int64_t>(load[victim]) - 1, 0.0);
    for (std::int64_t k = 0; k < amount; ++k) {
      lower(victim);
      raise(p);
    }
    if (amount > 0) ++result.steals;
  }
  tail.settle_all(config.time, false);
  result.tail = tail.averages(config.time - warmup);
  return result;
}

// The fixed point. With the equations written as fluxes (the header), every flux vanishes
// there, boundary by boundary:
//   i = 1:       λ (1 - s_1)  = p_1 (1 - s_T)
//   2 <= i < T:  λ p_(i-1)    = p_i
//   i >= T:      λ p_(i-1)    = p_i (1 + p_1)
// and summing the equations over i gives d/dt (s_1 + s_2 + ...) = λ - s_1 (arrivals in,
// completions out; a steal moves a task and changes no total), so s_1 = λ. Hence, with
// ρ = λ / (1 + p_1) < 1, the p_i are geometric in two pieces:
//   p_i = λ^(i-1) p_1 for i < T,   p_i = λ^(T-2) p_1 ρ^(i-T+1) for i >= T,
// and s_1 = p_1 + p_2 + ... = λ fixes p_1:
//   p_1 (1 + λ + ... + λ^(T-2) + λ^(T-2) ρ / (1 - ρ)) = λ.
// The left side grows with p_1 (p_1 ρ / (1 - ρ) = λ p_1 / (1 + p_1 - λ) does), is 0 at
// p_1 = 0 and at least λ at p_1 = λ, so bisection on [0, λ] finds the one root. The
// i = 1 balance then holds too: it is the sum of the others less the total's balance.
std::vector<double> mitzenmacher_fixed_point(double lambda, unsigned threshold, double smallest) {
  check(2, lambda, threshold);
  const auto total = [&](double p1) {
    const double rho = lambda / (1.0 + p1);
    double below_threshold = 0.0;  // 1 + λ + ... + λ^(T-2)
    double power = 1.0;
    for (unsigned i = 1; i < threshold; ++i) {
      below_threshold += power;
      power *= lambda;
    }
    return p1 * (below_threshold + power / lambda * rho / (1.0 - rho));
  };
  double low = 0.0;
  double high = lambda;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (total(mid) < lambda ? low : high) = mid;
  }
  const double p1 = (low + high) / 2;
  const double rho = lambda / (1.0 + p1);
  // p_1 .. p_(T-1), then s_i = p_i / (1 - ρ) on the geometric tail and s_i = p_i + s_(i+1)
  // below it.
  std::vector<double> p{0.0, p1};
  for (unsigned i = 2; i < threshold; ++i) p.push_back(p.back() * lambda);
  std::vector<double> s(threshold, 0.0);
  const double p_threshold = p.back() * rho;
  s.push_back(p_threshold / (1.0 - rho));
  for (unsigned i = threshold - 1; i >= 1; --i) s[i] = p[i] + s[i + 1];
  s[0] = 1.0;
  for (double p_i = p_threshold * rho; s.back() >= smallest; p_i *= rho) {
    s.push_back(p_i / (1.0 - rho));
  }
  s.pop_back();  // the first one below `smallest`
  return s;
}

std::vector<double> integrate_mitzenmacher_equations(double lambda, unsigned threshold, double time,
                                                     std::size_t levels) {
  check(2, lambda, threshold);
  // s[levels + 1] stays 0: the truncation.
  const auto derivative = [&](const std::vector<double>& s, std::vector<double>& d) {
    const double p1 = s[1] - s[2];
    const double s_threshold = threshold <= levels ? s[threshold] : 0.0;
    d[0] = 0.0;
    d[1] = lambda * (1.0 - s[1]) - p1 * (1.0 - s_threshold);
    for (std::size_t i = 2; i <= levels; ++i) {
      const double p_i = s[i] - s[i + 1];
      d[i] = lambda * (s[i - 1] - s[i]) - p_i - (i >= threshold ? p1 * p_i : 0.0);
    }
    d[levels + 1] = 0.0;
  };
  // Classic fourth-order Runge-Kutta; the fastest rate is below 2 + λ + p_1 < 4, so a step
  // of 0.02 is far inside its stability region.
  const double dt = 0.02;
  std::vector<double> s(levels + 2, 0.0);
  s[0] = 1.0;
  std::vector<double> k1(s.size()), k2(s.size()), k3(s.size()), k4(s.size()), tmp(s.size());
  const auto along = [&](const std::vector<double>& k, double h) -> const std::vector<double>& {
    for (std::size_t i = 0; i < s.size(); ++i) tmp[i] = s[i] + h * k[i];
    return tmp;
  };
  for (double t = 0.0; t < time; t += dt) {
    derivative(s, k1);
    derivative(along(k1, dt / 2), k2);
    derivative(along(k2, dt / 2), k3);
    derivative(along(k3, dt), k4);
    for (std::size_t i = 0; i < s.size(); ++i)
      s[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  s.pop_back();
  return s;
}

}  // namespace sim

#include "tools/bench/stats/host_steadiness.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "tools/bench/stats/paired.hpp"

namespace bench_stats {
namespace {

// Knuth's MMIX multiplier and increment: a full-period LCG modulo 2^64.
constexpr std::uint64_t kMul = 6364136223846793005ULL;
constexpr std::uint64_t kAdd = 1442695040888963407ULL;

}  // namespace

std::optional<CpuTimes> parse_cpu_times(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != "cpu") continue;
    // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is
    // already inside user and nice, so the total is the first eight.
    std::uint64_t v[8];
    int got = 0;
    while (got < 8 && fields >> v[got]) ++got;
    if (got < 8) return std::nullopt;
    CpuTimes t;
    for (std::uint64_t x : v) t.total += x;
    t.steal = v[7];
    return t;
  }
  return std::nullopt;
}

std::optional<CpuTimes> read_cpu_times(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cpu_times(text.str());
}

std::uint64_t calibration_chain(std::uint64_t x, std::uint64_t steps) {
  for (std::uint64_t i = 0; i < steps; ++i) x = x * kMul + kAdd;
  return x;
}

std::uint64_t calibration_jump(std::uint64_t x, std::uint64_t steps) {
  // The affine map x -> m x + a, composed with itself by squaring: (m, a) twice is
  // (m m, m a + a).
  std::uint64_t m = kMul, a = kAdd;
  while (steps != 0) {
    if ((steps & 1) != 0) x = m * x + a;
    a = m * a + a;
    m = m * m;
    steps >>= 1;
  }
  return x;
}

HostMonitor::HostMonitor(std::string proc_stat)
    : proc_stat_(std::move(proc_stat)), start_(read_cpu_times(proc_stat_)) {}

double HostMonitor::calibrate() {
  // A start value the compiler cannot see, so that the chain is run, not folded.
  volatile std::uint64_t seed = 0x5eed0000ULL + samples_.size();
  const std::uint64_t x0 = seed;
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t got = calibration_chain(x0, kCalibrationSteps);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (got != calibration_jump(x0, kCalibrationSteps))
    throw std::runtime_error("the host calibration kernel computed a wrong value");
  samples_.push_back(seconds);
  return seconds;
}

Steadiness judge_steadiness(const std::vector<double>& samples, std::optional<double> steal_share) {
  Steadiness s;
  s.samples = static_cast<int>(samples.size());
  s.steal_share = steal_share;
  s.calibration_s = samples;
  if (!samples.empty()) {
    s.calibration_median_s = median_of(samples);
    double mean = 0;
    for (double x : samples) mean += x;
    mean /= static_cast<double>(samples.size());
    double var = 0;
    for (double x : samples) var += (x - mean) * (x - mean);
    if (samples.size() > 1) var /= static_cast<double>(samples.size() - 1);
    s.calibration_cv = mean > 0 ? std::sqrt(var) / mean : 0;
    std::vector<double> deviations;
    for (double x : samples) deviations.push_back(std::fabs(x - s.calibration_median_s));
    const double mad = median_of(deviations);
    s.calibration_robust_cv =
        s.calibration_median_s > 0 ? 1.4826 * mad / s.calibration_median_s : 0;
  }
  char buf[96];
  if (s.samples > 1 && s.calibration_robust_cv > kUnsteadyCv) {
    std::snprintf(buf, sizeof buf, "calibration robust CV %.3f > %.2f", s.calibration_robust_cv,
                  kUnsteadyCv);
    s.why = buf;
  }
  if (steal_share && *steal_share > kUnsteadySteal) {
    std::snprintf(buf, sizeof buf, "steal time %.1f %% > %.0f %%", *steal_share * 100,
                  kUnsteadySteal * 100);
    s.why += (s.why.empty() ? "" : "; ") + std::string(buf);
  }
  s.unsteady = !s.why.empty();
  return s;
}

Steadiness HostMonitor::steadiness() const {
  std::optional<double> steal;
  const std::optional<CpuTimes> now = read_cpu_times(proc_stat_);
  if (start_ && now && now->total > start_->total) {
    steal = static_cast<double>(now->steal - start_->steal) /
            static_cast<double>(now->total - start_->total);
  }
  return judge_steadiness(samples_, steal);
}

}  // namespace bench_stats

// How steady the host was over a sitting. A virtual machine shares its CPUs with tenants we
// cannot see: when one of them is busy, our vCPU is descheduled (the hypervisor counts that
// as steal time in /proc/stat) or runs slower, and a paired ratio can move with it. Two
// witnesses, neither of them part of what is compared:
//   - a fixed serial calibration kernel (a chain of 2^22 dependent multiply-adds, its answer
//     checked against a jump-ahead computation) timed between repetitions; its coefficient
//     of variation over the sitting is the host's own noise, since the kernel never changes;
//   - the steal time the kernel reports for all CPUs over the sitting, as a share of their
//     time (/proc/stat's eighth "cpu" field; absent on bare metal and some hypervisors).
// A sitting is unsteady when the kernel's robust coefficient of variation (1.4826 times the
// median absolute deviation, over the median) exceeds kUnsteadyCv or the steal share exceeds
// kUnsteadySteal (docs/MEASURING.md says how these were chosen). The robust figure judges,
// not the plain CV, which is reported too: one kernel run delayed by a descheduling moves the
// plain CV of a long sitting past 0.05 by itself, while the host stays as fast as before for
// every other run; a host that changes speed for a while moves the bulk, which the MAD sees. The
// verdicts of an unsteady sitting still hold for that sitting; the flag says the host may have
// differed between its repetitions more than a quiet one does, so its figures should not be carried
// to another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench_stats {

inline constexpr double kUnsteadyCv = 0.05;
inline constexpr double kUnsteadySteal = 0.02;

// Jiffies of all CPUs from /proc/stat's "cpu" line: total and steal. nullopt where the file
// or the field is missing.
struct CpuTimes {
  std::uint64_t total = 0;
  std::uint64_t steal = 0;
};
std::optional<CpuTimes> read_cpu_times(const std::string& path = "/proc/stat");
// Parses the text of /proc/stat (for tests).
std::optional<CpuTimes> parse_cpu_times(const std::string& text);

// The calibration kernel: `steps` dependent x = a x + c (mod 2^64) from `x0`.
std::uint64_t calibration_chain(std::uint64_t x0, std::uint64_t steps);
// The same value by squaring the affine map: O(log steps).
std::uint64_t calibration_jump(std::uint64_t x0, std::uint64_t steps);
inline constexpr std::uint64_t kCalibrationSteps = std::uint64_t{1} << 22;

struct Steadiness {
  int samples = 0;                    // calibration runs
  double calibration_median_s = 0;    // the kernel's median time
  double calibration_cv = 0;          // its standard deviation over its mean
  double calibration_robust_cv = 0;   // 1.4826 MAD / median: what judges
  std::vector<double> calibration_s;  // every run of the kernel, in order
  std::optional<double> steal_share;  // steal / total jiffies over the sitting
  bool unsteady = false;
  std::string why;  // "calibration CV 0.081 > 0.05", "" when steady
};

// Reads /proc/stat when made; calibrate() between repetitions; steadiness() at any time.
class HostMonitor {
 public:
  explicit HostMonitor(std::string proc_stat = "/proc/stat");
  // Runs the kernel once, records and returns its time in seconds. Throws std::runtime_error
  // if its answer is wrong (the machine, not the benchmark, is then broken).
  double calibrate();
  Steadiness steadiness() const;
  const std::vector<double>& samples() const { return samples_; }

 private:
  std::string proc_stat_;
  std::optional<CpuTimes> start_;
  std::vector<double> samples_;
};

// The verdict on given figures (HostMonitor::steadiness's rule, for tests).
Steadiness judge_steadiness(const std::vector<double>& samples, std::optional<double> steal_share);

}  // namespace bench_stats

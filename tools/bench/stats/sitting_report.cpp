#include "tools/bench/stats/sitting_report.hpp"

#include "workloads/common/text_format.hpp"

namespace bench_stats {

using common::format;
using common::number;
using common::quote;

std::string interval_text(const PairedSummary& s) {
  std::string text = format("%.3f [%.3f, %.3f] %-9s n=%zu", s.ratio_median, s.ci_low, s.ci_high,
                            std::string(verdict_name(s.verdict)).c_str(), s.n);
  if (s.confidence != 0.95) text += format(" @%.2f%%", s.confidence * 100);
  return text;
}

void summary_json(std::ostream& out, const PairedSummary& s) {
  out << ",\"ratio_median\":" << number(s.ratio_median) << ",\"ci_low\":" << number(s.ci_low)
      << ",\"ci_high\":" << number(s.ci_high) << ",\"confidence\":" << number(s.confidence)
      << ",\"verdict\":" << quote(std::string(verdict_name(s.verdict))) << ",\"n\":" << s.n;
}

std::string sitting_line(const SittingInfo& s) {
  return "sitting: " + s.date_utc + ", commit " + s.commit + ", " + s.compiler + " " + s.flags +
         ", " + s.cpu_model + ", kernel " + s.kernel;
}

std::string host_line(const Steadiness& h) {
  std::string line =
      format("host: calibration kernel %.2f ms median, robust CV %.3f (CV %.3f) over %d runs",
             h.calibration_median_s * 1e3, h.calibration_robust_cv, h.calibration_cv, h.samples);
  line += h.steal_share ? format(", steal time %.2f %%", *h.steal_share * 100)
                        : std::string(", steal time not reported");
  if (h.unsteady) return "HOST UNSTEADY (" + h.why + "): " + line;
  return line + " (steady)";
}

void host_json(std::ostream& out, const Steadiness& h) {
  out << "\"host\":{\"calibration_samples\":" << h.samples
      << ",\"calibration_median_s\":" << number(h.calibration_median_s)
      << ",\"calibration_cv\":" << number(h.calibration_cv)
      << ",\"calibration_robust_cv\":" << number(h.calibration_robust_cv)
      << ",\"steal_share\":" << (h.steal_share ? number(*h.steal_share) : "null")
      << ",\"cv_threshold\":" << number(kUnsteadyCv)
      << ",\"steal_threshold\":" << number(kUnsteadySteal)
      << ",\"why\":" << (h.unsteady ? quote(h.why) : "null") << ",\"calibration_s\":[";
  for (std::size_t i = 0; i < h.calibration_s.size(); ++i)
    out << (i ? "," : "") << number(h.calibration_s[i]);
  out << "]}"
      << ",\"host_unsteady\":" << (h.unsteady ? "true" : "false");
}

std::string verdict_counts(const std::vector<PairedSummary>& summaries) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const PairedSummary& s : summaries) ++counts[static_cast<int>(s.verdict)];
  const std::size_t total = summaries.size();
  const std::size_t undecided = counts[static_cast<int>(Verdict::kUndecided)];
  return format("pairs: %zu; %zu decided (%zu ahead, %zu level, %zu behind), %zu undecided", total,
                total - undecided, counts[static_cast<int>(Verdict::kAhead)],
                counts[static_cast<int>(Verdict::kLevel)],
                counts[static_cast<int>(Verdict::kBehind)], undecided);
}

}  // namespace bench_stats

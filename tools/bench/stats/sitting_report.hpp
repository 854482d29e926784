// How every benchmark document prints a claim and its sitting (docs/MEASURING.md): a paired
// summary as "0.912 [0.874, 0.950] ahead n=12" and as JSON members, the sitting's header line,
// the host's steadiness as a line (or a warning) and as JSON members.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/sitting_info.hpp"

namespace bench_stats {

// "0.912 [0.874, 0.950] ahead     n=12", with " @99.17%" where the confidence is not 95 %.
std::string interval_text(const PairedSummary& s);

// ,"ratio_median":…,"ci_low":…,"ci_high":…,"confidence":…,"verdict":"…","n":…
void summary_json(std::ostream& out, const PairedSummary& s);

// "sitting: 2026-12-07T12:15:25Z, commit ded80cb…, GNU 12.2.0 -O3 -DNDEBUG, AMD EPYC, kernel …"
std::string sitting_line(const SittingInfo& s);

// "host: calibration kernel 4.61 ms median, CV 0.004 over 6 runs, steal time 0.00 % (steady)",
// or the same behind "HOST UNSTEADY (why): ".
std::string host_line(const Steadiness& h);

// "host":{…},"host_unsteady":true|false
void host_json(std::ostream& out, const Steadiness& h);

// "pairs: 48; 40 decided (12 ahead, 20 level, 8 behind), 8 undecided"
std::string verdict_counts(const std::vector<PairedSummary>& summaries);

}  // namespace bench_stats

#include "tools/dist/profile_report.hpp"

#include <cstdio>

#include "workloads/common/text_format.hpp"

namespace dist {
namespace {

using common::format;
using common::number;

std::vector<double> all_of(const std::vector<RankProfile>& ranks,
                           std::vector<double> RankProfile::*field) {
  std::vector<double> all;
  for (const RankProfile& r : ranks) all.insert(all.end(), (r.*field).begin(), (r.*field).end());
  return all;
}

struct Spread {
  double median_us;
  double p90_us;
  std::size_t count;
};
Spread spread(const std::vector<double>& seconds) {
  return {quantile(seconds, 0.5) * 1e6, quantile(seconds, 0.9) * 1e6, seconds.size()};
}

double share(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

std::string spread_json(const Spread& s) {
  return "{\"median\":" + number(s.median_us) + ",\"p90\":" + number(s.p90_us) +
         ",\"count\":" + std::to_string(s.count) + "}";
}

}  // namespace

std::string profile_table(const std::vector<RankProfile>& ranks) {
  std::string t = format("%5s %12s %6s %6s %6s %6s %9s %8s %8s %8s %8s %11s %11s %8s\n", "rank",
                         "nodes", "busy%", "serve%", "steal%", "idle%", "requests", "failed",
                         "served", "chunks>", "chunks<", "bytes>", "bytes<", "polls");
  for (std::size_t q = 0; q < ranks.size(); ++q) {
    const RankProfile& r = ranks[q];
    t += format(
        "%5zu %12llu %6.1f %6.1f %6.1f %6.1f %9llu %8llu %8llu %8llu %8llu %11llu %11llu %8llu\n",
        q, static_cast<unsigned long long>(r.nodes), share(r.busy_s, r.seconds),
        share(r.serve_s, r.seconds), share(r.steal_s, r.seconds), share(r.idle_s, r.seconds),
        static_cast<unsigned long long>(r.requests_sent),
        static_cast<unsigned long long>(r.failed_steals),
        static_cast<unsigned long long>(r.requests_served),
        static_cast<unsigned long long>(r.chunks_sent),
        static_cast<unsigned long long>(r.chunks_received),
        static_cast<unsigned long long>(r.bytes_sent),
        static_cast<unsigned long long>(r.bytes_received),
        static_cast<unsigned long long>(r.polls));
  }
  return t;
}

std::string latency_line(const std::vector<RankProfile>& ranks) {
  const Spread rt = spread(all_of(ranks, &RankProfile::round_trips_s));
  const Spread tr = spread(all_of(ranks, &RankProfile::transfers_s));
  return format(
      "request round trip: median %.1f us, p90 %.1f us (%zu answered); chunk transfer: median "
      "%.1f us, p90 %.1f us (%zu messages); last token round %.1f us\n",
      rt.median_us, rt.p90_us, rt.count, tr.median_us, tr.p90_us, tr.count,
      ranks.empty() ? 0.0 : ranks[0].last_token_round_s * 1e6);
}

std::string profile_json_members(const std::vector<RankProfile>& ranks) {
  std::string j = "\"ranks\":[";
  for (std::size_t q = 0; q < ranks.size(); ++q) {
    const RankProfile& r = ranks[q];
    const Spread rt = spread(r.round_trips_s);
    const Spread tr = spread(r.transfers_s);
    j += q ? ",{" : "{";
    j += "\"rank\":" + std::to_string(q) + ",\"nodes\":" + std::to_string(r.nodes) +
         ",\"seconds\":" + number(r.seconds) +
         ",\"busy\":" + number(share(r.busy_s, r.seconds) / 100) +
         ",\"serve\":" + number(share(r.serve_s, r.seconds) / 100) +
         ",\"steal\":" + number(share(r.steal_s, r.seconds) / 100) +
         ",\"idle\":" + number(share(r.idle_s, r.seconds) / 100) +
         ",\"requests_sent\":" + std::to_string(r.requests_sent) +
         ",\"failed_steals\":" + std::to_string(r.failed_steals) +
         ",\"requests_served\":" + std::to_string(r.requests_served) +
         ",\"chunks_sent\":" + std::to_string(r.chunks_sent) +
         ",\"chunks_received\":" + std::to_string(r.chunks_received) +
         ",\"bytes_sent\":" + std::to_string(r.bytes_sent) +
         ",\"bytes_received\":" + std::to_string(r.bytes_received) +
         ",\"polls\":" + std::to_string(r.polls) +
         ",\"token_rounds\":" + std::to_string(r.token_rounds) +
         ",\"round_trip_us\":" + spread_json(rt) + ",\"transfer_us\":" + spread_json(tr) + "}";
  }
  j += "],\"round_trip_us\":" + spread_json(spread(all_of(ranks, &RankProfile::round_trips_s)));
  j += ",\"transfer_us\":" + spread_json(spread(all_of(ranks, &RankProfile::transfers_s)));
  j += ",\"last_token_round_us\":" + number(ranks.empty() ? 0 : ranks[0].last_token_round_s * 1e6);
  return j;
}

}  // namespace dist

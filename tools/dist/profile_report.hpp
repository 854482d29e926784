// Rank profiles (profile.hpp) for people and for programs: a table with a row per rank, a
// line of request round trip and chunk transfer times, and the same as JSON members.
#pragma once

#include <string>
#include <vector>

#include "tools/dist/profile.hpp"

namespace dist {

// A row per rank: nodes, the four time shares in percent, and the exchange counters.
std::string profile_table(const std::vector<RankProfile>& ranks);

// "request round trip: median 12.3 us, p90 45.6 us (789 answered); chunk transfer: ...;
// last token round: ...".
std::string latency_line(const std::vector<RankProfile>& ranks);

// `"ranks":[{...},...],"round_trip_us":{...},"transfer_us":{...},"last_token_round_us":N` (no
// braces around): JSON
// members to put in an object.
std::string profile_json_members(const std::vector<RankProfile>& ranks);

}  // namespace dist

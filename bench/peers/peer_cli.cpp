#include "peers/peer_cli.hpp"

#include <charconv>
#include <cstdio>

namespace peers {
namespace {

int parse_positive(std::string_view flag, std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1)
    throw workloads::SizeError(std::string(flag) + ": '" + std::string(text) +
                               "' is not a positive integer");
  return value;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

PeerOptions parse_peer_args(std::span<const std::string_view> args) {
  PeerOptions options;
  bool have_workload = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view flag = args[i];
    if (flag == "--list") {
      options.list = true;
      continue;
    }
    if (flag != "--workload" && flag != "--workers" && flag != "--repeat")
      throw workloads::SizeError(std::string(flag) + ": unknown option");
    if (i + 1 == args.size()) throw workloads::SizeError(std::string(flag) + ": needs a value");
    const std::string_view value = args[++i];
    if (flag == "--workload") {
      options.spec = workloads::parse_spec(value);
      have_workload = true;
    } else if (flag == "--workers") {
      options.workers = parse_positive(flag, value);
    } else {
      options.repeat = parse_positive(flag, value);
    }
  }
  if (options.list) return options;
  if (!have_workload) throw workloads::SizeError("--workload: is required");
  if (options.workers == 0) throw workloads::SizeError("--workers: is required");
  return options;
}

std::string outcome_line(std::string_view peer, const PeerOptions& options,
                         const workloads::Outcome& outcome) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.9f", outcome.seconds);
  std::string line = "{\"peer\":" + json_string(peer) +
                     ",\"workload\":" + json_string(options.spec.text()) +
                     ",\"workers\":" + std::to_string(options.workers) + ",\"seconds\":" + seconds +
                     ",\"result\":" + json_string(outcome.result) +
                     ",\"verified\":" + (outcome.error.empty() ? "true" : "false");
  if (!outcome.error.empty()) line += ",\"error\":" + json_string(outcome.error);
  return line + "}";
}

void print_workloads() {
  for (const workloads::WorkloadInfo& info : workloads::workload_list())
    std::printf("%.*s %.*s\n", static_cast<int>(info.name.size()), info.name.data(),
                static_cast<int>(info.default_size.size()), info.default_size.data());
}

}  // namespace peers

// weft-idle-bench: what idling costs. For each worker count, (1) the wake-up latency of a
// pool that sat idle long enough for every worker to park: from the root's spawn to the
// start of the task on another worker (and from run() to the root's start), and (2) the CPU
// the idle workers burn while the root runs serial code, in percent of one core. Every
// sample is verified (idle_probe.hpp). Exit codes: 0 done, 1 a failed check or an unwritable
// JSON file, 2 a bad argument or WEFT_* variable.
//
// The worker counts are the variants of randomized blocks (docs/MEASURING.md): each
// repetition takes one wake sample and one serial sample of every worker count, in an order
// shuffled from --seed (drawn at random and printed when not given), so that a drift of the
// host falls on every count alike; the host's calibration kernel runs between repetitions and
// the output ends with its steadiness. Each repetition makes a fresh Runtime per worker count
// and ends it before the next, so that while the process's CPU time is read only that pool's
// threads exist. Each median is printed with a 95 % percentile bootstrap interval (the
// medians of 10,000 resamples, their 2.5 % and 97.5 % quantiles by the inverted empirical
// distribution function; bench_stats::bootstrap_medians and inverted_cdf_quantile).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#include <weft/weft.hpp>

#include "tools/bench/idle/idle_probe.hpp"
#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "tools/bench/stats/sitting_report.hpp"
#include "workloads/common/flags.hpp"
#include "workloads/common/text_format.hpp"

namespace {

using common::format;
using common::number;

struct Options {
  std::vector<unsigned> workers{2, 8, 32};
  int repeat = 7;
  int idle_ms = 150;
  int serial_ms = 400;
  std::string json;
  bool help = false;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

using common::UsageError;

// The flags, parsed into `o`; the table also writes --help's option list.
common::FlagTable flag_table(Options& o) {
  auto milliseconds = [](std::string_view flag, int& out) {
    return [flag, &out](std::string_view v) {
      out = static_cast<int>(common::parse_integer(common::argument(flag, v), v, 1, 60000));
    };
  };
  return common::FlagTable({
      {"--workers", "N,...", "worker counts, each at least 2 (default 2,8,32)",
       [&o](std::string_view v) {
         o.workers.clear();
         for (std::string_view w : common::split_list("--workers", v)) {
           const std::string item = common::argument("--workers", w);
           o.workers.push_back(static_cast<unsigned>(common::parse_integer(item, w, 2, 1024)));
         }
       }},
      {"--repeat", "R", "samples of each kind per worker count (default 7)",
       [&o](std::string_view v) {
         o.repeat =
             static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, 1000));
       }},
      {"--idle-ms", "MS", "how long the pool sits idle before a wake sample (default 150)",
       milliseconds("--idle-ms", o.idle_ms)},
      {"--serial-ms", "MS", "how long an idle sample's root computes serially (default 400)",
       milliseconds("--serial-ms", o.serial_ms)},
      {"--seed", "S", "the order's seed (default: random, printed)",
       [&o](std::string_view v) {
         o.seed = common::parse_u64(common::argument("--seed", v), v);
         o.seed_given = true;
       }},
      {"--json", "FILE", "every sample, the intervals, the order, the sitting and the host",
       [&o](std::string_view v) {
         if (v.empty()) throw UsageError("--json", "empty file name");
         o.json = v;
       }},
  });
}

Options parse(const std::vector<std::string_view>& args) {
  Options o;
  o.help = !flag_table(o).parse(args);
  return o;
}

const char kHelpHead[] =
    "usage: weft-idle-bench [--workers 2,8,32] [--repeat 7] [--idle-ms 150] [--serial-ms 400]\n"
    "                       [--seed S] [--json FILE]\n"
    "\n";
const char kHelpBody[] =
    "\n"
    "For each worker count (at least 2), on a fresh weft::Runtime (other settings from WEFT_*):\n"
    "  wake:  --repeat times, sleep --idle-ms (every worker parks), then run a root that\n"
    "         spawns one task and spins until another worker starts it; reports the time from\n"
    "         the spawn to the task's start (median, min, max, in us) and from run() to the\n"
    "         root's start. Fails if no other worker starts the task within 1 s.\n"
    "  idle:  --repeat times, run a root that computes serially for --serial-ms with no spawn;\n"
    "         reports the CPU time of every thread but the root's meanwhile, in percent of one\n"
    "         core (per run and median), and the parks (sleeps begun) of the idle workers.\n"
    "         The loop's sum is checked against its closed form; the run must have no steals.\n"
    "Each repetition takes one sample of each kind from every worker count, in an order\n"
    "shuffled from --seed (random and printed when not given); a fresh Runtime per count and\n"
    "repetition. Medians are printed with a 95 % bootstrap interval [lo, hi]; the last line is\n"
    "the host's steadiness (HOST UNSTEADY when it was busy).\n"
    "Exit status: 0 done, 1 a failed check, 2 a bad argument.\n";

std::string help_text() {
  Options scratch;
  return kHelpHead + flag_table(scratch).options_help() + kHelpBody;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A stream, not "literal" + std::string: GCC 12's -Wrestrict misfires on those chains.
std::string json_array(const std::vector<double>& v) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? "," : "") << number(v[i]);
  out << ']';
  return out.str();
}

// The median of a sample and its 95 % percentile bootstrap interval.
struct MedianInterval {
  double median = 0, low = 0, high = 0;
};

MedianInterval median_interval(const std::vector<double>& v, std::uint64_t seed) {
  const std::vector<double> medians = bench_stats::bootstrap_medians(v, 10000, seed);
  return {bench_stats::median_of(v), bench_stats::inverted_cdf_quantile(medians, 0.025),
          bench_stats::inverted_cdf_quantile(medians, 0.975)};
}

std::string json_stats(const std::vector<double>& v, std::uint64_t seed) {
  const MedianInterval m = median_interval(v, seed);
  return format(
      "{\"median\":%s,\"ci_low\":%s,\"ci_high\":%s,\"confidence\":0.95,\"min\":%s,"
      "\"max\":%s,\"samples\":%s}",
      number(m.median).c_str(), number(m.low).c_str(), number(m.high).c_str(),
      number(*std::min_element(v.begin(), v.end())).c_str(),
      number(*std::max_element(v.begin(), v.end())).c_str(), json_array(v).c_str());
}

struct Result {
  unsigned workers = 0;
  std::vector<double> spawn_to_start_us, submit_to_root_us, idle_percent, parks;
};

// One repetition of one worker count: a wake sample, then a serial-root sample, on a fresh
// runtime.
bool measure_once(const Options& o, int repetition, Result& r) {
  weft::Config c = weft::Config::from_env();
  c.workers = r.workers;
  weft::Runtime rt(c);
  rt.run([] {});  // every worker has started and gone idle once
  const bench_idle::WakeSample w = bench_idle::wake_sample(rt, std::chrono::milliseconds(o.idle_ms),
                                                           std::chrono::milliseconds(1000));
  if (!w.error.empty()) {
    std::fprintf(stderr, "weft-idle-bench: %u workers, wake sample %d: %s\n", r.workers, repetition,
                 w.error.c_str());
    return false;
  }
  r.spawn_to_start_us.push_back(w.spawn_to_start_us);
  r.submit_to_root_us.push_back(w.submit_to_root_us);
  const bench_idle::SerialSample s =
      bench_idle::serial_sample(rt, std::chrono::milliseconds(o.serial_ms));
  if (!s.error.empty()) {
    std::fprintf(stderr, "weft-idle-bench: %u workers, serial sample %d: %s\n", r.workers,
                 repetition, s.error.c_str());
    return false;
  }
  r.idle_percent.push_back(s.others_percent);
  r.parks.push_back(static_cast<double>(s.parks));
  return true;
}

// The bootstrap seeds of result k's three figures.
std::uint64_t figure_seed(std::uint64_t seed, std::size_t k, int figure) {
  return bench_stats::derive_seed(bench_stats::derive_seed(seed, 2000), 3 * k + figure);
}

std::string interval(const std::vector<double>& v, std::uint64_t seed, const char* fmt) {
  const MedianInterval m = median_interval(v, seed);
  const std::string f = std::string(fmt) + " [" + fmt + ", " + fmt + "]";
  return format(f.c_str(), m.median, m.low, m.high);
}

void print(const Result& r, std::size_t k, std::uint64_t seed) {
  const auto& w = r.spawn_to_start_us;
  std::printf("%7u  %-26s %8.1f %8.1f  %-26s  %-23s  %5.0f   ", r.workers,
              interval(w, figure_seed(seed, k, 0), "%.1f").c_str(),
              *std::min_element(w.begin(), w.end()), *std::max_element(w.begin(), w.end()),
              interval(r.submit_to_root_us, figure_seed(seed, k, 1), "%.1f").c_str(),
              interval(r.idle_percent, figure_seed(seed, k, 2), "%.3f").c_str(), median(r.parks));
  for (double p : r.idle_percent) std::printf(" %.3f", p);
  std::printf("\n");
}

std::string to_json(const Options& o, const std::vector<Result>& results,
                    const std::vector<std::vector<std::size_t>>& orders,
                    const bench_stats::SittingInfo& sitting, const bench_stats::Steadiness& host) {
  std::ostringstream out;
  out << "{\"benchmark\":\"idle\"," << bench_stats::sitting_json_members(sitting)
      << ",\"idle_ms\":" << o.idle_ms << ",\"serial_ms\":" << o.serial_ms
      << ",\"repeat\":" << o.repeat << ",";
  bench_stats::host_json(out, host);
  out << ",\"variants\":[";
  for (std::size_t i = 0; i < results.size(); ++i) out << (i ? "," : "") << results[i].workers;
  out << "],\"order\":[";
  for (std::size_t r = 0; r < orders.size(); ++r) {
    out << (r ? "," : "") << '[';
    for (std::size_t i = 0; i < orders[r].size(); ++i) out << (i ? "," : "") << orders[r][i];
    out << ']';
  }
  out << "],\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    out << (i ? "," : "") << "{\"workers\":" << r.workers
        << ",\"spawn_to_start_us\":" << json_stats(r.spawn_to_start_us, figure_seed(o.seed, i, 0))
        << ",\"submit_to_root_us\":" << json_stats(r.submit_to_root_us, figure_seed(o.seed, i, 1))
        << ",\"idle_cpu_percent\":" << json_stats(r.idle_percent, figure_seed(o.seed, i, 2))
        << ",\"parks\":" << json_stats(r.parks, figure_seed(o.seed, i, 3)) << "}";
  }
  out << "]}\n";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(std::vector<std::string_view>(argv + 1, argv + argc));
    weft::Config::from_env();  // a bad WEFT_* variable is a usage error, before any run
  } catch (const UsageError& e) {
    std::fprintf(stderr, "weft-idle-bench: %s\n", e.what());
    return 2;
  } catch (const weft::ConfigError& e) {
    std::fprintf(stderr, "weft-idle-bench: %s\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (!o.seed_given) {
    o.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  }
  const std::vector<std::string_view> words(argv, argv + argc);
  const bench_stats::SittingInfo sitting = bench_stats::current_sitting(words, o.seed);
  std::printf("idle %d ms before each wake sample; serial root of %d ms; %d repeats; seed %llu\n",
              o.idle_ms, o.serial_ms, o.repeat, static_cast<unsigned long long>(o.seed));
  std::fflush(stdout);
  std::vector<Result> results(o.workers.size());
  for (std::size_t i = 0; i < results.size(); ++i) results[i].workers = o.workers[i];
  const std::uint64_t order_seed = bench_stats::derive_seed(o.seed, 1000);
  std::vector<std::vector<std::size_t>> orders;
  bench_stats::HostMonitor host;
  try {
    host.calibrate();
    for (int rep = 1; rep <= o.repeat; ++rep) {
      orders.push_back(
          bench_stats::block_order(results.size(), order_seed, static_cast<std::uint64_t>(rep)));
      for (const std::size_t i : orders.back()) {
        if (!measure_once(o, rep, results[i])) return 1;
      }
      host.calibrate();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-idle-bench: %s\n", e.what());
    return 1;
  }
  const bench_stats::Steadiness steadiness = host.steadiness();
  std::printf(
      "workers  spawn->start us med [95%% CI]    min      max  run->root us med [95%% CI]  "
      "idle CPU %% med [95%% CI]  parks   idle CPU %% per run\n");
  for (std::size_t k = 0; k < results.size(); ++k) print(results[k], k, o.seed);
  std::printf("%s\n%s\n", bench_stats::sitting_line(sitting).c_str(),
              bench_stats::host_line(steadiness).c_str());
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << to_json(o, results, orders, sitting, steadiness);
    out.close();
    if (!out) {
      std::fprintf(stderr, "weft-idle-bench: %s: cannot write the JSON file\n", o.json.c_str());
      return 1;
    }
  }
  return 0;
}

// weft-fib-demo: Fibonacci on every steal policy and worker count, side by side with the
// plain serial recursion. Every run is checked against the serial result.
//
//   weft-fib-demo [--n N] [--workers 1,2] [--steal one,fixed:2,fixed:20,half] [--repeat R]
//                 [--json FILE] [--only serial|weft] [--seed S]
//
// Every result is checked against fib(n) computed by iteration. --only runs one side (for
// counting instructions with callgrind); the table then lacks the ratios.
//
// Randomized blocks (docs/MEASURING.md): each of R repetitions runs every variant (serial,
// and weft per policy and worker count) once, in an order shuffled from --seed (drawn at
// random and printed when not given, so a sitting can be replayed), and the host's
// calibration kernel after it. Medians are reported; each weft variant's time over serial's
// in the same repetition is summarised as a paired ratio with a 95 % bootstrap interval and a
// verdict ("ahead": weft is faster than serial). The output ends with the host's steadiness,
// "HOST UNSTEADY (...)" when the host was too busy for the figures to be carried elsewhere.
// "ns/spawn" is the 1-worker overhead over the serial recursion divided by the number of
// spawns; "speedup" is against the same policy on 1 worker (a ratio of medians, for reading
// the table; the interval column is the claim).
//
// Exit status: 0 done; 1 a wrong result or a failure; 2 a bad argument or WEFT_* value, with
// a line "weft-fib-demo: <what is wrong>" on stderr.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#include <weft/weft.hpp>

#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "tools/bench/stats/sitting_report.hpp"
#include "workloads/common/fib_reference.hpp"
#include "workloads/common/flags.hpp"

namespace {

long serial_fib(int n) {
  if (n < 2) return n;
  return serial_fib(n - 1) + serial_fib(n - 2);
}

long fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib(n - 1); });
  long b = fib(n - 2);
  return a.join() + b;
}

using common::fib_by_iteration;

struct Options {
  int n = 35;
  std::vector<unsigned> workers{1, 2};
  std::vector<std::string> steal{"one", "fixed:2", "fixed:20", "half"};
  int repeat = 5;
  std::string json;
  bool run_serial = true;
  bool run_weft = true;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

using common::UsageError;

// The flags, parsed into `o`; the table also writes --help's option list. A steal policy
// weft rejects throws weft::ConfigError.
common::FlagTable flag_table(Options& o) {
  return common::FlagTable({
      {"--n", "N", "compute fib(N), N from 1 to 50 (default 35)",
       [&o](std::string_view v) {
         o.n = static_cast<int>(common::parse_integer(common::argument("--n", v), v, 1, 50));
       }},
      {"--workers", "W,...", "worker counts, each 1 to 4096 (default 1,2)",
       [&o](std::string_view v) {
         o.workers.clear();
         for (const std::string_view w : common::split_list("--workers", v)) {
           o.workers.push_back(static_cast<unsigned>(
               common::parse_integer(common::argument("--workers", w), w, 1, 4096)));
         }
       }},
      {"--steal", "P,...",
       "steal policies: one, half, adaptive, fixed:D\n(default one,fixed:2,fixed:20,half)",
       [&o](std::string_view v) {
         o.steal.clear();
         for (const std::string_view s : common::split_list("--steal", v)) {
           (void)weft::StealPolicy::parse(s, "--steal");
           o.steal.emplace_back(s);
         }
       }},
      {"--repeat", "R", "repetitions, 1 to 1000 (default 5)",
       [&o](std::string_view v) {
         o.repeat =
             static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, 1000));
       }},
      {"--json", "FILE", "also write the figures, the sitting and the order as JSON",
       [&o](std::string_view v) { o.json = v; }},
      {"--only", "SIDE", "run one side only, serial or weft (for callgrind; no ratios then)",
       [&o](std::string_view v) {
         if (v != "serial" && v != "weft") {
           throw UsageError(common::argument("--only", v), "expected serial or weft");
         }
         o.run_serial = v == "serial";
         o.run_weft = v == "weft";
       }},
      {"--seed", "S", "the order's seed (default: random, printed)",
       [&o](std::string_view v) {
         o.seed = common::parse_u64(common::argument("--seed", v), v);
         o.seed_given = true;
       }},
  });
}

const char kHelpHead[] =
    "usage: weft-fib-demo [--n N] [--workers 1,2] [--steal one,fixed:2,fixed:20,half]\n"
    "                     [--repeat R] [--json FILE] [--only serial|weft] [--seed S]\n"
    "\n"
    "Fibonacci on every steal policy and worker count, side by side with the plain serial\n"
    "recursion; every result is checked against fib(N) computed by iteration.\n"
    "\n";
const char kHelpBody[] =
    "\n"
    "Each repetition runs every variant (serial, and weft per policy and worker count) once, in\n"
    "an order shuffled from --seed, and the host's calibration kernel after it. The table gives\n"
    "medians; each weft time over serial's in the same repetition is a paired ratio with a\n"
    "95 % bootstrap interval and a verdict. \"ns/spawn\" is the 1-worker overhead over the\n"
    "serial recursion per spawn; \"speedup\" is against the same policy on 1 worker. The\n"
    "output ends with the host's steadiness (HOST UNSTEADY when it was busy).\n"
    "Exit status: 0 done, 1 a wrong result or a failure, 2 a bad argument or WEFT_* value.\n";

std::string help_text() {
  Options scratch;
  return kHelpHead + flag_table(scratch).options_help() + kHelpBody;
}

// Throws UsageError, or weft::ConfigError for a steal policy weft rejects.
Options parse(const std::vector<std::string_view>& args, bool& help) {
  Options o;
  help = !flag_table(o).parse(args);
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

struct Setup {
  std::string steal;
  unsigned workers;
  std::unique_ptr<weft::Runtime> rt;
  std::vector<double> times;
  weft::WorkerStats counters;  // summed over all repetitions
};

// "[a, b, c]"
std::string json_indices(const std::vector<std::size_t>& v) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? "," : "") << v[i];
  out << ']';
  return out.str();
}

// The demo's variants, serial (when run) first and then the setups in table order, and what
// the repetitions measured of them.
struct Variants {
  bool run_serial;
  std::vector<Setup> setups;
  std::vector<double> serial_times;
  std::vector<std::vector<std::size_t>> orders;  // each repetition's, by variant index

  std::size_t first_setup() const { return run_serial ? 1 : 0; }
  std::size_t count() const { return first_setup() + setups.size(); }
};

// One runtime per policy and worker count, in table order; none when weft is not run.
std::vector<Setup> make_setups(const Options& opt) {
  std::vector<Setup> setups;
  if (opt.run_weft) {
    for (const auto& s : opt.steal) {
      for (unsigned w : opt.workers) {
        weft::Config c = weft::Config::from_env();
        c.steal = weft::StealPolicy::parse(s, "--steal");
        c.workers = w;
        setups.push_back({s, w, std::make_unique<weft::Runtime>(c), {}, {}});
      }
    }
  }
  return setups;
}

// weft's spawns computing fib(n): the internal nodes of its call tree.
long spawns_for(int n) { return fib_by_iteration(n + 1) - 1; }

// Times one serial run into `times`; false (said on stderr) if its result is wrong.
bool time_serial(int n, long expected, std::vector<double>& times) {
  const auto t0 = std::chrono::steady_clock::now();
  const long got = serial_fib(n);
  times.push_back(seconds_since(t0));
  if (got != expected) {
    std::fprintf(stderr, "\nweft-fib-demo: WRONG ANSWER serial fib(%d) = %ld, expected %ld\n", n,
                 got, expected);
    return false;
  }
  return true;
}

// Times one run on `s` and adds its counters; false (said on stderr) if its result is wrong.
bool time_weft(Setup& s, int n, long expected) {
  s.rt->reset_stats();
  const auto t0 = std::chrono::steady_clock::now();
  const long got = s.rt->run([n] { return fib(n); });
  s.times.push_back(seconds_since(t0));
  if (got != expected) {
    std::fprintf(stderr,
                 "\nweft-fib-demo: WRONG ANSWER fib(%d) = %ld, expected %ld (%s, %u workers)\n", n,
                 got, expected, s.steal.c_str(), s.workers);
    return false;
  }
  s.counters += s.rt->stats().total;
  return true;
}

// Runs every variant once per repetition in the repetition's seeded order, calibrating the
// host before the first and after each; false at the first wrong result.
bool run_repetitions(const Options& opt, long expected, Variants& v,
                     bench_stats::HostMonitor& host) {
  const std::uint64_t order_seed = bench_stats::derive_seed(opt.seed, 1000);
  host.calibrate();
  for (int r = 1; r <= opt.repeat; ++r) {
    std::fprintf(stderr, "\rrepetition %d/%d ...", r, opt.repeat);
    v.orders.push_back(
        bench_stats::block_order(v.count(), order_seed, static_cast<std::uint64_t>(r)));
    for (const std::size_t i : v.orders.back()) {
      const bool right = i < v.first_setup()
                             ? time_serial(opt.n, expected, v.serial_times)
                             : time_weft(v.setups[i - v.first_setup()], opt.n, expected);
      if (!right) return false;
    }
    host.calibrate();
  }
  std::fprintf(stderr, "\r%*s\r", 40, "");
  return true;
}

// The JSON's members before the results: the sitting, the host, the variants and their orders.
void json_head(std::ostream& json, const Options& opt, const bench_stats::SittingInfo& sitting,
               const bench_stats::Steadiness& steadiness, const Variants& v) {
  json << "{\"benchmark\":\"fib\"," << bench_stats::sitting_json_members(sitting)
       << ",\"n\":" << opt.n << ",\"spawns\":" << spawns_for(opt.n) << ",\"repeat\":" << opt.repeat
       << ",";
  bench_stats::host_json(json, steadiness);
  json << ",\"variants\":[";
  if (v.run_serial) json << "\"serial\"";
  for (std::size_t i = 0; i < v.setups.size(); ++i) {
    json << (i + v.first_setup() ? "," : "") << "\"weft " << v.setups[i].steal << " "
         << v.setups[i].workers << "w\"";
  }
  json << "],\"order\":[";
  for (std::size_t r = 0; r < v.orders.size(); ++r)
    json << (r ? "," : "") << json_indices(v.orders[r]);
  json << "]";
}

// --only serial: the one line there is, and the JSON's results.
void report_serial_only(const Options& opt, long expected, const Variants& v, std::ostream& json) {
  std::printf("fib(%d) = %ld, serial only, %d repetitions, median %.4f s\n", opt.n, expected,
              opt.repeat, median(v.serial_times));
  json << ",\"serial_s\":" << median(v.serial_times) << ",\"runs\":[]}";
}

// Setup k's row of the table and its member of the JSON's "runs"; `ts` is serial's median
// time, 0 when serial was not run.
void report_setup(const Options& opt, const Variants& v, std::size_t k, double ts,
                  std::ostream& json) {
  const Setup& s = v.setups[k];
  const double t = median(s.times);
  double one_worker = 0;
  for (const auto& o : v.setups) {
    if (o.steal == s.steal && o.workers == 1) one_worker = median(o.times);
  }
  const double ns_per_spawn =
      s.workers == 1 && ts > 0 ? (t - ts) / static_cast<double>(spawns_for(opt.n)) * 1e9 : 0;
  const double speedup = one_worker > 0 ? one_worker / t : 0;
  const double reps = opt.repeat;
  const auto& c = s.counters;
  char ns_text[32] = "-";
  if (s.workers == 1 && ts > 0) std::snprintf(ns_text, sizeof ns_text, "%.2f", ns_per_spawn);
  // Each weft time over serial's of the same repetition: the pairing removes the noise a
  // repetition puts on both.
  bench_stats::PairedSummary vs_serial;
  std::string interval = "-";
  if (opt.run_serial) {
    const std::uint64_t bootstrap_seed = bench_stats::derive_seed(opt.seed, 2000);
    vs_serial = bench_stats::compare_paired(
        s.times, v.serial_times, {10000, 0.95, bench_stats::derive_seed(bootstrap_seed, k)});
    interval = bench_stats::interval_text(vs_serial);
  }
  std::printf("%-9s %7u %9.4f %8.2f %9s %9.2f  %-40s %9.0f %10.2f %11.0f %9.0f %7.0f\n",
              s.steal.c_str(), s.workers, t, ts > 0 ? t / ts : 0.0, ns_text, speedup,
              interval.c_str(), c.steals / reps, c.tasks_per_steal(), c.stolen_joins / reps,
              c.leapfrogs / reps, c.parks / reps);
  json << (k ? "," : "") << "{\"steal\":\"" << s.steal << "\",\"workers\":" << s.workers
       << ",\"median_s\":" << t << ",\"ratio_to_serial\":" << (ts > 0 ? t / ts : 0.0)
       << ",\"speedup_vs_1_worker\":" << speedup;
  if (s.workers == 1 && ts > 0) json << ",\"ns_per_spawn\":" << ns_per_spawn;
  if (opt.run_serial) {
    json << ",\"vs_serial\":{\"a\":\"weft\",\"b\":\"serial\"";
    bench_stats::summary_json(json, vs_serial);
    json << "}";
  }
  json << ",\"counters_per_run\":{\"steals\":" << c.steals / reps
       << ",\"tasks_stolen\":" << c.tasks_stolen / reps
       << ",\"steal_attempts\":" << c.steal_attempts / reps
       << ",\"stolen_joins\":" << c.stolen_joins / reps << ",\"leapfrogs\":" << c.leapfrogs / reps
       << ",\"parks\":" << c.parks / reps << "}}";
}

// The table of the weft setups, against serial when it was run, and the JSON's results.
void report_weft(const Options& opt, long expected, const Variants& v, std::ostream& json) {
  const double ts = opt.run_serial ? median(v.serial_times) : 0.0;
  std::printf("fib(%d) = %ld, %ld spawns per run, %d repetitions, medians; serial %.4f s\n", opt.n,
              expected, spawns_for(opt.n), opt.repeat, ts);
  std::printf("%-9s %7s %9s %8s %9s %9s  %-40s %9s %9s %11s %9s %7s\n", "steal", "workers",
              "time_s", "x_serial", "ns/spawn", "speedup", "weft/serial [95% CI] verdict", "steals",
              "tasks/stl", "stolen_join", "leapfrog", "parks");
  json << ",\"serial_s\":" << ts << ",\"runs\":[";
  for (std::size_t k = 0; k < v.setups.size(); ++k) report_setup(opt, v, k, ts, json);
  json << "]}";
  std::printf(
      "(speedup: against the same policy on 1 worker, a ratio of medians; weft/serial: the "
      "median of each repetition's weft time over its serial time, below 1 when weft is "
      "faster, with its bootstrap interval; counters: per run)\n");
}

// False (said on stderr) if the file cannot be written.
bool write_json(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text << '\n';
  if (!out) {
    std::fprintf(stderr, "weft-fib-demo: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

// The demo proper; main reports what it throws.
int run_demo(const Options& opt, const std::vector<std::string_view>& words) {
  Variants variants{opt.run_serial, make_setups(opt), {}, {}};
  const bench_stats::SittingInfo sitting = bench_stats::current_sitting(words, opt.seed);
  const long expected = fib_by_iteration(opt.n);
  std::printf("seed %llu (--seed %llu replays this order)\n",
              static_cast<unsigned long long>(opt.seed), static_cast<unsigned long long>(opt.seed));
  std::fflush(stdout);
  bench_stats::HostMonitor host;
  if (!run_repetitions(opt, expected, variants, host)) return 1;
  const bench_stats::Steadiness steadiness = host.steadiness();

  std::ostringstream json;
  json_head(json, opt, sitting, steadiness, variants);
  if (!opt.run_weft) {
    report_serial_only(opt, expected, variants, json);
  } else {
    report_weft(opt, expected, variants, json);
  }
  std::printf("%s\n%s\n", bench_stats::sitting_line(sitting).c_str(),
              bench_stats::host_line(steadiness).c_str());
  if (!opt.json.empty() && !write_json(opt.json, json.str())) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool help = false;
  try {
    opt = parse(std::vector<std::string_view>(argv + 1, argv + argc), help);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "weft-fib-demo: %s\n", e.what());
    return 2;
  } catch (const weft::ConfigError& e) {
    std::fprintf(stderr, "weft-fib-demo: %s\n", e.what());
    return 2;
  }
  if (help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (!opt.seed_given) {
    opt.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  }
  const std::vector<std::string_view> words(argv, argv + argc);
  // A bad WEFT_* value (Config::from_env) is a usage error, reported as one, not a crash.
  try {
    return run_demo(opt, words);
  } catch (const weft::ConfigError& e) {
    std::fprintf(stderr, "weft-fib-demo: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-fib-demo: %s\n", e.what());
    return 1;
  }
}

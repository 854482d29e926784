// weft-lace-fib: fib(n) on Lace and on weft's fork-join forms, in randomized blocks.
//
//   weft-lace-fib [--n N] [--workers W] [--repeat R] [--json FILE] [--only FORM] [--seed S]
//
// Forms: serial (the plain recursion), lace (SPAWN/CALL/SYNC), spawn (the README's
// spawn/join), noexcept (the same function declared noexcept), invoke (weft::invoke).
// Randomized blocks (docs/MEASURING.md): each repetition runs every form once, in an order
// shuffled from --seed (drawn at random and printed when not given), so that neither a place
// in the round nor a drift of the machine favours a form; the host's calibration kernel runs
// between repetitions and the output ends with its steadiness. The table gives medians, and
// each form's time over Lace's and over serial's of the same repetition as a paired ratio
// with a 95 % bootstrap interval and a verdict ("ahead": the form is faster).
// Every result is checked against fib(n) computed by iteration. --only runs one form (for
// counting instructions with callgrind). Lace's workers are suspended between its runs and
// weft's park between theirs, so neither runtime's idle threads take the other's cores.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
#include <weft/weft.hpp>

#include "fib_lace.h"
#include "tools/bench/stats/host_steadiness.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sitting_info.hpp"
#include "tools/bench/stats/sitting_report.hpp"
#include "workloads/common/fib_reference.hpp"

namespace {

long serial_fib(int n) {
  if (n < 2) return n;
  return serial_fib(n - 1) + serial_fib(n - 2);
}

long spawn_fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return spawn_fib(n - 1); });
  const long b = spawn_fib(n - 2);
  return a.join() + b;
}

long noexcept_fib(int n) noexcept {
  if (n < 2) return n;
  auto a = weft::spawn([n]() noexcept { return noexcept_fib(n - 1); });
  const long b = noexcept_fib(n - 2);
  return a.join() + b;
}

long invoke_fib(int n) {
  if (n < 2) return n;
  const auto [a, b] =
      weft::invoke([n] { return invoke_fib(n - 1); }, [n] { return invoke_fib(n - 2); });
  return a + b;
}

// The outermost call of a timed run, out of line so that callgrind can count what runs
// inside it and nothing else (scripts/bench_lace.sh: --toggle-collect='*fib_root(*'; Lace's
// run enters lace_fib_WRAP the same way).
[[gnu::noinline]] long serial_fib_root(int n) { return serial_fib(n); }
[[gnu::noinline]] long weft_fib_root(long (*fib)(int), int n) { return fib(n); }

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "weft-lace-fib: %s\nusage: weft-lace-fib [--n N] [--workers W] [--repeat R] "
               "[--json FILE] [--only serial|lace|spawn|noexcept|invoke] [--seed S]\n",
               message.c_str());
  std::exit(2);
}

long parse_int(const std::string& flag, const std::string& value, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < lo || v > hi) {
    usage_error(flag + " \"" + value + "\": expected a whole number from " + std::to_string(lo) +
                " to " + std::to_string(hi));
  }
  return v;
}

struct Form {
  const char* name;
  std::function<long(int)> run;  // one timed run of fib(n)
  std::vector<double> times;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 37;
  unsigned workers = 1;
  int repeat = 7;
  std::string json_path;
  std::string only;
  std::uint64_t seed = 0;
  bool seed_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") usage_error("help");
    if (i + 1 >= argc) usage_error(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--n") {
      n = static_cast<int>(parse_int(flag, value, 1, 50));
    } else if (flag == "--workers") {
      workers = static_cast<unsigned>(parse_int(flag, value, 1, 4096));
    } else if (flag == "--repeat") {
      repeat = static_cast<int>(parse_int(flag, value, 1, 1000));
    } else if (flag == "--json") {
      json_path = value;
    } else if (flag == "--only") {
      only = value;
    } else if (flag == "--seed") {
      char* end = nullptr;
      errno = 0;
      seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || *end != '\0' || errno != 0)
        usage_error("--seed \"" + value + "\": expected an unsigned 64-bit number");
      seed_given = true;
    } else {
      usage_error("unknown option " + flag);
    }
  }

  // Each runtime is started only if a form needs it: under callgrind (--only) the other's
  // idle threads would add a varying count to the one measured.
  std::optional<weft::Runtime> rt;
  bool lace_started = false;
  auto weft_run = [&](long (*fib)(int), int k) {
    if (!rt) {
      weft::Config config = weft::Config::from_env();
      config.workers = workers;
      rt.emplace(config);
    }
    return rt->run([fib, k] { return weft_fib_root(fib, k); });
  };

  std::vector<Form> forms;
  forms.push_back({"serial", [](int k) { return serial_fib_root(k); }, {}});
  forms.push_back({"lace",
                   [&](int k) {
                     if (!lace_started) lace_fib_start(workers);
                     lace_started = true;
                     return lace_fib_run(k);
                   },
                   {}});
  forms.push_back({"spawn", [&](int k) { return weft_run(spawn_fib, k); }, {}});
  forms.push_back({"noexcept", [&](int k) { return weft_run(noexcept_fib, k); }, {}});
  forms.push_back({"invoke", [&](int k) { return weft_run(invoke_fib, k); }, {}});
  if (!only.empty()) {
    std::erase_if(forms, [&](const Form& f) { return only != f.name; });
    if (forms.empty()) {
      usage_error("--only \"" + only + "\": expected serial, lace, spawn, noexcept or invoke");
    }
  }
  // Start both runtimes before the first timed run.
  for (Form& f : forms) {
    if (std::string(f.name) != "serial" && f.run(2) != 1) {
      std::fprintf(stderr, "weft-lace-fib: WRONG ANSWER %s fib(2)\n", f.name);
      return 1;
    }
  }

  if (!seed_given) seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  const std::vector<std::string_view> words(argv, argv + argc);
  const bench_stats::SittingInfo sitting = bench_stats::current_sitting(words, seed);
  std::printf("seed %llu (--seed %llu replays this order)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);

  const long expected = common::fib_by_iteration(n);
  const std::uint64_t order_seed = bench_stats::derive_seed(seed, 1000);
  const std::uint64_t bootstrap_seed = bench_stats::derive_seed(seed, 2000);
  std::vector<std::vector<std::size_t>> orders;
  bench_stats::HostMonitor host;
  host.calibrate();
  for (int r = 1; r <= repeat; ++r) {
    std::fprintf(stderr, "\rrepetition %d/%d ...", r, repeat);
    orders.push_back(
        bench_stats::block_order(forms.size(), order_seed, static_cast<std::uint64_t>(r)));
    for (const std::size_t i : orders.back()) {
      Form& f = forms[i];
      const auto t0 = std::chrono::steady_clock::now();
      const long got = f.run(n);
      f.times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (got != expected) {
        std::fprintf(stderr, "\nweft-lace-fib: WRONG ANSWER %s fib(%d) = %ld, expected %ld\n",
                     f.name, n, got, expected);
        return 1;
      }
    }
    host.calibrate();
  }
  std::fprintf(stderr, "\r%*s\r", 40, "");
  if (lace_started) lace_fib_stop();
  const bench_stats::Steadiness steadiness = host.steadiness();

  const Form* serial = nullptr;
  const Form* lace = nullptr;
  for (const Form& f : forms) {
    if (std::string(f.name) == "serial") serial = &f;
    if (std::string(f.name) == "lace") lace = &f;
  }
  const double serial_s = serial ? median(serial->times) : 0.0;
  const double lace_s = lace ? median(lace->times) : 0.0;
  std::printf("fib(%d) = %ld, %u worker%s, %d repetitions in randomized blocks, medians\n", n,
              expected, workers, workers == 1 ? "" : "s", repeat);
  std::printf("%-9s %9s %8s %8s  %-40s %-40s\n", "form", "time_s", "x_serial", "x_lace",
              "form/lace [95% CI] verdict", "form/serial [95% CI] verdict");
  std::ostringstream json;
  json << "{\"benchmark\":\"fib-lace\"," << bench_stats::sitting_json_members(sitting)
       << ",\"n\":" << n << ",\"workers\":" << workers << ",\"repeat\":" << repeat << ",";
  bench_stats::host_json(json, steadiness);
  json << ",\"variants\":[";
  for (std::size_t i = 0; i < forms.size(); ++i)
    json << (i ? "," : "") << '"' << forms[i].name << '"';
  json << "],\"order\":[";
  for (std::size_t r = 0; r < orders.size(); ++r) {
    json << (r ? "," : "") << '[';
    for (std::size_t i = 0; i < orders[r].size(); ++i) json << (i ? "," : "") << orders[r][i];
    json << ']';
  }
  json << "],\"forms\":[";
  for (std::size_t k = 0; k < forms.size(); ++k) {
    const Form& f = forms[k];
    const double t = median(f.times);
    // Each form's times over the reference's of the same repetitions; the stream of the
    // bootstrap seed is the pair's place in the table, so a seed replays every interval.
    auto pair = [&](const Form* against, std::uint64_t stream) {
      std::optional<bench_stats::PairedSummary> s;
      if (against && against != &f) {
        s = bench_stats::compare_paired(
            f.times, against->times,
            {10000, 0.95, bench_stats::derive_seed(bootstrap_seed, stream)});
      }
      return s;
    };
    const auto vs_lace = pair(lace, 2 * k);
    const auto vs_serial = pair(serial, 2 * k + 1);
    char x_serial[32] = "-", x_lace[32] = "-";
    if (serial_s > 0) std::snprintf(x_serial, sizeof x_serial, "%.3f", t / serial_s);
    if (lace_s > 0) std::snprintf(x_lace, sizeof x_lace, "%.3f", t / lace_s);
    std::printf("%-9s %9.4f %8s %8s  %-40s %-40s\n", f.name, t, x_serial, x_lace,
                vs_lace ? bench_stats::interval_text(*vs_lace).c_str() : "-",
                vs_serial ? bench_stats::interval_text(*vs_serial).c_str() : "-");
    json << (k ? "," : "") << "{\"form\":\"" << f.name << "\",\"median_s\":" << t
         << ",\"x_serial\":";
    if (serial_s > 0)
      json << t / serial_s;
    else
      json << "null";
    json << ",\"x_lace\":";
    if (lace_s > 0)
      json << t / lace_s;
    else
      json << "null";
    if (vs_lace) {
      json << ",\"vs_lace\":{\"a\":\"" << f.name << "\",\"b\":\"lace\"";
      bench_stats::summary_json(json, *vs_lace);
      json << "}";
    }
    if (vs_serial) {
      json << ",\"vs_serial\":{\"a\":\"" << f.name << "\",\"b\":\"serial\"";
      bench_stats::summary_json(json, *vs_serial);
      json << "}";
    }
    json << "}";
  }
  json << "]}\n";
  std::printf("%s\n%s\n", bench_stats::sitting_line(sitting).c_str(),
              bench_stats::host_line(steadiness).c_str());
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << json.str();
    if (!out) {
      std::fprintf(stderr, "weft-lace-fib: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  return 0;
}

// weft-lace-fib: fib(n) on Lace and on weft's fork-join forms, in randomized blocks.
//
//   weft-lace-fib [--n N] [--workers W] [--repeat R] [--json FILE] [--only FORM] [--seed S]
//   (--help lists them: each flag is a row of flag_table())
//
// Forms: serial (the plain recursion), lace (SPAWN/CALL/SYNC), spawn (the README's
// spawn/join), noexcept (the same function declared noexcept), invoke (weft::invoke), ctx
// (weft::invoke with the explicit context, weft/context.hpp).
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
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
#include <weft/context.hpp>
#include <weft/weft.hpp>

#include "fib_lace.h"
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

// weft::invoke with the explicit context (weft/context.hpp): the top of the task stack
// passed to each task in a register, as Lace passes its head.
long ctx_fib(weft::Ctx c, int n) {
  if (n < 2) return n;
  const auto [a, b] = weft::invoke(
      c, [n](weft::Ctx c) { return ctx_fib(c, n - 1); },
      [n](weft::Ctx c) { return ctx_fib(c, n - 2); });
  return a + b;
}
long ctx_fib_entry(int n) { return ctx_fib(weft::context(), n); }

// The outermost call of a timed run, out of line so that callgrind can count what runs
// inside it and nothing else (scripts/bench_lace.sh: --toggle-collect='*fib_root(*'; Lace's
// run enters lace_fib_WRAP the same way).
[[gnu::noinline]] long serial_fib_root(int n) { return serial_fib(n); }
[[gnu::noinline]] long weft_fib_root(long (*fib)(int), int n) { return fib(n); }

// The forms, in the table's order; --only names one of them.
constexpr std::string_view kForms[] = {"serial", "lace", "spawn", "noexcept", "invoke", "ctx"};

struct Options {
  int n = 37;
  unsigned workers = 1;
  int repeat = 7;
  std::string json_path;  // "": no JSON
  std::string only;       // "": every form
  std::uint64_t seed = 0;
  bool seed_given = false;
  bool help = false;
};

using common::UsageError;

// The flags, parsed into `o`; the table also writes --help's option list.
common::FlagTable flag_table(Options& o) {
  return common::FlagTable({
      {"--n", "N", "compute fib(N), N from 1 to 50 (default 37)",
       [&o](std::string_view v) {
         o.n = static_cast<int>(common::parse_integer(common::argument("--n", v), v, 1, 50));
       }},
      {"--workers", "W", "workers of each runtime, 1 to 4096 (default 1)",
       [&o](std::string_view v) {
         o.workers = static_cast<unsigned>(
             common::parse_integer(common::argument("--workers", v), v, 1, 4096));
       }},
      {"--repeat", "R", "repetitions, 1 to 1000 (default 7)",
       [&o](std::string_view v) {
         o.repeat =
             static_cast<int>(common::parse_integer(common::argument("--repeat", v), v, 1, 1000));
       }},
      {"--json", "FILE", "also write the figures, the sitting and the order as JSON",
       [&o](std::string_view v) { o.json_path = v; }},
      {"--only", "FORM",
       "run one form only: serial, lace, spawn, noexcept, invoke or ctx\n(for counting its "
       "instructions with callgrind)",
       [&o](std::string_view v) {
         if (std::find(std::begin(kForms), std::end(kForms), v) == std::end(kForms)) {
           throw UsageError(common::argument("--only", v),
                            "expected serial, lace, spawn, noexcept, invoke or ctx");
         }
         o.only = v;
       }},
      {"--seed", "S", "the order's seed (default: random, printed)",
       [&o](std::string_view v) {
         o.seed = common::parse_u64(common::argument("--seed", v), v);
         o.seed_given = true;
       }},
  });
}

const char kHelpHead[] =
    "usage: weft-lace-fib [--n N] [--workers W] [--repeat R] [--json FILE]\n"
    "                     [--only serial|lace|spawn|noexcept|invoke|ctx] [--seed S]\n"
    "\n"
    "fib(N) on Lace and on weft's fork-join forms, in randomized blocks; every result is\n"
    "checked against fib(N) computed by iteration.\n"
    "\n";
const char kHelpBody[] =
    "\n"
    "Forms: serial (the plain recursion), lace (SPAWN/CALL/SYNC), spawn (the README's\n"
    "spawn/join), noexcept (the same function declared noexcept), invoke (weft::invoke),\n"
    "ctx (weft::invoke with the explicit context, weft/context.hpp).\n"
    "Each repetition runs every form once, in an order shuffled from --seed, and the host's\n"
    "calibration kernel after it. The table gives medians, and each form's time over Lace's\n"
    "and over serial's of the same repetition as a paired ratio with a 95 % bootstrap interval\n"
    "and a verdict (\"ahead\": the form is faster); the last line is the host's steadiness.\n"
    "Exit status: 0 done, 1 a wrong result or an unwritable JSON file, 2 a bad argument.\n";

std::string help_text() {
  Options scratch;
  return kHelpHead + flag_table(scratch).options_help() + kHelpBody;
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

// Lace's workers and weft's runtime, each started only when a form first needs it: under
// callgrind (--only) the other's idle threads would add a varying count to the one measured.
class Runtimes {
 public:
  explicit Runtimes(unsigned workers) : workers_(workers) {}
  Runtimes(const Runtimes&) = delete;
  Runtimes& operator=(const Runtimes&) = delete;

  long weft(long (*fib)(int), int k) {
    if (!rt_) {
      weft::Config config = weft::Config::from_env();
      config.workers = workers_;
      rt_.emplace(config);
    }
    return rt_->run([fib, k] { return weft_fib_root(fib, k); });
  }

  long lace(int k) {
    if (!lace_started_) lace_fib_start(workers_);
    lace_started_ = true;
    return lace_fib_run(k);
  }

  void stop_lace() {
    if (lace_started_) lace_fib_stop();
  }

 private:
  unsigned workers_;
  std::optional<weft::Runtime> rt_;
  bool lace_started_ = false;
};

// The forms to run (every one, or --only's), on `runtimes`.
std::vector<Form> make_forms(Runtimes& runtimes, const std::string& only) {
  std::vector<Form> forms;
  forms.push_back({"serial", [](int k) { return serial_fib_root(k); }, {}});
  forms.push_back({"lace", [&runtimes](int k) { return runtimes.lace(k); }, {}});
  forms.push_back({"spawn", [&runtimes](int k) { return runtimes.weft(spawn_fib, k); }, {}});
  forms.push_back({"noexcept", [&runtimes](int k) { return runtimes.weft(noexcept_fib, k); }, {}});
  forms.push_back({"invoke", [&runtimes](int k) { return runtimes.weft(invoke_fib, k); }, {}});
  forms.push_back({"ctx", [&runtimes](int k) { return runtimes.weft(ctx_fib_entry, k); }, {}});
  if (!only.empty()) std::erase_if(forms, [&](const Form& f) { return only != f.name; });
  return forms;
}

// Starts both runtimes before the first timed run; false (said on stderr) if one is wrong.
bool start_runtimes(std::vector<Form>& forms) {
  for (Form& f : forms) {
    if (std::string(f.name) != "serial" && f.run(2) != 1) {
      std::fprintf(stderr, "weft-lace-fib: WRONG ANSWER %s fib(2)\n", f.name);
      return false;
    }
  }
  return true;
}

// Runs every form once per repetition in the repetition's seeded order into `orders`,
// calibrating the host before the first and after each; false (said on stderr) at the first
// wrong answer.
bool run_repetitions(const Options& o, std::vector<Form>& forms,
                     std::vector<std::vector<std::size_t>>& orders,
                     bench_stats::HostMonitor& host) {
  const long expected = common::fib_by_iteration(o.n);
  const std::uint64_t order_seed = bench_stats::derive_seed(o.seed, 1000);
  host.calibrate();
  for (int r = 1; r <= o.repeat; ++r) {
    std::fprintf(stderr, "\rrepetition %d/%d ...", r, o.repeat);
    orders.push_back(
        bench_stats::block_order(forms.size(), order_seed, static_cast<std::uint64_t>(r)));
    for (const std::size_t i : orders.back()) {
      Form& f = forms[i];
      const auto t0 = std::chrono::steady_clock::now();
      const long got = f.run(o.n);
      f.times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (got != expected) {
        std::fprintf(stderr, "\nweft-lace-fib: WRONG ANSWER %s fib(%d) = %ld, expected %ld\n",
                     f.name, o.n, got, expected);
        return false;
      }
    }
    host.calibrate();
  }
  std::fprintf(stderr, "\r%*s\r", 40, "");
  return true;
}

// The forms every other is measured against, where they ran; a time of 0: not run.
struct References {
  const Form* serial = nullptr;
  const Form* lace = nullptr;
  double serial_s = 0;
  double lace_s = 0;
};

References references(const std::vector<Form>& forms) {
  References ref;
  for (const Form& f : forms) {
    if (std::string(f.name) == "serial") ref.serial = &f;
    if (std::string(f.name) == "lace") ref.lace = &f;
  }
  ref.serial_s = ref.serial ? median(ref.serial->times) : 0.0;
  ref.lace_s = ref.lace ? median(ref.lace->times) : 0.0;
  return ref;
}

// The JSON's members before the forms: the sitting, the host, the variants and their orders.
void json_head(std::ostream& json, const Options& o, const bench_stats::SittingInfo& sitting,
               const bench_stats::Steadiness& steadiness, const std::vector<Form>& forms,
               const std::vector<std::vector<std::size_t>>& orders) {
  json << "{\"benchmark\":\"fib-lace\"," << bench_stats::sitting_json_members(sitting)
       << ",\"n\":" << o.n << ",\"workers\":" << o.workers << ",\"repeat\":" << o.repeat << ",";
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
  json << "]";
}

// A ratio to a reference's median for the JSON, or null where the reference did not run.
void json_ratio(std::ostream& json, double t, double reference_s) {
  if (reference_s > 0)
    json << t / reference_s;
  else
    json << "null";
}

// A paired comparison's member of the JSON, named `key`, against `reference`.
void json_paired(std::ostream& json, const char* key, const char* form, const char* reference,
                 const std::optional<bench_stats::PairedSummary>& s) {
  if (!s) return;
  json << ",\"" << key << "\":{\"a\":\"" << form << "\",\"b\":\"" << reference << "\"";
  bench_stats::summary_json(json, *s);
  json << "}";
}

// Form k's row of the table and its member of the JSON's "forms".
void report_form(const std::vector<Form>& forms, std::size_t k, const References& ref,
                 std::uint64_t bootstrap_seed, std::ostream& json) {
  const Form& f = forms[k];
  const double t = median(f.times);
  // Each form's times over the reference's of the same repetitions; the stream of the
  // bootstrap seed is the pair's place in the table, so a seed replays every interval.
  auto pair = [&](const Form* against, std::uint64_t stream) {
    std::optional<bench_stats::PairedSummary> s;
    if (against && against != &f) {
      s = bench_stats::compare_paired(
          f.times, against->times, {10000, 0.95, bench_stats::derive_seed(bootstrap_seed, stream)});
    }
    return s;
  };
  const auto vs_lace = pair(ref.lace, 2 * k);
  const auto vs_serial = pair(ref.serial, 2 * k + 1);
  char x_serial[32] = "-", x_lace[32] = "-";
  if (ref.serial_s > 0) std::snprintf(x_serial, sizeof x_serial, "%.3f", t / ref.serial_s);
  if (ref.lace_s > 0) std::snprintf(x_lace, sizeof x_lace, "%.3f", t / ref.lace_s);
  std::printf("%-9s %9.4f %8s %8s  %-40s %-40s\n", f.name, t, x_serial, x_lace,
              vs_lace ? bench_stats::interval_text(*vs_lace).c_str() : "-",
              vs_serial ? bench_stats::interval_text(*vs_serial).c_str() : "-");
  json << (k ? "," : "") << "{\"form\":\"" << f.name << "\",\"times_s\":[";
  for (std::size_t r = 0; r < f.times.size(); ++r) json << (r ? "," : "") << f.times[r];
  json << "],\"median_s\":" << t << ",\"x_serial\":";
  json_ratio(json, t, ref.serial_s);
  json << ",\"x_lace\":";
  json_ratio(json, t, ref.lace_s);
  json_paired(json, "vs_lace", f.name, "lace", vs_lace);
  json_paired(json, "vs_serial", f.name, "serial", vs_serial);
  json << "}";
}

// The table, the sitting and the host; the whole JSON into `json`.
void report(const Options& o, const std::vector<Form>& forms,
            const std::vector<std::vector<std::size_t>>& orders,
            const bench_stats::SittingInfo& sitting, const bench_stats::Steadiness& steadiness,
            std::ostream& json) {
  const References ref = references(forms);
  std::printf("fib(%d) = %ld, %u worker%s, %d repetitions in randomized blocks, medians\n", o.n,
              common::fib_by_iteration(o.n), o.workers, o.workers == 1 ? "" : "s", o.repeat);
  std::printf("%-9s %9s %8s %8s  %-40s %-40s\n", "form", "time_s", "x_serial", "x_lace",
              "form/lace [95% CI] verdict", "form/serial [95% CI] verdict");
  json_head(json, o, sitting, steadiness, forms, orders);
  json << ",\"forms\":[";
  const std::uint64_t bootstrap_seed = bench_stats::derive_seed(o.seed, 2000);
  for (std::size_t k = 0; k < forms.size(); ++k) report_form(forms, k, ref, bootstrap_seed, json);
  json << "]}\n";
  std::printf("%s\n%s\n", bench_stats::sitting_line(sitting).c_str(),
              bench_stats::host_line(steadiness).c_str());
}

// The benchmark proper, once the arguments are good.
int run(Options o, const std::vector<std::string_view>& words) {
  Runtimes runtimes(o.workers);
  std::vector<Form> forms = make_forms(runtimes, o.only);
  if (!start_runtimes(forms)) return 1;

  if (!o.seed_given)
    o.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  const bench_stats::SittingInfo sitting = bench_stats::current_sitting(words, o.seed);
  std::printf("seed %llu (--seed %llu replays this order)\n",
              static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.seed));
  std::fflush(stdout);

  std::vector<std::vector<std::size_t>> orders;
  bench_stats::HostMonitor host;
  if (!run_repetitions(o, forms, orders, host)) return 1;
  runtimes.stop_lace();
  const bench_stats::Steadiness steadiness = host.steadiness();

  std::ostringstream json;
  report(o, forms, orders, sitting, steadiness, json);
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << json.str();
    if (!out) {
      std::fprintf(stderr, "weft-lace-fib: cannot write %s\n", o.json_path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o.help = !flag_table(o).parse(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "weft-lace-fib: %s\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  return run(o, std::vector<std::string_view>(argv, argv + argc));
}

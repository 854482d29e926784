// weft-idle-bench: what idling costs. For each worker count, (1) the wake-up latency of a
// pool that sat idle long enough for every worker to park: from the root's spawn to the
// start of the task on another worker (and from run() to the root's start), and (2) the CPU
// the idle workers burn while the root runs serial code, in percent of one core. Every
// sample is verified (idle_probe.hpp). Exit codes: 0 done, 1 a failed check or an unwritable
// JSON file, 2 a bad argument or WEFT_* variable.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#include <weft/weft.hpp>

#include "common/text_format.hpp"
#include "idle/idle_probe.hpp"

namespace {

using bench_text::format;
using bench_text::number;

struct Options {
  std::vector<unsigned> workers{2, 8, 32};
  int repeat = 7;
  int idle_ms = 150;
  int serial_ms = 400;
  std::string json;
  bool help = false;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

long parse_int(std::string_view flag, std::string_view text, long lo, long hi) {
  long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi) {
    throw UsageError(format("%.*s %.*s: expected an integer from %ld to %ld",
                            static_cast<int>(flag.size()), flag.data(),
                            static_cast<int>(text.size()), text.data(), lo, hi));
  }
  return v;
}

Options parse(const std::vector<std::string_view>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view flag = args[i];
    if (flag == "--help" || flag == "-h") {
      o.help = true;
      continue;
    }
    if (flag != "--workers" && flag != "--repeat" && flag != "--json" && flag != "--idle-ms" &&
        flag != "--serial-ms") {
      throw UsageError(std::string(flag) + ": unknown argument (try --help)");
    }
    if (i + 1 == args.size()) throw UsageError(std::string(flag) + ": needs a value");
    const std::string_view value = args[++i];
    if (flag == "--workers") {
      o.workers.clear();
      std::size_t from = 0;
      for (;;) {
        const std::size_t comma = value.find(',', from);
        const std::string_view item = value.substr(from, comma - from);
        o.workers.push_back(static_cast<unsigned>(parse_int("--workers", item, 2, 1024)));
        if (comma == std::string_view::npos) break;
        from = comma + 1;
      }
    } else if (flag == "--repeat") {
      o.repeat = static_cast<int>(parse_int(flag, value, 1, 1000));
    } else if (flag == "--idle-ms") {
      o.idle_ms = static_cast<int>(parse_int(flag, value, 1, 60000));
    } else if (flag == "--serial-ms") {
      o.serial_ms = static_cast<int>(parse_int(flag, value, 1, 60000));
    } else {
      if (value.empty()) throw UsageError("--json: needs a file name");
      o.json = value;
    }
  }
  return o;
}

const char kHelp[] =
    "usage: weft-idle-bench [--workers 2,8,32] [--repeat 7] [--idle-ms 150] [--serial-ms 400]\n"
    "                       [--json FILE]\n"
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
    "--json FILE writes every sample. Exit status: 0 done, 1 a failed check, 2 a bad argument.\n";

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

std::string json_stats(const std::vector<double>& v) {
  return format("{\"median\":%s,\"min\":%s,\"max\":%s,\"samples\":%s}", number(median(v)).c_str(),
                number(*std::min_element(v.begin(), v.end())).c_str(),
                number(*std::max_element(v.begin(), v.end())).c_str(), json_array(v).c_str());
}

struct Result {
  unsigned workers = 0;
  std::vector<double> spawn_to_start_us, submit_to_root_us, idle_percent, parks;
};

// One worker count: the wake samples, then the serial-root samples, on one runtime.
bool measure(const Options& o, unsigned workers, Result& r) {
  weft::Config c = weft::Config::from_env();
  c.workers = workers;
  weft::Runtime rt(c);
  rt.run([] {});  // every worker has started and gone idle once
  r.workers = workers;
  for (int i = 0; i < o.repeat; ++i) {
    const idle_bench::WakeSample s = idle_bench::wake_sample(
        rt, std::chrono::milliseconds(o.idle_ms), std::chrono::milliseconds(1000));
    if (!s.error.empty()) {
      std::fprintf(stderr, "weft-idle-bench: %u workers, wake sample %d: %s\n", workers, i + 1,
                   s.error.c_str());
      return false;
    }
    r.spawn_to_start_us.push_back(s.spawn_to_start_us);
    r.submit_to_root_us.push_back(s.submit_to_root_us);
  }
  for (int i = 0; i < o.repeat; ++i) {
    const idle_bench::SerialSample s =
        idle_bench::serial_sample(rt, std::chrono::milliseconds(o.serial_ms));
    if (!s.error.empty()) {
      std::fprintf(stderr, "weft-idle-bench: %u workers, serial sample %d: %s\n", workers, i + 1,
                   s.error.c_str());
      return false;
    }
    r.idle_percent.push_back(s.others_percent);
    r.parks.push_back(static_cast<double>(s.parks));
  }
  return true;
}

void print(const Result& r) {
  const auto& w = r.spawn_to_start_us;
  std::printf("%7u  %8.1f %8.1f %8.1f  %9.1f  %7.3f  %7.0f   ", r.workers, median(w),
              *std::min_element(w.begin(), w.end()), *std::max_element(w.begin(), w.end()),
              median(r.submit_to_root_us), median(r.idle_percent), median(r.parks));
  for (double p : r.idle_percent) std::printf(" %.3f", p);
  std::printf("\n");
  std::fflush(stdout);
}

std::string to_json(const Options& o, const std::vector<Result>& results) {
  std::ostringstream out;
  out << "{\"benchmark\":\"idle\",\"idle_ms\":" << o.idle_ms << ",\"serial_ms\":" << o.serial_ms
      << ",\"repeat\":" << o.repeat << ",\"results\":[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    out << (i ? "," : "") << "{\"workers\":" << r.workers
        << ",\"spawn_to_start_us\":" << json_stats(r.spawn_to_start_us)
        << ",\"submit_to_root_us\":" << json_stats(r.submit_to_root_us)
        << ",\"idle_cpu_percent\":" << json_stats(r.idle_percent)
        << ",\"parks\":" << json_stats(r.parks) << "}";
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
    std::fputs(kHelp, stdout);
    return 0;
  }
  std::printf("idle %d ms before each wake sample; serial root of %d ms; %d repeats\n", o.idle_ms,
              o.serial_ms, o.repeat);
  std::printf(
      "workers  spawn->start us (med min max)  run->root us  idle CPU %%  parks   "
      "idle CPU %% per run\n");
  std::vector<Result> results;
  for (unsigned w : o.workers) {
    Result r;
    if (!measure(o, w, r)) return 1;
    print(r);
    results.push_back(std::move(r));
  }
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << to_json(o, results);
    out.close();
    if (!out) {
      std::fprintf(stderr, "weft-idle-bench: %s: cannot write the JSON file\n", o.json.c_str());
      return 1;
    }
  }
  return 0;
}

// weft-lace-fib: fib(n) on Lace and on weft's fork-join forms, alternated in one process.
//
//   weft-lace-fib [--n N] [--workers W] [--repeat R] [--json FILE] [--only FORM]
//
// Forms: serial (the plain recursion), lace (SPAWN/CALL/SYNC), spawn (the README's
// spawn/join), noexcept (the same function declared noexcept), invoke (weft::invoke).
// Each repetition runs every form once, in that order, so the machine's noise falls on all
// of them alike; the table gives medians and each form's median against serial and Lace.
// Every result is checked against fib(n) computed by iteration. --only runs one form (for
// counting instructions with callgrind). Lace's workers are suspended between its runs and
// weft's park between theirs, so neither runtime's idle threads take the other's cores.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <weft/weft.hpp>

#include "common/fib_reference.hpp"
#include "fib_lace.h"

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
               "[--json FILE] [--only serial|lace|spawn|noexcept|invoke]\n",
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

  const long expected = bench_common::fib_by_iteration(n);
  for (int r = 0; r < repeat; ++r) {
    std::fprintf(stderr, "\rrepetition %d/%d ...", r + 1, repeat);
    for (Form& f : forms) {
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
  }
  std::fprintf(stderr, "\r%*s\r", 40, "");
  if (lace_started) lace_fib_stop();

  auto median_of = [&](const char* name) {
    for (const Form& f : forms)
      if (std::string(name) == f.name) return median(f.times);
    return 0.0;
  };
  const double serial = median_of("serial");
  const double lace = median_of("lace");
  std::printf("fib(%d) = %ld, %u worker%s, %d alternated repetitions, medians\n", n, expected,
              workers, workers == 1 ? "" : "s", repeat);
  std::printf("%-9s %9s %10s %8s\n", "form", "time_s", "x_serial", "x_lace");
  std::string json = "{\"benchmark\":\"fib-lace\",\"n\":" + std::to_string(n) +
                     ",\"workers\":" + std::to_string(workers) +
                     ",\"repeat\":" + std::to_string(repeat) + ",\"forms\":[";
  bool first = true;
  for (const Form& f : forms) {
    const double t = median(f.times);
    std::printf("%-9s %9.4f %10s %8s\n", f.name, t,
                serial > 0 ? std::to_string(t / serial).substr(0, 4).c_str() : "-",
                lace > 0 ? std::to_string(t / lace).substr(0, 4).c_str() : "-");
    json += std::string(first ? "" : ",") + "{\"form\":\"" + f.name +
            "\",\"median_s\":" + std::to_string(t) +
            ",\"x_serial\":" + (serial > 0 ? std::to_string(t / serial) : "null") +
            ",\"x_lace\":" + (lace > 0 ? std::to_string(t / lace) : "null") + "}";
    first = false;
  }
  json += "]}\n";
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << json;
    if (!out) {
      std::fprintf(stderr, "weft-lace-fib: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  return 0;
}

// weft-client fib N [reps]: the cost of a spawn, measured from outside the weft tree.
//
// Times a plain serial recursive fib(N) and weft's fib(N) alternately, `reps` times each,
// checks that they agree every time, and reports the medians, their ratio and
//   ns per spawn = (median weft - median serial) / spawns,  spawns = fib(N+1) - 1
// (weft's fib spawns once per call with n >= 2; the figure means the per-spawn overhead only
// with WEFT_WORKERS=1). Configured by WEFT_WORKERS, WEFT_STEAL and
// the other WEFT_* variables (weft::Config::from_env). Prints one human-readable line and
// one JSON line.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>
#include <weft/weft.hpp>

namespace {

// The plain serial recursion, as a user would write it (GCC -O3 inlines it into itself).
long serial_fib(int n) {
  if (n < 2) return n;
  return serial_fib(n - 1) + serial_fib(n - 2);
}

long weft_fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return weft_fib(n - 1); });
  long b = weft_fib(n - 2);
  return a.join() + b;
}

// fib(n) by iteration, for the spawn count.
long iterative_fib(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const long next = a + b;
    a = b;
    b = next;
  }
  return a;
}

// Keeps the compiler from moving work across the clock reads or dropping a result.
template <class T>
void keep(T& value) {
  asm volatile("" : "+r"(value) : : "memory");
}

template <class F>
double time_ns(F&& fn, long& result) {
  const auto start = std::chrono::steady_clock::now();
  long r = fn();
  keep(r);
  const auto stop = std::chrono::steady_clock::now();
  result = r;
  return std::chrono::duration<double, std::nano>(stop - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

bool parse_int(const char* text, long lo, long hi, long& out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s fib N [reps]\n"
               "  N: 0..50, reps: 1..1000 (default 7)\n"
               "  environment: WEFT_WORKERS (0 = all cores), WEFT_STEAL (%s), other WEFT_*\n",
               argv0, weft::StealPolicy::allowed_specs().c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long n = 0, reps = 7;
  if (argc < 3 || argc > 4 || std::string(argv[1]) != "fib") return usage(argv[0]);
  if (!parse_int(argv[2], 0, 50, n) || (argc == 4 && !parse_int(argv[3], 1, 1000, reps))) {
    return usage(argv[0]);
  }

  try {
    weft::Runtime rt{weft::Config::from_env()};
    const int k = static_cast<int>(n);
    std::vector<double> serial_ns, weft_ns;
    long expected = 0;
    for (long rep = 0; rep < reps; ++rep) {
      long s = 0, w = 0;
      serial_ns.push_back(time_ns([k] { return serial_fib(k); }, s));
      weft_ns.push_back(time_ns([&rt, k] { return rt.run([k] { return weft_fib(k); }); }, w));
      if (s != w) {
        std::fprintf(stderr,
                     "weft-client: MISMATCH in repetition %ld: serial fib(%d) = %ld, "
                     "weft fib(%d) = %ld\n",
                     rep + 1, k, s, k, w);
        return 1;
      }
      expected = s;
    }

    const double serial = median(serial_ns);
    const double par = median(weft_ns);
    const long spawns = iterative_fib(k + 1) - 1;
    const double ratio = serial > 0 ? par / serial : 0.0;
    const std::string steal = rt.config().steal.spec();
    std::string per_spawn_text = "n/a (no spawns)";
    std::string per_spawn_json = "null";
    if (spawns > 0) {
      const double per_spawn = (par - serial) / static_cast<double>(spawns);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f", per_spawn);
      per_spawn_text = std::string(buf) + " ns/spawn";
      per_spawn_json = buf;
    }

    std::printf(
        "fib(%d) = %ld | median of %ld: serial %.3f ms, weft %.3f ms | weft/serial %.3f | "
        "%s over %ld spawns | workers=%u steal=%s\n",
        k, expected, reps, serial / 1e6, par / 1e6, ratio, per_spawn_text.c_str(), spawns,
        rt.workers(), steal.c_str());
    std::printf(
        "{\"bench\":\"fib\",\"n\":%d,\"result\":%ld,\"reps\":%ld,\"workers\":%u,"
        "\"steal\":\"%s\",\"serial_median_ns\":%.0f,\"weft_median_ns\":%.0f,"
        "\"ratio\":%.4f,\"spawns\":%ld,\"ns_per_spawn\":%s}\n",
        k, expected, reps, rt.workers(), steal.c_str(), serial, par, ratio, spawns,
        per_spawn_json.c_str());
    return 0;
  } catch (const weft::ConfigError& e) {
    std::fprintf(stderr, "weft-client: configuration error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft-client: error: %s\n", e.what());
    return 1;
  }
}

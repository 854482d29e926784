// weft-capi-fib: fib(n) through the C interface (fib_c.c, compiled as C), with weft_spawn and
// weft_join and with their inline nothrow forms, against the same fib with weft::spawn in C++
// (the README's form), each on its own runtime, alternated, every result checked; prints
// each one's median and its ratio to C++.
//   usage: weft-capi-fib [n=35] [workers=1] [repetitions=7]   (no flags but --help)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fib_c.h"
#include "weft/weft.hpp"
#include "workloads/common/flags.hpp"

namespace {

std::intptr_t fib_cpp(std::intptr_t n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib_cpp(n - 1); });
  const std::intptr_t b = fib_cpp(n - 2);
  return a.join() + b;
}

std::intptr_t fib_iterative(std::intptr_t n) {
  std::intptr_t a = 0, b = 1;
  for (std::intptr_t i = 0; i < n; ++i) {
    const std::intptr_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The arguments: three numbers, each optional, in this order.
struct Options {
  long n = 35;
  long workers = 1;
  long reps = 7;
  bool help = false;
};

// No flags: the table takes the numbers as its operands, and --help.
Options parse(const std::vector<std::string_view>& args) {
  Options o;
  struct Operand {
    const char* name;
    long* value;
    long low, high;
  };
  const Operand operands[] = {
      {"n", &o.n, 0, 60}, {"workers", &o.workers, 1, 1024}, {"repetitions", &o.reps, 1, 1000}};
  std::size_t given = 0;
  o.help = !common::FlagTable({})
                .operands([&](std::string_view v) {
                  if (given == std::size(operands)) {
                    throw common::UsageError(v, "unexpected argument");
                  }
                  const Operand& a = operands[given++];
                  *a.value = static_cast<long>(
                      common::parse_integer(common::argument(a.name, v), v, a.low, a.high));
                })
                .parse(args);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const common::UsageError& e) {
    std::fprintf(stderr, "weft-capi-fib: %s\n", e.what());
    return 2;
  }
  if (o.help) {
    std::fputs(
        "usage: weft-capi-fib [n=35] [workers=1] [repetitions=7]\n"
        "  fib(n) through the C interface, with weft_spawn and weft_join and with their inline\n"
        "  nothrow forms, against the same fib with weft::spawn in C++, each on its own runtime,\n"
        "  alternated, every result checked. n is 0 to 60, workers 1 to 1024, repetitions 1 to\n"
        "  1000. Exit status: 0 every result right, 1 one wrong, 2 a bad argument.\n",
        stdout);
    return 0;
  }
  const long n = o.n, workers = o.workers, reps = o.reps;
  weft_config c = weft_config_default();
  c.workers = static_cast<unsigned>(workers);
  weft_runtime* rt = weft_runtime_create(&c);
  if (rt == nullptr) {
    std::fprintf(stderr, "weft-capi-fib: %s\n", weft_last_error());
    return 2;
  }
  weft::Config k;
  k.workers = static_cast<unsigned>(workers);
  weft::Runtime cpp(k);
  const std::intptr_t expected = fib_iterative(n);
  std::vector<double> t_c, t_nothrow, t_cpp;
  bool ok = true;
  for (long r = 0; r < reps; ++r) {
    std::intptr_t got_c = 0, got_nothrow = 0, got_cpp = 0;
    t_cpp.push_back(seconds([&] { got_cpp = cpp.run([n] { return fib_cpp(n); }); }));
    t_c.push_back(seconds([&] { got_c = fib_c(rt, n, 0); }));
    t_nothrow.push_back(seconds([&] { got_nothrow = fib_c(rt, n, 1); }));
    ok = ok && got_c == expected && got_nothrow == expected && got_cpp == expected;
  }
  weft_runtime_destroy(rt);
  const double mc = median(t_c), mn = median(t_nothrow), mcpp = median(t_cpp);
  std::printf(
      "fib(%ld) on %ld worker(s), %ld alternated repetitions (medians): C++ spawn %.4f s, "
      "C weft_spawn %.4f s (%.3f x C++), C weft_spawn_nothrow %.4f s (%.3f x C++); %s\n",
      n, workers, reps, mcpp, mc, mc / mcpp, mn, mn / mcpp, ok ? "every result correct" : "WRONG");
  std::printf(
      "{\"bench\":\"capi-fib\",\"n\":%ld,\"workers\":%ld,\"cpp_s\":%.9g,\"c_s\":%.9g,"
      "\"c_nothrow_s\":%.9g,\"ratio\":%.6g,\"ratio_nothrow\":%.6g,\"verified\":%s}\n",
      n, workers, mcpp, mc, mn, mc / mcpp, mn / mcpp, ok ? "true" : "false");
  return ok ? 0 : 1;
}

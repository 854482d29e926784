// Built by scripts/test.sh with -std=c++20 and `pkg-config --cflags --libs weft`, to check that
// the installed weft.pc is complete. Exits 0 when weft computes fib(20) correctly.
#include <cstdio>
#include <weft/weft.hpp>

static long fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib(n - 1); });
  long b = fib(n - 2);
  return a.join() + b;
}

int main() {
  weft::Runtime rt{weft::Config::from_env()};
  const long r = rt.run([] { return fib(20); });
  std::printf("pkg-config client: fib(20) = %ld on %u workers\n", r, rt.workers());
  return r == 6765 ? 0 : 1;
}

#include "tools/bench/cli/fib.hpp"

#include <weft/weft.hpp>

namespace bench_cli {

long fib_serial(int n) {
  if (n < 2) return n;
  return fib_serial(n - 1) + fib_serial(n - 2);
}

long fib_weft(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib_weft(n - 1); });
  const long b = fib_weft(n - 2);
  return a.join() + b;
}

}  // namespace bench_cli

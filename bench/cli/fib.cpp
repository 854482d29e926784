#include "cli/fib.hpp"

#include <weft/weft.hpp>

namespace weft_bench {

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

long fib_by_iteration(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const long next = a + b;
    a = b;
    b = next;
  }
  return a;
}

}  // namespace weft_bench

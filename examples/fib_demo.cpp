#include <cstdio>
#include <weft/weft.hpp>
int fib(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib(n - 1); });
  int b = fib(n - 2);
  return a.join() + b;
}
int main() {
  weft::Runtime rt{weft::Config::from_env()};
  int r = rt.run([] { return fib(30); });
  std::printf("%d\n%s", r, rt.stats().table().c_str());
}

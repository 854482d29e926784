// Fibonacci, the spawn-overhead benchmark: the plain recursion and weft's (the reference value
// is kernels::fib_by_iteration).
#pragma once

#include <cstdint>

namespace bench_cli {

long fib_serial(int n);
long fib_weft(int n);  // call inside Runtime::run

}  // namespace bench_cli

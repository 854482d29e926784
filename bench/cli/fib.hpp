// Fibonacci, the spawn-overhead benchmark: the plain recursion and weft's.
#pragma once

#include <cstdint>

namespace weft_bench {

long fib_serial(int n);
long fib_weft(int n);  // call inside Runtime::run
long fib_by_iteration(int n);

}  // namespace weft_bench

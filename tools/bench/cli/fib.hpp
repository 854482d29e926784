// Fibonacci, the spawn-overhead benchmark: the plain recursion and weft's (the reference value
// is workloads::fib_by_iteration).
#pragma once

#include <cstdint>

namespace weft_bench {

long fib_serial(int n);
long fib_weft(int n);  // call inside Runtime::run

}  // namespace weft_bench

// weft: lazy task creation with flexible work stealing. Include this one header.
//
//   weft::Runtime rt{weft::Config::from_env()};
//   int r = rt.run([] { return fib(40); });
//
//   int fib(int n) {
//     if (n < 2) return n;
//     auto a = weft::spawn([n] { return fib(n - 1); });
//     int b = fib(n - 2);
//     return a.join() + b;
//   }
#pragma once

#include "weft/config.hpp"
#include "weft/cutoff.hpp"
#include "weft/future.hpp"
#include "weft/future_vector.hpp"
#include "weft/invoke.hpp"
#include "weft/loop.hpp"
#include "weft/maybe_future.hpp"
#include "weft/memory.hpp"
#include "weft/poll.hpp"
#include "weft/profile.hpp"
#include "weft/runtime.hpp"
#include "weft/schedule.hpp"
#include "weft/stats.hpp"
#include "weft/thread.hpp"

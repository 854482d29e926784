// fib(n) as `weft-bench fib` runs it (tools/bench/cli/fib.cpp): a call with n >= 2 spawns
// fib(n-1), calls fib(n-2) inline and joins the spawned one; n < 2 returns n.
#pragma once

#include <cstdint>
#include <memory>

#include "tools/sim/engine/program.hpp"

namespace sim {

struct FibCosts {
  std::uint64_t leaf_ps = 0;  // a call with n < 2
  std::uint64_t node_ps = 0;  // a call with n >= 2, besides its spawn, its calls and its join
};

// `costs` must outlive the simulation.
std::unique_ptr<Strand> fib_program(int n, const FibCosts& costs);

// The spawns fib(n) makes: one per call with n >= 2, fib(n+1) - 1 of them.
std::uint64_t fib_spawns(int n);

}  // namespace sim

// The cost of frame management: what one spawn plus its inline join adds to a call, measured
// once per process on the calling thread. The profile cannot time each spawn (a clock read
// costs ten times more than a spawn), so it charges pushed tasks x this cost to R_frame.
// It is measured on a binary recursion (fib's shape) against the same recursion with plain
// calls, both kept from being turned into loops, so it counts the spawn and join and the
// registers they take, but not the compiler optimisations a spawn rules out (see
// docs/TASK_STACK.md, "Design choices", on GCC's serial fib).
#pragma once

namespace weft::detail {

// Nanoseconds; measured on first use (about 10 ms), then cached. Never negative. `counting`:
// on a stack that counts its spawns (TaskStack::counting()), as a profiled runtime's do, where
// every spawn takes its out-of-line path.
double frame_cost_ns(bool counting = false);

// What a fenced stack (task_stack.hpp, BS1-BS3) adds to a spawn+join: every join there stores
// T, fences and reads the true H out of line. The same recursion on a private fenced stack
// and an unfenced one, batches alternated, the median difference; measured afresh on every
// call (about 10 ms), for the simulator's calibration (0 in a process whose stacks are all
// fenced, where frame_cost_ns() already counts the fence).
double fenced_pop_extra_ns();

}  // namespace weft::detail

// The two measurements of weft-idle-bench, one sample each: how long a pool that has been
// idle takes to start a spawned task on another worker, and how much CPU the idle workers
// burn while the root runs serial code. Both check what they measured and say why a sample
// is not valid instead of returning a number for it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <weft/runtime.hpp>

namespace bench_idle {

struct WakeSample {
  double submit_to_root_us = 0;   // run() called -> the root starts on a worker
  double spawn_to_start_us = 0;   // the root's spawn -> the task starts on another worker
  std::int32_t root_worker = -1;  // this_worker_id() in the root
  std::int32_t task_worker = -1;  // this_worker_id() in the spawned task
  std::string error;              // empty when the sample is valid
};

// Lets `rt` sit idle for `idle` (every worker parks), then runs a root that spawns one task
// and spins until a thief has started it (at most `give_up`, after which the root joins it
// inline and the sample is an error: nobody woke up).
WakeSample wake_sample(weft::Runtime& rt, std::chrono::milliseconds idle,
                       std::chrono::milliseconds give_up);

struct SerialSample {
  double wall_ms = 0;            // the root's serial loop, by the steady clock
  double root_cpu_ms = 0;        // CPU time of the root's own thread meanwhile
  double others_cpu_ms = 0;      // CPU time of every other thread of the process meanwhile
  double others_percent = 0;     // others_cpu_ms / wall_ms, in percent of one core
  std::uint64_t parks = 0;       // sleeps the workers began meanwhile (their wake-ups)
  std::uint64_t iterations = 0;  // of the serial loop
  std::string error;             // empty when the sample is valid
};

// Runs a root that spins through `serial` of arithmetic with no spawn, and measures the CPU
// everybody but the root's thread used meanwhile. The loop's sum is checked against its
// closed form, and the run must have had no steals.
SerialSample serial_sample(weft::Runtime& rt, std::chrono::milliseconds serial);

}  // namespace bench_idle

// Measuring one run: the wall time, the getrusage(RUSAGE_SELF) deltas (user and system time,
// minor and major page faults: Narlikar & Blelloch's Figure 6 asks where the time went) and
// the heap's high-water mark over the run, for a serial elision and for a weft run.
#pragma once

#include <cstddef>
#include <functional>
#include <weft/config.hpp>

#include "tools/bench/threads/threads_bench.hpp"

namespace bench_threads {

// The Config of a weft run: the WEFT_* environment, with the workers, scheduler, quota and
// thread stack given (stack 0: keep the environment's).
weft::Config run_config(unsigned workers, weft::ThreadSched sched, std::size_t quota,
                        std::size_t stack);

// Runs `body` on the calling thread and measures it. heap_peak is the high-water mark of
// weft::allocate'd bytes during the run less what was in use before `inputs_bytes` were
// allocated: the caller allocates its inputs first and passes their size, so the peak
// counts them as the paper's Figure 5 does.
Sample measure_serial(std::size_t inputs_bytes, const std::function<void()>& body);

// The same on a fresh Runtime made from `config` (made and destroyed outside the timing, so
// each run maps its own thread stacks, as a program would): `body` runs as rt.run's root
// task, and the sample takes rt.stats().threads as it is when run returns.
Sample measure_weft(const weft::Config& config, std::size_t inputs_bytes,
                    const std::function<void()>& body);

}  // namespace bench_threads

// The switches between a worker's own stack and the user-level threads it runs: what a
// thread does to park, yield or hand its worker to a new child, and how a thread waits for a
// stolen task (it parks on the slot; it never helps, since its stack is small and a helped
// task could block on something the thread holds).
#pragma once

#include "core/worker.hpp"
#include "weft/detail/slot.hpp"

namespace weft::detail {

// Called on a thread's fiber: switches to the worker's own stack, which carries out `after`
// there (Worker::AfterSwitch), and returns when the thread is resumed, on any worker.
void switch_to_worker(Worker::AfterSwitch after) noexcept;

// this_thread::yield() on a thread: switches straight to the next ready thread (TR4) and
// returns when the caller runs again; returns at once when no other thread is ready.
void yield_directly() noexcept;

// The join of a task stolen from a thread's stack: parks the thread until the thief is done.
Outcome park_on_stolen(Slot* s) noexcept;

// A thief finished a slot whose owner (a thread's core) parked on it.
void wake_slot_owner(WorkerCore* owner) noexcept;

}  // namespace weft::detail

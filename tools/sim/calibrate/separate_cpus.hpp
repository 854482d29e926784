// Where calibrate's threads run while it times something whose cost depends on it.
//
// A membarrier interrupts only the CPUs that are running this process's threads, so a claim
// timed with the "busy victim" on the timing thread's own CPU costs a system call and no
// interrupt: 0.5 us where the interrupt makes it 8-19 us on this machine. Two threads passing
// a cache line back and forth on one CPU time the scheduler, not the line. The kernel is free
// to put a new thread on its creator's CPU, and on a 2-CPU machine it sometimes did, so the
// costs that hinge on it moved between sittings by that much. While a SeparateCpus lives, the
// thread that made it stays on one CPU and each helper thread it places on another.
#pragma once

#include <vector>

namespace sim {

class SeparateCpus {
 public:
  // Keeps the calling thread on the CPU it is running on (or the first it may use).
  SeparateCpus();
  // Gives the calling thread back the CPUs it had.
  ~SeparateCpus();
  SeparateCpus(const SeparateCpus&) = delete;
  SeparateCpus& operator=(const SeparateCpus&) = delete;

  // The CPUs the calling thread may use other than its own, one per helper; empty where it
  // may use only one (or the kernel would not say or would not place it).
  const std::vector<int>& others() const noexcept { return others_; }
  // The calling thread's CPU while this lives; -1 where it was not placed.
  int own() const noexcept { return own_; }

  // Called on a helper thread: keeps it on `cpu`, one of others(). False if the kernel
  // refused (the helper then runs where the kernel puts it).
  static bool place_helper(int cpu);

 private:
  std::vector<int> saved_;
  std::vector<int> others_;
  int own_ = -1;
};

}  // namespace sim

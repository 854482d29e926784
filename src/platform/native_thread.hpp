// A thread with a chosen stack size (std::thread cannot set one) and a chosen set of CPUs.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace weft::platform {

class NativeThread {
 public:
  NativeThread() = default;
  NativeThread(const NativeThread&) = delete;
  NativeThread& operator=(const NativeThread&) = delete;
  ~NativeThread();

  // Starts `body` on a new thread with `stack_bytes` of stack, allowed on `cpus` only (empty:
  // the creating thread's CPUs, as pthread_create gives them). Throws std::system_error if
  // the thread cannot be created.
  void start(std::size_t stack_bytes, const std::vector<int>& cpus, std::function<void()> body);
  void join();
  // Forgets the thread without joining it: in a child of fork(), where it does not exist.
  void abandon() noexcept { running_ = false; }

 private:
  static void* trampoline(void* self);
  pthread_t handle_{};
  bool running_ = false;
  std::function<void()> body_;
};

// The CPUs this process may run on, in increasing order: its main thread's affinity mask, as
// taskset or a cpuset leaves it (not the calling thread's, which may be bound to one CPU);
// empty if the kernel will not say.
std::vector<int> allowed_cpus();
// The CPUs the calling thread may run on, in the same form.
std::vector<int> thread_cpus();
// Restricts the calling thread to `cpus` (not empty); false if the kernel refuses.
bool set_thread_cpus(const std::vector<int>& cpus);

}  // namespace weft::platform

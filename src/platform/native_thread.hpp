// A thread with a chosen stack size (std::thread cannot set one) and optional CPU pinning.
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

  // Starts `body` on a new thread with `stack_bytes` of stack; pins it to `cpu` if >= 0.
  // Throws std::system_error if the thread cannot be created.
  void start(std::size_t stack_bytes, int cpu, std::function<void()> body);
  void join();
  // Forgets the thread without joining it: in a child of fork(), where it does not exist.
  void abandon() noexcept { running_ = false; }

 private:
  static void* trampoline(void* self);
  pthread_t handle_{};
  bool running_ = false;
  std::function<void()> body_;
};

// The CPUs this process may run on (its affinity mask, as taskset or a cgroup leaves it), in
// increasing order; empty if the kernel will not say.
std::vector<int> allowed_cpus();

}  // namespace weft::platform

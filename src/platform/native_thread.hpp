// A thread with a chosen stack size (std::thread cannot set one) and optional CPU pinning.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <functional>

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

}  // namespace weft::platform

#include "platform/native_thread.hpp"

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace weft::platform {

NativeThread::~NativeThread() { join(); }

void NativeThread::start(std::size_t stack_bytes, const std::vector<int>& cpus,
                         std::function<void()> body) {
  body_ = std::move(body);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  int rc = pthread_attr_setstacksize(&attr, stack_bytes);
  if (rc == 0 && !cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (const int cpu : cpus) CPU_SET(cpu, &set);
    rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
  }
  if (rc == 0) rc = pthread_create(&handle_, &attr, &NativeThread::trampoline, this);
  pthread_attr_destroy(&attr);
  if (rc != 0)
    throw std::system_error(rc, std::generic_category(), "weft: starting a worker thread");
  running_ = true;
}

void NativeThread::join() {
  if (!running_) return;
  pthread_join(handle_, nullptr);
  running_ = false;
}

void* NativeThread::trampoline(void* self) {
  static_cast<NativeThread*>(self)->body_();
  return nullptr;
}

namespace {
// The CPUs in the affinity mask of thread `tid` (0: the calling thread), in increasing order.
std::vector<int> cpus_of(pid_t tid) {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(tid, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}
}  // namespace

std::vector<int> allowed_cpus() { return cpus_of(getpid()); }  // the main thread's

std::vector<int> thread_cpus() { return cpus_of(0); }

bool set_thread_cpus(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : cpus) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    CPU_SET(cpu, &set);
  }
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

}  // namespace weft::platform

#include "platform/fiber_stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

#include "weft/detail/sanitizers.hpp"

#if WEFT_DETAIL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace weft::platform {

std::size_t page_bytes() noexcept {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

namespace {

std::size_t round_to_pages(std::size_t bytes) noexcept {
  const std::size_t page = page_bytes();
  return bytes == 0 ? page : (bytes + page - 1) / page * page;
}

}  // namespace

FiberStack map_fiber_stack(std::size_t usable_bytes) {
  const std::size_t page = page_bytes();
  if (usable_bytes > (std::size_t{1} << 40)) {
    throw std::system_error(ENOMEM, std::generic_category(),
                            "weft: a thread stack of " + std::to_string(usable_bytes) +
                                " bytes is larger than any address space allows");
  }
  FiberStack s;
  s.guard_bytes = page;
  s.mapping_bytes = round_to_pages(usable_bytes) + page;
  // One mapping, then the guard carved out of its low end: the kernel counts two areas.
  void* p = ::mmap(nullptr, s.mapping_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  const auto fail = [&](int error, const char* step) {
    throw std::system_error(
        error, std::generic_category(),
        std::string("weft: cannot ") + step + " a " + std::to_string(s.mapping_bytes) +
            "-byte thread stack (each thread stack is two memory mappings; the limit is "
            "vm.max_map_count, see /proc/sys/vm/max_map_count)");
  };
  if (p == MAP_FAILED) fail(errno, "map");
  s.mapping = p;
  if (::mprotect(p, page, PROT_NONE) != 0) {
    const int error = errno;
    ::munmap(p, s.mapping_bytes);
    fail(error, "guard");
  }
  return s;
}

void forget_frames([[maybe_unused]] const FiberStack& stack) noexcept {
#if WEFT_DETAIL_ASAN
  __asan_unpoison_memory_region(stack.bottom(), stack.usable_bytes());
#endif
}

void unmap_fiber_stack(const FiberStack& stack) noexcept {
  if (stack.mapping == nullptr) return;
  // A thread that ended here left its frames' redzones in ASan's shadow, and a later mapping
  // at this address (a new stack, often) would inherit them: ASan then takes its own frames
  // for overflows, and its report of them fails a CHECK.
  forget_frames(stack);
  ::munmap(stack.mapping, stack.mapping_bytes);
}

FiberStackPool::FiberStackPool(std::size_t usable_bytes, std::size_t max_pooled)
    : usable_bytes_(round_to_pages(usable_bytes)), max_pooled_(max_pooled) {
  idle_.reserve(max_pooled_);  // so that release() never allocates
}

FiberStackPool::~FiberStackPool() {
  for (const FiberStack& s : idle_) unmap_fiber_stack(s);
}

FiberStack FiberStackPool::acquire() {
  FiberStack s;
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      s = idle_.back();
      idle_.pop_back();
      pooled_.store(idle_.size(), std::memory_order_relaxed);
    }
  }
  if (s.mapping == nullptr) {
    s = map_fiber_stack(usable_bytes_);
  } else {
    forget_frames(s);  // the last thread on it never returned from its frames
  }
  live_.fetch_add(1, std::memory_order_relaxed);
  return s;
}

std::size_t FiberStackPool::take_idle(FiberStack* out, std::size_t n) noexcept {
  std::size_t taken = 0;
  {
    std::lock_guard lock(mutex_);
    while (taken < n && !idle_.empty()) {
      out[taken++] = idle_.back();
      idle_.pop_back();
    }
    pooled_.store(idle_.size(), std::memory_order_relaxed);
  }
  live_.fetch_add(taken, std::memory_order_relaxed);
  return taken;
}

void FiberStackPool::give_back(const FiberStack* stacks, std::size_t n) noexcept {
  live_.fetch_sub(n, std::memory_order_relaxed);
  std::size_t kept = 0;
  {
    std::lock_guard lock(mutex_);
    // Within the capacity reserved up front: never allocates.
    while (kept < n && idle_.size() < max_pooled_) idle_.push_back(stacks[kept++]);
    pooled_.store(idle_.size(), std::memory_order_relaxed);
  }
  for (std::size_t i = kept; i < n; ++i) unmap_fiber_stack(stacks[i]);
}

void FiberStackPool::release(const FiberStack& stack) noexcept { give_back(&stack, 1); }

}  // namespace weft::platform

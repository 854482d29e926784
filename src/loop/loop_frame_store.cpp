#include "loop/loop_frame_store.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

namespace weft::detail {

namespace {
// Each loop frame on the stack is preceded by the stack's top before it, to pop back to.
constexpr std::size_t kHeader = sizeof(std::size_t);
}  // namespace

void* LoopFrameStack::push(std::size_t size, std::size_t align) noexcept {
  if (!memory_) {
    memory_.reset(new (std::nothrow) unsigned char[kBytes]);
    if (!memory_) return nullptr;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(memory_.get());
  const std::uintptr_t start = (base + top_ + kHeader + align - 1) / align * align;
  if (start - base + size > kBytes) return nullptr;
  std::memcpy(reinterpret_cast<void*>(start - kHeader), &top_, kHeader);
  top_ = start - base + size;
  return reinterpret_cast<void*>(start);
}

void LoopFrameStack::pop(void* loop_frame) noexcept {
  std::memcpy(&top_, static_cast<unsigned char*>(loop_frame) - kHeader, kHeader);
}

LoopFramePool::~LoopFramePool() {
  for (const Block& b : free_) ::operator delete (b.memory, std::align_val_t{b.align});
  for (const Block& b : used_) ::operator delete (b.memory, std::align_val_t{b.align});
}

void* LoopFramePool::allocate(std::size_t size, std::size_t align) {
  std::lock_guard lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->capacity >= size && it->align >= align) {
      used_.push_back(*it);
      free_.erase(it);
      return used_.back().memory;
    }
  }
  const std::size_t a = std::max<std::size_t>(align, alignof(std::max_align_t));
  // Room for every block in either list, so that no push below or in release() can throw.
  used_.reserve(used_.size() + free_.size() + 1);
  free_.reserve(used_.size() + free_.size() + 1);
  void* memory = ::operator new (size, std::align_val_t{a});
  used_.push_back(Block{memory, size, a});
  return memory;
}

void LoopFramePool::release(void* loop_frame) noexcept {
  std::lock_guard lock(mutex_);
  for (auto it = used_.begin(); it != used_.end(); ++it) {
    if (it->memory == loop_frame) {
      free_.push_back(*it);  // cannot throw: allocate() reserved the room
      used_.erase(it);
      return;
    }
  }
}

}  // namespace weft::detail

// An array of trivially copyable elements whose storage comes from weft::allocate, so that the
// heap figures (weft::heap_usage, ThreadStats::heap_*) and a df scheduler's memory quota see
// the applications' temporary arrays as they see any other accounted allocation.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "weft/memory.hpp"

namespace thread_apps {

template <class T>
class HeapArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  HeapArray() noexcept = default;
  // Uninitialised storage for `size` elements (none for 0).
  explicit HeapArray(std::size_t size)
      : data_(size == 0 ? nullptr : static_cast<T*>(weft::allocate(size * sizeof(T), alignof(T)))),
        size_(size) {}
  HeapArray(HeapArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  HeapArray& operator=(HeapArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  HeapArray(const HeapArray&) = delete;
  HeapArray& operator=(const HeapArray&) = delete;
  ~HeapArray() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) weft::deallocate(data_, size_ * sizeof(T), alignof(T));
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace thread_apps

// DfOrder: the df scheduler's depth-first list with order labels and its ready heap.
#include "threads/df_order.hpp"

#include <algorithm>
#include <limits>

#include "threads/uthread.hpp"

namespace weft::detail {

namespace {
// The heap keeps the smallest label on top.
constexpr auto kLeftFirst = [](const auto& a, const auto& b) { return a.label > b.label; };
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
}  // namespace

void DfOrder::insert_before(UThread* t, UThread* at) {
  UThread* const before = at != nullptr ? at->prev : tail_;
  const std::uint64_t lo = before != nullptr ? before->order_label : 0;
  const std::uint64_t hi = at != nullptr ? at->order_label : kMax;
  t->next = at;
  t->prev = before;
  (before != nullptr ? before->next : head_) = t;
  (at != nullptr ? at->prev : tail_) = t;
  ++size_;
  if (hi - lo >= 2) {
    t->order_label = lo + (hi - lo) / 2;
  } else {
    relabel();
  }
}

void DfOrder::erase(UThread* t) noexcept {
  (t->prev != nullptr ? t->prev->next : head_) = t->next;
  (t->next != nullptr ? t->next->prev : tail_) = t->prev;
  t->prev = t->next = nullptr;
  --size_;
}

void DfOrder::push_ready(UThread* t) {
  ready_.push_back({t->order_label, t});
  std::push_heap(ready_.begin(), ready_.end(), kLeftFirst);
}

UThread* DfOrder::pop_leftmost_ready() noexcept {
  if (ready_.empty()) return nullptr;
  std::pop_heap(ready_.begin(), ready_.end(), kLeftFirst);
  UThread* const t = ready_.back().thread;
  ready_.pop_back();
  return t;
}

void DfOrder::relabel() {
  const std::uint64_t step = kMax / (size_ + 1);
  std::uint64_t label = step;
  for (UThread* t = head_; t != nullptr; t = t->next, label += step) t->order_label = label;
  for (Entry& e : ready_) e.label = e.thread->order_label;
  std::make_heap(ready_.begin(), ready_.end(), kLeftFirst);
}

}  // namespace weft::detail

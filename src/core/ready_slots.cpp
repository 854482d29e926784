// Heap slots for spawns that run at once: a cutoff (spawn_if with a false condition), a full
// task stack, or a spawn outside any runtime. The task's outcome waits in such a slot until
// the join. Workers keep the slots they freed (ReadySlots in detail/worker_core.hpp); other
// threads keep theirs here, per thread, so nothing is shared. A slot may be taken on one
// thread and freed on another (a future moved to another task): it joins the freeing
// thread's list.
#include <cstddef>
#include <utility>

#include "weft/detail/worker_core.hpp"

namespace weft::detail {
namespace {

struct ThreadSlots {
  Slot* head = nullptr;
  std::uint32_t kept = 0;
  ~ThreadSlots() { free_ready_slots(std::exchange(head, nullptr)); }
};

thread_local ThreadSlots t_slots;

}  // namespace

Slot* new_ready_slot() {
  ThreadSlots& t = t_slots;
  if (t.head == nullptr) return new Slot{};
  Slot* s = t.head;
  t.head = ReadySlots::next(s);
  --t.kept;
  return s;
}

void delete_ready_slot(Slot* s) noexcept {
  ThreadSlots& t = t_slots;
  if (t.kept >= ReadySlots::kMaxKept) {
    delete s;
    return;
  }
  ReadySlots::next(s) = t.head;
  t.head = s;
  ++t.kept;
}

void free_ready_slots(Slot* list) noexcept {
  while (list != nullptr) delete std::exchange(list, ReadySlots::next(list));
}

}  // namespace weft::detail

// Slots for spawns that run at once: a full task stack, or a spawn outside any runtime (and
// the rare cut-off task that throws, or a MaybeFuture converted to a Future: spawn_if holds a
// cut-off task's value inline otherwise). The task's outcome waits in such a slot until the
// join. Each thread keeps the slots it freed for its next ones, so a program that overflows
// its task stack allocates a handful of slots once instead of one per task. A slot may be taken on
// one thread and freed on another (a future moved to another task): it joins the freeing
// thread's list. The lists are per thread, so nothing here is shared.
#include <cstdint>
#include <utility>

#include "weft/detail/slot.hpp"

namespace weft::detail {
namespace {

// Enough for the deepest chain of pending cut-off futures a recursion keeps at once in
// practice; beyond it, freed slots go back to the allocator so a burst does not pin memory.
constexpr std::uint32_t kMaxKept = 256;

// A free slot's storage holds the link to the next one.
Slot*& next(Slot* s) noexcept { return *reinterpret_cast<Slot**>(s->storage); }

struct FreeSlots {
  Slot* head = nullptr;
  std::uint32_t kept = 0;
  ~FreeSlots() {
    while (head != nullptr) delete std::exchange(head, next(head));
  }
};

thread_local FreeSlots t_free;

}  // namespace

Slot* new_ready_slot() {
  FreeSlots& f = t_free;
  if (f.head == nullptr) return new Slot{};
  Slot* s = std::exchange(f.head, next(f.head));
  --f.kept;
  return s;
}

void delete_ready_slot(Slot* s) noexcept {
  FreeSlots& f = t_free;
  if (f.kept >= kMaxKept) {
    delete s;
    return;
  }
  next(s) = std::exchange(f.head, s);
  ++f.kept;
}

}  // namespace weft::detail

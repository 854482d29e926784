// Sleep and wake (the protocol and its invariants are in sleep.hpp).
#include "core/sleep.hpp"

#include "platform/futex.hpp"

namespace weft::detail {

bool Sleep::wait(std::uint32_t ticket, std::chrono::microseconds nap, bool& watching,
                 bool run_active) noexcept {
  sleepers_.fetch_add(1, std::memory_order_seq_cst);  // before the test of watched_ (Dekker)
  if (!run_active) {
    // Nothing to watch: the next run() wakes two workers, one of which becomes watchman.
    if (watching) watched_.store(false, std::memory_order_seq_cst);
    watching = false;
  } else if (!watching && !watched_.load(std::memory_order_seq_cst)) {
    bool free = false;
    watching = watched_.compare_exchange_strong(free, true, std::memory_order_seq_cst);
  }
  platform::futex_wait(word_, ticket, watching ? nap : std::chrono::microseconds::zero());
  sleepers_.fetch_sub(1, std::memory_order_relaxed);  // the sleeper counts itself out
  return word_.load(std::memory_order_relaxed) != ticket;
}

void Sleep::stop_watching(bool& watching) noexcept {
  if (!watching) return;
  watching = false;
  watched_.store(false, std::memory_order_seq_cst);  // before the read of sleepers_ (Dekker)
  wake_one();                                        // to take the role over
}

void Sleep::after_steal(bool& watching, bool left_work) noexcept {
  if (watching) {
    stop_watching(watching);
  } else if (left_work || !watched_.load(std::memory_order_seq_cst)) {
    wake_one();
  }
}

void Sleep::wake_one() noexcept {
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;  // nobody: no system call
  wake(1);
}

void Sleep::announce() noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) != 0) platform::futex_wake(word_, 1);
}

void Sleep::wake(int n) noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wake(word_, n);
}

void Sleep::wake_all() noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);
  platform::futex_wake(word_, platform::kWakeAll);
}

}  // namespace weft::detail

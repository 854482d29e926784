// Sleep and wake (the protocol and its invariants, SL1-SL6, are in sleep.hpp).
#include "core/sleep.hpp"

#include "platform/futex.hpp"

namespace weft::detail {

bool Sleep::wait(std::uint32_t ticket, std::chrono::microseconds nap, bool& watching,
                 bool run_active) noexcept {
  // seq_cst: counted before the test of watched_ (the Dekker pair, SL5) and before the wait
  // (SL2).
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  if (!run_active) {
    // Nothing to watch: the next run() wakes two workers, one of which becomes watchman.
    // seq_cst, as every access of the hand-over (SL4, SL5).
    if (watching) watched_.store(false, std::memory_order_seq_cst);
    watching = false;
  } else if (!watching && !watched_.load(std::memory_order_seq_cst)) {  // SL5: after the count
    bool free = false;
    // seq_cst: the one RMW that makes a holder (SL4).
    watching = watched_.compare_exchange_strong(free, true, std::memory_order_seq_cst);
  }
  platform::futex_wait(word_, ticket, watching ? nap : std::chrono::microseconds::zero());
  // The sleeper counts itself out (SL2). relaxed: a late decrement only keeps the upper
  // bound high a moment longer (one wasted wake-up at most); it publishes nothing.
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
  // relaxed: only tells a wake-up from a nap that ran out, for the backoff and the deadlock
  // watch; a stale answer leaves the backoff's nap unreset once, or has the watch look once
  // more, and orders nothing.
  return word_.load(std::memory_order_relaxed) != ticket;
}

void Sleep::stop_watching(bool& watching) noexcept {
  if (!watching) return;
  watching = false;
  watched_.store(false, std::memory_order_seq_cst);  // before the read of sleepers_ (SL5)
  wake_one();                                        // to take the role over
}

void Sleep::after_steal(bool& watching, bool left_work) noexcept {
  if (watching) {
    stop_watching(watching);
  } else if (left_work || !watched_.load(std::memory_order_seq_cst)) {
    // seq_cst, as the hand-over's other accesses; a stale "watched" only skips a wake-up
    // whose loss costs a nap (SL6).
    wake_one();
  }
}

void Sleep::wake_one() noexcept {
  // seq_cst: a leaving watchman's read after it cleared watched_ (SL5). Nobody: no system
  // call (SL6).
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  wake(1);
}

void Sleep::announce() noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);  // the move first (SL1)
  // seq_cst, after the move: a sleeper not yet counted has its ticket before the move (its
  // wait returns at once) or after it (its check sees the thread) (SL3).
  if (sleepers_.load(std::memory_order_seq_cst) != 0) platform::futex_wake(word_, 1);
}

void Sleep::wake(int n) noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);  // after the work is visible (SL1, SL3)
  platform::futex_wake(word_, n);
}

void Sleep::wake_all() noexcept {
  word_.fetch_add(1, std::memory_order_seq_cst);  // after shutdown_ is stored (SL1, SL3)
  platform::futex_wake(word_, platform::kWakeAll);
}

}  // namespace weft::detail

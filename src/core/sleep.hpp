// Sleep and wake: how idle workers wait for work without burning a core, and how the code
// that makes work appears gets them back.
//
// States of a worker, as this module sees them:
//   awake     running tasks, stealing, or backing off by spinning and yielding
//             (idle_backoff.hpp); not counted anywhere here.
//   watchman  asleep with a timeout: while a run is active, one sleeper at a time naps
//             (IdleBackoff's nap, doubling up to its cap) and looks for work again, so that
//             work made without a wake-up (a spawn) is found within one nap.
//   parked    asleep without a timeout, until somebody wakes it.
// N idle workers therefore cost one nap loop, not N.
//
// The shared state: `word_`, the futex word every sleeper waits on; `sleepers_`, how many
// workers are between their decision to sleep and their return from the futex; `watched_`,
// whether some sleeper holds the watchman's role.
//
// The futex protocol. A sleeper reads `word_` (ticket()), then checks for work (its caller:
// root jobs, shutdown), then waits for `word_` to change from what it read. A waker changes
// `word_` (after making its work visible), then wakes. The kernel compares the word and
// sleeps atomically, so a change after the sleeper's read always wakes it (or, for a wake of
// one, another sleeper: as good, since every woken worker looks at the root queue and
// steals), and a change before the read is seen by the sleeper's check. Both sides use
// seq_cst for these accesses.
//
// Who decrements the sleeper count: the sleeper itself, when its futex wait returns. A futex
// wake cannot say whom it woke, so the waker could not decrement for the right worker the
// way rayon-core's waker does with its per-worker flags. The count is therefore an upper
// bound of the workers that are really asleep: a waker may see a worker that is already
// waking and pay one futex wake for nobody, never miss a sleeper it must wake (the sleeper
// counts itself before it tests `watched_` and before it waits).
//
// A notify with no sleeper costs no system call: every wake first loads `sleepers_` and
// returns when it is zero, so a busy pool's thieves and scopes pay one load of a line that
// only changes when somebody goes to sleep.
//
// Which lost wake-ups are harmless and which would be fatal:
//   - a root job from run() (fatal if lost: nobody would run it): the pool queues the job,
//     then wake(2) under the protocol above, so it cannot be lost. One worker takes the
//     root; the other looks for the root's first spawn and then becomes the watchman. Two,
//     not all: with fewer cores than workers a thundering herd delays the root; the pool
//     fills up by the chain below instead.
//   - shutdown (fatal if lost: the destructor would hang): wake_all().
//   - a spawn making work stealable (harmless if lost: the spawner runs its own tasks, so
//     only parallelism is lost): spawns wake nobody, which keeps the owner's path free of
//     shared accesses. The watchman bounds the loss to one nap: it is there whenever a run is
//     active and any worker sleeps. A thief that leaves work behind wakes one more sleeper
//     (a burst of parallelism wakes the pool in a chain), and so does a thief or root taker
//     that was the watchman, or that sees nobody watching: the role is handed on, never
//     dropped while workers park. The hand-over is a Dekker pair (seq_cst): a sleeper
//     increments `sleepers_` then tests `watched_`; a watchman clears `watched_` then reads
//     `sleepers_`. So either the sleeper takes the free role, or the old watchman sees the
//     sleeper and wakes one (the word bump makes a sleeper between its ticket and its futex
//     wait return at once). Losing the role would not hang a run either, only leave spawned
//     work to its owner until some worker goes idle again.
//   - a parallel loop forked as a PCB (harmless if lost: its owner takes every chunk no
//     helper takes): the fork wakes one sleeper if `sleepers_` says any sleeps (a relaxed
//     load, no system call otherwise), and a worker that takes a chunk and leaves chunks
//     behind wakes one more, through the same after-steal hand-over as a thief.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "weft/detail/task_stack.hpp"

namespace weft::detail {

class Sleep {
 public:
  // The sleeper's first step: read the word, before checking for work.
  std::uint32_t ticket() const noexcept { return word_.load(std::memory_order_seq_cst); }

  // Sleeps until the word moves on from `ticket`. While `run_active`, the caller may become
  // the watchman (`watching` says whether it is) and then naps for `nap` at most; otherwise
  // it parks, giving the role up if it held it. Returns true if woken (the word changed),
  // false if the nap ran out.
  bool wait(std::uint32_t ticket, std::chrono::microseconds nap, bool& watching,
            bool run_active) noexcept;

  // A worker that found work stops being the watchman, if it was, and wakes a sleeper to
  // take the role over.
  void stop_watching(bool& watching) noexcept;
  // A worker stole (`left_work`: tasks remain on the victim or as proxies on its stack).
  // Hands the watchman's role on, or wakes one sleeper when work was left behind or nobody
  // watches.
  void after_steal(bool& watching, bool left_work) noexcept;

  // Whether a worker may be asleep (relaxed: a stale answer only delays or wastes one
  // wake-up, which the watchman's naps bound).
  bool has_sleepers() const noexcept { return sleepers_.load(std::memory_order_relaxed) != 0; }
  // How many may be asleep (the same upper bound, relaxed).
  std::int32_t sleepers() const noexcept { return sleepers_.load(std::memory_order_relaxed); }
  // Wakes one sleeper, if any; no system call when nobody sleeps.
  void wake_one() noexcept;
  // Moves the word on, then wakes one sleeper if any: for work that must not be missed yet
  // comes often (a user-level thread made ready), so no system call when nobody sleeps. A
  // sleeper that read its ticket before the move returns from its futex wait at once.
  void announce() noexcept;
  // Moves the word on and wakes `n` sleepers, counted or not: for work that must not be
  // missed (a root job), after it was made visible.
  void wake(int n) noexcept;
  void wake_all() noexcept;

 private:
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> word_{0};
  std::atomic<std::int32_t> sleepers_{0};
  std::atomic<bool> watched_{false};  // some sleeper is the watchman
};

}  // namespace weft::detail

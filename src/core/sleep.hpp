// Sleep and wake: how idle workers wait for work without burning a core, and how the code
// that makes work appears gets them back (docs/SLEEP.md, "Sleep and wake" and "Invariants").
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
// Invariants:
//   SL1 No sleeper misses a move of the word. A sleeper reads `word_` (ticket()) before it
//       checks for work (its caller, Pool::sleep: shutdown, root jobs, ready threads) and
//       futex-waits only while `word_` still equals that ticket; a waker makes its work
//       visible, then moves `word_` on (an RMW), then wakes. The kernel compares and sleeps
//       atomically, so a move after the ticket makes the wait return at once or wakes it (or,
//       for a wake of one, another sleeper: as good, since every woken worker looks at the
//       root queue and steals), and work made visible before the ticket is seen by the
//       check. The ticket and the moves are seq_cst.
//   SL2 `sleepers_` never counts fewer than the workers in a futex wait here: a sleeper
//       increments it before it tests `watched_` and before it waits, and decrements it
//       itself when its wait returns (a futex wake cannot say whom it woke, so the waker
//       cannot count out the right worker as rayon-core's does with per-worker flags). It is
//       an upper bound: a waker may pay one futex wake for a worker already waking, never
//       skip one that waits.
//   SL3 The wake-ups that must not be lost move the word and call the futex whatever
//       `sleepers_` says: a root job (wake(2), after it is queued) and shutdown (wake_all(),
//       after shutdown_ is stored), so by SL1 no sleeper misses them. announce() (a
//       user-level thread made ready) moves the word first and skips the system call only
//       when it then reads no sleeper (seq_cst): each later sleeper read its ticket before
//       the move (its futex wait returns at once) or after it (its check sees the thread).
//   SL4 At most one worker holds the watchman's role, and `watched_` is true while one does:
//       it goes from false to true only by a sleeper's CAS while a run is active (that
//       sleeper's `watching` becomes true), and back only by the holder, which clears its
//       `watching` first: when it finds work (stop_watching, after_steal), or when it sleeps
//       while no run is active.
//   SL5 During a run the role is handed on, not dropped, while workers park. A sleeper
//       increments `sleepers_` and then tests `watched_`; a leaving watchman clears
//       `watched_` and then reads `sleepers_` (wake_one); all seq_cst, a Dekker pair. So
//       either the sleeper sees the role free and takes it, or the leaver sees the sleeper
//       and wakes one (wake(1) moves the word, so a sleeper between its ticket and its futex
//       wait returns at once), and the woken worker takes the free role when it next sleeps.
//       A thief or loop helper that sees nobody watching also wakes one (after_steal). Only
//       with no run active is the role given up without a wake-up: the next run() wakes two.
//   SL6 Every other wake-up is best effort, for work whose loss costs only parallelism: a
//       spawn wakes nobody; a thief or loop helper that leaves work behind (after_steal), a
//       forked loop and offer_work (after a relaxed has_sleepers()) wake one with wake_one(),
//       which skips the system call when it reads no sleeper. The work a lost one was for is
//       found by the watchman's next look (SL5) or by the next worker to go idle, and no run
//       hangs for it: the owner runs its own tasks.
//
// Which lost wake-ups would be fatal and which are harmless:
//   - a root job from run() (fatal: nobody would run it): queued, then wake(2) (SL1, SL3).
//     One worker takes the root; the other looks for the root's first spawn and then becomes
//     the watchman. Two, not all: with fewer cores than workers a thundering herd delays the
//     root; the pool fills up by the chain below instead.
//   - shutdown (fatal: the destructor would hang): wake_all() (SL3).
//   - a spawn making work stealable (harmless: the spawner runs its own tasks, so only
//     parallelism is lost): spawns wake nobody, which keeps the owner's path free of shared
//     accesses; the watchman bounds the loss to one nap (SL5, SL6). A thief that leaves work
//     behind wakes one more sleeper (a burst of parallelism wakes the pool in a chain), and
//     so does a thief or root taker that was the watchman, or a thief that sees nobody
//     watching. Losing the role would not hang a run either, only leave spawned work to its
//     owner until some worker goes idle again.
//   - a parallel loop forked as a PCB (harmless: its owner takes every chunk no helper
//     takes): the fork wakes one sleeper if `sleepers_` says any sleeps (a relaxed load, no
//     system call otherwise), and a worker that takes a chunk and leaves chunks behind wakes
//     one more, through the same after-steal hand-over as a thief (SL6).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "weft/detail/task_stack.hpp"

namespace weft::detail {

class Sleep {
 public:
  // The sleeper's first step: read the word, before checking for work (seq_cst: SL1).
  std::uint32_t ticket() const noexcept { return word_.load(std::memory_order_seq_cst); }

  // Sleeps until the word moves on from `ticket`. While `run_active`, the caller may become
  // the watchman (`watching` says whether it is) and then naps for `nap` at most; otherwise
  // it parks, giving the role up if it held it. Returns true if woken (the word changed),
  // false if the nap ran out.
  bool wait(std::uint32_t ticket, std::chrono::microseconds nap, bool& watching,
            bool run_active) noexcept;

  // A worker that found work stops being the watchman, if it was, and wakes a sleeper to
  // take the role over (SL4, SL5).
  void stop_watching(bool& watching) noexcept;
  // A worker stole (`left_work`: tasks remain on the victim or as proxies on its stack).
  // Hands the watchman's role on, or wakes one sleeper when work was left behind or nobody
  // watches (SL5, SL6).
  void after_steal(bool& watching, bool left_work) noexcept;

  // Whether a worker may be asleep (relaxed: a stale answer only delays or wastes one
  // wake-up, which the watchman's naps bound: SL6).
  bool has_sleepers() const noexcept { return sleepers_.load(std::memory_order_relaxed) != 0; }
  // How many may be asleep (the same upper bound, SL2; relaxed, as above).
  std::int32_t sleepers() const noexcept { return sleepers_.load(std::memory_order_relaxed); }
  // Wakes one sleeper, if any; no system call when nobody sleeps (SL5, SL6).
  void wake_one() noexcept;
  // Moves the word on, then wakes one sleeper if any: for work that must not be missed yet
  // comes often (a user-level thread made ready), so no system call when nobody sleeps. A
  // sleeper that read its ticket before the move returns from its futex wait at once (SL3).
  void announce() noexcept;
  // Moves the word on and wakes `n` sleepers, counted or not: for work that must not be
  // missed (a root job), after it was made visible (SL3).
  void wake(int n) noexcept;
  void wake_all() noexcept;  // shutdown (SL3)

 private:
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> word_{0};
  std::atomic<std::int32_t> sleepers_{0};  // an upper bound of the sleepers (SL2)
  std::atomic<bool> watched_{false};       // some sleeper is the watchman (SL4)
};

}  // namespace weft::detail

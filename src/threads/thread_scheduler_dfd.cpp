// The dfd scheduler's own half: per-worker deques in one depth-first list R (DFDeques), the
// lock taken only to steal, to preempt, to start a deque, and when a dummy's end has spent
// its worker's quota (invariants SCH1-SCH4 in thread_scheduler.hpp, TD1-TD3 in thread_deque.hpp).
#include "threads/scheduler_guard.hpp"

namespace weft::detail {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}  // namespace

ThreadScheduler::~ThreadScheduler() {
  for (ThreadDeque* d = made_deques_.load(std::memory_order_acquire); d != nullptr;) {
    ThreadDeque* const next = d->next_made;
    delete d;
    d = next;
  }
}

void ThreadScheduler::set_workers(unsigned n) {
  workers_ = n;
  own_ = std::make_unique<ThreadDeque*[]>(n);  // all nullptr
}

ThreadDeque* ThreadScheduler::dfd_new_deque_locked(int worker) noexcept {
  ThreadDeque* d = free_deques_;
  if (d != nullptr) {
    free_deques_ = d->next_free;
  } else {
    d = new ThreadDeque;  // a failure here is fatal (noexcept), as a full scheduler would be
    d->next_made = made_deques_.load(kRelaxed);
    made_deques_.store(d, std::memory_order_release);  // published whole (SCH4)
  }
  d->next_free = nullptr;
  d->owner = worker;
  return d;
}

// Links `d` into R just left of `left_of`, or just right of `right_of`, or at the right end.
void ThreadScheduler::dfd_link_locked(ThreadDeque* d, ThreadDeque* left_of,
                                      ThreadDeque* right_of) noexcept {
  ThreadDeque* const before = left_of != nullptr    ? left_of->left
                              : right_of != nullptr ? right_of
                                                    : r_tail_;
  ThreadDeque* const after = before != nullptr ? before->right : r_head_;
  d->left = before;
  d->right = after;
  (before != nullptr ? before->right : r_head_) = d;
  (after != nullptr ? after->left : r_tail_) = d;
  d->in_list = true;
}

void ThreadScheduler::dfd_retire_locked(ThreadDeque* d) noexcept {
  if (d->in_list) {
    (d->left != nullptr ? d->left->right : r_head_) = d->right;
    (d->right != nullptr ? d->right->left : r_tail_) = d->left;
    d->left = d->right = nullptr;
    d->in_list = false;
  }
  d->owner = -1;
  d->next_free = free_deques_;
  free_deques_ = d;
}

void ThreadScheduler::dfd_push(UThread* t, int worker) noexcept {
  ThreadDeque*& own = own_[worker];
  if (own != nullptr && own->push(t)) return;  // the common case: no lock
  Guard g(*this);
  ThreadDeque* const full = own;
  ThreadDeque* const fresh = dfd_new_deque_locked(worker);
  if (full != nullptr) {
    // What we push from now on comes before the full deque's threads in the serial order:
    // the new deque goes just left of it, and the full one is left to thieves (SCH4).
    full->owner = -1;
    dfd_link_locked(fresh, full, nullptr);
  } else {
    dfd_link_locked(fresh, nullptr, nullptr);  // no deque yet: the right end
  }
  own = fresh;
  (void)fresh->push(t);  // empty: cannot fail
}

UThread* ThreadScheduler::dfd_take(int worker) noexcept {
  UThread* t = nullptr;
  if (ThreadDeque* own = own_[worker]; own != nullptr) t = own->pop();
  if (t == nullptr) {
    if (ready_count_.load(kRelaxed) == 0 && !some_deque_nonempty()) return nullptr;
    Guard g(*this);
    t = dfd_steal_locked(worker);
    if (t == nullptr) return nullptr;
  }
  t->state.store(UThread::State::kRunning, kRelaxed);
  return t;
}

UThread* ThreadScheduler::dfd_take_after_quota(int worker) noexcept {
  UThread* t = nullptr;
  bool left_work = false;
  {
    Guard g(*this);
    // As dfd_preempt leaves its deque: in R for any worker, never pushed again (SCH4); what
    // it holds is taken from its bottom, the leftmost, by whoever finds it first (we do,
    // when nothing left of it is ready).
    ThreadDeque* const left = own_[worker];
    if (left != nullptr) {
      left->owner = -1;
      own_[worker] = nullptr;
    }
    t = dfd_steal_locked(worker);
    left_work = left != nullptr && left->in_list && left->maybe_nonempty();
  }
  if (left_work) wake();  // we went elsewhere: another worker may take what we left
  if (t != nullptr) t->state.store(UThread::State::kRunning, kRelaxed);
  return t;
}

UThread* ThreadScheduler::dfd_steal_locked(int worker) noexcept {
  for (ThreadDeque* d = r_head_; d != nullptr;) {
    ThreadDeque* const next = d->right;
    if (d->owner == worker) {  // ours, found empty by our pop
      d = next;
      continue;
    }
    // A deque without owner is ours alone under the lock: take its leftmost thread (its
    // bottom), as df would, rather than the oldest, which is the rightmost.
    const bool ownerless = d->owner == -1;
    UThread* const t = ownerless ? d->pop() : d->steal();
    if (t != nullptr) {
      // Our deque moves beside the victim's, on the stolen thread's side: what we push now
      // (that thread and what it makes) comes before the rest of an ownerless deque, whose
      // leftmost we took, and after the rest of an owned one, whose rightmost we took.
      ThreadDeque* mine = own_[worker];
      if (mine != nullptr && mine->in_list) {
        (mine->left != nullptr ? mine->left->right : r_head_) = mine->right;
        (mine->right != nullptr ? mine->right->left : r_tail_) = mine->left;
        mine->in_list = false;
      }
      if (mine == nullptr) mine = dfd_new_deque_locked(worker);
      dfd_link_locked(mine, ownerless ? d : nullptr, ownerless ? nullptr : d);
      own_[worker] = mine;
      if (ownerless && !d->maybe_nonempty()) dfd_retire_locked(d);  // dead (SCH4)
      return t;
    }
    if (ownerless && !d->maybe_nonempty()) dfd_retire_locked(d);
    d = next;
  }
  UThread* const t = head_;  // threads made by tasks: the right end of the order
  if (t != nullptr) {
    unlink(t);
    ready_count_.fetch_sub(1, std::memory_order_seq_cst);
  }
  return t;
}

void ThreadScheduler::dfd_preempt(UThread* t, int worker) noexcept {
  t->state.store(UThread::State::kReady, kRelaxed);
  {
    Guard g(*this);
    ThreadDeque*& own = own_[worker];
    if (own == nullptr || !own->push(t)) {
      ThreadDeque* const fresh = dfd_new_deque_locked(worker);
      if (own != nullptr) {
        own->owner = -1;
        dfd_link_locked(fresh, own, nullptr);
      } else {
        dfd_link_locked(fresh, nullptr, nullptr);
      }
      own = fresh;
      (void)fresh->push(t);
    }
    // The deque stays in R for any worker; ours is gone, and our next take steals (SCH4).
    own->owner = -1;
    own = nullptr;
  }
  wake();
}

bool ThreadScheduler::some_deque_nonempty() const noexcept {
  // acquire: pairs with the release that published each deque (SCH4).
  for (const ThreadDeque* d = made_deques_.load(std::memory_order_acquire); d != nullptr;
       d = d->next_made) {
    if (d->maybe_nonempty()) return true;
  }
  return false;
}

}  // namespace weft::detail

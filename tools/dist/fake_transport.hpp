// An in-process network for testing the distributed protocol: one endpoint per rank (each
// used by one thread), and every message held back by a random delay drawn from a seeded
// stream of its sender's. Per-pair order is kept as MPI keeps it: a message is never
// delivered before an earlier one of the same sender to the same receiver.
//
// Invariants (docs/DISTRIBUTED.md, "Invariants"):
//   DT9  DT8 on threads. A message goes into its receiver's inbox within send(), and poll()
//        takes the due one least in (delivery time, sequence number) out of it, so each is
//        delivered once. A sender's delivery time towards a receiver never decreases (each
//        is the later of now + its delay and the previous one) and its sequence numbers
//        increase, so one sender's messages to one receiver are taken in the order sent. An
//        endpoint's sending state (its random stream and the last delivery time towards each
//        receiver) is touched by its own rank's thread only; an inbox is guarded by its
//        mutex, which also carries the message from sender to receiver.
//   DT10 abort() makes every later poll() return kTerminate, so that a failed or hung run
//        ends every rank instead of leaving them waiting; after it DT8 no longer holds.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "tools/dist/transport.hpp"

namespace dist {

class FakeNetwork {
 public:
  // `max_delay_ns` 0 delivers at once (still in per-pair order).
  FakeNetwork(int ranks, std::uint64_t seed, std::uint64_t max_delay_ns);
  ~FakeNetwork();
  FakeNetwork(const FakeNetwork&) = delete;
  FakeNetwork& operator=(const FakeNetwork&) = delete;

  Transport& endpoint(int rank);
  // relaxed: a flag polled until seen (DT10); it publishes nothing (a rank's error reaches
  // run_ranks_on_fake_network through the join of its thread).
  void abort() { aborted_.store(true, std::memory_order_relaxed); }
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }
  std::uint64_t messages_sent() const { return seq_.load(std::memory_order_relaxed); }

 private:
  class Endpoint;
  struct Pending {
    std::uint64_t deliver_at;
    std::uint64_t seq;
    Message message;
  };
  struct Inbox {
    std::mutex mutex;
    std::vector<Pending> pending;
  };
  void deliver(int to, Pending p);
  std::optional<Message> take(int rank);

  std::vector<std::unique_ptr<Inbox>> inboxes_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
  std::uint64_t max_delay_ns_;
  // relaxed: only orders ties, each sender's own increase (DT9): the RMWs on one atomic
  // have one modification order, which follows each thread's program order.
  std::atomic<std::uint64_t> seq_{0};
  std::atomic<bool> aborted_{false};
};

}  // namespace dist

// The transport over Open MPI: a message is one MPI message of bytes (a small header, then
// the nodes as they lay in the sender's stack: trivially copyable bytes), sent with
// MPI_Isend and received by MPI_Iprobe and MPI_Recv. Each repetition of a search uses its own
// tag, so that a stray message of an earlier one (a request left unanswered at its end) can
// never be read as one of the next.
//
// Invariant (docs/DISTRIBUTED.md, "Invariants"):
//   DT11 DT8 over MPI: a message is one MPI message of this search's tag, and MPI delivers
//        it once and keeps one sender's messages in order (non-overtaking). A send's buffer
//        lives until MPI says the send is complete (pending_, a list so that no buffer moves,
//        tested at every send and poll and waited for by finish()); the transport is used by
//        one thread per process.
#pragma once

#include <mpi.h>

#include <list>
#include <vector>

#include "tools/dist/transport.hpp"

namespace dist {

class MpiTransport final : public Transport {
 public:
  MpiTransport(MPI_Comm comm, int tag);
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int to, Message message) override;
  std::optional<Message> poll() override;

  // Completes every send of ours (they are all small or already matched once the search has
  // ended: termination.hpp counts every work message as received).
  void finish();

  std::uint64_t bytes_sent() const override { return bytes_sent_; }
  std::uint64_t bytes_received() const override { return bytes_received_; }

 private:
  struct Pending {
    std::vector<unsigned char> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  void reap();

  MPI_Comm comm_;
  int tag_;
  int rank_ = 0;
  int size_ = 1;
  std::list<Pending> pending_;  // a list: a buffer must not move while MPI holds it
  std::uint64_t bytes_sent_ = 0;
  std::uint64_t bytes_received_ = 0;
};

// Receives and drops every message still waiting for this process under `tag` (the strays a
// finished search may leave: requests nobody answered, answers nobody read).
void drain_strays(MPI_Comm comm, int tag);

}  // namespace dist

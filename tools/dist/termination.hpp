// Termination detection for the distributed search: Dijkstra and Safra's token ring with
// message counts (Dijkstra, EWD 998; the UTS reference's MPI work stealing uses the same).
// docs/DISTRIBUTED.md, "Invariants", argues DT1-DT11 (search_core.hpp, transport.hpp,
// fake_transport.hpp and mpi_transport.hpp state the rest).
//
// The basic messages are the kWork messages, the only ones that can make a passive rank
// active (a rank is passive while its stack is empty). Requests and kNoWork answers activate
// nobody and are not counted. Each rank keeps
//   count  the kWork messages it sent minus those it received, and
//   black  whether it received a kWork message since it last passed the token on.
// The token travels 0 -> 1 -> ... -> size-1 -> 0, passed on only by a passive rank, which
// adds its count to the token's, blackens a white token if it is black itself, and turns
// white. Rank 0 starts a round with a white token of count 0 when it is passive.
//
// Invariants:
//   DT1 A rank's count is the kWork messages it sent minus those it received, and every
//       receipt of one turns it black: the search calls work_sent() once per kWork it sends
//       and work_received() once per kWork it receives, and for no other message. Only a
//       kWork message makes a passive rank active (it carries nodes: DT6); a passive rank
//       sends none (it has nothing to release: DT6).
//   DT2 The token is passed on only by a passive rank: on_passive() is called only with the
//       rank's stack empty, and a rank that holds the token while active keeps it until then.
//       It adds the rank's count, blackens the token if the rank is black, and whitens the
//       rank.
//   DT3 At most one token exists: rank 0 makes one only when none is out (a round it started
//       whose token has not come back: it waits), and takes the one that returns out of play;
//       every other rank holds at most the one it received and passes it on.
//   DT4 (Safra) Call the kWork messages sent and not yet received "in flight"; the counts of
//       all ranks sum to their number (DT1, DT8). While a round is under way, rank 0 counts
//       as not yet visited and at least one of these holds: (a) every rank the token has
//       visited is passive, and the token's count plus the counts of the ranks not yet
//       visited equals the number in flight; (b) that sum is positive; (c) some rank not yet
//       visited, or the token, is black. When the token returns white to a passive, white
//       rank 0 and its count plus rank 0's is 0, neither (b) nor (c) holds, so by (a) every
//       rank is passive and nothing is in flight: the search is over, and only then does
//       rank 0 send kTerminate, once to each other rank. Otherwise rank 0 starts another
//       round. One rank alone terminates when its stack is empty.
// Each rank's state is touched by its own thread only: no atomics, and no shared memory
// between ranks; every order the protocol needs comes from its messages.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/dist/transport.hpp"

namespace dist {

class Termination {
 public:
  Termination(int rank, int size) : rank_(rank), size_(size) {}

  void work_sent() { ++count_; }  // DT1
  void work_received() {          // DT1
    --count_;
    black_ = true;
  }
  void token_arrived(const Message& token) { held_ = Held{token.black, token.count}; }

  // What a passive rank does about termination now (DT2-DT4); call it only while passive.
  enum class Step : std::uint8_t { kNothing, kPassToken, kTerminate };
  struct Action {
    Step step = Step::kNothing;
    Message token;  // kPassToken: send this to next()
  };
  Action on_passive() {
    if (size_ == 1) return {Step::kTerminate, {}};
    if (rank_ == 0) {
      if (round_started_ && !held_) return {};  // the token is out (DT3)
      if (held_ && !held_->black && !black_ && held_->count + count_ == 0) {
        return {Step::kTerminate, {}};  // DT4
      }
      ++rounds_;
      round_started_ = true;
      held_.reset();
      black_ = false;
      return {Step::kPassToken, token(false, 0)};
    }
    if (!held_) return {};
    Action a{Step::kPassToken, token(held_->black || black_, held_->count + count_)};
    held_.reset();
    black_ = false;
    return a;
  }

  int next() const { return (rank_ + 1) % size_; }
  std::uint64_t rounds() const { return rounds_; }  // rank 0: rounds started

 private:
  struct Held {
    bool black;
    std::int64_t count;
  };
  Message token(bool black, std::int64_t count) const {
    Message m;
    m.kind = MessageKind::kToken;
    m.from = rank_;
    m.black = black;
    m.count = count;
    return m;
  }

  int rank_;
  int size_;
  std::int64_t count_ = 0;
  bool black_ = false;
  std::optional<Held> held_;
  bool round_started_ = false;
  std::uint64_t rounds_ = 0;
};

}  // namespace dist

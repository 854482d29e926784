// Termination detection for the distributed search: Dijkstra and Safra's token ring with
// message counts (Dijkstra, EWD 998; the UTS reference's MPI work stealing uses the same).
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
// Invariant (Safra): while a round is under way, either (a) every rank the token has visited
// is passive and the token's count plus the counts of the ranks not yet visited equals the
// number of kWork messages in flight, or (b) some rank not yet visited, or the token, is
// black. When the token returns to a passive, white rank 0 white and its count plus rank 0's
// is 0, (b) cannot hold, so no kWork message is in flight and every rank is passive: the
// search is over, and only then does rank 0 send kTerminate. Otherwise rank 0 starts another
// round. Each rank's state is touched by its own thread only.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/dist/transport.hpp"

namespace dist {

class Termination {
 public:
  Termination(int rank, int size) : rank_(rank), size_(size) {}

  void work_sent() { ++count_; }
  void work_received() {
    --count_;
    black_ = true;
  }
  void token_arrived(const Message& token) { held_ = Held{token.black, token.count}; }

  // What a passive rank does about termination now.
  enum class Step : std::uint8_t { kNothing, kPassToken, kTerminate };
  struct Action {
    Step step = Step::kNothing;
    Message token;  // kPassToken: send this to next()
  };
  Action on_passive() {
    if (size_ == 1) return {Step::kTerminate, {}};
    if (rank_ == 0) {
      if (round_started_ && !held_) return {};  // the token is out
      if (held_ && !held_->black && !black_ && held_->count + count_ == 0) {
        return {Step::kTerminate, {}};
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

#include "dist/tree_search.hpp"

#include <chrono>
#include <deque>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "core/steal_amount.hpp"
#include "dist/splitmix.hpp"
#include "dist/termination.hpp"

namespace weft::dist {
namespace {

constexpr unsigned kMaxPollInterval = 1024;
constexpr unsigned kPollStep = 4;
constexpr unsigned kIdleYieldsBeforeSleep = 100;
constexpr auto kIdleSleep = std::chrono::microseconds(20);

class Rank {
 public:
  Rank(const uts::Tree& tree, Transport& t, const SearchOptions& o)
      : tree_(tree),
        t_(t),
        o_(o),
        termination_(t.rank(), t.size()),
        rng_(o.seed * 0x100000001B3ULL + static_cast<std::uint64_t>(t.rank())),
        poll_every_(o.poll_interval == 0 ? 1 : o.poll_interval) {
    if (t.rank() == 0) stack_.push_back(tree.root());
  }

  RankResult run() {
    unsigned since_poll = 0;
    unsigned idle_rounds = 0;
    while (!done_) {
      if (!stack_.empty()) {
        expand_one();
        if (++since_poll >= poll_every_) {
          since_poll = 0;
          serve();
        }
        continue;
      }
      serve();  // passive: answers (with nothing), the token, work, the end
      if (done_ || !stack_.empty()) {
        idle_rounds = 0;
        continue;
      }
      if (!waiting_ && t_.size() > 1) ask_someone();
      const Termination::Action a = termination_.on_passive();
      if (a.step == Termination::Step::kTerminate) {
        for (int r = 1; r < t_.size(); ++r) t_.send(r, kind(MessageKind::kTerminate));
        done_ = true;
      } else if (a.step == Termination::Step::kPassToken) {
        t_.send(termination_.next(), a.token);
      }
      if (++idle_rounds < kIdleYieldsBeforeSleep) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(kIdleSleep);  // never a busy loop when oversubscribed
      }
    }
    if (!stack_.empty()) {
      throw std::logic_error("weft::dist: rank " + std::to_string(t_.rank()) +
                             " was told to stop with " + std::to_string(stack_.size()) +
                             " nodes left");
    }
    result_.token_rounds = termination_.rounds();
    return result_;
  }

 private:
  static Message kind(MessageKind k) {
    Message m;
    m.kind = k;
    return m;
  }

  void expand_one() {
    const uts::Node node = stack_.back();
    stack_.pop_back();
    const int children = tree_.num_children(node);
    result_.counts.count_node(node.height, children);
    for (int i = 0; i < children; ++i) stack_.push_back(tree_.child(node, i));
  }

  // Handles every message that has arrived.
  void serve() {
    ++result_.polls;
    bool served = false;
    while (std::optional<Message> m = t_.poll()) {
      switch (m->kind) {
        case MessageKind::kRequest:
          answer(m->from);
          served = true;
          break;
        case MessageKind::kWork:
          termination_.work_received();
          result_.chunks_received += (m->nodes.size() + o_.chunk - 1) / o_.chunk;
          for (uts::Node& n : m->nodes) stack_.push_back(n);
          waiting_ = false;
          break;
        case MessageKind::kNoWork:
          ++result_.failed_steals;
          waiting_ = false;
          break;
        case MessageKind::kToken: termination_.token_arrived(*m); break;
        case MessageKind::kTerminate: done_ = true; return;
      }
    }
    if (o_.poll_interval == 0) {
      poll_every_ = served ? 1 : std::min(poll_every_ + kPollStep, kMaxPollInterval);
    }
  }

  // Whole chunks below the working one, oldest first.
  void answer(int thief) {
    ++result_.requests_served;
    const std::size_t c = o_.chunk;
    const auto releasable =
        static_cast<std::int64_t>(stack_.size() > c ? (stack_.size() - c) / c : 0);
    const std::int64_t k = weft::detail::steal_amount(o_.policy, releasable, 0.0);
    if (k == 0) {
      t_.send(thief, kind(MessageKind::kNoWork));
      return;
    }
    Message m = kind(MessageKind::kWork);
    const auto take = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(k) * c);
    m.nodes.assign(stack_.begin(), stack_.begin() + take);
    stack_.erase(stack_.begin(), stack_.begin() + take);
    result_.chunks_sent += static_cast<std::uint64_t>(k);
    termination_.work_sent();
    t_.send(thief, std::move(m));
  }

  void ask_someone() {
    auto victim = static_cast<int>(splitmix(rng_) % static_cast<std::uint64_t>(t_.size() - 1));
    if (victim >= t_.rank()) ++victim;
    t_.send(victim, kind(MessageKind::kRequest));
    waiting_ = true;
    ++result_.requests_sent;
  }

  const uts::Tree& tree_;
  Transport& t_;
  const SearchOptions& o_;
  Termination termination_;
  std::uint64_t rng_;
  unsigned poll_every_;
  std::deque<uts::Node> stack_;  // front: the oldest
  bool waiting_ = false;         // a request of ours is unanswered
  bool done_ = false;
  RankResult result_;
};

}  // namespace

RankResult search_rank(const uts::Tree& tree, Transport& transport, const SearchOptions& options) {
  if (options.chunk < 1) {
    throw std::invalid_argument("--chunk " + std::to_string(options.chunk) + ": expected >= 1");
  }
  return Rank(tree, transport, options).run();
}

}  // namespace weft::dist

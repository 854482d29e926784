#include "tools/dist/search_core.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "model/steal_amount.hpp"
#include "tools/dist/splitmix.hpp"
#include "tools/dist/steady_ns.hpp"
#include "tools/dist/termination.hpp"

namespace dist {
namespace {

constexpr unsigned kMaxPollInterval = 1024;
constexpr unsigned kPollStep = 4;
// A passive rank yields its core between polls for this long, then sleeps between them. A
// sleep is far longer than asked (the kernel's timer slack: about 100 us for 20 asked, here),
// and an answer usually comes within a victim's longest poll interval (about 1024 nodes): a
// thief that slept at once would add a sleep to nearly every steal.
constexpr std::int64_t kYieldForNs = 500'000;
constexpr auto kIdleSleep = std::chrono::microseconds(20);

// Where a rank's time goes (profile.hpp); `switch_to` closes the current phase.
class PhaseClock {
 public:
  enum Phase : std::uint8_t { kBusy, kServe, kSteal, kIdle, kPhases };
  explicit PhaseClock(Phase first) : phase_(first), since_(steady_ns()), start_(since_) {}
  Phase phase() const { return phase_; }
  std::int64_t switch_to(Phase next) {
    const std::int64_t t = steady_ns();
    ns_[phase_] += t - since_;
    since_ = t;
    phase_ = next;
    return t;
  }
  void finish(RankProfile& p) {
    switch_to(phase_);
    p.busy_s = seconds(ns_[kBusy]);
    p.serve_s = seconds(ns_[kServe]);
    p.steal_s = seconds(ns_[kSteal]);
    p.idle_s = seconds(ns_[kIdle]);
    p.seconds = seconds(since_ - start_);
  }

 private:
  static double seconds(std::int64_t ns) { return static_cast<double>(ns) * 1e-9; }
  Phase phase_;
  std::int64_t since_;
  std::int64_t start_;
  std::int64_t ns_[kPhases] = {};
};

class Rank {
 public:
  Rank(const ErasedTree& tree, const std::byte* root, Transport& t, const SearchOptions& o)
      : tree_(tree),
        t_(t),
        o_(o),
        termination_(t.rank(), t.size()),
        rng_(o.seed * 0x100000001B3ULL + static_cast<std::uint64_t>(t.rank())),
        poll_every_(o.poll_interval == 0 ? 1 : o.poll_interval),
        stack_(tree.node_bytes),
        clock_(t.rank() == 0 ? PhaseClock::kBusy : PhaseClock::kIdle) {
    if (t.rank() == 0) stack_.push_bytes(root, tree.node_bytes);
  }

  RankProfile run() {
    std::int64_t passive_since = -1;  // -1: not passive
    while (!done_) {
      if (!stack_.empty()) {
        if (clock_.phase() != PhaseClock::kBusy) clock_.switch_to(PhaseClock::kBusy);
        p_.nodes += tree_.expand_some(tree_.context, stack_, poll_every_);
        serve();
        continue;
      }
      serve();  // passive: answers (with nothing), the token, work, the end
      if (done_ || !stack_.empty()) {
        passive_since = -1;
        continue;
      }
      if (!waiting_ && t_.size() > 1) ask_someone();  // one request out at most (DT7)
      const PhaseClock::Phase passive = waiting_ ? PhaseClock::kSteal : PhaseClock::kIdle;
      if (clock_.phase() != passive) clock_.switch_to(passive);
      const Termination::Action a = termination_.on_passive();  // passive here (DT2)
      if (a.step == Termination::Step::kTerminate) {  // nothing in flight, all passive (DT4)
        for (int r = 1; r < t_.size(); ++r) t_.send(r, kind(MessageKind::kTerminate));
        done_ = true;
      } else if (a.step == Termination::Step::kPassToken) {
        if (t_.rank() == 0) round_sent_at_ = steady_ns();
        t_.send(termination_.next(), a.token);
      }
      const std::int64_t now = steady_ns();
      if (passive_since < 0) passive_since = now;
      if (now - passive_since < kYieldForNs) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(kIdleSleep);  // never a busy loop when oversubscribed
      }
    }
    clock_.finish(p_);
    if (!stack_.empty()) {  // DT4 and DT5 say this never happens
      throw std::logic_error("weft::dist: rank " + std::to_string(t_.rank()) +
                             " was told to stop with " + std::to_string(stack_.size()) +
                             " nodes left");
    }
    p_.token_rounds = termination_.rounds();
    p_.bytes_sent = t_.bytes_sent();
    p_.bytes_received = t_.bytes_received();
    return std::move(p_);
  }

 private:
  static Message kind(MessageKind k) {
    Message m;
    m.kind = k;
    return m;
  }

  // Handles every message that has arrived.
  void serve() {
    ++p_.polls;
    bool served = false;
    while (std::optional<Message> m = t_.poll()) {
      switch (m->kind) {
        case MessageKind::kRequest:
          answer(m->from);
          served = true;
          break;
        case MessageKind::kWork: {
          const std::int64_t t = steady_ns();
          answered(t);
          p_.transfers_s.push_back(static_cast<double>(t - m->sent_ns) * 1e-9);
          termination_.work_received();  // DT1
          // Whole nodes, at least one (DT6); every one of them goes on our stack (DT5).
          if (m->nodes.empty() || m->nodes.size() % tree_.node_bytes != 0) {
            throw std::runtime_error("weft::dist: rank " + std::to_string(m->from) + " sent " +
                                     std::to_string(m->nodes.size()) + " bytes of " +
                                     std::to_string(tree_.node_bytes) + "-byte nodes");
          }
          const std::size_t nodes = m->nodes.size() / tree_.node_bytes;
          p_.chunks_received += (nodes + o_.chunk - 1) / o_.chunk;
          stack_.push_bytes(m->nodes.data(), m->nodes.size());
          break;
        }
        case MessageKind::kNoWork:
          answered(steady_ns());
          ++p_.failed_steals;
          break;
        case MessageKind::kToken:
          if (t_.rank() == 0) {
            p_.last_token_round_s = static_cast<double>(steady_ns() - round_sent_at_) * 1e-9;
          }
          termination_.token_arrived(*m);
          break;
        case MessageKind::kTerminate: done_ = true; return;
      }
    }
    if (o_.poll_interval == 0) {
      poll_every_ = served ? 1 : std::min(poll_every_ + kPollStep, kMaxPollInterval);
    }
  }

  void answered(std::int64_t t) {
    p_.round_trips_s.push_back(static_cast<double>(t - asked_at_) * 1e-9);
    waiting_ = false;
  }

  // Whole chunks below the working one, oldest first (DT6); every request read gets one
  // answer (DT7).
  void answer(int thief) {
    const PhaseClock::Phase was = clock_.phase();
    const std::int64_t served_at = clock_.switch_to(PhaseClock::kServe);
    ++p_.requests_served;
    const std::size_t c = o_.chunk;
    const std::size_t held = stack_.size();
    const auto releasable = static_cast<std::int64_t>(held > c ? (held - c) / c : 0);
    const std::int64_t k = weft::detail::steal_amount(o_.policy, releasable, 0.0);
    if (k == 0) {
      t_.send(thief, kind(MessageKind::kNoWork));
    } else {
      Message m = kind(MessageKind::kWork);
      // Out of our stack (DT5), and counted (DT1).
      stack_.take_oldest(static_cast<std::size_t>(k) * c, m.nodes);
      p_.chunks_sent += static_cast<std::uint64_t>(k);
      termination_.work_sent();
      m.sent_ns = served_at;  // packing counts as part of the transfer
      t_.send(thief, std::move(m));
    }
    clock_.switch_to(was);
  }

  void ask_someone() {
    auto victim = static_cast<int>(splitmix(rng_) % static_cast<std::uint64_t>(t_.size() - 1));
    if (victim >= t_.rank()) ++victim;  // never ourselves (DT7)
    asked_at_ = clock_.switch_to(PhaseClock::kSteal);
    t_.send(victim, kind(MessageKind::kRequest));
    waiting_ = true;
    ++p_.requests_sent;
  }

  const ErasedTree& tree_;
  Transport& t_;
  const SearchOptions& o_;
  Termination termination_;
  std::uint64_t rng_;
  unsigned poll_every_;
  NodeStack stack_;
  PhaseClock clock_;
  bool waiting_ = false;  // a request of ours is unanswered (DT7)
  std::int64_t asked_at_ = 0;
  std::int64_t round_sent_at_ = 0;  // rank 0: when the token last went out
  bool done_ = false;
  RankProfile p_;
};

}  // namespace

double quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  const auto i = static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1) + 0.5);
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(i),
                   samples.end());
  return samples[i];
}

RankProfile search_rank_erased(const ErasedTree& tree, const std::byte* root, Transport& transport,
                               const SearchOptions& options) {
  if (options.chunk < 1) {
    throw std::invalid_argument("--chunk " + std::to_string(options.chunk) + ": expected >= 1");
  }
  if (tree.node_bytes == 0 || tree.expand_some == nullptr) {
    throw std::invalid_argument("weft::dist: a node type of 0 bytes or without expand");
  }
  return Rank(tree, root, transport, options).run();
}

}  // namespace dist

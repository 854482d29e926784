#include "tools/dist/fake_transport.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <utility>

#include "tools/dist/splitmix.hpp"
#include "tools/dist/steady_ns.hpp"

namespace dist {
namespace {

std::uint64_t now_ns() { return static_cast<std::uint64_t>(steady_ns()); }

}  // namespace

class FakeNetwork::Endpoint final : public Transport {
 public:
  Endpoint(FakeNetwork& net, int rank, int size, std::uint64_t seed)
      : net_(net), rank_(rank), size_(size), rng_(seed), last_(static_cast<std::size_t>(size)) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int to, Message message) override {
    message.from = rank_;
    bytes_sent_ += kWireHeaderBytes + message.nodes.size();
    const std::uint64_t delay = net_.max_delay_ns_ == 0 ? 0 : splitmix(rng_) % net_.max_delay_ns_;
    std::uint64_t& last = last_[static_cast<std::size_t>(to)];
    last = std::max(now_ns() + delay, last);  // never before an earlier one to `to`
    net_.deliver(
        to, Pending{last, net_.seq_.fetch_add(1, std::memory_order_relaxed), std::move(message)});
  }
  std::optional<Message> poll() override {
    std::optional<Message> m = net_.take(rank_);
    if (m) bytes_received_ += kWireHeaderBytes + m->nodes.size();
    return m;
  }
  std::uint64_t bytes_sent() const override { return bytes_sent_; }
  std::uint64_t bytes_received() const override { return bytes_received_; }

 private:
  FakeNetwork& net_;
  int rank_;
  int size_;
  std::uint64_t rng_;
  std::vector<std::uint64_t> last_;  // the latest delivery time towards each rank
  std::uint64_t bytes_sent_ = 0;
  std::uint64_t bytes_received_ = 0;
};

FakeNetwork::FakeNetwork(int ranks, std::uint64_t seed, std::uint64_t max_delay_ns)
    : max_delay_ns_(max_delay_ns) {
  for (int r = 0; r < ranks; ++r) {
    inboxes_.push_back(std::make_unique<Inbox>());
    std::uint64_t s = seed * 0x100000001B3ULL + static_cast<std::uint64_t>(r);
    endpoints_.push_back(std::make_unique<Endpoint>(*this, r, ranks, splitmix(s)));
  }
}

FakeNetwork::~FakeNetwork() = default;

Transport& FakeNetwork::endpoint(int rank) {
  return *endpoints_.at(static_cast<std::size_t>(rank));
}

void FakeNetwork::deliver(int to, Pending p) {
  Inbox& in = *inboxes_.at(static_cast<std::size_t>(to));
  std::lock_guard lock(in.mutex);
  in.pending.push_back(std::move(p));
}

std::optional<Message> FakeNetwork::take(int rank) {
  if (aborted()) {
    Message m;
    m.kind = MessageKind::kTerminate;
    return m;
  }
  Inbox& in = *inboxes_[static_cast<std::size_t>(rank)];
  const std::uint64_t now = now_ns();
  std::lock_guard lock(in.mutex);
  // The earliest due, ties by send order: one sender's messages to us are due in the order
  // sent (Endpoint::send), so they are taken in that order.
  auto best = in.pending.end();
  for (auto it = in.pending.begin(); it != in.pending.end(); ++it) {
    if (it->deliver_at > now) continue;
    if (best == in.pending.end() ||
        std::tie(it->deliver_at, it->seq) < std::tie(best->deliver_at, best->seq)) {
      best = it;
    }
  }
  if (best == in.pending.end()) return std::nullopt;
  Message m = std::move(best->message);
  in.pending.erase(best);
  return m;
}

}  // namespace dist

// The messages ranks exchange in a distributed tree search, and the interface a transport
// offers: Open MPI's between processes, or the in-process fake (fake_transport.hpp) whose
// seeded delays make the protocol's interleavings testable.
//
// Invariant (docs/DISTRIBUTED.md, "Invariants"):
//   DT8 A transport delivers every message it is sent once, unaltered, to the rank it was
//       sent to (unless the search ends first: a message still unread then is a stray), and
//       two messages from one rank to another in the order they were sent, as MPI's
//       non-overtaking rule does. Messages from different senders, and delays, are
//       unconstrained. DT1, DT4 and DT5 use the exactly-once delivery; none of DT1-DT7
//       needs the order (Safra's counts hold under any order, and a thief has at most one
//       answer in flight, DT7).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace dist {

enum class MessageKind : std::uint8_t {
  kRequest,    // a thief asks for work; one outstanding request per thief
  kWork,       // the victim's answer: whole chunks of its oldest nodes
  kNoWork,     // the victim's answer: nothing to give
  kToken,      // the termination token (termination.hpp)
  kTerminate,  // rank 0 has detected termination; the receiver stops
};

struct Message {
  MessageKind kind = MessageKind::kNoWork;
  int from = -1;
  bool black = false;            // kToken: the token's colour
  std::int64_t count = 0;        // kToken: work messages sent minus received, summed so far
  std::int64_t sent_ns = 0;      // kWork: the sender's steady clock when it sent the work
  std::vector<std::byte> nodes;  // kWork: the nodes handed over, as they lay in its stack
};

// A message's bytes on the wire before its nodes: kind, colour, count and send time.
inline constexpr std::size_t kWireHeaderBytes = 24;

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual void send(int to, Message message) = 0;
  // A message that has arrived for this rank, if any; never blocks.
  virtual std::optional<Message> poll() = 0;
  // What this rank's messages have cost on the wire so far (the fake network counts what the
  // MPI transport would send).
  virtual std::uint64_t bytes_sent() const = 0;
  virtual std::uint64_t bytes_received() const = 0;
};

}  // namespace dist

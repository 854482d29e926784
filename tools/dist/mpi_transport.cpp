#include "tools/dist/mpi_transport.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace dist {
namespace {

struct Header {
  std::uint8_t kind;
  std::uint8_t black;
  std::uint8_t unused[6];
  std::int64_t count;
  std::int64_t sent_ns;
};
static_assert(sizeof(Header) == kWireHeaderBytes && std::is_trivially_copyable_v<Header>);

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("weft::dist: ") + what + " failed");
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm, int tag) : comm_(comm), tag_(tag) {
  check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
}

MpiTransport::~MpiTransport() {
  // Only after finish(), or while unwinding from an error that aborts the job anyway.
  for (Pending& p : pending_) {
    if (p.request != MPI_REQUEST_NULL) MPI_Request_free(&p.request);
  }
}

void MpiTransport::send(int to, Message message) {
  const Header h{
      static_cast<std::uint8_t>(message.kind), message.black, {}, message.count, message.sent_ns};
  Pending& p = pending_.emplace_back();
  const std::size_t node_bytes = message.nodes.size();
  p.bytes.resize(sizeof h + node_bytes);
  std::memcpy(p.bytes.data(), &h, sizeof h);
  if (node_bytes > 0) std::memcpy(p.bytes.data() + sizeof h, message.nodes.data(), node_bytes);
  check(MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, to, tag_, comm_,
                  &p.request),
        "MPI_Isend");
  bytes_sent_ += p.bytes.size();
  reap();
}

std::optional<Message> MpiTransport::poll() {
  reap();
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, tag_, comm_, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int bytes = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
  std::vector<unsigned char> buffer(static_cast<std::size_t>(bytes));
  check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, status.MPI_SOURCE, tag_, comm_, MPI_STATUS_IGNORE),
        "MPI_Recv");
  bytes_received_ += buffer.size();
  Header h;
  if (buffer.size() < sizeof h) {
    throw std::runtime_error("weft::dist: a message of " + std::to_string(bytes) +
                             " bytes from rank " + std::to_string(status.MPI_SOURCE));
  }
  std::memcpy(&h, buffer.data(), sizeof h);
  Message m;
  m.kind = static_cast<MessageKind>(h.kind);
  m.from = status.MPI_SOURCE;
  m.black = h.black != 0;
  m.count = h.count;
  m.sent_ns = h.sent_ns;
  m.nodes.resize(buffer.size() - sizeof h);
  if (!m.nodes.empty()) std::memcpy(m.nodes.data(), buffer.data() + sizeof h, m.nodes.size());
  return m;
}

void MpiTransport::reap() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    int done = 0;
    check(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    it = done ? pending_.erase(it) : std::next(it);
  }
}

void MpiTransport::finish() {
  for (Pending& p : pending_) check(MPI_Wait(&p.request, MPI_STATUS_IGNORE), "MPI_Wait");
  pending_.clear();
}

void drain_strays(MPI_Comm comm, int tag) {
  for (;;) {
    int flag = 0;
    MPI_Status status;
    check(MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &flag, &status), "MPI_Iprobe");
    if (!flag) return;
    int bytes = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count");
    std::vector<unsigned char> buffer(static_cast<std::size_t>(bytes));
    check(MPI_Recv(buffer.data(), bytes, MPI_BYTE, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
  }
}

}  // namespace dist

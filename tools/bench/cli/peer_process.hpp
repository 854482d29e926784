// Runs one peer executable (tools/peers/peer_cli.hpp's protocol) as a child process and reads
// its answer: the peers are separate programs because libgomp and libomp export the same
// symbols, Rayon and chili are Rust, and a runtime's idle threads must not linger into the next
// run.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace bench_cli {

// One run of a peer, as its JSON line reported it.
struct PeerRun {
  double seconds = 0;
  std::string result;
  bool verified = false;
  std::string error;     // the peer's reason when !verified
  unsigned threads = 0;  // "threads", where the peer reports it
};

// A peer that could not be run or broke the protocol (no line, bad line, exit status).
class PeerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `program args...`, waits for it, and returns its stdout; `status` gets the exit status
// (or 128 + signal). Throws PeerError if it cannot be started, with exec's reason. The child
// is recorded while it runs, so that an interrupted weft-bench passes the signal on to it
// (interrupt.hpp), and it gets SIGKILL from the kernel if weft-bench dies first.
std::string run_program(const std::string& program, const std::vector<std::string>& args,
                        int& status);

// `program --workload spec --workers w --repeat 1 [--loops loops] [--schedule schedule]`,
// parsed; --schedule is left out when `schedule` is "" or "default" (the peer's own). Throws
// PeerError when the peer fails to answer with one well-formed line, or answers for another
// schedule; a run that fails its verification is returned with verified = false.
PeerRun run_peer(const std::string& program, const std::string& spec, unsigned workers,
                 const std::string& loops = "", const std::string& schedule = "");

// The workload names `program --list` prints; empty if it cannot be run.
std::vector<std::string> peer_workloads(const std::string& program);
// The loop variants `program --list-loops [--schedule schedule]` prints (those that run under
// `schedule`; "" or "default": all of them); empty if it cannot be run.
std::vector<std::string> peer_loop_variants(const std::string& program,
                                            const std::string& schedule = "");

// The value of "key" in a one-line JSON object of flat fields (the protocol's lines); throws
// PeerError if absent or malformed. Strings are unescaped.
std::string json_field(const std::string& line, const std::string& key);

}  // namespace bench_cli

// Thread-level UTS without a task runtime (Olivier & Prins Sect. 3.2, docs/REFERENCES.md, after
// the UTS reference's shared-memory version): P threads, each traversing depth-first from
// its own explicit node stack. A thread whose stack holds more than 2c nodes releases its c
// oldest nodes (those nearest the root) as one chunk to a shared pool; a thread whose stack
// is empty takes a chunk from the pool, or waits. The traversal ends when every thread is
// waiting and the pool is empty. Work thus moves c nodes at a time: the aggregation that
// the paper credits for this version's low overhead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/uts/counts.hpp"
#include "workloads/uts/tree.hpp"

namespace uts {

struct ThreadsOptions {
  unsigned threads = 1;         // P, in [1, 4096]
  std::size_t chunk_size = 64;  // c, >= 1
};

struct ThreadsResult {
  Counts counts;
  std::vector<std::uint64_t> nodes_per_thread;  // the load balance (Olivier & Prins Fig. 11)
  std::uint64_t releases = 0;                   // chunks put in the pool
  std::uint64_t steals = 0;      // chunks taken by a thread other than their releaser
  std::uint64_t reacquires = 0;  // chunks taken back by the thread that released them
};

// Throws std::invalid_argument for options out of range; rethrows the first exception of a
// thread (std::bad_alloc) after stopping and joining all of them.
ThreadsResult traverse_threads(const Tree& tree, const ThreadsOptions& options);

}  // namespace uts

// tree: a complete binary tree of threads, each node allocating 64 KiB with weft::allocate
// and holding it while its two children (threads) run. The serial elision holds one chain of
// nodes, S1 = (depth + 1) · 64 KiB; a breadth-first scheduler holds the whole tree; AsyncDF's
// bound for a depth-first one with quota K on p workers is S1 + 4·p·D·K, D the fork depth
// (tree_fork_depth).
#pragma once

#include <cstddef>
#include <cstdint>

#include "tools/bench/threads/threads_bench.hpp"

namespace bench_threads {

inline constexpr std::size_t kTreeNodeBytes = 64 * kKiB;

// The sum every run must return: each node adds a value derived from its number.
std::uint64_t tree_expected(int depth);
std::uint64_t tree_serial(int depth);
// The root a weft::thread too (inside a Runtime's run()), every child a weft::thread.
std::uint64_t tree_threads(int depth);

// The depth of the dummy-thread tree weft::allocate forks ahead of an allocation of `bytes`
// under quota K (none when bytes <= K): ceil(bytes / K) dummies as a binary tree.
int dummy_tree_depth(std::size_t bytes, std::size_t quota);
// D: the forks on the longest path of a run: the root thread, one per level below it, and
// the dummy tree a leaf forks ahead of its allocation.
int tree_fork_depth(int depth, std::size_t quota);
// S1 + 4·p·D·K.
std::size_t tree_space_bound(std::size_t s1, unsigned workers, int fork_depth, std::size_t quota);

}  // namespace bench_threads

#include "tools/bench/threads/thread_tree.hpp"

#include <algorithm>
#include <weft/memory.hpp>

#include "tools/bench/threads/fork_join.hpp"
#include "workloads/kernels/dense_kernel.hpp"

namespace bench_threads {
namespace {

constexpr std::size_t kWords = kTreeNodeBytes / sizeof(std::uint64_t);

std::uint64_t node_value(std::uint64_t id) { return kernels::dense::Matrix::mix(id) + id; }

// Node `id` (the root is 1, node i's children 2i and 2i+1) with `below` levels under it.
// The value goes through the node's block (first and last word), so a block freed or
// overwritten while its node still holds it shows up in the sum.
template <class Calls>
std::uint64_t node(std::uint64_t id, int below) {
  auto* block = static_cast<std::uint64_t*>(weft::allocate(kTreeNodeBytes));
  block[0] = kernels::dense::Matrix::mix(id);
  block[kWords - 1] = id;
  std::uint64_t left = 0, right = 0;
  if (below > 0) {
    Calls::fork_join([&] { left = node<Calls>(2 * id, below - 1); },
                     [&] { right = node<Calls>(2 * id + 1, below - 1); });
  }
  const std::uint64_t sum = left + right + block[0] + block[kWords - 1];
  weft::deallocate(block, kTreeNodeBytes);
  return sum;
}

}  // namespace

std::uint64_t tree_expected(int depth) {
  std::uint64_t sum = 0;
  const std::uint64_t nodes = (std::uint64_t{1} << (depth + 1)) - 1;
  for (std::uint64_t id = 1; id <= nodes; ++id) sum += node_value(id);
  return sum;
}

std::uint64_t tree_serial(int depth) { return node<PlainCalls>(1, depth); }

std::uint64_t tree_threads(int depth) {
  std::uint64_t sum = 0;
  weft::thread root([&] { sum = node<ThreadPerCall>(1, depth); });
  root.join();
  return sum;
}

int dummy_tree_depth(std::size_t bytes, std::size_t quota) {
  if (quota == 0 || bytes <= quota) return 0;
  // fork_dummy_tree(n) makes one thread for the left (n-1)/2 and recurses on the rest: a
  // binary tree of n threads, ceil(log2(n + 1)) deep.
  const std::size_t dummies = (bytes + quota - 1) / quota;
  int depth = 0;
  while ((std::size_t{1} << depth) < dummies + 1) ++depth;
  return depth;
}

int tree_fork_depth(int depth, std::size_t quota) {
  return 1 + depth + dummy_tree_depth(kTreeNodeBytes, quota);
}

std::size_t tree_space_bound(std::size_t s1, unsigned workers, int fork_depth, std::size_t quota) {
  return s1 + 4 * std::size_t{workers} * static_cast<std::size_t>(fork_depth) * quota;
}

}  // namespace bench_threads

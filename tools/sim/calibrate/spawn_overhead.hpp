// What weft's spawn forms cost on one worker beyond what the engine charges for them (a
// spawn and an inline join: weft's frame cost, frame_cost_ns) and beyond the serial run the
// recording's work is scaled to (TaskCallPar, tools/sim/dag/task_call_par.hpp). The frame cost is
// measured on fib's shape, a closure of one pointer; weft::invoke's future and weft::scope's
// bookkeeping, and a bigger closure copied into its slot, cost more. weft's profile counts
// that extra as busy time, not frame time, so RecordPar adds it to the work of the task that
// pays it: an invoke's to its caller's segment after the join, a scope's and its children's
// to the segment after the scope. Each figure is measured once per process, on first use: a
// one-worker weft::Runtime runs N iterations of the form and of its serial counterpart (the
// serial elision's for invoke, which TaskCallPar runs as the elision does; TaskCallPar's
// scope for a scope), alternately, 5 times; the median difference per iteration, less the
// frame cost per spawn, never below 0.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <weft/weft.hpp>

#include "tools/sim/dag/task_call_par.hpp"

namespace sim {

namespace spawn_overhead_detail {

// The median over 5 alternated rounds of (weft_loop - serial_loop) / iterations, in ps,
// each loop run by a one-worker weft::Runtime; never below 0.
std::uint64_t extra_per_iteration_ps(const std::function<void()>& weft_loop,
                                     const std::function<void()>& serial_loop, int iterations);
std::uint64_t frame_cost_ps();
// `ps` less one spawn and inline join (the frame cost), never below 0.
std::uint64_t less_frame(std::uint64_t ps);
// Keeps a measured figure for spawn_overheads_text().
std::uint64_t noted(std::string name, std::uint64_t ps);

inline constexpr int kIterations = 100000;

// The spawning forms of the scope tree below: weft's scope, and TaskCallPar's.
struct WeftScopes {
  template <class Body>
  void scope(Body&& body) {
    weft::scope(std::forward<Body>(body));
  }
};

// A node of a tree of scopes, a closure of at least `Bytes` bytes (as the recorded child's):
// it hands its bytes to an empty asm, so the compiler must make it, and opens a scope of
// kFanout children like itself until `depth` is 0.
inline constexpr int kFanout = 4;
inline constexpr int kTreeDepth = 7;  // 21,845 nodes a tree
template <class Par, std::size_t Bytes>
struct TreeNode {
  static constexpr std::size_t kHeader = sizeof(Par*) + sizeof(int);
  Par* par;
  int depth;
  std::array<std::byte, (Bytes > kHeader ? Bytes - kHeader : 1)> bytes{};
  void operator()() const {
    asm volatile("" : : "r"(bytes.data()) : "memory");
    if (depth == 0) return;
    par->scope([this](auto& s) {
      for (int c = 0; c < kFanout; ++c) s.spawn(TreeNode{par, depth - 1});
    });
  }
};
constexpr int tree_nodes() {
  int nodes = 0;
  for (int d = 0, level = 1; d <= kTreeDepth; ++d, level *= kFanout) nodes += level;
  return nodes;
}

}  // namespace spawn_overhead_detail

// WeftPar::invoke of two empty functions, beyond one spawn and inline join.
std::uint64_t invoke_overhead_ps();
// An empty weft::scope (no children), against TaskCallPar's.
std::uint64_t scope_overhead_ps();
// The figures measured so far in this process, for people: "invoke 5.1 ns, ...".
std::string spawn_overheads_text();

// Each child of `Bytes` bytes spawned in a weft::scope, beyond a spawn and inline join and
// beyond TaskCallPar's out-of-line call: per node of a tree of scopes (kFanout children a
// node, kTreeDepth deep), weft's time less TaskCallPar's, less the frame cost. A tree, not a
// flat scope of children in a loop: what a scope costs depends on what the compiler makes of
// it, and in a loop it keeps the scope's join and bookkeeping in the loop's own frame, which a
// recursion's tasks cannot (nqueens:12's children cost weft about 17 ns beyond TaskCallPar's
// calls, a flat scope of four children 1-2 ns, this tree about 11). Each node that opens a
// scope also pays scope_overhead_ps() here: three in four are leaves, so a fourth of it is
// counted twice.
template <std::size_t Bytes>
std::uint64_t scope_child_overhead_ps() {
  namespace d = spawn_overhead_detail;
  static const std::uint64_t ps = [] {
    constexpr int kTrees = 50;  // about 10 ms a loop
    const std::uint64_t per_node = d::extra_per_iteration_ps(
        [] {
          d::WeftScopes par;
          for (int t = 0; t < kTrees; ++t) d::TreeNode<d::WeftScopes, Bytes>{&par, d::kTreeDepth}();
        },
        [] {
          TaskCallPar par;
          for (int t = 0; t < kTrees; ++t) d::TreeNode<TaskCallPar, Bytes>{&par, d::kTreeDepth}();
        },
        kTrees * d::tree_nodes());
    return d::noted("a scope child of " + std::to_string(Bytes) + " bytes",
                    d::less_frame(per_node));
  }();
  return ps;
}

}  // namespace sim

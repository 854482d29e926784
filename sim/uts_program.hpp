// A UTS tree as bench/uts/uts_weft.cpp traverses it: a task per node, which makes its own
// node from its parent's state (the same SHA-1 stream, so the same tree node for node),
// spawns all its children and joins them newest first. Nodes are made as the simulation
// reaches them and freed when their task ends: the tree is never held.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/program.hpp"
#include "uts/tree.hpp"

namespace weft_sim {

struct UtsCosts {
  std::uint64_t node_ps = 0;      // making a node and counting its children
  std::uint64_t internal_ps = 0;  // a node with children: its extra over a leaf
};

// The root's task. `tree` and `costs` must outlive the simulation.
std::unique_ptr<Strand> uts_program(const uts::Tree& tree, const UtsCosts& costs);

}  // namespace weft_sim

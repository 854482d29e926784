// A UTS tree as workloads/uts/uts_weft.cpp traverses it: a task per node, which makes its own
// node from its parent's state (the same SHA-1 stream, so the same tree node for node),
// spawns all its children and joins them newest first. Nodes are made as the simulation
// reaches them and freed when their task ends: the tree is never held.
#pragma once

#include <cstdint>
#include <memory>

#include "tools/sim/engine/program.hpp"
#include "workloads/uts/tree.hpp"

namespace sim {

// A node costs what making it (one SHA-1) and drawing its number of children cost, and the
// draw is its tree's own: a uniform against q (binomial), or a geometric draw around a mean
// that each shape computes its own way (linear, a power, a sine, a constant), or the first
// near the root and the second below (hybrid). Measured per node, the trees of one kind agree
// (binomial T3 and B within 5 %) and those of different kinds do not (geometric T1, T2 and T5:
// 82, 125 and 98 ns a node here), so each kind has its cost. A node with children costs no
// more than a leaf here: its spawns and joins are the engine's to charge.
struct UtsCosts {
  std::uint64_t binomial_ps = 0;
  std::uint64_t geo_linear_ps = 0;
  std::uint64_t geo_expdec_ps = 0;
  std::uint64_t geo_cyclic_ps = 0;
  std::uint64_t geo_fixed_ps = 0;  // also balanced trees' (a fixed count, no draw)
  std::uint64_t hybrid_ps = 0;

  std::uint64_t node_ps(const uts::TreeParams& tree) const {
    switch (tree.type) {
      case uts::TreeType::kBinomial: return binomial_ps;
      case uts::TreeType::kHybrid: return hybrid_ps;
      case uts::TreeType::kBalanced: return geo_fixed_ps;
      case uts::TreeType::kGeometric: break;
    }
    switch (tree.shape) {
      case uts::GeoShape::kLinear: return geo_linear_ps;
      case uts::GeoShape::kExpDec: return geo_expdec_ps;
      case uts::GeoShape::kCyclic: return geo_cyclic_ps;
      case uts::GeoShape::kFixed: break;
    }
    return geo_fixed_ps;
  }
};

// The root's task. `tree` and `costs` must outlive the simulation.
std::unique_ptr<Strand> uts_program(const uts::Tree& tree, const UtsCosts& costs);

}  // namespace sim

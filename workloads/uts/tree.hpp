// UTS trees: the parameters that define one, their validation, and the rule that gives each
// node its number of children. Definitions follow the UTS reference (uts.c, version 2.1)
// exactly, so that the reference's published tree sizes are reproduced node for node.
//
// A tree is a Galton-Watson process: a node's number of children is a random variable drawn
// from the node's own SHA-1 state (sha1_stream.hpp), so every node's subtree is fixed by the
// node alone.
//   binomial   the root has floor(b0) children; every other node has m children with
//              probability q, else none (expected size finite iff q*m < 1)
//   geometric  a node at depth d has a geometrically distributed number of children with
//              mean b_d, where a shape function maps (b0, d, gen_mx) to b_d
//   hybrid     geometric while depth < shift_depth * gen_mx, binomial below
//   balanced   every node above depth gen_mx has (int)b0 children
// Only a binomial root and the nodes of a balanced tree may have more than kMaxChildren
// children; every other count is capped there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "workloads/uts/sha1_stream.hpp"

namespace uts {

// The reference's numeric codes (its -t and -a values) are the enumerators' values.
enum class TreeType : int { kBinomial = 0, kGeometric = 1, kHybrid = 2, kBalanced = 3 };

// Geometric shape functions: how the mean branching factor b_d falls with depth d.
enum class GeoShape : int {
  kLinear = 0,  // b0 * (1 - d / gen_mx): no node below depth gen_mx
  kExpDec = 1,  // b0 * d^(-log b0 / log gen_mx): falls polynomially, to 1 at gen_mx
  kCyclic = 2,  // b0^sin(2 pi d / gen_mx), and 0 below depth 5 * gen_mx
  kFixed = 3,   // b0 above depth gen_mx, 0 from there
};

inline constexpr int kMaxChildren = 100;  // the reference's MAXNUMCHILDREN

// The reference's defaults; its command-line letter is given for each field (tree_flags.hpp).
struct TreeParams {
  TreeType type = TreeType::kGeometric;  // -t
  double b0 = 4.0;                       // -b  root branching factor
  std::int32_t seed = 0;                 // -r  root seed, 0 <= r < 2^31
  std::int32_t m = 4;                    // -m  binomial: children of a non-leaf node
  double q = 15.0 / 64.0;                // -q  binomial: probability of a non-leaf node
  std::int32_t gen_mx = 6;               // -d  geometric/balanced: depth parameter
  GeoShape shape = GeoShape::kLinear;    // -a  geometric: shape function
  double shift_depth = 0.5;              // -f  hybrid: switch depth, as a fraction of gen_mx
  std::int32_t granularity = 1;          // -g  SHA-1 evaluations per child (extra work only)
};

// Returns "" if every field is in its domain, else a message naming the first field that is
// not, its value and what is allowed. Fields are checked whether or not the type uses them.
std::string validate(const TreeParams& params);

std::string_view type_name(TreeType type);    // "binomial", ...; "unknown" if out of range
std::string_view shape_name(GeoShape shape);  // "linear", ...; "unknown" if out of range

// A tree node: its random state and its depth.
struct Node {
  RngState state;
  std::int32_t height = 0;
};

// A validated tree definition: makes the root, a node's children and their number.
class Tree {
 public:
  // Throws std::invalid_argument with validate()'s message if `params` is invalid.
  explicit Tree(const TreeParams& params);

  const TreeParams& params() const { return params_; }

  Node root() const { return Node{root_state(params_.seed), 0}; }

  // The number of children of `node`, >= 0 (uts_numChildren).
  int num_children(const Node& node) const;

  // Child number `index` of `parent`, hashed params().granularity times (the reference
  // repeats the identical hash to make nodes costlier; the result is the same).
  Node child(const Node& parent, std::int32_t index) const;

 private:
  int binomial_children(const Node& node) const;
  int geometric_children(const Node& node) const;
  double geometric_mean(std::int32_t depth) const;

  TreeParams params_;
  double expdec_exponent_;  // -log(b0) / log(gen_mx), the same value the reference recomputes
};

}  // namespace uts

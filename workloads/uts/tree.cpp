#include "workloads/uts/tree.hpp"

#include <climits>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace uts {
namespace {

// The reference converts floor(...) to int with a C cast, which is undefined for NaN and
// for values outside int's range; on x86-64 (where its published sizes were made) such a
// cast yields INT_MIN, and a negative count makes a leaf. Say so explicitly instead.
int children_from_floor(double floored) {
  if (!(floored >= 0.0 && floored < 2147483648.0)) return 0;  // NaN fails both tests
  return static_cast<int>(floored);
}

template <class T>
std::string field_error(std::string_view field, T value, std::string_view allowed) {
  std::ostringstream os;
  os << "UTS tree parameter " << field << " = " << value << ": expected " << allowed;
  return os.str();
}

}  // namespace

std::string_view type_name(TreeType type) {
  switch (type) {
    case TreeType::kBinomial: return "binomial";
    case TreeType::kGeometric: return "geometric";
    case TreeType::kHybrid: return "hybrid";
    case TreeType::kBalanced: return "balanced";
  }
  return "unknown";
}

std::string_view shape_name(GeoShape shape) {
  switch (shape) {
    case GeoShape::kLinear: return "linear";
    case GeoShape::kExpDec: return "exponential";
    case GeoShape::kCyclic: return "cyclic";
    case GeoShape::kFixed: return "fixed";
  }
  return "unknown";
}

std::string validate(const TreeParams& p) {
  const int type = static_cast<int>(p.type);
  if (type < 0 || type > 3) {
    return field_error("-t (tree type)", type,
                       "0 (binomial), 1 (geometric), 2 (hybrid) or 3 (balanced)");
  }
  // The reference turns b0 into an int (root and balanced fan-out), so it must fit one.
  if (!(p.b0 > 0.0 && p.b0 <= 2147483647.0)) {
    return field_error("-b (root branching factor b0)", p.b0, "a number > 0 and < 2^31");
  }
  if (p.seed < 0) return field_error("-r (root seed)", p.seed, "0 <= r < 2^31");
  if (p.m < 0) return field_error("-m (children of a non-leaf node)", p.m, "an integer >= 0");
  if (!(p.q >= 0.0 && p.q <= 1.0)) {
    return field_error("-q (probability of a non-leaf node)", p.q, "a probability in [0, 1]");
  }
  // Shape functions divide by gen_mx and take its log; the cyclic shape computes 5 * gen_mx.
  if (p.gen_mx < 1 || p.gen_mx > INT_MAX / 5) {
    return field_error("-d (depth parameter gen_mx)", p.gen_mx, "an integer in [1, 429496729]");
  }
  const int shape = static_cast<int>(p.shape);
  if (shape < 0 || shape > 3) {
    return field_error("-a (geometric shape function)", shape,
                       "0 (linear), 1 (exponential), 2 (cyclic) or 3 (fixed)");
  }
  if (!(p.shift_depth >= 0.0 && std::isfinite(p.shift_depth))) {
    return field_error("-f (hybrid shift depth fraction)", p.shift_depth, "a finite number >= 0");
  }
  if (p.granularity < 1) {
    return field_error("-g (compute granularity)", p.granularity, "an integer >= 1");
  }
  return "";
}

Tree::Tree(const TreeParams& params) : params_(params) {
  if (std::string error = validate(params_); !error.empty()) throw std::invalid_argument(error);
  expdec_exponent_ = -std::log(params_.b0) / std::log(static_cast<double>(params_.gen_mx));
}

Node Tree::child(const Node& parent, std::int32_t index) const {
  Node c{child_state(parent.state, index), parent.height + 1};
  for (std::int32_t extra = 1; extra < params_.granularity; ++extra) {
    c.state = child_state(parent.state, index);
  }
  return c;
}

int Tree::binomial_children(const Node& node) const {
  return to_prob(rand31(node.state)) < params_.q ? params_.m : 0;
}

// The target mean b_d at depth d > 0. Each expression keeps the reference's operand order,
// since a reordered product can round differently and move a floor() across an integer.
double Tree::geometric_mean(std::int32_t depth) const {
  const double b0 = params_.b0;
  const double d = static_cast<double>(depth);
  const double gen_mx = static_cast<double>(params_.gen_mx);
  switch (params_.shape) {
    case GeoShape::kExpDec: return b0 * std::pow(d, expdec_exponent_);
    case GeoShape::kCyclic:
      if (depth > 5 * params_.gen_mx) return 0.0;
      return std::pow(b0, std::sin(2.0 * 3.141592653589793 * d / gen_mx));
    case GeoShape::kFixed: return depth < params_.gen_mx ? b0 : 0.0;
    case GeoShape::kLinear: break;
  }
  return b0 * (1.0 - d / gen_mx);
}

int Tree::geometric_children(const Node& node) const {
  const double b = node.height > 0 ? geometric_mean(node.height) : params_.b0;
  // A geometric distribution with success probability p has mean (1 - p) / p = b; drawing
  // u uniformly on [0, 1), the inverse CDF gives floor(log(1 - u) / log(1 - p)) children.
  const double p = 1.0 / (1.0 + b);
  const double u = to_prob(rand31(node.state));
  return children_from_floor(std::floor(std::log(1.0 - u) / std::log(1.0 - p)));
}

int Tree::num_children(const Node& node) const {
  int n = 0;
  switch (params_.type) {
    case TreeType::kBinomial:
      // The root is special: a fixed fan-out, which is what makes binomial trees wide.
      n = node.height == 0 ? static_cast<int>(std::floor(params_.b0)) : binomial_children(node);
      break;
    case TreeType::kGeometric: n = geometric_children(node); break;
    case TreeType::kHybrid:
      // Note: no root special case here; a hybrid root is geometric unless shift_depth is 0.
      n = node.height < params_.shift_depth * params_.gen_mx ? geometric_children(node)
                                                             : binomial_children(node);
      break;
    case TreeType::kBalanced:
      return node.height < params_.gen_mx ? static_cast<int>(params_.b0) : 0;  // never capped
  }
  if (params_.type == TreeType::kBinomial && node.height == 0) {
    // The reference caps a binomial root at ceil(b0), which floor(b0) never exceeds; kept so
    // that the rule reads as the reference's.
    const int root_cap = static_cast<int>(std::ceil(params_.b0));
    return n > root_cap ? root_cap : n;
  }
  return n > kMaxChildren ? kMaxChildren : n;
}

}  // namespace uts

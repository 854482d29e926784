#include "workloads/thread_apps/bh_verify.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace thread_apps {
namespace {

bool inside(const OctCell& cell, const Vec3& p) {
  return std::abs(p.x - cell.centre.x) <= cell.half && std::abs(p.y - cell.centre.y) <= cell.half &&
         std::abs(p.z - cell.centre.z) <= cell.half;
}

bool close(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

class TreeChecker {
 public:
  explicit TreeChecker(std::span<const Body> bodies) : bodies_(bodies), seen_(bodies.size(), 0) {}

  std::string run(const OctCell& root) {
    check_cell(root);
    if (problem_.empty()) {
      const auto missing = std::find(seen_.begin(), seen_.end(), 0);
      if (missing != seen_.end()) {
        problem_ = "body " + std::to_string(missing - seen_.begin()) + " is in no leaf";
      }
    }
    return problem_;
  }

 private:
  struct Sum {
    std::uint64_t count = 0;
    double mass = 0.0;
    Vec3 moment;
  };

  void fail(std::string what) {
    if (problem_.empty()) problem_ = std::move(what);
  }

  Sum check_leaf(const OctCell& parent, const OctLeaf& leaf) {
    Sum sum;
    if (leaf.count == 0 || leaf.count > kLeafCapacity)
      fail("a leaf holds " + std::to_string(leaf.count) + " bodies");
    for (std::uint32_t i = 0; i < std::min(leaf.count, kLeafCapacity); ++i) {
      const std::uint32_t j = leaf.bodies[i];
      if (j >= bodies_.size()) {
        fail("a leaf holds body " + std::to_string(j) + " of " + std::to_string(bodies_.size()));
        continue;
      }
      if (seen_[j]++ != 0) fail("body " + std::to_string(j) + " is in two leaves");
      if (!inside(parent, bodies_[j].pos))
        fail("body " + std::to_string(j) + " is outside its cell");
      sum.count += 1;
      sum.mass += bodies_[j].mass;
      sum.moment += bodies_[j].mass * bodies_[j].pos;
    }
    return sum;
  }

  Sum check_cell(const OctCell& cell) {
    Sum sum;
    for (int octant = 0; octant < 8; ++octant) {
      const OctNode* node = child_of(cell, octant);
      if (node == nullptr) continue;
      Sum part;
      const bool marked_cell = (cell.cell_slots.load(std::memory_order_relaxed) >> octant) & 1u;
      if (marked_cell == node->is_leaf) fail("a cell's slot mask disagrees with its children");
      if (node->is_leaf) {
        part = check_leaf(cell, static_cast<const OctLeaf&>(*node));
      } else {
        const auto& sub = static_cast<const OctCell&>(*node);
        if (!inside(cell, sub.centre) || sub.half * 2.0 != cell.half) {
          fail("a cell does not fit its parent's octant");
        }
        check_cell(sub);
        part = {sub.body_count, sub.mass, sub.mass * sub.com};
      }
      sum.count += part.count;
      sum.mass += part.mass;
      sum.moment += part.moment;
    }
    if (sum.count != cell.body_count) fail("a cell's body count differs from its children's");
    if (!close(sum.mass, cell.mass)) fail("a cell's mass differs from its children's");
    if (sum.mass > 0.0) {
      const Vec3 com = sum.moment * (1.0 / sum.mass);
      if (!close(com.x, cell.com.x) || !close(com.y, cell.com.y) || !close(com.z, cell.com.z)) {
        fail("a cell's centre of mass differs from its children's");
      }
    }
    return sum;
  }

  std::span<const Body> bodies_;
  std::vector<std::uint8_t> seen_;
  std::string problem_;
};

std::string format_error(const char* what, double value, double bound) {
  return std::string(what) + " " + std::to_string(value) + " exceeds " + std::to_string(bound);
}

}  // namespace

std::string check_tree(const OctCell& root, std::span<const Body> bodies) {
  return TreeChecker(bodies).run(root);
}

ForceErrors force_errors(std::span<const Body> bodies, std::size_t sample, double softening) {
  ForceErrors errors;
  sample = std::min(sample, bodies.size());
  if (sample == 0) return errors;
  double total = 0.0;
  for (std::size_t k = 0; k < sample; ++k) {
    // Evenly spaced, offset so that a sample of one is not always body 0.
    const auto index = static_cast<std::uint32_t>((2 * k + 1) * bodies.size() / (2 * sample));
    const Vec3 exact = direct_acceleration(bodies, index, softening);
    const double scale = norm(exact);
    const double error = norm(bodies[index].acc - exact) / (scale > 0.0 ? scale : 1.0);
    errors.max_relative = std::max(errors.max_relative, error);
    total += error;
  }
  errors.mean_relative = total / static_cast<double>(sample);
  return errors;
}

std::string check_step(const OctCell& root, std::span<const Body> bodies,
                       const BarnesHutParams& params, BarnesHutResult& result) {
  std::string problem = check_tree(root, bodies);
  if (!problem.empty()) return problem;
  const ForceErrors errors = force_errors(bodies, params.force_sample, params.law.softening);
  result.worst_force_error = std::max(result.worst_force_error, errors.max_relative);
  result.worst_mean_force_error = std::max(result.worst_mean_force_error, errors.mean_relative);
  if (errors.max_relative > params.max_force_error) {
    return format_error("largest relative force error", errors.max_relative,
                        params.max_force_error);
  }
  if (errors.mean_relative > params.mean_force_error) {
    return format_error("mean relative force error", errors.mean_relative, params.mean_force_error);
  }
  return {};
}

double momentum_drift(std::span<const Body> bodies) {
  Vec3 momentum;
  double scale = 0.0;
  for (const Body& b : bodies) {
    momentum += b.mass * b.vel;
    scale += b.mass * norm(b.vel);
  }
  return norm(momentum) / (scale > 0.0 ? scale : 1.0);
}

}  // namespace thread_apps

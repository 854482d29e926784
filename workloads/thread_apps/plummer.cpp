// Aarseth, Henon & Wielen's recipe (A&A 37, 1974): a radius from the inverted cumulative mass
// profile, a speed by rejection from the distribution function, both directions isotropic.
#include "workloads/thread_apps/plummer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "workloads/kernels/seed_mix.hpp"

namespace thread_apps {
namespace {

// One deterministic stream of uniforms in [0, 1): draws are consumed in a fixed order, so
// the bodies depend on the seed alone.
class UniformStream {
 public:
  explicit UniformStream(std::uint64_t seed) : seed_(seed) {}
  double next() { return kernels::unit_uniform(kernels::seeded(seed_, index_++)); }

 private:
  std::uint64_t seed_;
  std::uint64_t index_ = 0;
};

Vec3 isotropic(UniformStream& u, double length) {
  const double z = (1.0 - 2.0 * u.next()) * length;
  const double planar = std::sqrt(std::max(0.0, length * length - z * z));
  const double phi = 2.0 * std::numbers::pi * u.next();
  return {planar * std::cos(phi), planar * std::sin(phi), z};
}

// Radii beyond this (in Plummer's scale length) are drawn again: the few bodies far out
// would stretch the octree's root cell without adding work.
constexpr double kMaxRadius = 10.0;

double plummer_radius(UniformStream& u) {
  for (;;) {
    const double m = u.next();
    if (m <= 0.0) continue;
    const double r = 1.0 / std::sqrt(std::pow(m, -2.0 / 3.0) - 1.0);
    if (r <= kMaxRadius) return r;
  }
}

// The speed as a fraction q of the local escape speed: q^2 (1 - q^2)^3.5 is the density of
// q, whose maximum is below 0.1, so rejecting under a 0.1 envelope samples it.
double escape_fraction(UniformStream& u) {
  for (;;) {
    const double q = u.next();
    const double envelope = 0.1 * u.next();
    if (envelope < q * q * std::pow(1.0 - q * q, 3.5)) return q;
  }
}

}  // namespace

std::vector<Body> plummer_bodies(std::size_t count, std::uint64_t seed) {
  std::vector<Body> bodies(count);
  UniformStream u(seed);
  // Plummer's units (scale length 1) to the standard ones, where the total energy is -1/4.
  const double length_scale = 3.0 * std::numbers::pi / 16.0;
  const double speed_scale = 1.0 / std::sqrt(length_scale);
  Vec3 centre, momentum;
  for (Body& b : bodies) {
    const double r = plummer_radius(u);
    const double escape_speed = std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
    b.mass = 1.0 / static_cast<double>(count);
    b.pos = isotropic(u, r * length_scale);
    b.vel = isotropic(u, escape_fraction(u) * escape_speed * speed_scale);
    centre += b.mass * b.pos;
    momentum += b.mass * b.vel;
  }
  // Total mass is 1: the sums are the centre of mass and its velocity.
  for (Body& b : bodies) {
    b.pos -= centre;
    b.vel -= momentum;
  }
  return bodies;
}

}  // namespace thread_apps

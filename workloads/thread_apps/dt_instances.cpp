#include "workloads/thread_apps/dt_instances.hpp"

#include "workloads/kernels/seed_mix.hpp"

namespace thread_apps {
namespace {

// Attributes are drawn on a grid of 2^20 values: continuous for the builder's purposes, and
// exactly representable as floats, so that every threshold is an attribute value.
float grid_uniform(std::uint64_t bits) {
  return static_cast<float>(bits >> 44) * static_cast<float>(0x1p-20);
}

}  // namespace

bool concept_label(const std::array<float, kAttributes>& a) noexcept {
  // Two boxes and an oblique band: the boxes an axis-parallel tree finds in a few splits,
  // the band only approximately, by a staircase of many.
  const bool low_box = a[0] < 0.3f && a[1] > 0.55f;
  const bool high_box = a[2] > 0.7f && a[3] < 0.4f;
  const bool band = a[0] + a[2] > 1.1f && a[0] + a[2] < 1.5f;
  return low_box || high_box || band;
}

std::vector<Instance> make_instances(std::size_t count, std::uint64_t seed, double noise) {
  std::vector<Instance> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t base = i * (kAttributes + 1);
    Instance& inst = out[i];
    for (int a = 0; a < kAttributes; ++a) {
      inst.attr[static_cast<std::size_t>(a)] =
          grid_uniform(kernels::seeded(seed, base + static_cast<std::uint64_t>(a)));
    }
    const bool flip = kernels::unit_uniform(kernels::seeded(seed, base + kAttributes)) < noise;
    inst.label = (concept_label(inst.attr) != flip) ? 1u : 0u;
  }
  return out;
}

}  // namespace thread_apps

// The decision-tree builder's input: instances of four continuous attributes and a true/false
// class, shaped like the speech data of Narlikar & Blelloch's run (133,999 instances): the
// class follows a few axis-aligned and oblique rules over the attributes, with a fraction of
// the labels flipped at random, so the tree has real structure to find and noise to overfit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace thread_apps {

inline constexpr int kAttributes = 4;

struct Instance {
  std::array<float, kAttributes> attr;
  std::uint32_t label;  // 0 or 1 (a full word: keeps the record 20 bytes and aligned)
};

// The rule the labels follow before noise (exposed so a test can see it is learnable).
bool concept_label(const std::array<float, kAttributes>& attr) noexcept;

// `count` instances, a pure function of (count, seed, noise); `noise` is the probability that
// a label is flipped.
std::vector<Instance> make_instances(std::size_t count, std::uint64_t seed, double noise);

}  // namespace thread_apps

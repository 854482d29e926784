// Named trees with their published sizes, so that every run can be checked.
//
// T1..T5, T1L, T2L, T3L are the UTS reference's sample workloads (its sample_workloads.sh,
// which gives each tree's size, depth and leaves). "A" and "B" are the binomial trees of
// Adnan & Sato's Table 1 (Sect. 4.1.1; docs/REFERENCES.md): A is T3; B is the Barcelona
// OpenMP Tasks Suite's "tiny" UTS input, whose q the paper prints rounded and whose size it
// gives one short -- see presets.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "workloads/uts/tree.hpp"

namespace uts {

struct Preset {
  std::string_view name;
  std::string_view description;
  TreeParams params;
  std::uint64_t nodes;                    // published tree size
  std::optional<std::uint64_t> leaves;    // when the source publishes them
  std::optional<std::int32_t> max_depth;  // likewise
  std::string_view source;
};

// Every preset, smallest trees first within each group.
std::span<const Preset> presets();

// The preset called `name` (case-insensitive: "t3", "T3", "a"), or nullptr.
const Preset* find_preset(std::string_view name);

}  // namespace uts

#include "workloads/uts/presets.hpp"

#include <array>
#include <cctype>

namespace uts {
namespace {

constexpr std::string_view kSampleTrees = "UTS 2.1 sample_workloads.sh";

constexpr TreeParams geometric(GeoShape shape, std::int32_t gen_mx, double b0, std::int32_t seed) {
  TreeParams p;
  p.type = TreeType::kGeometric;
  p.shape = shape;
  p.gen_mx = gen_mx;
  p.b0 = b0;
  p.seed = seed;
  return p;
}

constexpr TreeParams binomial(double b0, double q, std::int32_t m, std::int32_t seed) {
  TreeParams p;
  p.type = TreeType::kBinomial;
  p.b0 = b0;
  p.q = q;
  p.m = m;
  p.seed = seed;
  return p;
}

constexpr TreeParams hybrid(GeoShape shape, std::int32_t gen_mx, double b0, double q,
                            std::int32_t m, std::int32_t seed) {
  TreeParams p = geometric(shape, gen_mx, b0, seed);
  p.type = TreeType::kHybrid;
  p.q = q;
  p.m = m;
  return p;  // shift_depth keeps the default 0.5
}

const std::array<Preset, 10> kPresets = {{
    // Small workloads (about 4 million nodes).
    {"T1", "geometric, fixed shape", geometric(GeoShape::kFixed, 10, 4, 19), 4130071, 3305118, 10,
     kSampleTrees},
    {"T2", "geometric, cyclic shape", geometric(GeoShape::kCyclic, 16, 6, 502), 4117769, 2342762,
     81, kSampleTrees},
    {"T3", "binomial", binomial(2000, 0.124875, 8, 42), 4112897, 3599034, 1572, kSampleTrees},
    {"T4", "hybrid, linear shape", hybrid(GeoShape::kLinear, 16, 6, 0.234375, 4, 1), 4132453,
     3108986, 134, kSampleTrees},
    {"T5", "geometric, linear shape", geometric(GeoShape::kLinear, 20, 4, 34), 4147582, 2181318, 20,
     kSampleTrees},
    // Large workloads (about 100 million nodes).
    {"T1L", "geometric, fixed shape", geometric(GeoShape::kFixed, 13, 4, 29), 102181082, 81746377,
     13, kSampleTrees},
    {"T2L", "geometric, cyclic shape", geometric(GeoShape::kCyclic, 23, 7, 220), 96793510, 53791152,
     67, kSampleTrees},
    {"T3L", "binomial", binomial(2000, 0.200014, 5, 7), 111345631, 89076904, 17844, kSampleTrees},
    // Adnan & Sato, Table 1. Type A is T3 (same b0, m, q; seed 42 from the sample trees).
    {"A", "binomial (Adnan & Sato type A = T3)", binomial(2000, 0.124875, 8, 42), 4112897, 3599034,
     1572, "Adnan & Sato Table 1; seed from UTS sample_workloads.sh (T3)"},
    // Type B. The paper gives b0 2000, m 3, q 0.333333, size 30,399,116 and no seed. These
    // are the Barcelona OpenMP Tasks Suite's "tiny" UTS input, whose file reads q 0.333332,
    // r 8: the paper rounded q. BOTS first gave the size as 30,399,116 and later corrected it
    // to 30,399,117, which is what this tree has (measured here: 20,266,744 leaves, depth
    // 6,974; BOTS publishes neither). With q 0.333333, no seed in 0..499 gives 30,399,116.
    {"B", "binomial (Adnan & Sato type B)", binomial(2000, 0.333332, 3, 8), 30399117, std::nullopt,
     std::nullopt, "Adnan & Sato Table 1; BOTS inputs/uts/tiny.input (corrected)"},
}};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset* find_preset(std::string_view name) {
  for (const Preset& p : kPresets) {
    if (equal_ignoring_case(p.name, name)) return &p;
  }
  return nullptr;
}

}  // namespace uts

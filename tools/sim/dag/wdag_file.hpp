// The .wdag file: a recorded DAG (tools/sim/dag/dag.hpp) as versioned little-endian bytes, laid out
// and checked as docs/WDAG.md says. The reader trusts nothing in the file: whatever it
// returns satisfies dag.hpp's invariants, and anything else is a WdagError naming the byte
// offset and the field where the file goes wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tools/sim/dag/dag.hpp"

namespace sim {

inline constexpr std::uint32_t kWdagVersion = 1;
inline constexpr std::size_t kWdagMaxSpec = 4096;

// The file's bytes. Throws std::invalid_argument for a Dag that breaks dag.hpp's
// invariants in a way the format cannot express (a spawn or join of a task not above the
// one that makes it, a spec longer than kWdagMaxSpec).
std::string encode_wdag(const Dag& dag);

// Parses and checks `bytes`; `name` (the file's path) starts every error message.
Dag decode_wdag(std::string_view bytes, const std::string& name);

// Reads and decodes the file at `path`; a file that cannot be read is a WdagError too.
Dag read_wdag(const std::string& path);

// Writes the file whole beside `path` and renames it over, so that a failure leaves no
// half-written file (bench_cli::replace_file). Returns "" or why it failed.
std::string write_wdag(const std::string& path, const Dag& dag);

}  // namespace sim

// The reference's command-line flags for tree parameters, as "-x value" pairs:
//   -t type (0 binomial, 1 geometric, 2 hybrid, 3 balanced)   -b root branching factor b0
//   -r root seed   -m non-leaf children   -q non-leaf probability   -d depth gen_mx
//   -a shape (0 linear, 1 exponential, 2 cyclic, 3 fixed)   -f hybrid shift depth fraction
//   -g compute granularity
// so that the published sample trees can be written as the reference writes them, e.g.
// T3 = "-t 0 -b 2000 -q 0.124875 -m 8 -r 42".
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "workloads/uts/tree.hpp"

namespace uts {

struct FlagResult {
  bool recognized = false;  // false: `flag` is not a tree flag (a driver may own it)
  std::string error;        // set when the flag is a tree flag but the value is malformed
};

// Applies one pair such as ("-q", "0.124875") to `params`. A value must be a number in its
// entirety (an integer for -t -r -m -d -a -g); ranges are validate()'s business.
FlagResult apply_tree_flag(TreeParams& params, std::string_view flag, std::string_view value);

// Applies "-x value" pairs over `params` (the defaults, or a preset's) and validates the
// result. Returns "" or the first error; every pair must be a tree flag.
std::string parse_tree_args(std::span<const std::string_view> args, TreeParams& params);

// The flags that define `params` in the reference's syntax (only those its type uses, and
// -g when it is not 1), e.g. "-t 0 -b 2000 -q 0.124875 -m 8 -r 42".
std::string to_args(const TreeParams& params);

}  // namespace uts

// The one command-line parser of weft's tools: a table of flags, each with the name of its
// value, its help and how to take the value. The table parses the arguments, writes the
// option list of --help, and words every error alike, as "<argument>: <what is wrong>", so
// that a tool prints exactly one line for a bad argument and the tests can check it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace common {

// A bad argument: what() is "<argument>: <what>".
class UsageError : public std::runtime_error {
 public:
  UsageError(std::string_view argument, std::string_view what)
      : std::runtime_error(std::string(argument) + ": " + std::string(what)) {}
};

// "--repeat 0": how a value's error names its argument, the flag and the value given.
inline std::string argument(std::string_view flag, std::string_view value) {
  std::string text(flag);
  text.append(1, ' ').append(value);
  return text;
}

// The value parsers the tables' flags share. Each throws UsageError naming `argument` (the
// flag and its value as given, e.g. "--repeat 0") and saying what was expected.

// A whole decimal number in [lo, hi].
std::int64_t parse_integer(std::string_view argument, std::string_view text, std::int64_t lo,
                           std::int64_t hi);
// Any unsigned 64-bit number (a seed).
std::uint64_t parse_u64(std::string_view argument, std::string_view text);
// A decimal number (1.5, 2e-3) in [lo, hi].
double parse_number(std::string_view argument, std::string_view text, double lo, double hi);
// "a,b,c" split at the commas; an empty list or item is an error (a typo, never a wish).
std::vector<std::string_view> split_list(std::string_view argument, std::string_view text);

struct Flag {
  std::string_view name;   // "--workers"
  std::string_view value;  // what --help calls its value ("N,..."); empty: a switch
  std::string_view help;   // what it does and its default, for --help (may hold newlines)
  // Takes the value (a switch gets ""); throws UsageError for a bad one.
  std::function<void(std::string_view value)> take;
};

class FlagTable {
 public:
  explicit FlagTable(std::vector<Flag> flags) : flags_(std::move(flags)) {}

  // Arguments that do not start with '-' go to `take` (by default they are an error).
  FlagTable& operands(std::function<void(std::string_view operand)> take) {
    operands_ = std::move(take);
    return *this;
  }

  // Parses `args` in order: a flag of the table (a switch, or a flag and the next argument
  // as its value), or an operand. Stops and returns false at --help or -h, which leaves the
  // rest unparsed; returns true otherwise. Throws UsageError "<flag>: unknown option (see
  // --help)", "<flag>: missing value", "<operand>: unexpected argument", or whatever a
  // flag's `take` throws.
  bool parse(std::span<const std::string_view> args) const;

  // The option list for --help: one entry per flag, "  --name VALUE" and its help aligned
  // beside it (or below it, for a long name), in the table's order.
  std::string options_help() const;

  const Flag* find(std::string_view name) const;

 private:
  std::vector<Flag> flags_;
  std::function<void(std::string_view)> operands_;
};

}  // namespace common

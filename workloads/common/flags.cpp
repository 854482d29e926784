#include "workloads/common/flags.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "workloads/common/text_format.hpp"

namespace common {

std::int64_t parse_integer(std::string_view argument, std::string_view text, std::int64_t lo,
                           std::int64_t hi) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || v < lo || v > hi) {
    throw UsageError(argument, "expected a whole number from " + std::to_string(lo) + " to " +
                                   std::to_string(hi) + ", got \"" + std::string(text) + "\"");
  }
  return v;
}

std::uint64_t parse_u64(std::string_view argument, std::string_view text) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
    throw UsageError(argument, "expected a whole number from 0 to 18446744073709551615");
  }
  return v;
}

double parse_number(std::string_view argument, std::string_view text, double lo, double hi) {
  // strtod needs a terminated string; from_chars for double is not in every libstdc++ we meet.
  const std::string copy(text);
  char* end = nullptr;
  // strtod would skip leading white space, which no other value here may have.
  const bool blank_first = !copy.empty() && std::isspace(static_cast<unsigned char>(copy[0]));
  const double v = copy.empty() || blank_first ? 0.0 : std::strtod(copy.c_str(), &end);
  if (copy.empty() || blank_first || end != copy.c_str() + copy.size() || !std::isfinite(v) ||
      v < lo || v > hi) {
    throw UsageError(argument, "expected a number from " + number(lo) + " to " + number(hi) +
                                   ", got \"" + copy + "\"");
  }
  return v;
}

std::vector<std::string_view> split_list(std::string_view argument, std::string_view text) {
  std::vector<std::string_view> items;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma - start);
    if (item.empty()) {
      throw UsageError(argument, "empty item in list \"" + std::string(text) + "\"");
    }
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

const Flag* FlagTable::find(std::string_view name) const {
  const auto it =
      std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) { return f.name == name; });
  return it == flags_.end() ? nullptr : &*it;
}

bool FlagTable::parse(std::span<const std::string_view> args) const {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") return false;
    if (!arg.starts_with("-")) {
      if (!operands_) throw UsageError(arg, "unexpected argument");
      operands_(arg);
      continue;
    }
    const Flag* flag = find(arg);
    if (flag == nullptr) throw UsageError(arg, "unknown option (see --help)");
    if (flag->value.empty()) {
      flag->take("");
      continue;
    }
    if (i + 1 >= args.size()) throw UsageError(arg, "missing value");
    flag->take(args[++i]);
  }
  return true;
}

std::string FlagTable::options_help() const {
  constexpr std::size_t kHelpColumn = 26;  // where the help text starts
  std::string out;
  for (const Flag& f : flags_) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "  " + std::string(...).
    std::string head(2, ' ');
    head.append(f.name);
    if (!f.value.empty()) head.append(1, ' ').append(f.value);
    out += head;
    // The help's lines, each indented to the help column; a long head gets a line of its own.
    std::size_t column = head.size();
    std::string_view help = f.help;
    if (column + 2 > kHelpColumn && !help.empty()) {
      out += "\n";
      column = 0;
    }
    while (!help.empty()) {
      const std::size_t newline = help.find('\n');
      out.append(kHelpColumn - column, ' ');
      out += help.substr(0, newline);
      help = newline == std::string_view::npos ? std::string_view{} : help.substr(newline + 1);
      if (!help.empty()) out += "\n";
      column = 0;
    }
    out += "\n";
  }
  return out;
}

}  // namespace common

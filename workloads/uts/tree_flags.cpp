#include "workloads/uts/tree_flags.hpp"

#include <charconv>
#include <cstdint>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace uts {
namespace {

// from_chars rather than atoi/atof: the reference silently reads "12x" as 12 and "x" as 0,
// which turns a typo into a different tree.
template <class T>
bool parse_number(std::string_view text, T& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc{} && ptr == end && !text.empty();
}

std::string bad_value(std::string_view flag, std::string_view value, std::string_view kind) {
  std::string message = "UTS tree flag ";
  message.append(flag).append(": '").append(value).append("' is not ").append(kind);
  return message;
}

template <class T>
FlagResult set_number(T& field, std::string_view flag, std::string_view value) {
  FlagResult r{true, ""};
  T parsed{};
  if (!parse_number(value, parsed)) {
    r.error = bad_value(flag, value, std::is_integral_v<T> ? "an integer" : "a number");
  } else {
    field = parsed;
  }
  return r;
}

template <class Enum>
FlagResult set_enum(Enum& field, std::string_view flag, std::string_view value) {
  int code = 0;
  FlagResult r = set_number(code, flag, value);
  if (r.error.empty()) field = static_cast<Enum>(code);  // validate() rejects unknown codes
  return r;
}

}  // namespace

FlagResult apply_tree_flag(TreeParams& params, std::string_view flag, std::string_view value) {
  if (flag.size() != 2 || flag[0] != '-') return {};
  switch (flag[1]) {
    case 't': return set_enum(params.type, flag, value);
    case 'a': return set_enum(params.shape, flag, value);
    case 'b': return set_number(params.b0, flag, value);
    case 'r': return set_number(params.seed, flag, value);
    case 'm': return set_number(params.m, flag, value);
    case 'q': return set_number(params.q, flag, value);
    case 'd': return set_number(params.gen_mx, flag, value);
    case 'f': return set_number(params.shift_depth, flag, value);
    case 'g': return set_number(params.granularity, flag, value);
    default: return {};
  }
}

std::string parse_tree_args(std::span<const std::string_view> args, TreeParams& params) {
  for (std::size_t i = 0; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) {
      return "UTS tree flag " + std::string(args[i]) + ": missing value";
    }
    const FlagResult r = apply_tree_flag(params, args[i], args[i + 1]);
    if (!r.recognized) {
      return "unknown UTS tree flag '" + std::string(args[i]) +
             "' (expected one of -t -b -r -m -q -d -a -f -g)";
    }
    if (!r.error.empty()) return r.error;
  }
  return validate(params);
}

std::string to_args(const TreeParams& p) {
  std::ostringstream os;
  // Shortest round-trip form, so that to_args then parse_tree_args gives the same params.
  auto num = [](double v) {
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ec == std::errc{} ? ptr : buf);
  };
  const bool geometric = p.type != TreeType::kBinomial;
  const bool binomial = p.type == TreeType::kBinomial || p.type == TreeType::kHybrid;
  os << "-t " << static_cast<int>(p.type);
  if (p.type == TreeType::kGeometric || p.type == TreeType::kHybrid) {
    os << " -a " << static_cast<int>(p.shape);
  }
  if (geometric) os << " -d " << p.gen_mx;
  os << " -b " << num(p.b0);
  if (binomial) os << " -q " << num(p.q) << " -m " << p.m;
  if (p.type == TreeType::kHybrid) os << " -f " << num(p.shift_depth);
  os << " -r " << p.seed;
  if (p.granularity != 1) os << " -g " << p.granularity;
  return os.str();
}

}  // namespace uts

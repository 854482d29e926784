// The table of Config's fields: one row per field with its WEFT_* variable, its default as
// the README shows it, and its limits. Config::from_env parses by it, Config::validate checks
// by it, every ConfigError message about a field is built from it, and tests/core/config_test.cpp
// checks the README's configuration table against it (readme_row_prefix).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "weft/config.hpp"

namespace weft::detail {

enum class FieldKind : std::uint8_t {
  kCount,     // an unsigned integer from lo to hi; also 0 (meaning `zero`) if `zero` is set
  kBytes,     // a byte count from lo to hi, with an optional K, M or G suffix
  kBool,      // 1 or 0 (also true/false, yes/no, on/off)
  kChoice,    // one of `names` (", "-separated); the enum's value is the name's index
  kPolicy,    // a StealPolicy spec (StealPolicy::parse)
  kSchedule,  // a loop Schedule spec (Schedule::parse)
  kFraction,  // a double from 0 to fraction_max
};

struct ConfigField {
  std::string_view field;         // the Config member
  std::string_view variable;      // its WEFT_* variable; empty when there is none
  std::string_view default_text;  // the default, as the README's table shows it
  FieldKind kind = FieldKind::kCount;
  std::string_view what;  // kCount: "a worker count"; kChoice: "steal mechanism"
  std::uint64_t lo = 0;   // kCount, kBytes: the limits, inclusive
  std::uint64_t hi = 0;
  std::string_view zero;        // kCount: what a Config value of 0 means, when it is allowed
  bool env_takes_zero = false;  // kCount: whether the variable may say 0 too
  std::string_view names;       // kChoice
  // kChoice whose names begin "0, 1" for a setting that was a boolean: its variable also
  // takes a boolean's other spellings for those two.
  bool bool_spellings = false;
  double fraction_max = 0.0;  // kFraction
  // The member as an integer (kCount, kBytes, kBool, kChoice).
  std::uint64_t (*get)(const Config&) = nullptr;
  void (*set)(Config&, std::uint64_t) = nullptr;
};

// Every field of Config, in the README's order.
std::span<const ConfigField> config_fields() noexcept;
// The row for a Config member; std::out_of_range if there is none.
const ConfigField& config_field(std::string_view field);

// What the field's variable accepts (the tail of its ConfigError messages, and the README's
// "allowed" column); what the Config member accepts (validate's messages), which for
// `workers` includes 0.
std::string allowed_in_env(const ConfigField& f);
std::string allowed_in_config(const ConfigField& f);

// The start of the field's README row: "| `field` | `VARIABLE` | default | allowed |"
// ("—" for a field without a variable); the meaning column follows.
std::string readme_row_prefix(const ConfigField& f);

// "field / VARIABLE" (or just the field), for messages about a field's value at run time.
std::string setting_names(const ConfigField& f);

// A byte count for people: "64 MiB", "1 GiB", "1536 KiB", "100 bytes".
std::string bytes_text(std::uint64_t bytes);

}  // namespace weft::detail

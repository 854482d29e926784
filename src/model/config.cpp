// Config: defaults, validation, and strict parsing of the WEFT_* environment variables, all
// driven by one table of fields (kFields below; its row type is in config_fields.hpp).
#include "weft/config.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include "model/config_fields.hpp"
#include "weft/detail/slot.hpp"

namespace weft {
namespace detail {
namespace {

constexpr std::uint64_t kKiB = std::uint64_t{1} << 10;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// A task stack needs room for at least a couple of nested spawns to be useful at all.
constexpr std::size_t kMinTaskSlots = 2;
constexpr std::size_t kMaxTaskSlots = std::size_t{1} << 26;  // 4 GiB of slots

template <auto Member>
std::uint64_t get(const Config& c) {
  return static_cast<std::uint64_t>(c.*Member);
}

template <auto Member>
void set(Config& c, std::uint64_t v) {
  using T = std::remove_cvref_t<decltype(std::declval<Config&>().*Member)>;
  c.*Member = static_cast<T>(v);
}

// The one place each variable, default and limit is written. (Designated initializers: a row
// leaves the members its kind does not use at their defaults.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
constexpr ConfigField kFields[] = {
    // Beyond 4096 workers something is surely a typo (and each reserves a thread stack).
    {.field = "workers",
     .variable = "WEFT_WORKERS",
     .default_text = "hardware threads",
     .kind = FieldKind::kCount,
     .what = "a worker count",
     .lo = 1,
     .hi = 4096,
     .zero = "all hardware threads",
     .get = get<&Config::workers>,
     .set = set<&Config::workers>},
    {.field = "steal",
     .variable = "WEFT_STEAL",
     .default_text = "`adaptive`",
     .kind = FieldKind::kPolicy},
    {.field = "mechanism",
     .variable = "WEFT_MECHANISM",
     .default_text = "`concurrent`",
     .kind = FieldKind::kChoice,
     .what = "steal mechanism",
     .names = "concurrent, request",  // in StealMechanism's order
     .get = get<&Config::mechanism>,
     .set = set<&Config::mechanism>},
    // A request must be given some time to be seen, and a thief must not wait on a victim
    // for longer than a second (a hang, to the user).
    {.field = "request_timeout_us",
     .variable = "WEFT_REQUEST_TIMEOUT_US",
     .default_text = "`50`",
     .kind = FieldKind::kCount,
     .what = "microseconds",
     .lo = 1,
     .hi = 1000000,
     .get = get<&Config::request_timeout_us>,
     .set = set<&Config::request_timeout_us>},
    // Up to ten seconds: longer is a worker that never sleeps, which a user can have with a
    // pool that is never idle that long.
    {.field = "idle_awake_us",
     .variable = "WEFT_IDLE_AWAKE_US",
     .default_text = "`200`",
     .kind = FieldKind::kCount,
     .what = "microseconds",
     .lo = 0,
     .hi = 10000000,
     .get = get<&Config::idle_awake_us>,
     .set = set<&Config::idle_awake_us>},
    {.field = "seed",
     .variable = "WEFT_SEED",
     .default_text = "fixed",
     .kind = FieldKind::kCount,
     .what = "an unsigned 64-bit integer",
     .lo = 0,
     .hi = UINT64_MAX,
     .get = get<&Config::seed>,
     .set = set<&Config::seed>},
    {.field = "pin",
     .variable = "WEFT_PIN",
     .default_text = "`auto`",
     .kind = FieldKind::kChoice,
     .what = "pinning",
     .names = "0, 1, auto",   // in Pinning's order
     .bool_spellings = true,  // WEFT_PIN was 0|1 and took them
     .get = get<&Config::pin>,
     .set = set<&Config::pin>},
    // A worker count, with the same ceiling as `workers`.
    {.field = "busy_limit",
     .variable = "WEFT_BUSY_LIMIT",
     .default_text = "`0`",
     .kind = FieldKind::kCount,
     .what = "a worker count",
     .lo = 1,
     .hi = 4096,
     .zero = "the process's CPU count",
     .env_takes_zero = true,
     .get = get<&Config::busy_limit>,
     .set = set<&Config::busy_limit>},
    {.field = "task_slots",
     .variable = "WEFT_TASK_SLOTS",
     .default_text = "`0`",
     .kind = FieldKind::kCount,
     .what = "a slot count",
     .lo = kMinTaskSlots,
     .hi = kMaxTaskSlots,
     .zero = "one slot per 64 bytes of worker stack",
     .env_takes_zero = true,
     .get = get<&Config::task_slots>,
     .set = set<&Config::task_slots>},
    // Below 64 KiB the runtime's own frames plus a few levels of user code would overflow.
    // At most 1 GiB: the stack is per worker and reserved up front when the worker starts,
    // so 4096 workers may ask for 4 TiB of address space; and 1 GiB is already 16 times the
    // default, deep enough for a recursion millions of frames deep. Beyond it a typo
    // (100G) would fail only at the thread's creation, far from the variable that caused it.
    {.field = "worker_stack_bytes",
     .variable = "WEFT_STACK_SIZE",
     .default_text = "`64M`",
     .kind = FieldKind::kBytes,
     .lo = 64 * kKiB,
     .hi = kGiB,
     .get = get<&Config::worker_stack_bytes>,
     .set = set<&Config::worker_stack_bytes>},
    {.field = "help_stack_fraction",
     .default_text = "`0.5`",
     .kind = FieldKind::kFraction,
     .fraction_max = 0.9},
    {.field = "profile",
     .variable = "WEFT_PROFILE",
     .default_text = "`0`",
     .kind = FieldKind::kBool,
     .get = get<&Config::profile>,
     .set = set<&Config::profile>},
    // 32 bytes per event: 512 MiB per worker at most.
    {.field = "trace_events",
     .variable = "WEFT_TRACE_EVENTS",
     .default_text = "`0`",
     .kind = FieldKind::kCount,
     .what = "an event count",
     .lo = 0,
     .hi = std::uint64_t{1} << 24,
     .get = get<&Config::trace_events>,
     .set = set<&Config::trace_events>},
    {.field = "count_spawns",
     .variable = "WEFT_COUNT_SPAWNS",
     .default_text = "`0`",
     .kind = FieldKind::kBool,
     .get = get<&Config::count_spawns>,
     .set = set<&Config::count_spawns>},
    {.field = "barrier",
     .variable = "WEFT_BARRIER",
     .default_text = "`auto`",
     .kind = FieldKind::kChoice,
     .what = "barrier mode",
     .names = "auto, membarrier, fence",  // in Barrier's order
     .get = get<&Config::barrier>,
     .set = set<&Config::barrier>},
    {.field = "schedule",
     .variable = "WEFT_SCHEDULE",
     .default_text = "`auto`",
     .kind = FieldKind::kSchedule},
    {.field = "loops",
     .variable = "WEFT_LOOPS",
     .default_text = "`pcb`",
     .kind = FieldKind::kChoice,
     .what = "loop scheme",
     .names = "pcb, dlist, split",  // in LoopScheme's order
     .get = get<&Config::loops>,
     .set = set<&Config::loops>},
    {.field = "loop_frames",
     .variable = "WEFT_LOOP_FRAMES",
     .default_text = "`stack`",
     .kind = FieldKind::kChoice,
     .what = "loop frame home",
     .names = "stack, pool",  // in LoopFrames' order
     .get = get<&Config::loop_frames>,
     .set = set<&Config::loop_frames>},
    {.field = "adaptive_fork",
     .variable = "WEFT_ADAPTIVE_FORK",
     .default_text = "`1`",
     .kind = FieldKind::kChoice,
     .what = "adaptive fork mode",
     .names = "0, 1, lazy",  // in AdaptiveFork's order
     .get = get<&Config::adaptive_fork>,
     .set = set<&Config::adaptive_fork>},
    // At least a page (the stack's guard is another); at most 1 GiB, as a worker's, so that a
    // typo fails here rather than at the first thread.
    {.field = "thread_stack_bytes",
     .variable = "WEFT_THREAD_STACK",
     .default_text = "`16K`",
     .kind = FieldKind::kBytes,
     .lo = 4 * kKiB,
     .hi = kGiB,
     .get = get<&Config::thread_stack_bytes>,
     .set = set<&Config::thread_stack_bytes>},
    {.field = "thread_sched",
     .variable = "WEFT_THREAD_SCHED",
     .default_text = "`df`",
     .kind = FieldKind::kChoice,
     .what = "thread scheduler",
     .names = "fifo, lifo, df, dfd",  // in ThreadSched's order
     .get = get<&Config::thread_sched>,
     .set = set<&Config::thread_sched>},
    // 0 turns the quota off; at most 1 GiB, so that a typo fails here.
    {.field = "mem_quota_bytes",
     .variable = "WEFT_MEM_QUOTA",
     .default_text = "`0`",
     .kind = FieldKind::kBytes,
     .lo = 0,
     .hi = kGiB,
     .get = get<&Config::mem_quota_bytes>,
     .set = set<&Config::mem_quota_bytes>},
    {.field = "deadlock",
     .variable = "WEFT_DEADLOCK",
     .default_text = "`abort`",
     .kind = FieldKind::kChoice,
     .what = "deadlock action",
     .names = "abort, report, off",  // in DeadlockAction's order
     .get = get<&Config::deadlock>,
     .set = set<&Config::deadlock>},
    // At least a millisecond (0 would report every idle moment); at most an hour, beyond
    // which `off` says what is meant.
    {.field = "deadlock_ms",
     .variable = "WEFT_DEADLOCK_MS",
     .default_text = "`2000`",
     .kind = FieldKind::kCount,
     .what = "milliseconds",
     .lo = 1,
     .hi = 3600000,
     .get = get<&Config::deadlock_ms>,
     .set = set<&Config::deadlock_ms>},
    {.field = "thread_debug",
     .variable = "WEFT_THREAD_DEBUG",
     .default_text = "`0`",
     .kind = FieldKind::kBool,
     .get = get<&Config::thread_debug>,
     .set = set<&Config::thread_debug>},
};
#pragma GCC diagnostic pop

// The i-th name of a ", "-separated list; empty past its end.
std::string_view choice_name(std::string_view names, std::uint64_t i) {
  for (; i > 0 && !names.empty(); --i) {
    const std::size_t comma = names.find(", ");
    names = comma == std::string_view::npos ? std::string_view{} : names.substr(comma + 2);
  }
  return names.substr(0, names.find(", "));
}

// The index of `value` in a ", "-separated list, or -1.
int choice_index(std::string_view names, std::string_view value) {
  for (int i = 0;; ++i) {
    const std::string_view name = choice_name(names, static_cast<std::uint64_t>(i));
    if (name.empty()) return -1;
    if (name == value) return i;
  }
}

std::size_t choice_count(std::string_view names) {
  std::size_t n = 0;
  while (!choice_name(names, n).empty()) ++n;
  return n;
}

// 65536 -> "64K": the largest suffix that divides the count, as the variables are written.
std::string size_spec(std::uint64_t bytes) {
  for (const auto& [unit, suffix] : {std::pair{kGiB, 'G'}, {kMiB, 'M'}, {kKiB, 'K'}}) {
    if (bytes != 0 && bytes % unit == 0) return std::to_string(bytes / unit) + suffix;
  }
  return std::to_string(bytes);
}

std::string count_range(const ConfigField& f) {
  if (f.lo == 0 && f.hi == UINT64_MAX) return std::string(f.what);
  return std::string(f.what) + " from " + std::to_string(f.lo) + " to " + std::to_string(f.hi);
}

std::string allowed(const ConfigField& f, bool in_env) {
  switch (f.kind) {
    case FieldKind::kCount: {
      const bool zero = !f.zero.empty() && (!in_env || f.env_takes_zero);
      return (zero ? "0 (" + std::string(f.zero) + ") or " : std::string()) + count_range(f);
    }
    case FieldKind::kBytes:
      return "a size from " + size_spec(f.lo) + " to " + size_spec(f.hi) +
             " (bytes, with an optional K, M or G suffix)";
    case FieldKind::kBool: return "1 or 0 (also true/false, yes/no, on/off)";
    case FieldKind::kChoice:
      return std::string(f.names) +
             (in_env && f.bool_spellings ? " (0 and 1 also as false/true, no/yes, off/on)" : "");
    case FieldKind::kPolicy: return StealPolicy::allowed_specs();
    case FieldKind::kSchedule: return Schedule::allowed_specs();
    case FieldKind::kFraction: {
      char max[32];
      std::snprintf(max, sizeof max, "%g", f.fraction_max);
      return std::string("a fraction from 0 to ") + max;
    }
  }
  return {};
}

// `setting`="`value`": why, with what is allowed (for a Config member: `setting`=`value`).
ConfigError bad_value(const ConfigField& f, std::string_view setting, std::string_view value,
                      bool in_env) {
  // A variable's value is quoted exactly as given; a member's is a number.
  const std::string shown = in_env ? "\"" + std::string(value) + "\"" : std::string(value);
  std::string message = std::string(setting) + "=" + shown + ": ";
  if (f.kind == FieldKind::kChoice) {
    message += "unknown " + std::string(f.what) + " (allowed: " + allowed(f, in_env) + ")";
  } else {
    message += "expected " + allowed(f, in_env);
  }
  return ConfigError(message);
}

bool in_limits(const ConfigField& f, std::uint64_t v, bool in_env) {
  if (v == 0 && !f.zero.empty() && (!in_env || f.env_takes_zero)) return true;
  return v >= f.lo && v <= f.hi;
}

// Digits only (no sign, space or base prefix), fitting 64 bits.
bool parse_digits(std::string_view text, std::uint64_t& v) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size();
}

bool parse_bytes(std::string_view value, std::uint64_t& bytes) {
  if (value.empty()) return false;
  std::uint64_t scale = 1;
  switch (value.back()) {
    case 'K':
    case 'k': scale = kKiB; break;
    case 'M':
    case 'm': scale = kMiB; break;
    case 'G':
    case 'g': scale = kGiB; break;
    default: break;
  }
  std::string_view digits = value;
  if (scale != 1) digits.remove_suffix(1);
  std::uint64_t n = 0;
  if (!parse_digits(digits, n) || n > UINT64_MAX / scale) return false;
  bytes = n * scale;
  return true;
}

bool parse_bool(std::string_view value, std::uint64_t& v) {
  if (value == "1" || value == "true" || value == "yes" || value == "on") {
    v = 1;
  } else if (value == "0" || value == "false" || value == "no" || value == "off") {
    v = 0;
  } else {
    return false;
  }
  return true;
}

// Sets the field from its variable's value; a ConfigError naming the variable if it is bad.
void parse_into(const ConfigField& f, Config& c, std::string_view value) {
  std::uint64_t v = 0;
  bool ok = false;
  switch (f.kind) {
    case FieldKind::kPolicy: c.steal = StealPolicy::parse(value, f.variable); return;
    case FieldKind::kSchedule: c.schedule = Schedule::parse(value, f.variable); return;
    case FieldKind::kCount: ok = parse_digits(value, v) && in_limits(f, v, true); break;
    case FieldKind::kBytes: ok = parse_bytes(value, v) && in_limits(f, v, true); break;
    case FieldKind::kBool: ok = parse_bool(value, v); break;
    case FieldKind::kChoice: {
      const int i = choice_index(f.names, value);
      ok = i >= 0;
      v = static_cast<std::uint64_t>(i);
      if (!ok && f.bool_spellings) ok = parse_bool(value, v);
      break;
    }
    case FieldKind::kFraction: break;  // no variable
  }
  if (!ok) throw bad_value(f, f.variable, value, /*in_env=*/true);
  f.set(c, v);
}

// Throws a ConfigError naming Config::<field> if the member is out of its limits.
void check(const ConfigField& f, const Config& c) {
  const std::string setting = "Config::" + std::string(f.field);
  switch (f.kind) {
    case FieldKind::kCount:
    case FieldKind::kBytes:
      if (const std::uint64_t v = f.get(c); !in_limits(f, v, false)) {
        throw bad_value(f, setting, std::to_string(v), false);
      }
      return;
    case FieldKind::kChoice:
      if (const std::uint64_t v = f.get(c); v >= choice_count(f.names)) {
        throw bad_value(f, setting, std::to_string(v), false);
      }
      return;
    case FieldKind::kFraction:
      if (!(c.help_stack_fraction >= 0.0 && c.help_stack_fraction <= f.fraction_max)) {
        throw bad_value(f, setting, std::to_string(c.help_stack_fraction), false);
      }
      return;
    case FieldKind::kBool:
    case FieldKind::kPolicy:
    case FieldKind::kSchedule: return;  // every value is valid (Schedule checks K itself)
  }
}

const char* env(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  return (v != nullptr && *v != '\0') ? v : nullptr;
}

}  // namespace

std::span<const ConfigField> config_fields() noexcept { return kFields; }

const ConfigField& config_field(std::string_view field) {
  for (const ConfigField& f : kFields) {
    if (f.field == field) return f;
  }
  throw std::out_of_range("weft: no Config field " + std::string(field));
}

std::string allowed_in_env(const ConfigField& f) { return allowed(f, true); }
std::string allowed_in_config(const ConfigField& f) { return allowed(f, false); }

std::string readme_row_prefix(const ConfigField& f) {
  std::string row = "| `";
  row.append(f.field).append("` | ");
  if (f.variable.empty()) {
    row.append("—");
  } else {
    row.append("`").append(f.variable).append("`");
  }
  row.append(" | ").append(f.default_text).append(" | ");
  row.append(f.variable.empty() ? allowed_in_config(f) : allowed_in_env(f)).append(" |");
  return row;
}

std::string setting_names(const ConfigField& f) {
  if (f.variable.empty()) return std::string(f.field);
  return std::string(f.field) + " / " + std::string(f.variable);
}

std::string bytes_text(std::uint64_t bytes) {
  for (const auto& [unit, name] : {std::pair{kGiB, " GiB"}, {kMiB, " MiB"}, {kKiB, " KiB"}}) {
    if (bytes != 0 && bytes % unit == 0) return std::to_string(bytes / unit) + name;
  }
  return std::to_string(bytes) + " bytes";
}

}  // namespace detail

Config Config::from_env() {
  Config c;
  for (const detail::ConfigField& f : detail::config_fields()) {
    if (f.variable.empty()) continue;
    if (const char* v = detail::env(f.variable)) detail::parse_into(f, c, v);
  }
  c.validate();
  return c;
}

void Config::validate() const {
  for (const detail::ConfigField& f : detail::config_fields()) detail::check(f, *this);
}

const char* mechanism_name(StealMechanism m) noexcept {
  return m == StealMechanism::kRequest ? "request" : "concurrent";
}

namespace {

// A Config whose kChoice `field` is the value named `spec` (by the field's names, as its
// variable takes them), or a ConfigError naming `setting`.
Config with_choice(std::string_view field, std::string_view spec, std::string_view setting) {
  const detail::ConfigField& f = detail::config_field(field);
  Config c;
  const int i = detail::choice_index(f.names, spec);
  if (i < 0) throw detail::bad_value(f, setting, spec, /*in_env=*/true);
  f.set(c, static_cast<std::uint64_t>(i));
  return c;
}

}  // namespace

StealMechanism parse_mechanism(std::string_view spec, std::string_view setting) {
  return with_choice("mechanism", spec, setting).mechanism;
}

Barrier parse_barrier(std::string_view spec, std::string_view setting) {
  return with_choice("barrier", spec, setting).barrier;
}

// The names below are the field table's (config_test checks that they agree).
const char* loop_scheme_name(LoopScheme s) noexcept {
  switch (s) {
    case LoopScheme::kPcb: return "pcb";
    case LoopScheme::kDlist: return "dlist";
    case LoopScheme::kSplit: return "split";
  }
  return "?";
}

const char* loop_frames_name(LoopFrames f) noexcept {
  switch (f) {
    case LoopFrames::kStack: return "stack";
    case LoopFrames::kPool: return "pool";
  }
  return "?";
}

const char* adaptive_fork_name(AdaptiveFork a) noexcept {
  switch (a) {
    case AdaptiveFork::kOff: return "0";
    case AdaptiveFork::kOn: return "1";
    case AdaptiveFork::kLazy: return "lazy";
  }
  return "?";
}

const char* thread_sched_name(ThreadSched s) noexcept {
  switch (s) {
    case ThreadSched::kFifo: return "fifo";
    case ThreadSched::kLifo: return "lifo";
    case ThreadSched::kDf: return "df";
    case ThreadSched::kDfd: return "dfd";
  }
  return "?";
}

LoopScheme parse_loop_scheme(std::string_view spec, std::string_view setting) {
  return with_choice("loops", spec, setting).loops;
}

LoopFrames parse_loop_frames(std::string_view spec, std::string_view setting) {
  return with_choice("loop_frames", spec, setting).loop_frames;
}

AdaptiveFork parse_adaptive_fork(std::string_view spec, std::string_view setting) {
  return with_choice("adaptive_fork", spec, setting).adaptive_fork;
}

ThreadSched parse_thread_sched(std::string_view spec, std::string_view setting) {
  return with_choice("thread_sched", spec, setting).thread_sched;
}

const char* barrier_name(Barrier b) noexcept {
  switch (b) {
    case Barrier::kAuto: return "auto";
    case Barrier::kMembarrier: return "membarrier";
    case Barrier::kFence: return "fence";
  }
  return "?";
}

std::size_t Config::resolved_task_slots() const noexcept {
  if (task_slots != 0) return task_slots;
  // A frame that holds a pending future takes at least a return address, the future and a
  // saved register or two; one slot per 64 bytes of stack lets a recursion spawn at every
  // level until its thread stack, not its task stack, runs out (1 Mi slots, 64 MiB of
  // address space, for the default stack; only the pages a program reaches are touched).
  const std::size_t derived = worker_stack_bytes / detail::kSlotBytes;
  return derived < detail::kMinTaskSlots
             ? detail::kMinTaskSlots
             : (derived > detail::kMaxTaskSlots ? detail::kMaxTaskSlots : derived);
}

unsigned Config::resolved_workers() const noexcept {
  if (workers != 0) return workers;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

}  // namespace weft

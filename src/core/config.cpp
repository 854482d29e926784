// Config: defaults, validation, and strict parsing of the WEFT_* environment variables.
#include "weft/config.hpp"

#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "weft/detail/slot.hpp"

namespace weft {
namespace {

// Beyond this many workers something is surely a typo (and each reserves a thread stack).
constexpr unsigned kMaxWorkers = 4096;
// A task stack needs room for at least a couple of nested spawns to be useful at all.
constexpr std::size_t kMinTaskSlots = 2;
constexpr std::size_t kMaxTaskSlots = std::size_t{1} << 26;  // 4 GiB of slots
constexpr const char* kTaskSlotsAllowed =
    "0 (one slot per 64 bytes of worker stack) or a slot count from 2 to 67108864";
// Below this, the runtime's own frames plus a few levels of user code would overflow.
constexpr std::size_t kMinWorkerStack = std::size_t{64} << 10;
// A request must be given some time to be seen, and a thief must not wait on a victim for
// longer than a second (a hang, to the user).
constexpr std::uint32_t kMinRequestTimeoutUs = 1;
constexpr std::uint32_t kMaxRequestTimeoutUs = 1000000;
// 32 bytes per event: 512 MiB per worker at most.
constexpr std::size_t kMaxTraceEvents = std::size_t{1} << 24;

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? v : nullptr;
}

ConfigError bad(std::string_view name, std::string_view value, std::string_view allowed) {
  return ConfigError(std::string(name) + "=\"" + std::string(value) + "\": expected " +
                     std::string(allowed));
}

std::uint64_t parse_unsigned(std::string_view name, std::string_view value, std::uint64_t lo,
                             std::uint64_t hi, std::string_view allowed) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc{} || end != value.data() + value.size() || v < lo ||
      v > hi) {
    throw bad(name, value, allowed);
  }
  return v;
}

std::size_t parse_bytes(std::string_view name, std::string_view value, std::uint64_t min_bytes) {
  const std::string allowed = "a size in bytes of at least " + std::to_string(min_bytes) +
                              ", optionally with a K, M or G suffix (e.g. 64M)";
  if (value.empty()) throw bad(name, value, allowed);
  std::uint64_t scale = 1;
  std::string_view digits = value;
  switch (value.back()) {
    case 'K':
    case 'k': scale = std::uint64_t{1} << 10; break;
    case 'M':
    case 'm': scale = std::uint64_t{1} << 20; break;
    case 'G':
    case 'g': scale = std::uint64_t{1} << 30; break;
    default: break;
  }
  if (scale != 1) digits.remove_suffix(1);
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  const std::uint64_t max_bytes = std::uint64_t{1} << 40;
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() ||
      n > max_bytes / scale || n * scale < min_bytes) {
    throw bad(name, value, allowed);  // the value as given, suffix and all
  }
  return static_cast<std::size_t>(n * scale);
}

bool parse_bool(std::string_view name, std::string_view value) {
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  throw bad(name, value, "one of 1, 0, true, false, yes, no, on, off");
}

}  // namespace

Config Config::from_env() {
  Config c;
  if (const char* v = env("WEFT_WORKERS")) {
    c.workers = static_cast<unsigned>(
        parse_unsigned("WEFT_WORKERS", v, 1, kMaxWorkers, "a worker count from 1 to 4096"));
  }
  if (const char* v = env("WEFT_STEAL")) c.steal = StealPolicy::parse(v, "WEFT_STEAL");
  if (const char* v = env("WEFT_MECHANISM")) c.mechanism = parse_mechanism(v, "WEFT_MECHANISM");
  if (const char* v = env("WEFT_REQUEST_TIMEOUT_US")) {
    c.request_timeout_us = static_cast<std::uint32_t>(
        parse_unsigned("WEFT_REQUEST_TIMEOUT_US", v, kMinRequestTimeoutUs, kMaxRequestTimeoutUs,
                       "microseconds from 1 to 1000000"));
  }
  if (const char* v = env("WEFT_SEED")) {
    c.seed = parse_unsigned("WEFT_SEED", v, 0, UINT64_MAX, "an unsigned 64-bit integer");
  }
  if (const char* v = env("WEFT_PIN")) c.pin = parse_bool("WEFT_PIN", v);
  if (const char* v = env("WEFT_TASK_SLOTS")) {
    c.task_slots = static_cast<std::size_t>(
        parse_unsigned("WEFT_TASK_SLOTS", v, 0, kMaxTaskSlots, kTaskSlotsAllowed));
    if (c.task_slots != 0 && c.task_slots < kMinTaskSlots) {
      throw bad("WEFT_TASK_SLOTS", v, kTaskSlotsAllowed);
    }
  }
  if (const char* v = env("WEFT_STACK_SIZE")) {
    c.worker_stack_bytes = parse_bytes("WEFT_STACK_SIZE", v, kMinWorkerStack);
  }
  if (const char* v = env("WEFT_PROFILE")) c.profile = parse_bool("WEFT_PROFILE", v);
  if (const char* v = env("WEFT_TRACE_EVENTS")) {
    c.trace_events = static_cast<std::size_t>(parse_unsigned(
        "WEFT_TRACE_EVENTS", v, 0, kMaxTraceEvents, "an event count from 0 to 16777216"));
  }
  c.validate();
  return c;
}

void Config::validate() const {
  if (workers > kMaxWorkers) {
    throw ConfigError("Config::workers=" + std::to_string(workers) +
                      ": expected 0 (all hardware threads) or a count up to 4096");
  }
  if ((task_slots != 0 && task_slots < kMinTaskSlots) || task_slots > kMaxTaskSlots) {
    throw ConfigError("Config::task_slots=" + std::to_string(task_slots) + ": expected " +
                      kTaskSlotsAllowed);
  }
  if (worker_stack_bytes < kMinWorkerStack) {
    throw ConfigError("Config::worker_stack_bytes=" + std::to_string(worker_stack_bytes) +
                      ": expected at least 65536");
  }
  if (trace_events > kMaxTraceEvents) {
    throw ConfigError("Config::trace_events=" + std::to_string(trace_events) +
                      ": expected an event count from 0 to 16777216");
  }
  if (request_timeout_us < kMinRequestTimeoutUs || request_timeout_us > kMaxRequestTimeoutUs) {
    throw ConfigError("Config::request_timeout_us=" + std::to_string(request_timeout_us) +
                      ": expected microseconds from 1 to 1000000");
  }
  if (mechanism != StealMechanism::kConcurrent && mechanism != StealMechanism::kRequest) {
    throw ConfigError("Config::mechanism=" + std::to_string(static_cast<int>(mechanism)) +
                      ": expected StealMechanism::kConcurrent or kRequest");
  }
  if (!(help_stack_fraction >= 0.0 && help_stack_fraction <= 0.9)) {
    throw ConfigError("Config::help_stack_fraction=" + std::to_string(help_stack_fraction) +
                      ": expected a fraction from 0 to 0.9");
  }
}

const char* mechanism_name(StealMechanism m) noexcept {
  return m == StealMechanism::kRequest ? "request" : "concurrent";
}

StealMechanism parse_mechanism(std::string_view spec, std::string_view setting) {
  if (spec == "concurrent") return StealMechanism::kConcurrent;
  if (spec == "request") return StealMechanism::kRequest;
  throw ConfigError(std::string(setting) + "=\"" + std::string(spec) +
                    "\": unknown steal mechanism (allowed: concurrent, request)");
}

std::size_t Config::resolved_task_slots() const noexcept {
  if (task_slots != 0) return task_slots;
  // A frame that holds a pending future takes at least a return address, the future and a
  // saved register or two; one slot per 64 bytes of stack lets a recursion spawn at every
  // level until its thread stack, not its task stack, runs out (1 Mi slots, 64 MiB of
  // address space, for the default stack; only the pages a program reaches are touched).
  const std::size_t derived = worker_stack_bytes / detail::kSlotBytes;
  return derived < kMinTaskSlots ? kMinTaskSlots
                                 : (derived > kMaxTaskSlots ? kMaxTaskSlots : derived);
}

unsigned Config::resolved_workers() const noexcept {
  if (workers != 0) return workers;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

}  // namespace weft

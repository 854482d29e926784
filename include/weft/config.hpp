// Runtime configuration: the worker count, the steal policy and the knobs a user may turn,
// set in code or read strictly from the environment (Config::from_env).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace weft {

// Thrown for a bad Config value or environment variable; the message names the setting,
// the value given and what is allowed.
class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What a thief can see of its victim when it decides how much to take.
struct StealView {
  std::int64_t available = 0;  // n: the victim's tasks spawned and not yet started
};

// How many of the victim's oldest tasks a thief takes in one steal. A small immutable value
// object chosen at run time, so one binary sweeps every policy. The built-in policies live
// in src/core/steal_policy.cpp; adding one touches that file only.
class StealPolicy {
 public:
  class Strategy {
   public:
    virtual ~Strategy() = default;
    // The number of tasks to claim given the view; 0 declines (the steal fails).
    virtual std::int64_t amount(const StealView& view) const noexcept = 0;
    // The spec that parse() accepts back, e.g. "fixed:20".
    virtual std::string spec() const = 0;
  };

  // Bottommost-first: one task whenever n >= 1 (StackThreads/MP st_org, Cilk).
  static StealPolicy one();
  // Exactly d tasks when n >= d, otherwise the steal fails (st_sta). Requires d >= 1.
  static StealPolicy fixed(std::int64_t d);
  // ceil(n/2) tasks when n >= 1 (st_dyn: floor(n_total/2) with n_total = n + 1).
  static StealPolicy half();
  // Parses "one", "half" or "fixed:D"; throws ConfigError naming `setting` otherwise.
  static StealPolicy parse(std::string_view spec, std::string_view setting = "steal policy");
  // The specs parse() accepts, for error messages and --help texts.
  static std::string allowed_specs();

  StealPolicy() : StealPolicy(one()) {}
  explicit StealPolicy(std::shared_ptr<const Strategy> strategy) : strategy_(std::move(strategy)) {}

  std::int64_t amount(const StealView& view) const noexcept { return strategy_->amount(view); }
  std::string spec() const { return strategy_->spec(); }

 private:
  std::shared_ptr<const Strategy> strategy_;
};

struct Config {
  // Worker threads; 0 means std::thread::hardware_concurrency(). (WEFT_WORKERS)
  unsigned workers = 0;
  StealPolicy steal = StealPolicy::one();  // (WEFT_STEAL)
  // Seeds each worker's victim-selection generator (mixed with the worker id). (WEFT_SEED)
  std::uint64_t seed = 0x5eedf00d;
  // Pin worker i to CPU i mod hardware_concurrency(). (WEFT_PIN=0|1)
  bool pin = false;
  // Task slots per worker (64 bytes each). A full stack runs further spawns inline at the
  // spawn, serially, so this bounds memory, never correctness. (WEFT_TASK_SLOTS)
  std::size_t task_slots = 8192;
  // Stack size of each worker thread. Deep recursion needs it; it is reserved, not touched.
  // (WEFT_STACK_SIZE, bytes, with an optional K, M or G suffix)
  std::size_t worker_stack_bytes = std::size_t{64} << 20;
  // A worker waiting for a stolen task helps by stealing only while its stack use is below
  // this fraction of worker_stack_bytes (see docs/ARCHITECTURE.md, "Join and its bound").
  double help_stack_fraction = 0.5;
  // The execution profile: each worker charges its time to busy / steal / idle / switch,
  // reported by Runtime::stats() (weft/profile.hpp). Off, it costs a predictable branch at
  // each steal and idle step, never on spawn or join. (WEFT_PROFILE=0|1)
  bool profile = false;
  // Timeline events kept per worker for Runtime::trace() (busy intervals, steals); 0 keeps
  // none. Implies profile. At most 16777216 (32 bytes each). (WEFT_TRACE_EVENTS)
  std::size_t trace_events = 0;

  // Reads the WEFT_* variables over the defaults above. Throws ConfigError for a bad value.
  static Config from_env();
  // Throws ConfigError if a field is out of range. Runtime's constructor calls it.
  void validate() const;
  // The worker count after resolving 0 to the hardware's.
  unsigned resolved_workers() const noexcept;
};

}  // namespace weft

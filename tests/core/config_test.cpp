// Config and StealPolicy: parsing the policy specs, the WEFT_* environment variables (strict:
// every bad value is a ConfigError naming the setting and the value), and the amounts the
// built-in policies give.
#include "weft/config.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "model/config_fields.hpp"
#include "model/idle_backoff.hpp"
#include "model/steal_history.hpp"
#include "tasks/barrier_mode.hpp"
#include "test_support.hpp"
#include "weft/detail/task_stack.hpp"
#include "weft/runtime.hpp"

namespace {

using weft::ConfigError;
using weft::StealPolicy;
using weft::StealView;

std::int64_t amount(const StealPolicy& p, std::int64_t n) { return p.amount(StealView{n}); }

// The ConfigError message thrown by fn, or "" if it throws nothing.
template <class F>
std::string config_error(F fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// ---- StealPolicy ----

TEST(StealPolicy, ParsesTheBuiltInSpecs) {
  EXPECT_EQ(StealPolicy::parse("one").spec(), "one");
  EXPECT_EQ(StealPolicy::parse("half").spec(), "half");
  EXPECT_EQ(StealPolicy::parse("fixed:20").spec(), "fixed:20");
  EXPECT_EQ(StealPolicy::parse("fixed:1").spec(), "fixed:1");
  EXPECT_EQ(StealPolicy::parse("fixed:1048576").spec(), "fixed:1048576");
  EXPECT_EQ(amount(StealPolicy::parse("fixed:20"), 20), 20);
  EXPECT_EQ(amount(StealPolicy::parse("fixed:20"), 19), 0);
}

TEST(StealPolicy, SpecRoundTripsThroughParse) {
  for (const StealPolicy& p :
       {StealPolicy::one(), StealPolicy::half(), StealPolicy::fixed(2), StealPolicy::fixed(77)}) {
    const StealPolicy q = StealPolicy::parse(p.spec());
    EXPECT_EQ(q.spec(), p.spec());
    for (std::int64_t n = 0; n <= 100; ++n) EXPECT_EQ(amount(q, n), amount(p, n)) << p.spec();
  }
}

TEST(StealPolicy, RejectsBadSpecsNamingTheSettingAndTheValue) {
  for (const char* bad :
       {"fixed:0", "fixed:", "fixed:x", "bogus", "fixed:-3", "fixed:2x", "fixed:1048577", "ONE",
        "half ", "", "fixed", "fixed:99999999999999999999999"}) {
    const std::string message = config_error([&] { (void)StealPolicy::parse(bad, "WEFT_STEAL"); });
    ASSERT_FALSE(message.empty()) << "\"" << bad << "\" was accepted";
    EXPECT_NE(message.find("WEFT_STEAL"), std::string::npos) << message;
    EXPECT_NE(message.find(std::string("\"") + bad + "\""), std::string::npos) << message;
  }
  // The default setting name, and the list of what is allowed.
  const std::string message = config_error([] { (void)StealPolicy::parse("bogus"); });
  EXPECT_NE(message.find("steal policy"), std::string::npos) << message;
  EXPECT_NE(message.find("one, half, adaptive, fixed:D"), std::string::npos) << message;
}

// Adaptive: half while the thief's steals bring little work for their cost (or it knows
// nothing of them yet), one once they bring plenty; nothing from an empty victim.
TEST(StealPolicy, AdaptiveTakesHalfForCheapStealsAndOneForRichOnes) {
  const StealPolicy p = StealPolicy::parse("adaptive");
  EXPECT_EQ(p.spec(), "adaptive");
  EXPECT_TRUE(p.reads_thief_history());
  EXPECT_FALSE(StealPolicy::half().reads_thief_history());
  for (std::int64_t n = 0; n <= 40; ++n) {
    EXPECT_EQ(p.amount(StealView{n, 0.0}), (n + 1) / 2) << n;
    EXPECT_EQ(p.amount(StealView{n, 5.0}), (n + 1) / 2) << n;
    EXPECT_EQ(p.amount(StealView{n, 1e4}), n >= 1 ? 1 : 0) << n;
  }
}

// The thief's history: nothing before any steal; while its first steals still run, the
// outermost one's time so far over its tasks and its cost (nested ones do not replace it);
// the weighted means once a steal has been recorded.
TEST(StealHistory, BeforeItsFirstRecordAThiefReadsTheStealStillRunning) {
  weft::detail::StealHistory h;
  EXPECT_EQ(h.task_work_per_cost(5'000), 0.0) << "no steal at all";
  h.begin(/*claimed_ns=*/1'000, /*tasks=*/2, /*cost_ns=*/10);
  EXPECT_EQ(h.task_work_per_cost(1'000), 0.0) << "no time has passed";
  EXPECT_DOUBLE_EQ(h.task_work_per_cost(1'640), 32.0);        // 640 ns over 2 tasks, 10 ns a steal
  h.begin(/*claimed_ns=*/1'500, /*tasks=*/1, /*cost_ns=*/1);  // nested in the first
  EXPECT_DOUBLE_EQ(h.task_work_per_cost(1'640), 32.0) << "the outermost steal counts";
  const StealPolicy adaptive = StealPolicy::adaptive();
  EXPECT_EQ(adaptive.amount(StealView{9, h.task_work_per_cost(1'630)}), 5);
  EXPECT_EQ(adaptive.amount(StealView{9, h.task_work_per_cost(1'640)}), 1);
  h.record(/*work_ns=*/40, /*tasks=*/1, /*cost_ns=*/10);  // the nested one ends
  EXPECT_DOUBLE_EQ(h.task_work_per_cost(1'000'000), 4.0) << "a record replaces the bound";
  h.record(/*work_ns=*/2'000, /*tasks=*/2, /*cost_ns=*/10);
  EXPECT_DOUBLE_EQ(h.task_work_per_cost(0), (40 + 0.25 * (1'000 - 40)) / 10.0);
  h.begin(/*claimed_ns=*/0, /*tasks=*/1, /*cost_ns=*/1);
  EXPECT_DOUBLE_EQ(h.task_work_per_cost(1'000'000), (40 + 0.25 * (1'000 - 40)) / 10.0)
      << "with a history, a running steal changes nothing";
}

TEST(Mechanism, ParsesBothNamesAndRejectsOthersNamingTheSetting) {
  EXPECT_EQ(weft::parse_mechanism("concurrent"), weft::StealMechanism::kConcurrent);
  EXPECT_EQ(weft::parse_mechanism("request"), weft::StealMechanism::kRequest);
  EXPECT_STREQ(weft::mechanism_name(weft::StealMechanism::kRequest), "request");
  EXPECT_STREQ(weft::mechanism_name(weft::StealMechanism::kConcurrent), "concurrent");
  for (const char* bad : {"", "Request", "requests", "both", " request"}) {
    const std::string message =
        config_error([&] { (void)weft::parse_mechanism(bad, "WEFT_MECHANISM"); });
    ASSERT_FALSE(message.empty()) << "\"" << bad << "\" was accepted";
    EXPECT_NE(message.find("WEFT_MECHANISM"), std::string::npos) << message;
    EXPECT_NE(message.find("concurrent, request"), std::string::npos) << message;
  }
  EXPECT_EQ(weft::Config{}.mechanism, weft::StealMechanism::kConcurrent) << "the default";
}

TEST(BarrierName, ParsesEachNameAndRejectsOthersNamingTheSetting) {
  for (weft::Barrier b : {weft::Barrier::kAuto, weft::Barrier::kMembarrier, weft::Barrier::kFence})
    EXPECT_EQ(weft::parse_barrier(weft::barrier_name(b)), b);
  for (const char* bad : {"", "Fence", "fences", "none", " auto"}) {
    const std::string message = config_error([&] { (void)weft::parse_barrier(bad, "--barrier"); });
    ASSERT_FALSE(message.empty()) << "\"" << bad << "\" was accepted";
    EXPECT_NE(message.find("--barrier"), std::string::npos) << message;
    EXPECT_NE(message.find("auto, membarrier, fence"), std::string::npos) << message;
  }
}

// The loop settings' names are the field table's, in the enums' order; each parser takes
// back exactly what its name function writes, and its errors name the setting, the value and
// the names allowed.
TEST(LoopSettingNames, AgreeWithTheFieldTableAndRoundTrip) {
  const auto names_of = [](auto name_fn, auto... values) {
    std::string names;
    ((names += (names.empty() ? "" : ", ") + std::string(name_fn(values))), ...);
    return names;
  };
  using weft::AdaptiveFork;
  using weft::LoopFrames;
  using weft::LoopScheme;
  EXPECT_EQ(
      names_of(weft::loop_scheme_name, LoopScheme::kPcb, LoopScheme::kDlist, LoopScheme::kSplit),
      weft::detail::config_field("loops").names);
  EXPECT_EQ(names_of(weft::loop_frames_name, LoopFrames::kStack, LoopFrames::kPool),
            weft::detail::config_field("loop_frames").names);
  EXPECT_EQ(names_of(weft::adaptive_fork_name, AdaptiveFork::kOff, AdaptiveFork::kOn,
                     AdaptiveFork::kLazy),
            weft::detail::config_field("adaptive_fork").names);
  for (LoopScheme s : {LoopScheme::kPcb, LoopScheme::kDlist, LoopScheme::kSplit})
    EXPECT_EQ(weft::parse_loop_scheme(weft::loop_scheme_name(s)), s);
  for (LoopFrames f : {LoopFrames::kStack, LoopFrames::kPool})
    EXPECT_EQ(weft::parse_loop_frames(weft::loop_frames_name(f)), f);
  for (AdaptiveFork a : {AdaptiveFork::kOff, AdaptiveFork::kOn, AdaptiveFork::kLazy})
    EXPECT_EQ(weft::parse_adaptive_fork(weft::adaptive_fork_name(a)), a);

  EXPECT_EQ(config_error([] { (void)weft::parse_loop_scheme("PCB", "--loops"); }),
            "--loops=\"PCB\": unknown loop scheme (allowed: pcb, dlist, split)");
  EXPECT_EQ(config_error([] { (void)weft::parse_loop_frames("heap"); }),
            "loop_frames=\"heap\": unknown loop frame home (allowed: stack, pool)");
  EXPECT_EQ(config_error([] { (void)weft::parse_adaptive_fork("on", "WEFT_ADAPTIVE_FORK"); }),
            "WEFT_ADAPTIVE_FORK=\"on\": unknown adaptive fork mode (allowed: 0, 1, lazy)");
  EXPECT_FALSE(config_error([] { (void)weft::parse_adaptive_fork(""); }).empty());
}

TEST(ThreadSchedNames, AgreeWithTheFieldTableAndRoundTrip) {
  using weft::ThreadSched;
  std::string names;
  for (ThreadSched s :
       {ThreadSched::kFifo, ThreadSched::kLifo, ThreadSched::kDf, ThreadSched::kDfd}) {
    names += (names.empty() ? "" : ", ") + std::string(weft::thread_sched_name(s));
    EXPECT_EQ(weft::parse_thread_sched(weft::thread_sched_name(s)), s);
  }
  EXPECT_EQ(names, weft::detail::config_field("thread_sched").names);
  EXPECT_EQ(config_error([] { (void)weft::parse_thread_sched("dfs", "WEFT_THREAD_SCHED"); }),
            "WEFT_THREAD_SCHED=\"dfs\": unknown thread scheduler (allowed: fifo, lifo, df, dfd)");
}

TEST(StealPolicy, ConfigErrorIsAnInvalidArgument) {
  EXPECT_THROW((void)StealPolicy::parse("bogus"), std::invalid_argument);
}

TEST(StealPolicy, FixedRejectsOutOfRangeLengths) {
  EXPECT_THROW((void)StealPolicy::fixed(0), ConfigError);
  EXPECT_THROW((void)StealPolicy::fixed(-1), ConfigError);
  EXPECT_THROW((void)StealPolicy::fixed((1 << 20) + 1), ConfigError);
  EXPECT_NO_THROW((void)StealPolicy::fixed(1 << 20));
}

TEST(StealPolicy, OneTakesOneWheneverThereIsAny) {
  const StealPolicy p = StealPolicy::one();
  EXPECT_EQ(amount(p, 0), 0);
  EXPECT_EQ(amount(p, -1), 0);
  for (std::int64_t n = 1; n <= 1000; ++n) EXPECT_EQ(amount(p, n), 1);
  EXPECT_EQ(StealPolicy().spec(), "one") << "the default policy";
}

TEST(StealPolicy, FixedTakesExactlyDOrNothing) {
  for (std::int64_t d : {1, 2, 5, 20}) {
    const StealPolicy p = StealPolicy::fixed(d);
    EXPECT_EQ(amount(p, 0), 0);
    for (std::int64_t n = 1; n <= 100; ++n) {
      EXPECT_EQ(amount(p, n), n >= d ? d : 0) << "fixed:" << d << " n=" << n;
    }
  }
}

TEST(StealPolicy, HalfTakesCeilOfHalf) {
  const StealPolicy p = StealPolicy::half();
  const std::vector<std::pair<std::int64_t, std::int64_t>> expected = {
      {0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {10, 5}, {11, 6}, {99, 50}, {100, 50}};
  for (const auto& [n, k] : expected) EXPECT_EQ(amount(p, n), k) << "n=" << n;
  for (std::int64_t n = 1; n <= 1000; ++n) {
    const std::int64_t k = amount(p, n);
    EXPECT_GE(2 * k, n);
    EXPECT_LE(2 * k, n + 1);
  }
}

TEST(StealPolicy, AllowedSpecsListsEveryForm) {
  const std::string allowed = StealPolicy::allowed_specs();
  for (const char* form : {"one", "half", "fixed:D"}) {
    EXPECT_NE(allowed.find(form), std::string::npos) << form;
  }
}

// ---- Config::from_env ----

// Every test starts with no WEFT_* variable of the field table set, and leaves them as found.
class FromEnv : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const weft::detail::ConfigField& f : weft::detail::config_fields()) {
      if (f.variable.empty()) continue;
      vars_.emplace_back(f.variable);
      const char* old = std::getenv(vars_.back().c_str());
      saved_.push_back(old ? std::optional<std::string>(old) : std::nullopt);
      unsetenv(vars_.back().c_str());
    }
  }
  void TearDown() override {
    for (std::size_t i = 0; i < vars_.size(); ++i) {
      if (saved_[i]) {
        setenv(vars_[i].c_str(), saved_[i]->c_str(), 1);
      } else {
        unsetenv(vars_[i].c_str());
      }
    }
  }

  // from_env() with `name`=`value`; the ConfigError message, or "" if accepted.
  static std::string error_with(const char* name, const char* value) {
    setenv(name, value, 1);
    std::string message = config_error([] { (void)weft::Config::from_env(); });
    unsetenv(name);
    return message;
  }

  // Expects from_env() to reject `name`=`value` with a message naming the variable and, if
  // `quotes_value`, quoting the value exactly as it was given.
  static void expect_rejected(const char* name, const char* value, bool quotes_value = true) {
    const std::string message = error_with(name, value);
    EXPECT_FALSE(message.empty()) << name << "=\"" << value << "\" was accepted";
    EXPECT_NE(message.find(name), std::string::npos) << message;
    if (quotes_value) {
      EXPECT_NE(message.find(std::string("\"") + value + "\""), std::string::npos)
          << "the message should quote the value as given, \"" << value << "\": " << message;
    }
  }

 private:
  std::vector<std::string> vars_;
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(FromEnv, NoVariablesGiveTheDefaults) {
  const weft::Config c = weft::Config::from_env();
  const weft::Config d;
  EXPECT_EQ(c.workers, d.workers);
  EXPECT_EQ(c.seed, d.seed);
  EXPECT_EQ(c.pin, weft::Pinning::kAuto);
  EXPECT_EQ(c.steal.spec(), "adaptive");
  EXPECT_EQ(c.mechanism, weft::StealMechanism::kConcurrent);
  EXPECT_EQ(c.task_slots, 0u);  // derived from the worker stack
  EXPECT_EQ(c.worker_stack_bytes, std::size_t{64} << 20);
  EXPECT_EQ(c.resolved_task_slots(), std::size_t{1} << 20);
  EXPECT_DOUBLE_EQ(c.help_stack_fraction, 0.5);
}

TEST_F(FromEnv, EmptyVariablesCountAsUnset) {
  setenv("WEFT_WORKERS", "", 1);
  setenv("WEFT_STEAL", "", 1);
  const weft::Config c = weft::Config::from_env();
  EXPECT_EQ(c.workers, 0u);
  EXPECT_EQ(c.steal.spec(), "adaptive");
}

TEST_F(FromEnv, Workers) {
  setenv("WEFT_WORKERS", "3", 1);
  EXPECT_EQ(weft::Config::from_env().workers, 3u);
  setenv("WEFT_WORKERS", "4096", 1);
  EXPECT_EQ(weft::Config::from_env().workers, 4096u);
  unsetenv("WEFT_WORKERS");
  for (const char* bad : {"0", "-1", "abc", "5000", "4097", "3x", " 3", "3 ", "+3", "0x10"}) {
    expect_rejected("WEFT_WORKERS", bad);
  }
}

TEST_F(FromEnv, Steal) {
  setenv("WEFT_STEAL", "half", 1);
  EXPECT_EQ(weft::Config::from_env().steal.spec(), "half");
  setenv("WEFT_STEAL", "fixed:20", 1);
  EXPECT_EQ(weft::Config::from_env().steal.spec(), "fixed:20");
  unsetenv("WEFT_STEAL");
  for (const char* bad : {"fixed:0", "fixed:", "fixed:x", "bogus"})
    expect_rejected("WEFT_STEAL", bad);
}

TEST_F(FromEnv, MechanismAndRequestTimeout) {
  EXPECT_EQ(weft::Config::from_env().mechanism, weft::StealMechanism::kConcurrent);
  EXPECT_EQ(weft::Config::from_env().request_timeout_us, 50u);
  setenv("WEFT_MECHANISM", "request", 1);
  EXPECT_EQ(weft::Config::from_env().mechanism, weft::StealMechanism::kRequest);
  setenv("WEFT_MECHANISM", "concurrent", 1);
  EXPECT_EQ(weft::Config::from_env().mechanism, weft::StealMechanism::kConcurrent);
  unsetenv("WEFT_MECHANISM");
  for (const char* bad : {"requests", "REQUEST", "1"}) expect_rejected("WEFT_MECHANISM", bad);
  setenv("WEFT_REQUEST_TIMEOUT_US", "1", 1);
  EXPECT_EQ(weft::Config::from_env().request_timeout_us, 1u);
  setenv("WEFT_REQUEST_TIMEOUT_US", "1000000", 1);
  EXPECT_EQ(weft::Config::from_env().request_timeout_us, 1000000u);
  unsetenv("WEFT_REQUEST_TIMEOUT_US");
  for (const char* bad : {"0", "1000001", "-5", "50us", ""}) {
    if (*bad == '\0') continue;  // empty counts as unset
    expect_rejected("WEFT_REQUEST_TIMEOUT_US", bad);
  }
  weft::Config c;
  c.request_timeout_us = 0;
  EXPECT_THROW(c.validate(), ConfigError);
}

TEST_F(FromEnv, IdleAwake) {
  // The default is the idle backoff's own minimum yield, which the simulator models.
  EXPECT_EQ(weft::Config::from_env().idle_awake_us,
            static_cast<std::uint32_t>(weft::detail::kMinYield.count()));
  setenv("WEFT_IDLE_AWAKE_US", "0", 1);
  EXPECT_EQ(weft::Config::from_env().idle_awake_us, 0u);
  setenv("WEFT_IDLE_AWAKE_US", "10000000", 1);
  EXPECT_EQ(weft::Config::from_env().idle_awake_us, 10000000u);
  unsetenv("WEFT_IDLE_AWAKE_US");
  for (const char* bad : {"10000001", "-1", "1ms", "x"}) expect_rejected("WEFT_IDLE_AWAKE_US", bad);
  weft::Config c;
  c.idle_awake_us = 10000001;
  EXPECT_THROW(c.validate(), ConfigError);
}

TEST_F(FromEnv, Seed) {
  setenv("WEFT_SEED", "12345", 1);
  EXPECT_EQ(weft::Config::from_env().seed, 12345u);
  setenv("WEFT_SEED", "0", 1);
  EXPECT_EQ(weft::Config::from_env().seed, 0u);
  setenv("WEFT_SEED", "18446744073709551615", 1);
  EXPECT_EQ(weft::Config::from_env().seed, UINT64_MAX);
  unsetenv("WEFT_SEED");
  for (const char* bad : {"-1", "abc", "18446744073709551616", "12 "})
    expect_rejected("WEFT_SEED", bad);
}

TEST_F(FromEnv, Pin) {
  for (const char* yes : {"1", "true", "yes", "on"}) {
    setenv("WEFT_PIN", yes, 1);
    EXPECT_EQ(weft::Config::from_env().pin, weft::Pinning::kOn) << yes;
  }
  for (const char* no : {"0", "false", "no", "off"}) {
    setenv("WEFT_PIN", no, 1);
    EXPECT_EQ(weft::Config::from_env().pin, weft::Pinning::kOff) << no;
  }
  setenv("WEFT_PIN", "auto", 1);
  EXPECT_EQ(weft::Config::from_env().pin, weft::Pinning::kAuto);
  unsetenv("WEFT_PIN");
  for (const char* bad : {"2", "maybe", "TRUE ", "Auto"}) expect_rejected("WEFT_PIN", bad);
  // Only the setting that was a boolean takes the other spellings.
  expect_rejected("WEFT_ADAPTIVE_FORK", "on");
}

TEST_F(FromEnv, BusyLimit) {
  EXPECT_EQ(weft::Config::from_env().busy_limit, 0u);  // the process's CPUs
  setenv("WEFT_BUSY_LIMIT", "3", 1);
  EXPECT_EQ(weft::Config::from_env().busy_limit, 3u);
  setenv("WEFT_BUSY_LIMIT", "4096", 1);
  EXPECT_EQ(weft::Config::from_env().busy_limit, 4096u);
  setenv("WEFT_BUSY_LIMIT", "0", 1);
  EXPECT_EQ(weft::Config::from_env().busy_limit, 0u);
  unsetenv("WEFT_BUSY_LIMIT");
  for (const char* bad : {"4097", "-1", "auto", "2x"}) expect_rejected("WEFT_BUSY_LIMIT", bad);
  weft::Config c;
  c.busy_limit = 4097;
  EXPECT_THROW(c.validate(), ConfigError);
}

TEST_F(FromEnv, ProfileAndTraceEvents) {
  EXPECT_FALSE(weft::Config::from_env().profile);
  EXPECT_EQ(weft::Config::from_env().trace_events, 0u);
  setenv("WEFT_PROFILE", "1", 1);
  EXPECT_TRUE(weft::Config::from_env().profile);
  setenv("WEFT_PROFILE", "off", 1);
  EXPECT_FALSE(weft::Config::from_env().profile);
  unsetenv("WEFT_PROFILE");
  for (const char* bad : {"2", "profile"}) expect_rejected("WEFT_PROFILE", bad);
  setenv("WEFT_TRACE_EVENTS", "16777216", 1);
  EXPECT_EQ(weft::Config::from_env().trace_events, std::size_t{1} << 24);
  unsetenv("WEFT_TRACE_EVENTS");
  for (const char* bad : {"-1", "16777217", "1e6", "many"})
    expect_rejected("WEFT_TRACE_EVENTS", bad);
}

TEST(ConfigValidate, TaskSlotsFollowTheWorkerStackUnlessSet) {
  weft::Config c;
  c.worker_stack_bytes = std::size_t{1} << 20;
  EXPECT_EQ(c.resolved_task_slots(), std::size_t{1} << 14);  // one per 64 bytes
  c.worker_stack_bytes = std::size_t{64} << 10;
  EXPECT_EQ(c.resolved_task_slots(), std::size_t{1} << 10);
  c.worker_stack_bytes = std::size_t{1} << 40;  // capped at the largest explicit count
  EXPECT_EQ(c.resolved_task_slots(), std::size_t{1} << 26);
  c.task_slots = 100;
  EXPECT_EQ(c.resolved_task_slots(), 100u);
}

TEST(ConfigValidate, TraceEventsCapped) {
  weft::Config c;
  c.trace_events = (std::size_t{1} << 24) + 1;
  EXPECT_THROW(c.validate(), weft::ConfigError);
}

TEST_F(FromEnv, TaskSlots) {
  setenv("WEFT_TASK_SLOTS", "2", 1);
  EXPECT_EQ(weft::Config::from_env().task_slots, 2u);
  setenv("WEFT_TASK_SLOTS", "67108864", 1);
  EXPECT_EQ(weft::Config::from_env().task_slots, std::size_t{1} << 26);
  setenv("WEFT_TASK_SLOTS", "0", 1);
  EXPECT_EQ(weft::Config::from_env().task_slots, 0u);
  unsetenv("WEFT_TASK_SLOTS");
  for (const char* bad : {"1", "67108865", "lots", "-5"}) expect_rejected("WEFT_TASK_SLOTS", bad);
}

TEST_F(FromEnv, StackSize) {
  const std::vector<std::pair<const char*, std::size_t>> good = {{"64M", std::size_t{64} << 20},
                                                                 {"64m", std::size_t{64} << 20},
                                                                 {"1G", std::size_t{1} << 30},
                                                                 {"512K", std::size_t{512} << 10},
                                                                 {"65536", 65536},
                                                                 {"1048576", 1048576}};
  for (const auto& [text, bytes] : good) {
    setenv("WEFT_STACK_SIZE", text, 1);
    EXPECT_EQ(weft::Config::from_env().worker_stack_bytes, bytes) << text;
  }
  unsetenv("WEFT_STACK_SIZE");
  for (const char* bad : {"12Q", "M", "abc", "-1M", "1.5M", "64 M", "0", "0K", "-1", "1.5"}) {
    expect_rejected("WEFT_STACK_SIZE", bad, /*quotes_value=*/false);
  }
  for (const char* bad : {"12Q", "M", "abc", "0", "-1", "1.5"}) {
    expect_rejected("WEFT_STACK_SIZE", bad);
  }
}

// The message quotes what the user wrote, suffix included: "WEFT_STACK_SIZE=\"-1M\"", not
// "WEFT_STACK_SIZE=\"-1\"" (which is not what the variable holds).
TEST_F(FromEnv, StackSizeErrorsQuoteTheValueWithItsSuffix) {
  for (const char* bad : {"-1M", "1.5M", "64 M", "0K", "2x G"}) {
    expect_rejected("WEFT_STACK_SIZE", bad);
  }
}

// A value that parses but is below the minimum is still an error, and (like every other
// bad value of a variable) the message names the variable and the value given.
TEST_F(FromEnv, StackSizeBelowTheMinimumIsRejected) {
  const std::string message = error_with("WEFT_STACK_SIZE", "1K");
  ASSERT_FALSE(message.empty()) << "a 1 KiB worker stack was accepted";
  EXPECT_NE(message.find("WEFT_STACK_SIZE"), std::string::npos) << message;
  EXPECT_NE(message.find("\"1K\""), std::string::npos) << message;
}

TEST_F(FromEnv, SeveralVariablesTogether) {
  setenv("WEFT_WORKERS", "6", 1);
  setenv("WEFT_STEAL", "fixed:3", 1);
  setenv("WEFT_SEED", "7", 1);
  setenv("WEFT_PIN", "yes", 1);
  setenv("WEFT_TASK_SLOTS", "1024", 1);
  setenv("WEFT_STACK_SIZE", "8M", 1);
  const weft::Config c = weft::Config::from_env();
  EXPECT_EQ(c.workers, 6u);
  EXPECT_EQ(c.steal.spec(), "fixed:3");
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.pin, weft::Pinning::kOn);
  EXPECT_EQ(c.task_slots, 1024u);
  EXPECT_EQ(c.worker_stack_bytes, std::size_t{8} << 20);
}

// ---- The field table, and the README's configuration table ----

TEST(ConfigFields, EachFieldOnceWithAWeftVariableAndItsMessages) {
  std::vector<std::string_view> fields, variables;
  for (const weft::detail::ConfigField& f : weft::detail::config_fields()) {
    for (std::string_view seen : fields) EXPECT_NE(seen, f.field);
    fields.push_back(f.field);
    EXPECT_FALSE(weft::detail::allowed_in_config(f).empty()) << f.field;
    if (f.variable.empty()) continue;
    EXPECT_EQ(f.variable.substr(0, 5), "WEFT_") << f.field;
    for (std::string_view seen : variables) EXPECT_NE(seen, f.variable);
    variables.push_back(f.variable);
  }
  EXPECT_EQ(weft::detail::config_field("worker_stack_bytes").variable, "WEFT_STACK_SIZE");
  EXPECT_EQ(weft::detail::setting_names(weft::detail::config_field("barrier")),
            "barrier / WEFT_BARRIER");
  EXPECT_THROW((void)weft::detail::config_field("no_such_field"), std::out_of_range);
}

// A default the table shows as a value (in backticks) is what the variable would have to say
// to get Config{}'s value, so the README's defaults cannot drift from the code's.
TEST_F(FromEnv, TheTablesDefaultsAreConfigsDefaults) {
  const weft::Config defaults;
  for (const weft::detail::ConfigField& f : weft::detail::config_fields()) {
    std::string_view text = f.default_text;
    if (f.variable.empty() || text.size() < 2 || text.front() != '`') continue;
    text = text.substr(1, text.size() - 2);
    const std::string variable(f.variable);
    setenv(variable.c_str(), std::string(text).c_str(), 1);
    const weft::Config c = weft::Config::from_env();
    unsetenv(variable.c_str());
    if (f.kind == weft::detail::FieldKind::kPolicy) {
      EXPECT_EQ(c.steal.spec(), defaults.steal.spec());
    } else if (f.kind == weft::detail::FieldKind::kSchedule) {
      EXPECT_EQ(c.schedule, defaults.schedule);
    } else {
      EXPECT_EQ(f.get(c), f.get(defaults)) << f.field << " " << text;
    }
  }
}

// README.md's table under "## Configuration": one row per field of the table, beginning with
// exactly what readme_row_prefix() gives (field, variable, default, allowed), and no row for
// a field or variable the table lacks. The meaning column is free text.
TEST(ReadmeTable, MatchesTheFieldTable) {
  std::ifstream in(WEFT_README_PATH);
  ASSERT_TRUE(in) << "cannot read " << WEFT_README_PATH;
  std::vector<std::string> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Configuration";
    if (inside && line.rfind("| `", 0) == 0) rows.push_back(line);
  }
  ASSERT_FALSE(rows.empty()) << "no configuration table in " << WEFT_README_PATH;
  std::vector<bool> matched(rows.size(), false);
  for (const weft::detail::ConfigField& f : weft::detail::config_fields()) {
    const std::string prefix = weft::detail::readme_row_prefix(f) + " ";
    int found = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].rfind(prefix, 0) == 0) {
        ++found;
        matched[i] = true;
      }
    }
    EXPECT_EQ(found, 1) << "README.md should have one configuration row beginning\n"
                        << prefix << "<meaning> |";
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(matched[i]) << "README.md row for no field of the table (or with stale "
                               "default/allowed text):\n"
                            << rows[i];
  }
}

TEST(ConfigFields, BytesText) {
  EXPECT_EQ(weft::detail::bytes_text(std::uint64_t{64} << 20), "64 MiB");
  EXPECT_EQ(weft::detail::bytes_text(std::uint64_t{16} << 30), "16 GiB");
  EXPECT_EQ(weft::detail::bytes_text(1536 * 1024), "1536 KiB");
  EXPECT_EQ(weft::detail::bytes_text(100), "100 bytes");
}

// ---- The barrier mode ----

TEST_F(FromEnv, Barrier) {
  EXPECT_EQ(weft::Config::from_env().barrier, weft::Barrier::kAuto);
  for (const auto& [text, mode] : {std::pair{"auto", weft::Barrier::kAuto},
                                   {"membarrier", weft::Barrier::kMembarrier},
                                   {"fence", weft::Barrier::kFence}}) {
    setenv("WEFT_BARRIER", text, 1);
    EXPECT_EQ(weft::Config::from_env().barrier, mode) << text;
    EXPECT_STREQ(weft::barrier_name(mode), text);
  }
  unsetenv("WEFT_BARRIER");
  for (const char* bad : {"Fence", "fences", "1", "none", "fence "}) {
    expect_rejected("WEFT_BARRIER", bad);
    EXPECT_NE(error_with("WEFT_BARRIER", bad).find("auto, membarrier, fence"), std::string::npos);
  }
  weft::Config c;
  c.barrier = static_cast<weft::Barrier>(7);
  const std::string message = config_error([&] { c.validate(); });
  EXPECT_NE(message.find("Config::barrier=7"), std::string::npos) << message;
}

weft::Config one_worker(weft::Barrier barrier) {
  weft::Config c;
  c.workers = 1;
  c.barrier = barrier;
  return c;
}

// The mode is process-wide: whatever the first runtime decided, a later runtime asking for
// the other one explicitly gets a ConfigError naming the setting and the mode in use, and
// changes nothing; asking for auto or for the mode in use works.
TEST(BarrierMode, ALaterRuntimeAskingForTheOtherModeIsRejected) {
  { weft::Runtime first{one_worker(weft::Barrier::kAuto)}; }
  const weft::detail::BarrierMode mode = weft::detail::barrier_mode();
  const bool fence = mode == weft::detail::BarrierMode::kFence;
  const weft::Barrier same = fence ? weft::Barrier::kFence : weft::Barrier::kMembarrier;
  const weft::Barrier other = fence ? weft::Barrier::kMembarrier : weft::Barrier::kFence;
  EXPECT_EQ(weft::Runtime{one_worker(same)}.run([] { return 7; }), 7);
  const std::string message = config_error([&] { weft::Runtime r{one_worker(other)}; });
  ASSERT_FALSE(message.empty()) << "a runtime with barrier " << weft::barrier_name(other)
                                << " started in a process using "
                                << weft::detail::barrier_mode_name(mode);
  EXPECT_NE(message.find("WEFT_BARRIER"), std::string::npos) << message;
  EXPECT_NE(message.find(weft::barrier_name(other)), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("already uses the ") + weft::barrier_name(same)),
            std::string::npos)
      << message;
  EXPECT_EQ(weft::detail::barrier_mode(), mode);
  EXPECT_EQ(weft::detail::g_pop_needs_fence.load(), fence);
  EXPECT_EQ(weft::Runtime{one_worker(weft::Barrier::kAuto)}.run([] { return 8; }), 8);
}

// In the death test's child (a fresh process): a first runtime asking for fence, then one
// asking for auto, then one asking for membarrier; prints the last one's error, exits 0 if
// the first two ran in fence mode.
[[noreturn]] void fence_first_then_auto_then_membarrier() {
  bool ok = weft::Runtime{one_worker(weft::Barrier::kFence)}.run([] { return 1; }) == 1;
  ok = ok && weft::detail::barrier_mode() == weft::detail::BarrierMode::kFence &&
       weft::detail::g_pop_needs_fence.load();
  ok = ok && weft::Runtime{one_worker(weft::Barrier::kAuto)}.run([] { return 2; }) == 2;
  const std::string message =
      config_error([] { weft::Runtime r{one_worker(weft::Barrier::kMembarrier)}; });
  std::fprintf(stderr, "%s\n", message.c_str());
  std::exit(ok ? 0 : 1);
}

TEST(BarrierMode, AFirstRuntimeAskingForFenceDecidesFence) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(fence_first_then_auto_then_membarrier(), ::testing::ExitedWithCode(0),
              "barrier / WEFT_BARRIER = membarrier: this process already uses the fence barrier, "
              "decided by its first runtime");
}

// ---- The deadlock detector and the thread debug switch ----

TEST_F(FromEnv, DeadlockActionAndWindow) {
  const weft::Config d;
  EXPECT_EQ(d.deadlock, weft::DeadlockAction::kAbort);
  EXPECT_EQ(d.deadlock_ms, 2000u);
  EXPECT_FALSE(d.thread_debug);
  for (const auto& [text, action] : {std::pair{"abort", weft::DeadlockAction::kAbort},
                                     {"report", weft::DeadlockAction::kReport},
                                     {"off", weft::DeadlockAction::kOff}}) {
    setenv("WEFT_DEADLOCK", text, 1);
    EXPECT_EQ(weft::Config::from_env().deadlock, action) << text;
  }
  unsetenv("WEFT_DEADLOCK");
  EXPECT_EQ(error_with("WEFT_DEADLOCK", "warn"),
            "WEFT_DEADLOCK=\"warn\": unknown deadlock action (allowed: abort, report, off)");
  for (const char* bad : {"Abort", " off", "0", "1"}) expect_rejected("WEFT_DEADLOCK", bad);
  setenv("WEFT_DEADLOCK_MS", "100", 1);
  EXPECT_EQ(weft::Config::from_env().deadlock_ms, 100u);
  setenv("WEFT_DEADLOCK_MS", "3600000", 1);
  EXPECT_EQ(weft::Config::from_env().deadlock_ms, 3600000u);
  unsetenv("WEFT_DEADLOCK_MS");
  for (const char* bad : {"0", "-1", "3600001", "2s", "1.5", "abc"}) {
    expect_rejected("WEFT_DEADLOCK_MS", bad);
  }
  EXPECT_EQ(error_with("WEFT_DEADLOCK_MS", "0"),
            "WEFT_DEADLOCK_MS=\"0\": expected milliseconds from 1 to 3600000");
}

TEST_F(FromEnv, ThreadDebug) {
  setenv("WEFT_THREAD_DEBUG", "1", 1);
  EXPECT_TRUE(weft::Config::from_env().thread_debug);
  setenv("WEFT_THREAD_DEBUG", "off", 1);
  EXPECT_FALSE(weft::Config::from_env().thread_debug);
  unsetenv("WEFT_THREAD_DEBUG");
  for (const char* bad : {"2", "debug", "-1"}) expect_rejected("WEFT_THREAD_DEBUG", bad);
}

TEST(DeadlockConfig, BadFieldsInCodeAreConfigErrors) {
  weft::Config c;
  c.workers = 1;
  c.deadlock_ms = 0;
  EXPECT_EQ(config_error([&] { weft::Runtime rt(c); }),
            "Config::deadlock_ms=0: expected milliseconds from 1 to 3600000");
  c.deadlock_ms = 100;
  c.deadlock = static_cast<weft::DeadlockAction>(3);
  EXPECT_EQ(config_error([&] { weft::Runtime rt(c); }),
            "Config::deadlock=3: unknown deadlock action (allowed: abort, report, off)");
}

// ---- The worker stack's upper bound, and a stack that cannot be had ----

TEST_F(FromEnv, StackSizeAboveTheMaximumIsRejected) {
  setenv("WEFT_STACK_SIZE", "1G", 1);
  EXPECT_EQ(weft::Config::from_env().worker_stack_bytes, std::size_t{1} << 30);
  setenv("WEFT_STACK_SIZE", "1048576K", 1);
  EXPECT_EQ(weft::Config::from_env().worker_stack_bytes, std::size_t{1} << 30);
  unsetenv("WEFT_STACK_SIZE");
  for (const char* bad : {"100G", "2G", "1025M", "1073741825", "99999999999999999G"}) {
    expect_rejected("WEFT_STACK_SIZE", bad);
    EXPECT_NE(error_with("WEFT_STACK_SIZE", bad).find("from 64K to 1G"), std::string::npos);
  }
  weft::Config c;
  c.worker_stack_bytes = std::size_t{2} << 30;
  const std::string message = config_error([&] { c.validate(); });
  EXPECT_NE(message.find("Config::worker_stack_bytes=2147483648"), std::string::npos) << message;
}

// In the death test's child: limits the address space to what is in use plus 256 MiB, starts
// a runtime with a 1 GiB worker stack, prints the error and exits 0 (or non-zero if it
// started, or the limit could not be set).
[[noreturn]] void start_with_a_stack_beyond_the_address_space() {
  const weft_test::AddressSpaceLimit limit(rlim_t{256} << 20);
  if (!limit.set()) std::exit(3);
  weft::Config c;
  c.workers = 1;
  c.task_slots = 1024;
  c.worker_stack_bytes = std::size_t{1} << 30;
  try {
    weft::Runtime rt{c};
  } catch (const std::system_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(0);
  }
  std::exit(4);
}

// A stack the system cannot give (here: address space limited by RLIMIT_AS, in a child
// process) fails the runtime's construction with a message naming the stack size and the
// setting, not just "starting a worker thread".
TEST(WorkerStack, AStackThatCannotBeReservedIsNamedInTheError) {
  if (weft_test::kSanitized) GTEST_SKIP() << "sanitizer runtimes reserve address space too";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(start_with_a_stack_beyond_the_address_space(), ::testing::ExitedWithCode(0),
              "could not start a worker thread with a 1 GiB stack \\(worker_stack_bytes / "
              "WEFT_STACK_SIZE\\)");
}

}  // namespace

// Config and StealPolicy: parsing the policy specs, the WEFT_* environment variables (strict:
// every bad value is a ConfigError naming the setting and the value), and the amounts the
// built-in policies give.
#include "weft/config.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

// Adaptive: half while the thief's steals bring little work for their cost (or it has no
// history yet), one once they bring plenty; nothing from an empty victim.
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

class FromEnv : public ::testing::Test {
 protected:
  static constexpr const char* kVars[] = {"WEFT_WORKERS",    "WEFT_STEAL",
                                          "WEFT_SEED",       "WEFT_PIN",
                                          "WEFT_TASK_SLOTS", "WEFT_STACK_SIZE",
                                          "WEFT_PROFILE",    "WEFT_TRACE_EVENTS",
                                          "WEFT_MECHANISM",  "WEFT_REQUEST_TIMEOUT_US"};

  void SetUp() override {
    for (const char* v : kVars) {
      const char* old = std::getenv(v);
      saved_.push_back(old ? std::optional<std::string>(old) : std::nullopt);
      unsetenv(v);
    }
  }
  void TearDown() override {
    for (std::size_t i = 0; i < std::size(kVars); ++i) {
      if (saved_[i]) {
        setenv(kVars[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kVars[i]);
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
  std::vector<std::optional<std::string>> saved_;
};

TEST_F(FromEnv, NoVariablesGiveTheDefaults) {
  const weft::Config c = weft::Config::from_env();
  const weft::Config d;
  EXPECT_EQ(c.workers, d.workers);
  EXPECT_EQ(c.seed, d.seed);
  EXPECT_EQ(c.pin, false);
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
    EXPECT_TRUE(weft::Config::from_env().pin) << yes;
  }
  for (const char* no : {"0", "false", "no", "off"}) {
    setenv("WEFT_PIN", no, 1);
    EXPECT_FALSE(weft::Config::from_env().pin) << no;
  }
  unsetenv("WEFT_PIN");
  for (const char* bad : {"2", "maybe", "TRUE "}) expect_rejected("WEFT_PIN", bad);
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
  EXPECT_TRUE(c.pin);
  EXPECT_EQ(c.task_slots, 1024u);
  EXPECT_EQ(c.worker_stack_bytes, std::size_t{8} << 20);
}

}  // namespace

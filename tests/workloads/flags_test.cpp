// The tools' flag table (workloads/common/flags.hpp): flags and switches taken in order,
// operands, --help stopping the parse, each error worded "<argument>: <what>", the value
// parsers' ranges, and the option list --help prints.
#include "workloads/common/flags.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using common::FlagTable;
using common::UsageError;

struct Parsed {
  long repeat = 0;
  bool verbose = false;
  std::vector<std::string> operands;
};

FlagTable table(Parsed& p) {
  return FlagTable({
      {"--repeat", "R", "repetitions (default 3)",
       [&](std::string_view v) {
         p.repeat = common::parse_integer("--repeat " + std::string(v), v, 1, 9);
       }},
      {"--verbose", "", "say more\non two lines", [&](std::string_view) { p.verbose = true; }},
      {"--a-very-long-flag-name", "VALUE", "its help on a line of its own",
       [](std::string_view) {}},
  });
}

std::string error_of(const FlagTable& t, std::vector<std::string_view> args) {
  try {
    (void)t.parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FlagTable, TakesFlagsSwitchesAndOperandsInOrder) {
  Parsed p;
  FlagTable t = table(p);
  t.operands([&](std::string_view o) { p.operands.emplace_back(o); });
  const std::vector<std::string_view> args{"x", "--repeat", "4", "--verbose", "y"};
  EXPECT_TRUE(t.parse(args));
  EXPECT_EQ(p.repeat, 4);
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.operands, (std::vector<std::string>{"x", "y"}));
}

TEST(FlagTable, HelpStopsTheParse) {
  Parsed p;
  const FlagTable t = table(p);
  const std::vector<std::string_view> args{"--verbose", "--help", "--repeat", "bad"};
  EXPECT_FALSE(t.parse(args));
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.repeat, 0);
  const std::vector<std::string_view> short_help{"-h"};
  EXPECT_FALSE(t.parse(short_help));
}

TEST(FlagTable, WordsEveryErrorAsArgumentColonWhat) {
  Parsed p;
  const FlagTable t = table(p);
  EXPECT_EQ(error_of(t, {"--bogus"}), "--bogus: unknown option (see --help)");
  EXPECT_EQ(error_of(t, {"--repeat"}), "--repeat: missing value");
  EXPECT_EQ(error_of(t, {"stray"}), "stray: unexpected argument");
  EXPECT_EQ(error_of(t, {"--repeat", "0"}),
            "--repeat 0: expected a whole number from 1 to 9, got \"0\"");
  EXPECT_EQ(common::argument("--repeat", "4x"), "--repeat 4x");
  EXPECT_EQ(error_of(t, {"--repeat", "4x"}),
            "--repeat 4x: expected a whole number from 1 to 9, got \"4x\"");
}

TEST(FlagTable, ValueParsersCheckTheirRanges) {
  EXPECT_EQ(common::parse_integer("a", "-3", -5, 5), -3);
  EXPECT_THROW((void)common::parse_integer("a", "", 0, 5), UsageError);
  EXPECT_EQ(common::parse_u64("s", "18446744073709551615"), 18446744073709551615u);
  EXPECT_THROW((void)common::parse_u64("s", "-1"), UsageError);
  EXPECT_DOUBLE_EQ(common::parse_number("x", "2.5e-1", 0, 1), 0.25);
  try {
    (void)common::parse_number("--x 1.5", "1.5", 0, 0.5);
    ADD_FAILURE() << "1.5 is above 0.5";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--x 1.5: expected a number from 0 to 0.5, got \"1.5\"");
  }
  EXPECT_THROW((void)common::parse_number("x", "nan", 0, 1), UsageError);
  EXPECT_THROW((void)common::parse_number("x", "0.5s", 0, 1), UsageError);
  EXPECT_THROW((void)common::parse_number("x", " 0.5", 0, 1), UsageError);
  const std::vector<std::string_view> items = common::split_list("l", "a,b,c");
  EXPECT_EQ(items, (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_THROW((void)common::split_list("l", "a,,c"), UsageError);
  EXPECT_THROW((void)common::split_list("l", ""), UsageError);
}

TEST(FlagTable, OptionsHelpListsEveryFlagAligned) {
  Parsed p;
  const FlagTable t = table(p);
  EXPECT_EQ(t.options_help(),
            "  --repeat R              repetitions (default 3)\n"
            "  --verbose               say more\n"
            "                          on two lines\n"
            "  --a-very-long-flag-name VALUE\n"
            "                          its help on a line of its own\n");
}

}  // namespace

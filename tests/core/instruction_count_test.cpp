// weft-instructions' per-operation instruction counts (tools/bench/instructions), pinned: each
// figure of its JSON must lie within 2 instructions of the value below, so a change that adds
// a few instructions to a spawn, a join, a loop chunk or a yield fails here, and so does one
// that takes a few away (update the pins then: it is good news). callgrind's counts are
// deterministic (three runs agree to the instruction), so the tolerance only absorbs the
// fraction that averaging over the sizes leaves.
//
// Measured with CMAKE_BUILD_TYPE=Release, valgrind 3.19.0, x86-64, for two compilers, each
// with its own figures, as each generates its own code: GCC 12.2.0 (Debian 12; kPinnedGcc) and
// Clang 14.0.6 (Debian 14, scripts/test.sh's clang stage; kPinnedClang). Another compiler or
// version: the test skips itself there, saying so.
// To update: build weft-instructions in a Release build with that compiler, run
//   build/tools/bench/instructions/weft-instructions
// and copy its instr/op and over serial columns into that compiler's table (and its version
// below).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir_support.hpp"

namespace {

constexpr int kPinnedGccMajor = 12;
constexpr int kPinnedGccMinor = 2;
constexpr int kPinnedClangMajor = 14;
constexpr int kPinnedClangMinor = 0;
#if defined(__clang__)
constexpr bool kClang = true;
constexpr bool kPinnedCompiler =
    __clang_major__ == kPinnedClangMajor && __clang_minor__ == kPinnedClangMinor;
#elif defined(__GNUC__)
constexpr bool kClang = false;
constexpr bool kPinnedCompiler = __GNUC__ == kPinnedGccMajor && __GNUC_MINOR__ == kPinnedGccMinor;
#else
constexpr bool kClang = false;
constexpr bool kPinnedCompiler = false;
#endif
constexpr double kTolerance = 2.0;

struct Pinned {
  const char* form;
  double instructions;
  std::optional<double> over_serial;  // nothing: the row has no serial baseline
};

// GCC 12.2's.
const std::vector<Pinned> kPinnedGcc{
    {"spawn", 45.00, 25.70},
    {"noexcept", 32.40, 13.11},
    // spawn's fib with the Future's cleanup compiled out: equal to noexcept's, so spawn's excess
    // over noexcept is the cleanup's.
    {"spawn, no cleanup", 32.40, 13.11},
    {"invoke", 31.49, 12.20},
    // The explicit context: one compare and branch more than invoke's one load of T (the check
    // that the context is current), the top kept in a register. Its spawn/join form keeps the
    // Future's cleanup, so it is not split, as spawn's is not.
    {"ctx invoke", 32.49, 13.20},
    {"ctx spawn", 49.00, 29.70},
    {"scope", 96.00, 76.70},
    {"spawn_if", 49.00, 29.70},
    {"future_vector", 819.00, 800.09},
    // Equal to spawn's where valgrind passes membarrier through (checked below); else the
    // fence mode's out-of-line joins, which are not pinned.
    {"spawn/concurrent", 45.00, 25.70},
    // A cut-off node: the test and two plain calls, against the serial recursion's two calls.
    {"invoke_if(false)", 19.51, 0.21},
    {"c weft_spawn", 55.66, 37.54},
    {"c weft_spawn_nothrow", 43.00, 24.88},
    {"parallel_for dynamic:1", 53.00, 44.00},
    {"yield fifo", 184.00, std::nullopt},
    {"yield lifo", 181.00, std::nullopt},
    {"yield df", 223.00, std::nullopt},
    {"yield dfd", 197.00, std::nullopt},
};

// Clang 14.0's, the same rows. Clang splits no base case off the forms' recursions and turns
// none of them into a loop (only the serial baseline's), where GCC does both for noexcept,
// invoke and spawn without its cleanup: so here invoke costs what spawn without its cleanup
// does, and noexcept what spawn does.
const std::vector<Pinned> kPinnedClang{
    {"spawn", 52.00, 31.76},
    {"noexcept", 52.00, 31.76},
    {"spawn, no cleanup", 48.00, 27.76},
    {"invoke", 48.00, 27.76},
    {"ctx invoke", 45.00, 24.76},
    {"ctx spawn", 54.00, 33.76},
    {"scope", 116.00, 95.76},
    {"spawn_if", 54.00, 33.76},
    {"future_vector", 841.00, 820.76},
    {"spawn/concurrent", 52.00, 31.76},
    {"invoke_if(false)", 34.00, 13.76},
    {"c weft_spawn", 76.00, 46.00},
    {"c weft_spawn_nothrow", 59.00, 29.00},
    {"parallel_for dynamic:1", 63.00, 56.00},
    {"yield fifo", 180.00, std::nullopt},
    {"yield lifo", 178.00, std::nullopt},
    {"yield df", 205.00, std::nullopt},
    {"yield dfd", 203.00, std::nullopt},
};

const std::vector<Pinned>& kPinned = kClang ? kPinnedClang : kPinnedGcc;

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return true;
    }
  }
  return false;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The per_operation object whose form is `form` ("" if none): objects hold no nested object,
// so it ends at the first '}'.
std::string row_of(const std::string& json, const std::string& form) {
  const std::size_t at = json.find("{\"operation\":");
  for (std::size_t from = at; from != std::string::npos;
       from = json.find("{\"operation\":", from + 1)) {
    const std::string row = json.substr(from, json.find('}', from) - from + 1);
    if (row.find("\"form\":\"" + form + "\"") != std::string::npos) return row;
  }
  return "";
}

// The raw text of `key`'s value in a flat JSON object: a number, null, true, false or [...].
std::string field(const std::string& object, const std::string& key) {
  const std::string tag = "\"" + key + "\":";
  const std::size_t at = object.find(tag);
  if (at == std::string::npos) return "";
  const std::size_t from = at + tag.size();
  const std::size_t end =
      object[from] == '[' ? object.find(']', from) + 1 : object.find_first_of(",}", from);
  return object.substr(from, end - from);
}

std::optional<double> number(const std::string& text) {
  if (text.empty() || text == "null") return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return std::nullopt;
  return v;
}

TEST(InstructionCount, PerOperationCountsStayPinned) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer build: its instrumentation changes every count";
#endif
  if (!kPinnedCompiler) {
    GTEST_SKIP() << "the counts are pinned for GCC " << kPinnedGccMajor << "." << kPinnedGccMinor
                 << " and Clang " << kPinnedClangMajor << "." << kPinnedClangMinor
                 << "; this compiler (" << __VERSION__
                 << ") generates other code (pin its figures from weft-instructions' table, as "
                    "the file's header says)";
  }
  if (!on_path("valgrind")) GTEST_SKIP() << "valgrind is not on PATH";

  file_test::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string json_path = dir / "counts.json";
  const std::string log_path = dir / "run.log";
  const std::string command = std::string("\"") + WEFT_TEST_INSTRUCTIONS + "\" --jobs 2 --json \"" +
                              json_path + "\" >\"" + log_path + "\" 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "weft-instructions failed (status " << status << "):\n"
      << read_file(log_path);
  const std::string json = read_file(json_path);
  ASSERT_NE(json.find("\"unit\":\"instructions\""), std::string::npos) << json;
  const bool membarrier = field(json, "membarrier_under_valgrind") == "true";

  std::size_t rows = 0;
  for (std::size_t at = json.find("{\"operation\":"); at != std::string::npos;
       at = json.find("{\"operation\":", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, kPinned.size()) << "a row was added or removed: pin it here\n" << json;

  for (const Pinned& p : kPinned) {
    SCOPED_TRACE(p.form);
    const std::string row = row_of(json, p.form);
    ASSERT_FALSE(row.empty()) << "no row for this form in:\n" << json;
    const std::optional<double> instructions = number(field(row, "instructions"));
    const std::optional<double> over_serial = number(field(row, "over_serial"));
    ASSERT_TRUE(instructions.has_value()) << row;
    if (std::string(p.form) == "spawn/concurrent" && !membarrier) {
      // The fence mode: joins settle out of line, so the concurrent row costs more.
      EXPECT_GT(*instructions, number(field(row_of(json, "spawn"), "instructions")).value_or(0))
          << row;
      continue;
    }
    EXPECT_NEAR(*instructions, p.instructions, kTolerance) << row;
    ASSERT_EQ(over_serial.has_value(), p.over_serial.has_value()) << row;
    if (p.over_serial) {
      EXPECT_NEAR(*over_serial, *p.over_serial, kTolerance) << row;
    }
  }
  // Where valgrind passes membarrier through, the concurrent mechanism runs its native, inline
  // pop, and counts exactly what the request mechanism does.
  if (membarrier) {
    EXPECT_EQ(field(row_of(json, "spawn/concurrent"), "counts"),
              field(row_of(json, "spawn"), "counts"));
  }
}

}  // namespace

// weft-bench's output files (tools/bench/cli/output_file.*): which paths name the same file, and a
// file replaced whole through a temporary file that never outlives the write.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process_support.hpp"
#include "temp_dir_support.hpp"
#include "workloads/common/output_file.hpp"

namespace {

namespace fs = std::filesystem;
using bench_cli::same_file;
using file_test::TempDir;

TEST(BenchCliOutputFile, SameFileByName) {
  EXPECT_TRUE(same_file("out.json", "out.json"));
  EXPECT_TRUE(same_file("out.json", "./out.json"));
  EXPECT_TRUE(same_file("sub/../out.json", "out.json"));
  EXPECT_TRUE(same_file(fs::absolute("out.json").string(), "out.json"));
  EXPECT_FALSE(same_file("out.json", "trace.json"));
  EXPECT_FALSE(same_file("a/out.json", "b/out.json"));
}

TEST(BenchCliOutputFile, SameFileOnDisk) {
  const TempDir dir;
  fs::create_directory(dir / "real");
  fs::create_directory_symlink("real", dir / "link");
  // Through a directory link, whether the file exists yet or not.
  EXPECT_TRUE(same_file(dir / "link/out.json", dir / "real/out.json"));
  std::ofstream(dir / "real/out.json") << "{}";
  EXPECT_TRUE(same_file(dir / "link/out.json", dir / "real/out.json"));
  // A hard link.
  fs::create_hard_link(dir / "real/out.json", dir / "hard.json");
  EXPECT_TRUE(same_file(dir / "hard.json", dir / "real/out.json"));
  EXPECT_FALSE(same_file(dir / "real/other.json", dir / "real/out.json"));
}

TEST(BenchCliOutputFile, ReplaceWritesTheWholeFileAndNoTemporary) {
  const TempDir dir;
  EXPECT_EQ(bench_cli::replace_file(dir / "out.json", "{\"a\":1}\n"), "");
  EXPECT_EQ(process_test::read_file(dir / "out.json"), "{\"a\":1}\n");
  EXPECT_EQ(bench_cli::replace_file(dir / "out.json", "{\"b\":2}\n"), "");
  EXPECT_EQ(process_test::read_file(dir / "out.json"), "{\"b\":2}\n");
  const std::string big(1 << 20, 'x');  // more than one write() may take
  EXPECT_EQ(bench_cli::replace_file(dir / "big.json", big), "");
  EXPECT_EQ(process_test::read_file(dir / "big.json"), big);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"big.json", "out.json"}));
}

TEST(BenchCliOutputFile, AFailureLeavesTheOldFileAndNothingElse) {
  const TempDir dir;
  EXPECT_NE(bench_cli::replace_file(dir / "missing/out.json", "{}"), "");
  fs::create_directory(dir / "out.json");  // rename() cannot replace a directory by a file
  EXPECT_NE(bench_cli::replace_file(dir / "out.json", "{}"), "");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
  EXPECT_TRUE(fs::is_directory(dir / "out.json"));
}

TEST(BenchCliOutputFile, CheckCreatesNothing) {
  const TempDir dir;
  EXPECT_EQ(bench_cli::check_replaceable(dir / "out.json"), "");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
  EXPECT_EQ(bench_cli::check_replaceable(dir.path().string()), "is a directory");
  EXPECT_NE(bench_cli::check_replaceable(dir / "missing/out.json"), "");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
}

}  // namespace

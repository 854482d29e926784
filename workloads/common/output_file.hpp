// The files weft-bench writes (--json, --trace). Each is written whole to a temporary file
// beside it and renamed over it only when complete, so a run that is interrupted or fails
// leaves the previous file, or none, never a truncated or empty one.
#pragma once

#include <string>

namespace bench_cli {

// Whether two output paths name the same file: equal once made absolute and normalised, or
// the same file on disk (through symbolic links, or hard links when both exist).
bool same_file(const std::string& a, const std::string& b);

// "" if `path` can be replaced the way replace_file does (a file can be created in its
// directory and it is not a directory), else why not. Leaves nothing behind.
std::string check_replaceable(const std::string& path);

// Writes `text` to a new temporary file in path's directory and renames it over `path`.
// Returns "" or why it failed; on failure the temporary file is removed and `path` is as it
// was.
std::string replace_file(const std::string& path, const std::string& text);

}  // namespace bench_cli

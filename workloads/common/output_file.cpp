#include "workloads/common/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace bench_cli {
namespace {

namespace fs = std::filesystem;

// A temporary file beside `path` (a rename within one directory is atomic; across file
// systems it would fail), created exclusively so that concurrent runs never share one; its
// mode is 0666 less the umask, as the file would have had if written directly. Sets `name`;
// returns the descriptor, or -1 with errno set.
int create_temporary(const std::string& path, std::string& name) {
  const std::string stem = path + ".tmp." + std::to_string(getpid()) + ".";
  for (int attempt = 0; attempt < 100; ++attempt) {  // a stale one of a killed run: next name
    name = stem + std::to_string(attempt);
    const int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string failure(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec_a, ec_b;
  const fs::path abs_a = fs::absolute(a, ec_a).lexically_normal();
  const fs::path abs_b = fs::absolute(b, ec_b).lexically_normal();
  if (!ec_a && !ec_b && abs_a == abs_b) return true;
  // weakly_canonical resolves the symbolic links of the part that exists ("link/out.json").
  const fs::path real_a = fs::weakly_canonical(a, ec_a);
  const fs::path real_b = fs::weakly_canonical(b, ec_b);
  if (!ec_a && !ec_b && real_a == real_b) return true;
  return fs::equivalent(a, b, ec_a);  // false, with ec set, unless both exist
}

std::string check_replaceable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
  std::string name;
  const int fd = create_temporary(path, name);
  if (fd < 0) return failure("cannot create a file beside it");
  close(fd);
  unlink(name.c_str());
  return "";
}

std::string replace_file(const std::string& path, const std::string& text) {
  std::string name;
  const int fd = create_temporary(path, name);
  if (fd < 0) return failure("cannot create a file beside it");
  std::string error;
  if (!write_all(fd, text)) error = failure("write");
  // Flushed before the rename, so that a crash right after it cannot expose an empty file.
  if (error.empty() && fsync(fd) != 0) error = failure("fsync");
  if (close(fd) != 0 && error.empty()) error = failure("close");
  if (error.empty() && rename(name.c_str(), path.c_str()) != 0) error = failure("rename");
  if (!error.empty()) unlink(name.c_str());
  return error;
}

}  // namespace bench_cli

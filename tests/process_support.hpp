// Helpers for tests that run a program as a separate process and signal it: start it with its
// output sent to files, wait for it or for a condition with a bound (a test must never hang),
// and find out whether a process still runs.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace process_test {

// How long a bounded wait waits at most. Generous: it only stops a broken test from hanging,
// and no test measures it.
inline constexpr std::chrono::seconds kPatience{60};

// Starts `argv` with stdout and stderr appended to `output`; -1 if it cannot be started.
// SIGINT and SIGTERM start at their default actions, whatever this test inherited (a
// background shell ignores SIGINT), as in a program started from a terminal.
inline pid_t start(const std::vector<std::string>& argv, const std::string& output) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return rc == 0 ? pid : -1;
}

// Polls `done` until it holds or kPatience has passed; returns its last answer.
inline bool wait_until(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Reaps the child `pid`, waiting at most kPatience: its wait status, or nothing if it still
// runs (the caller then kills it).
inline std::optional<int> wait_for_exit(pid_t pid) {
  int status = 0;
  const bool reaped = wait_until([&] { return waitpid(pid, &status, WNOHANG) == pid; });
  return reaped ? std::optional<int>(status) : std::nullopt;
}

// Whether `pid` still runs: it exists and is not a zombie waiting for its reaper.
inline bool runs(pid_t pid) {
  if (kill(pid, 0) != 0) return errno != ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  if (text.empty()) return false;             // reaped since kill()
  const std::size_t paren = text.rfind(')');  // the name may hold spaces and parentheses
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] != 'Z';
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace process_test

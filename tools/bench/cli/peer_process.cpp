#include "tools/bench/cli/peer_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "tools/bench/cli/interrupt.hpp"

extern char** environ;

namespace bench_cli {

namespace {

// Starts `argv[0]` with its stdout on `out_fd`; returns its pid, or -errno if it could not be
// started (fork failed, or exec failed: the child reports its errno through a close-on-exec
// pipe). The child dies with SIGKILL if weft-bench dies first, even of a SIGKILL, which no
// handler can pass on (interrupt.hpp handles the signals that can be caught). Between fork
// and exec the child makes only async-signal-safe calls: weft-bench may run threads.
pid_t start_child(char* const* argv, int out_fd, int other_fd) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return -errno;
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    int err = 0;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
      err = errno;
    } else if (getppid() != parent) {  // the parent died before the prctl took hold
      _exit(127);
    } else if (dup2(out_fd, STDOUT_FILENO) < 0) {
      err = errno;
    } else {
      if (out_fd != STDOUT_FILENO) close(out_fd);  // (the pipe may be fd 1 if stdout was closed)
      if (other_fd != STDOUT_FILENO) close(other_fd);
      execve(argv[0], argv, environ);
      err = errno;
    }
    (void)!write(report[1], &err, sizeof err);
    _exit(127);
  }
  const int fork_errno = errno;
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    return -fork_errno;
  }
  int err = 0;
  ssize_t n = 0;
  while ((n = read(report[0], &err, sizeof err)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof err)) {  // exec failed: reap the child here
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return -err;
  }
  return pid;  // the pipe closed on exec
}

}  // namespace

std::string run_program(const std::string& program, const std::vector<std::string>& args,
                        int& status) {
  int out[2];
  if (pipe(out) != 0) throw PeerError(program + ": pipe: " + std::strerror(errno));
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  begin_child_spawn();  // an interrupt now waits for the pid (interrupt.hpp)
  const pid_t pid = start_child(argv.data(), out[1], out[0]);
  close(out[1]);
  if (pid < 0) {
    child_not_started();
    close(out[0]);
    throw PeerError(program + ": cannot run: " + std::strerror(static_cast<int>(-pid)));
  }
  child_started(pid);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(out[0]);
  // Wait without reaping, forget the child, then reap: an interrupt in between must not
  // signal the pid, which the reaping frees for reuse.
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  child_finished();
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return text;
}

std::string json_field(const std::string& line, const std::string& key) {
  const std::string tag = "\"" + key + "\":";
  const std::size_t at = line.find(tag);
  if (at == std::string::npos) throw PeerError("no \"" + key + "\" in the peer's line: " + line);
  std::size_t i = at + tag.size();
  if (i < line.size() && line[i] == '"') {
    std::string value;
    for (++i; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        if (line[i] == 'u' && i + 4 < line.size()) {
          value += static_cast<char>(std::strtol(line.substr(i + 1, 4).c_str(), nullptr, 16));
          i += 4;
          continue;
        }
      }
      value += line[i];
    }
    if (i == line.size()) throw PeerError("unterminated \"" + key + "\" in: " + line);
    return value;
  }
  const std::size_t end = line.find_first_of(",}", i);
  if (end == std::string::npos) throw PeerError("malformed \"" + key + "\" in: " + line);
  return line.substr(i, end - i);
}

namespace {

bool names_a_schedule(const std::string& schedule) {
  return !schedule.empty() && schedule != "default";
}

}  // namespace

PeerRun run_peer(const std::string& program, const std::string& spec, unsigned workers,
                 const std::string& loops, const std::string& schedule) {
  int status = 0;
  std::vector<std::string> args{"--workload", spec, "--workers", std::to_string(workers),
                                "--repeat",   "1"};
  if (!loops.empty()) args.insert(args.end(), {"--loops", loops});
  if (names_a_schedule(schedule)) args.insert(args.end(), {"--schedule", schedule});
  const std::string out = run_program(program, args, status);
  std::istringstream lines(out);
  std::string line;
  std::getline(lines, line);
  if (line.empty() || line.front() != '{')
    throw PeerError(program + " --workload " + spec + ": exit status " + std::to_string(status) +
                    ", no result line");
  PeerRun run;
  const std::string seconds = json_field(line, "seconds");
  char* end = nullptr;
  run.seconds = std::strtod(seconds.c_str(), &end);
  if (end == seconds.c_str() || run.seconds < 0)
    throw PeerError(program + ": bad \"seconds\" in: " + line);
  run.result = json_field(line, "result");
  run.verified = json_field(line, "verified") == "true";
  if (!run.verified) run.error = json_field(line, "error");
  if (line.find("\"threads\":") != std::string::npos) {
    const std::string threads = json_field(line, "threads");
    run.threads = static_cast<unsigned>(std::strtoul(threads.c_str(), nullptr, 10));
  }
  if (run.verified && status != 0)
    throw PeerError(program + " --workload " + spec + ": exit status " + std::to_string(status));
  // A peer that ignored --schedule would pass its own default off as the schedule.
  if (names_a_schedule(schedule) &&
      (line.find("\"schedule\":") == std::string::npos || json_field(line, "schedule") != schedule))
    throw PeerError(program + " --schedule " + schedule +
                    ": the peer's line names another: " + line);
  return run;
}

namespace {

// The first word of each line `program args...` prints; empty if it cannot be run or fails.
std::vector<std::string> listed(const std::string& program, const std::vector<std::string>& args) {
  if (access(program.c_str(), X_OK) != 0) return {};
  int status = 0;
  std::string out;
  try {
    out = run_program(program, args, status);
  } catch (const PeerError&) {
    return {};
  }
  if (status != 0) return {};
  std::vector<std::string> names;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<std::string> peer_workloads(const std::string& program) {
  return listed(program, {"--list"});
}

std::vector<std::string> peer_loop_variants(const std::string& program,
                                            const std::string& schedule) {
  if (!names_a_schedule(schedule)) return listed(program, {"--list-loops"});
  return listed(program, {"--list-loops", "--schedule", schedule});
}

}  // namespace bench_cli

#include "tools/bench/cli/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace bench_cli {
namespace {

// The handler may run on any thread (weft's workers do not block signals) and may use only
// async-signal-safe calls and lock-free atomics.
constexpr pid_t kNoChild = 0;
constexpr pid_t kSpawning = -1;
std::atomic<pid_t> g_child{kNoChild};  // kNoChild, kSpawning, or the running child's pid
std::atomic<int> g_pending{0};         // the signal that arrived during a spawn
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Ends the process with `sig` itself, so that the parent sees "killed by SIGTERM", not an
// exit code that it would have to know means that.
void die_of(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);  // in the handler `sig` is blocked until it returns, then it is delivered
}

void on_interrupt(int sig) {
  // Dekker with child_started (all seq_cst): either this load sees the pid, or the spawning
  // thread's later load of g_pending sees this store.
  g_pending.store(sig);
  const pid_t child = g_child.load();
  if (child == kSpawning) return;  // child_started() finishes the job
  // The child runs in weft-bench's process group (so a terminal's Ctrl-C and Ctrl-Z reach it
  // as they always did); a peer is one process, so the signal goes to it alone.
  if (child > 0) kill(child, sig);
  die_of(sig);
}

}  // namespace

void forward_interrupts_to_children() {
  for (const int sig : kSignals) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // the reads and waits of run_program just go on
    sigaction(sig, &action, nullptr);
  }
}

void begin_child_spawn() { g_child.store(kSpawning); }

void child_started(pid_t pid) {
  g_child.store(pid);
  if (const int sig = g_pending.load(); sig != 0) {
    kill(pid, sig);
    die_of(sig);
  }
}

void child_not_started() {
  g_child.store(kNoChild);
  if (const int sig = g_pending.load(); sig != 0) die_of(sig);
}

void child_finished() { g_child.store(kNoChild); }

}  // namespace bench_cli

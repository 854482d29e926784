#include "workloads/uts/uts_threads.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace uts {
namespace {

struct Chunk {
  std::vector<Node> nodes;
  unsigned owner = 0;  // the releasing thread, to tell steals from reacquires
};

// The shared pool of released chunks, with termination detection. One mutex guards the
// chunks, the idle count and the done flag together, which makes termination easy to get
// right: a thread is counted idle only while it waits inside acquire() with an empty local
// stack, so "all threads idle and no chunk in the pool" (seen under the lock) means no work
// is left anywhere. Pool operations happen once per c nodes, so the lock is cold.
class ChunkPool {
 public:
  explicit ChunkPool(unsigned threads) : threads_(threads) {}

  void release(Chunk chunk) {
    std::lock_guard lock(mutex_);
    chunks_.push_back(std::move(chunk));
    if (idle_ > 0) ready_.notify_one();
  }

  // Returns a chunk, waiting for one if need be; nullopt once the traversal is over. The
  // newest chunk first: it is likeliest to be the caller's own and still in its cache.
  std::optional<Chunk> acquire() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (!chunks_.empty()) {
        Chunk c = std::move(chunks_.back());
        chunks_.pop_back();
        return c;
      }
      if (done_) return std::nullopt;
      if (++idle_ == threads_) {  // everybody is here and there is nothing to hand out
        done_ = true;
        ready_.notify_all();
        return std::nullopt;
      }
      ready_.wait(lock);
      --idle_;
    }
  }

  // Ends the traversal early (a thread failed): waiting threads return, busy ones stop at
  // their next acquire().
  void abort() {
    std::lock_guard lock(mutex_);
    chunks_.clear();
    done_ = true;
    ready_.notify_all();
  }

 private:
  const unsigned threads_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<Chunk> chunks_;
  unsigned idle_ = 0;
  bool done_ = false;
};

struct ThreadTally {
  Counts counts;
  std::uint64_t releases = 0;
  std::uint64_t steals = 0;
  std::uint64_t reacquires = 0;
};

class Worker {
 public:
  Worker(const Tree& tree, ChunkPool& pool, unsigned id, std::size_t chunk_size)
      : tree_(tree), pool_(pool), id_(id), chunk_size_(chunk_size) {}

  ThreadTally run(std::optional<Node> start) {
    if (start) stack_.push_back(*start);
    for (;;) {
      drain();
      std::optional<Chunk> chunk = pool_.acquire();
      if (!chunk) return tally_;
      ++(chunk->owner == id_ ? tally_.reacquires : tally_.steals);
      stack_.assign(chunk->nodes.begin(), chunk->nodes.end());
    }
  }

 private:
  // Depth-first over the local stack until it is empty, releasing work as it piles up.
  void drain() {
    while (!stack_.empty()) {
      const Node node = stack_.back();
      stack_.pop_back();
      const int children = tree_.num_children(node);
      tally_.counts.count_node(node.height, children);
      for (int i = 0; i < children; ++i) stack_.push_back(tree_.child(node, i));
      if (stack_.size() > 2 * chunk_size_) release_oldest();
    }
  }

  // The bottom c nodes go: they are the shallowest, so a thief gets subtrees, not leaves'
  // siblings, and the owner keeps the top of the stack it is about to work on.
  void release_oldest() {
    const auto split = stack_.begin() + static_cast<std::ptrdiff_t>(chunk_size_);
    Chunk chunk{std::vector<Node>(stack_.begin(), split), id_};
    stack_.erase(stack_.begin(), split);  // moves at most c + fan-out nodes down
    pool_.release(std::move(chunk));
    ++tally_.releases;
  }

  const Tree& tree_;
  ChunkPool& pool_;
  const unsigned id_;
  const std::size_t chunk_size_;
  std::vector<Node> stack_;
  ThreadTally tally_;
};

}  // namespace

ThreadsResult traverse_threads(const Tree& tree, const ThreadsOptions& options) {
  if (options.threads < 1 || options.threads > 4096) {
    throw std::invalid_argument("UTS threads: thread count " + std::to_string(options.threads) +
                                ": expected 1..4096");
  }
  if (options.chunk_size < 1) {
    throw std::invalid_argument("UTS threads: chunk size 0: expected >= 1");
  }

  ChunkPool pool(options.threads);
  std::vector<ThreadTally> tallies(options.threads);
  std::vector<std::exception_ptr> errors(options.threads);
  auto body = [&](unsigned id) {
    try {
      Worker worker(tree, pool, id, options.chunk_size);
      tallies[id] = worker.run(id == 0 ? std::optional<Node>(tree.root()) : std::nullopt);
    } catch (...) {
      errors[id] = std::current_exception();
      pool.abort();
    }
  };
  std::exception_ptr start_error;
  {
    std::vector<std::jthread> threads;
    try {
      threads.reserve(options.threads - 1);
      for (unsigned id = 1; id < options.threads; ++id) threads.emplace_back(body, id);
    } catch (...) {  // could not start them all: release those that did, which would wait
      start_error = std::current_exception();  // forever for the missing ones to go idle
      pool.abort();
    }
    if (!start_error) body(0);  // the calling thread is thread 0: P threads in all
  }                             // jthreads join here
  if (start_error) std::rethrow_exception(start_error);
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }

  ThreadsResult result;
  result.nodes_per_thread.reserve(options.threads);
  for (const ThreadTally& t : tallies) {
    result.counts += t.counts;
    result.nodes_per_thread.push_back(t.counts.nodes);
    result.releases += t.releases;
    result.steals += t.steals;
    result.reacquires += t.reacquires;
  }
  return result;
}

}  // namespace uts

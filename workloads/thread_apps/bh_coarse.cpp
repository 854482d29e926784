// The coarse-grained Barnes-Hut, shaped like SPLASH-2's: one thread per worker for the whole
// run, each owning a static share of the bodies, and a weft::barrier between phases. The
// serial pieces between phases (combining the boxes, listing the subtrees, the top of the
// upward pass, verification, freeing the tree) run in the barrier's completion step, in the
// thread that arrives last.
#include <cstdint>
#include <optional>
#include <vector>

#include "weft/thread.hpp"
#include "workloads/thread_apps/bh_simulation.hpp"
#include "workloads/thread_apps/centre_of_mass.hpp"

namespace thread_apps {
namespace {

// The upward pass is shared out as the subtrees this many levels down (up to 64 of them),
// dealt round-robin; the completion step summarises the levels above them.
constexpr std::size_t kSharedSummaryDepth = 2;

class CoarseRun {
 public:
  CoarseRun(Simulation& sim, unsigned threads)
      : sim_(sim), threads_(threads), boxes_(threads), barrier_(threads, PhaseEnd{this}) {}

  void run() {
    timer_.emplace();
    std::vector<weft::thread> workers;
    workers.reserve(threads_);
    for (unsigned id = 0; id < threads_; ++id) {
      workers.emplace_back([this, id] { thread_main(id); });
    }
    for (weft::thread& t : workers) t.join();
  }

 private:
  enum Phase { kBox, kInsert, kSummarize, kForces, kAdvance, kPhases };

  struct PhaseEnd {
    CoarseRun* run;
    void operator()() noexcept { run->end_phase(); }
  };

  // This thread's share of [0, count): equal parts.
  std::size_t share_begin(unsigned id, std::size_t count) const { return count * id / threads_; }

  void thread_main(unsigned id) {
    std::span<Body> bodies = sim_.span();
    const std::size_t first = share_begin(id, bodies.size());
    const std::size_t last = share_begin(id + 1, bodies.size());
    for (int step = 0; step < sim_.params.steps; ++step) {
      boxes_[id] = bounding_box(bodies.subspan(first, last - first));
      barrier_.arrive_and_wait();
      for (std::size_t i = first; i < last; ++i) {
        insert_body_locked(root_.get(), bodies, static_cast<std::uint32_t>(i));
      }
      barrier_.arrive_and_wait();
      for (std::size_t k = id; k < subtrees_.size(); k += threads_) {
        summarize_subtree(*subtrees_[k], bodies);
      }
      barrier_.arrive_and_wait();
      // Forces by shares of the tree order: spatially close bodies, so each thread's walks
      // reuse the same cells (SPLASH-2's costzones, with every body weighing the same).
      accelerate_rank_range(*root_, first, last, bodies, sim_.params.law);
      barrier_.arrive_and_wait();
      advance(bodies.subspan(first, last - first), sim_.params.dt);
      barrier_.arrive_and_wait();
    }
  }

  // Runs once per phase, in the last thread to arrive, while the others wait.
  void end_phase() noexcept {
    std::span<Body> bodies = sim_.span();
    switch (phase_) {
      case kBox: {
        BoundingBox box;
        for (const BoundingBox& part : boxes_) box.merge(part);
        root_ = make_root(box);
        break;
      }
      case kInsert: subtrees_ = cells_at_depth(*root_, kSharedSummaryDepth); break;
      case kSummarize: summarize_above(*root_, bodies, kSharedSummaryDepth); break;
      case kForces:
        timer_->pause();
        sim_.verify(*root_);
        timer_->resume();
        break;
      case kAdvance:
        root_.reset();
        sim_.result.step_seconds.push_back(timer_->seconds());
        timer_.emplace();
        break;
      default: break;
    }
    phase_ = static_cast<Phase>((phase_ + 1) % kPhases);
  }

  Simulation& sim_;
  const unsigned threads_;
  // Written by the completion step, read by the threads after the barrier releases them.
  std::vector<BoundingBox> boxes_;
  TreePtr root_;
  std::vector<OctCell*> subtrees_;
  std::optional<StepTimer> timer_;
  Phase phase_ = kBox;
  weft::barrier<PhaseEnd> barrier_;
};

}  // namespace

void simulate_coarse(Simulation& sim) {
  const unsigned threads = sim.params.coarse_threads;
  weft::thread main([&] { CoarseRun(sim, threads).run(); });
  main.join();
}

}  // namespace thread_apps

#include "tools/sim/dag/dag_recorder.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace sim {
namespace {

constexpr std::uint64_t kUnitPs = 1000;  // steady_clock counts nanoseconds here
constexpr std::uint64_t kProgressEvery = std::uint64_t{1} << 16;

}  // namespace

std::uint64_t measure_clock_cost_ps() {
  // A batch's time over its reads, not one read's: a single read is below the clock's
  // resolution. The median of many batches ignores those an interrupt lands in.
  constexpr int kBatches = 201;
  constexpr int kReads = 200;
  std::vector<std::uint64_t> per_read(kBatches);
  for (std::uint64_t& cost : per_read) {
    const auto first = DagRecorder::Clock::now();
    auto last = first;
    for (int i = 0; i < kReads; ++i) last = DagRecorder::Clock::now();
    // first to last spans kReads reads: each starts as the one before it returns.
    const auto ps = std::chrono::duration_cast<std::chrono::nanoseconds>(last - first).count() *
                    static_cast<std::int64_t>(kUnitPs);
    cost = static_cast<std::uint64_t>(std::max<std::int64_t>(ps, 0)) / kReads;
  }
  std::nth_element(per_read.begin(), per_read.begin() + kBatches / 2, per_read.end());
  return per_read[kBatches / 2];
}

DagRecorder::DagRecorder(std::uint64_t clock_cost_ps, std::function<void(std::uint64_t)> progress)
    : clock_cost_ps_(clock_cost_ps), progress_(std::move(progress)) {}

void DagRecorder::start() {
  if (tasks_ != 0) throw std::logic_error("DagRecorder::start: a recorder records one run");
  tasks_ = 1;
  placed_.resize(1);
  begin(0);
  resume();
}

void DagRecorder::begin(std::uint64_t task) {
  if (active_.size() == depth_) active_.emplace_back();
  active_[depth_].task = task;
  active_[depth_].ops.clear();
  ++depth_;
}

void DagRecorder::pause() {
  const auto now = Clock::now();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - segment_start_);
  const std::uint64_t ps =
      static_cast<std::uint64_t>(std::max<std::int64_t>(ns.count(), 0)) * kUnitPs;
  // Rounded to the unit; a segment no longer than the clock read is 0 (plus any extra).
  const std::uint64_t measured = ps > clock_cost_ps_ ? ps - clock_cost_ps_ : 0;
  const std::uint64_t units = (measured + extra_ps_ + kUnitPs / 2) / kUnitPs;
  extra_ps_ = 0;
  running().push_back(DagOp::make(DagOpKind::kWork, units));
}

std::uint64_t DagRecorder::spawn() {
  const std::uint64_t child = tasks_++;
  placed_.emplace_back();
  running().push_back(DagOp::make(DagOpKind::kSpawn, child));
  if (progress_ && tasks_ % kProgressEvery == 0) progress_(tasks_);
  return child;
}

void DagRecorder::join(std::uint64_t child) {
  running().push_back(DagOp::make(DagOpKind::kJoin, child));
  begin(child);
}

void DagRecorder::end() {
  std::vector<DagOp>& ops = running();
  ops.push_back(DagOp::make(DagOpKind::kEnd, 0));
  placed_[active_[depth_ - 1].task] = Placed{done_.size(), ops.size()};
  done_.insert(done_.end(), ops.begin(), ops.end());
  --depth_;
  ++ended_;
}

Dag DagRecorder::finish(std::string spec) {
  if (tasks_ == 0 || depth_ != 0 || ended_ != tasks_)
    throw std::logic_error(
        "DagRecorder::finish: the root has not ended, or a child was never "
        "joined");
  Dag dag;
  dag.spec = std::move(spec);
  dag.clock_cost_ps = clock_cost_ps_;
  dag.unit_ps = kUnitPs;
  dag.first_op.reserve(tasks_ + 1);
  dag.ops.reserve(done_.size());
  for (const Placed& p : placed_) {
    dag.ops.insert(dag.ops.end(), done_.begin() + static_cast<std::ptrdiff_t>(p.first),
                   done_.begin() + static_cast<std::ptrdiff_t>(p.first + p.count));
    dag.first_op.push_back(dag.ops.size());
  }
  done_ = {};
  placed_ = {};
  return dag;
}

}  // namespace sim

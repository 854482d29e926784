#include "loop/split_loop.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "loop/serial_loop.hpp"
#include "weft/future_vector.hpp"

namespace weft::detail {

namespace {

// Without a chunk size to go by (static, factoring, auto), grains of about 1/(64P) of the
// loop: small enough that late pieces balance, large enough that the test before each is
// noise.
constexpr std::uint64_t kGrainsPerWorker = 64;

struct SplitLoop {
  const LoopBody& body;
  const LoopOptions& options;
  std::uint64_t grain;
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;  // the first, guarded by error_mutex

  bool stopped() const noexcept {
    return failed.load(std::memory_order_relaxed) ||
           (options.control != nullptr && options.control->stopped());
  }
  void record(std::exception_ptr e) noexcept {
    std::lock_guard lock(error_mutex);
    if (!error) error = std::move(e);
    failed.store(true, std::memory_order_relaxed);
  }
};

void run_piece(SplitLoop& loop, std::uint64_t begin, std::uint64_t end) noexcept {
  FutureVector<void> halves;
  try {
    OwnedState state(loop.body);
    const WorkerCore* const w = current_worker();
    while (begin < end && !loop.stopped()) {
      if (end - begin > loop.grain && w->stack.owner_available() == 0) {
        const std::uint64_t mid = begin + (end - begin) / 2;
        halves.spawn([&loop, mid, end] { run_piece(loop, mid, end); });
        end = mid;
        continue;
      }
      const std::uint64_t stop = begin + std::min(loop.grain, end - begin);
      loop.body.run(loop.body, state.get(), begin, stop);
      begin = stop;
    }
    if (loop.body.fold != nullptr) loop.body.fold(loop.body, state.get());
  } catch (...) {
    loop.record(std::current_exception());
  }
  halves.join_all();  // the pieces catch their own exceptions: this one never throws
}

}  // namespace

void run_split(std::uint64_t n, const LoopBody& body, const LoopOptions& options, Schedule schedule,
               unsigned workers) {
  std::uint64_t grain = schedule.chunk();
  if (schedule.kind() != Schedule::Kind::kDynamic && schedule.kind() != Schedule::Kind::kGuided) {
    grain = std::max<std::uint64_t>(1, n / (kGrainsPerWorker * workers));
  }
  SplitLoop loop{body, options, grain, {false}, {}, {}};
  run_piece(loop, 0, n);
  if (loop.error) std::rethrow_exception(loop.error);
}

}  // namespace weft::detail

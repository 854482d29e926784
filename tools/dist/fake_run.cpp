#include "tools/dist/fake_run.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "tools/dist/fake_transport.hpp"

namespace dist {

void run_ranks_on_fake_network(const FakeRunOptions& run,
                               const std::function<void(Transport&)>& rank_main) {
  if (run.ranks < 1) {
    throw std::invalid_argument("ranks " + std::to_string(run.ranks) + ": expected >= 1");
  }
  FakeNetwork net(run.ranks, run.network_seed, run.max_delay_ns);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(run.ranks));
  std::mutex mutex;
  std::condition_variable finished;
  int running = run.ranks;
  std::vector<std::thread> threads;
  for (int r = 0; r < run.ranks; ++r) {
    threads.emplace_back([&, r] {
      const auto i = static_cast<std::size_t>(r);
      try {
        rank_main(net.endpoint(r));
      } catch (...) {
        errors[i] = std::current_exception();
        net.abort();  // the others would wait for this rank forever
      }
      std::lock_guard lock(mutex);
      if (--running == 0) finished.notify_one();
    });
  }
  bool hung = false;
  {
    std::unique_lock lock(mutex);
    if (!finished.wait_for(lock, run.deadline, [&] { return running == 0; })) {
      hung = true;
      net.abort();
    }
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  if (hung) {
    throw std::runtime_error("weft::dist: the search on " + std::to_string(run.ranks) +
                             " ranks did not end within " + std::to_string(run.deadline.count()) +
                             " ms");
  }
}

}  // namespace dist

#include "tools/sim/calibrate/spawn_overhead.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "model/frame_cost.hpp"
#include "tools/sim/calibrate/calibrate_steps.hpp"

namespace sim {

namespace spawn_overhead_detail {

std::uint64_t extra_per_iteration_ps(const std::function<void()>& weft_loop,
                                     const std::function<void()>& serial_loop, int iterations) {
  constexpr int kRounds = 5;
  weft::Config config;
  config.workers = 1;
  weft::Runtime runtime(config);
  const auto time_ps = [&runtime](const std::function<void()>& loop) {
    const auto start = std::chrono::steady_clock::now();
    runtime.run(loop);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    return static_cast<std::int64_t>(ns) * 1000;
  };
  std::vector<double> extra;
  for (int r = 0; r < kRounds; ++r) {
    const std::int64_t spawning = time_ps(weft_loop);
    const std::int64_t serial = time_ps(serial_loop);
    extra.push_back(static_cast<double>(spawning - serial) / iterations);
  }
  return static_cast<std::uint64_t>(std::max(spread(std::move(extra)).median, 0.0));
}

std::uint64_t frame_cost_ps() {
  static const auto ps = static_cast<std::uint64_t>(weft::detail::frame_cost_ns() * 1000 + 0.5);
  return ps;
}

namespace {
std::vector<std::pair<std::string, std::uint64_t>>& noted_figures() {
  static std::vector<std::pair<std::string, std::uint64_t>> figures;
  return figures;
}
}  // namespace

std::uint64_t noted(std::string name, std::uint64_t ps) {
  noted_figures().emplace_back(std::move(name), ps);
  return ps;
}

std::uint64_t less_frame(std::uint64_t ps) {
  const std::uint64_t frame = frame_cost_ps();
  return ps > frame ? ps - frame : 0;
}

}  // namespace spawn_overhead_detail

namespace d = spawn_overhead_detail;

std::uint64_t invoke_overhead_ps() {
  static const std::uint64_t ps = [] {
    const auto f = [] { asm volatile("" : : : "memory"); };
    const auto g = [] { asm volatile("" : : : "memory"); };
    const std::uint64_t extra = d::extra_per_iteration_ps(
        [&] {
          for (int i = 0; i < d::kIterations; ++i) {
            auto other = weft::spawn([&g] { g(); });  // as WeftPar::invoke
            f();
            other.join();
          }
        },
        [&] {
          for (int i = 0; i < d::kIterations; ++i) {
            f();
            g();
          }
        },
        d::kIterations);
    return d::noted("an invoke", d::less_frame(extra));
  }();
  return ps;
}

std::uint64_t scope_overhead_ps() {
  static const std::uint64_t ps = d::noted(
      "an empty scope", d::extra_per_iteration_ps(
                            [] {
                              for (int i = 0; i < d::kIterations; ++i) {
                                weft::scope([](weft::Scope&) { asm volatile("" : : : "memory"); });
                              }
                            },
                            [] {
                              TaskCallPar par;
                              for (int i = 0; i < d::kIterations; ++i) {
                                par.scope([](auto&) { asm volatile("" : : : "memory"); });
                              }
                            },
                            d::kIterations));
  return ps;
}

std::string spawn_overheads_text() {
  std::string text;
  char figure[64];
  for (const auto& [name, ps] : d::noted_figures()) {
    std::snprintf(figure, sizeof figure, " %.1f ns", static_cast<double>(ps) / 1000);
    text += (text.empty() ? "" : ", ") + name + figure;
  }
  return text.empty() ? "none measured" : text;
}

}  // namespace sim

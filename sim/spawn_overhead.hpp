// What weft's spawn forms cost on one worker beyond what the engine charges for them (a
// spawn and an inline join: weft's frame cost, frame_cost_ns). The frame cost is measured
// on fib's shape, a closure of one pointer; weft::invoke's future and weft::scope's
// bookkeeping, and a bigger closure copied into its slot, cost more (nqueens:12's scope
// children about 15 ns more each on this machine). weft's profile counts that extra as busy
// time, not frame time, so RecordPar adds it to the work of the task that pays it: an
// invoke's to its caller's segment after the join, a scope's and its children's to the
// segment after the scope. Each figure is measured once per process, on first use: a
// one-worker weft::Runtime runs N iterations of the form and of its serial elision,
// alternately, 5 times; the median difference per iteration, less the frame cost per spawn,
// never below 0.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <weft/weft.hpp>

namespace weft_sim {

namespace spawn_overhead_detail {

// The median over 5 alternated rounds of (weft_loop - serial_loop) / iterations, in ps,
// each loop run by a one-worker weft::Runtime; never below 0.
std::uint64_t extra_per_iteration_ps(const std::function<void()>& weft_loop,
                                     const std::function<void()>& serial_loop, int iterations);
std::uint64_t frame_cost_ps();
// `ps` less one spawn and inline join (the frame cost), never below 0.
std::uint64_t less_frame(std::uint64_t ps);
// Keeps a measured figure for spawn_overheads_text().
std::uint64_t noted(std::string name, std::uint64_t ps);

inline constexpr int kIterations = 100000;

// A child closure of `Bytes` bytes (as the recorded child's) whose call the compiler must
// make: it hands its bytes to an empty asm.
template <std::size_t Bytes>
struct Padded {
  std::array<std::byte, Bytes> bytes{};
  void operator()() const { asm volatile("" : : "r"(bytes.data()) : "memory"); }
};

}  // namespace spawn_overhead_detail

// WeftPar::invoke of two empty functions, beyond one spawn and inline join.
std::uint64_t invoke_overhead_ps();
// An empty weft::scope (no children), against nothing.
std::uint64_t scope_overhead_ps();
// The figures measured so far in this process, for people: "invoke 5.1 ns, ...".
std::string spawn_overheads_text();

// Each child of `Bytes` bytes spawned in a weft::scope, beyond a spawn and inline join: a
// scope of four such children less an empty scope, per child.
template <std::size_t Bytes>
std::uint64_t scope_child_overhead_ps() {
  namespace d = spawn_overhead_detail;
  static const std::uint64_t ps = [] {
    using Child = d::Padded<Bytes>;
    constexpr int kChildren = 4;
    const std::uint64_t four = d::extra_per_iteration_ps(
        [] {
          for (int i = 0; i < d::kIterations; ++i) {
            weft::scope([](weft::Scope& s) {
              for (int c = 0; c < kChildren; ++c) s.spawn(Child{});
            });
          }
        },
        [] {
          for (int i = 0; i < d::kIterations; ++i) {
            for (int c = 0; c < kChildren; ++c) Child{}();
          }
        },
        d::kIterations);
    const std::uint64_t empty = scope_overhead_ps();
    return d::noted("a scope child of " + std::to_string(Bytes) + " bytes",
                    d::less_frame((four > empty ? four - empty : 0) / kChildren));
  }();
  return ps;
}

}  // namespace weft_sim

#include "tools/sim/calibrate/calibrate.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "model/barrier_switching.hpp"
#include "model/frame_cost.hpp"
#include "platform/asymmetric_barrier.hpp"
#include "platform/cpu.hpp"
#include "platform/futex.hpp"
#include "platform/noipa.hpp"
#include "tools/sim/calibrate/calibrate_steps.hpp"
#include "tools/sim/calibrate/separate_cpus.hpp"
#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/fib_program.hpp"
#include "weft/weft.hpp"
#include "workloads/common/fib_reference.hpp"
#include "workloads/uts/presets.hpp"
#include "workloads/uts/uts_seq.hpp"
#include "workloads/uts/uts_weft.hpp"

namespace sim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

[[gnu::noinline]] long fib_serial(int n) {
  return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

long fib_weft(int n) {
  if (n < 2) return n;
  auto a = weft::spawn([n] { return fib_weft(n - 1); });
  const long b = fib_weft(n - 2);
  return a.join() + b;
}

// The runtime the program costs are taken on: one worker, so nothing is stolen.
weft::Config one_worker() {
  weft::Config config;
  config.workers = 1;
  config.mechanism = weft::StealMechanism::kConcurrent;
  return config;
}

void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("calibrate: " + what);
}

// fib's calls and weft's spawn+join, split as weft's own profile splits them: a spawn and
// its inline join cost the runtime's frame cost (frame_cost_ns(), what the profile charges
// to R_frame per task), and a call is the rest of weft's fib(n) on one worker over its calls
// (the serial recursion is faster than that rest: a spawn keeps the compiler from turning
// it into loops). The serial time is measured alongside, for the record.
void measure_fib(const CalibrateOptions& o, std::vector<Measurement>& out,
                 const std::function<void(const std::string&)>& progress) {
  const int n = o.fib_n;
  const double spawns = static_cast<double>(fib_spawns(n));
  const double calls = 2.0 * spawns + 1.0;  // one per spawn and call made, and the root
  weft::Runtime rt(one_worker());
  // One untimed round of each first: the process's first runs pay its page faults, its
  // task stack's first touch and the CPU's climb to its clock, and the frame cost is
  // measured once, on first use.
  check(fib_serial(n) == rt.run([n] { return fib_weft(n); }), "fib gave a wrong answer");
  const double frame_ns = weft::detail::frame_cost_ns();
  std::vector<double> per_call, serial_call;
  for (int r = 0; r < o.repeat; ++r) {
    progress("fib(" + std::to_string(n) + ") serial and on one weft worker, round " +
             std::to_string(r + 1) + "/" + std::to_string(o.repeat));
    auto start = Clock::now();
    const long s = fib_serial(n);
    const double serial = seconds_since(start);
    start = Clock::now();
    const long w = rt.run([n] { return fib_weft(n); });
    const double weft = seconds_since(start);
    check(s == common::fib_by_iteration(n) && s == w, "fib gave a wrong answer");
    per_call.push_back(std::max(0.0, weft * 1e9 - spawns * frame_ns) / calls);
    serial_call.push_back(serial / calls * 1e9);
  }
  const Spread call = spread(per_call), plain = spread(serial_call);
  char serial_note[96];
  std::snprintf(serial_note, sizeof serial_note, "; the serial recursion's was %.3f ns a call",
                plain.median);
  const std::string fib =
      "(weft fib(" + std::to_string(n) + ") on 1 worker - " +
      std::to_string(static_cast<long long>(spawns)) + " spawns x frame cost) / its " +
      std::to_string(static_cast<long long>(calls)) + " calls, leaf and node alike, median of " +
      std::to_string(o.repeat) + serial_note;
  out.push_back({"fib_leaf_ns", call.median, call.low, call.high, fib});
  out.push_back({"fib_node_ns", call.median, call.low, call.high, fib});
  const std::string sj =
      "weft's frame cost (weft::detail::frame_cost_ns, what its profile charges per spawned "
      "task), half to the spawn, half to its inline join";
  out.push_back({"spawn_ns", frame_ns / 2, frame_ns / 2, frame_ns / 2, sj});
  out.push_back({"join_inline_ns", frame_ns / 2, frame_ns / 2, frame_ns / 2, sj});
}

// The cost class of a UTS tree's nodes (uts_program.hpp's UtsCosts): its cost field's name.
std::string uts_cost_name(const uts::TreeParams& t) {
  switch (t.type) {
    case uts::TreeType::kBinomial: return "uts_binomial_ns";
    case uts::TreeType::kHybrid: return "uts_hybrid_ns";
    case uts::TreeType::kBalanced: return "uts_geo_fixed_ns";
    case uts::TreeType::kGeometric: break;
  }
  switch (t.shape) {
    case uts::GeoShape::kLinear: return "uts_geo_linear_ns";
    case uts::GeoShape::kExpDec: return "uts_geo_expdec_ns";
    case uts::GeoShape::kCyclic: return "uts_geo_cyclic_ns";
    case uts::GeoShape::kFixed: break;
  }
  return "uts_geo_fixed_ns";
}

// UTS node costs, split as fib's calls are: a node costs its calibration tree's traversal on
// one weft worker over its nodes, less weft's frame cost for each node but the root (each is
// spawned and joined once). What weft's traversal does beyond the serial one (its futures,
// its joins' loop) thus belongs to the node, as it does in weft; the serial traversal is timed
// alongside, for the record. A kind's cost is the median of its trees', and a kind no
// calibration tree has takes the geometric linear shape's cost, and says so.
void measure_uts(const CalibrateOptions& o, std::vector<Measurement>& out,
                 const std::function<void(const std::string&)>& progress) {
  std::map<std::string, std::vector<Spread>> per_node;  // by cost name, one entry per tree
  std::map<std::string, std::string> sources;
  std::map<std::string, std::string> serial_notes;
  weft::Runtime rt(one_worker());
  const double frame_ns = weft::detail::frame_cost_ns();
  for (const std::string& name : o.uts_trees) {
    const uts::Preset* p = uts::find_preset(name);
    check(p != nullptr, "no UTS preset " + name);
    const uts::Tree tree(p->params);
    const auto nodes = static_cast<double>(p->nodes);
    // One untimed round of each first, as for fib: the first traversal pays the page faults.
    check(uts::traverse_sequential(tree).nodes == p->nodes &&
              uts::traverse_weft(rt, tree).nodes == p->nodes,
          "UTS " + name + " made the wrong number of nodes");
    std::vector<double> reps, serial_reps;
    for (int r = 0; r < o.repeat; ++r) {
      progress("UTS " + name + " serial and on one weft worker, round " + std::to_string(r + 1) +
               "/" + std::to_string(o.repeat));
      auto start = Clock::now();
      const uts::Counts s = uts::traverse_sequential(tree);
      serial_reps.push_back(seconds_since(start) * 1e9 / nodes);
      start = Clock::now();
      const uts::Counts w = uts::traverse_weft(rt, tree);
      const double weft_ns = seconds_since(start) * 1e9;
      check(s.nodes == p->nodes && w.nodes == p->nodes,
            "UTS " + name + " made the wrong number of nodes");
      reps.push_back(std::max(0.0, weft_ns - (nodes - 1) * frame_ns) / nodes);
    }
    const std::string cost = uts_cost_name(p->params);
    per_node[cost].push_back(spread(reps));
    sources[cost] += (sources[cost].empty() ? "" : ",") + name;
    char note[96];
    std::snprintf(note, sizeof note, "%s%s %.3f", serial_notes[cost].empty() ? "" : ", ",
                  name.c_str(), spread(serial_reps).median);
    serial_notes[cost] += note;
  }
  const std::string how =
      " traversal on 1 weft worker, less (nodes - 1) x frame cost, over its "
      "nodes, median of " +
      std::to_string(o.repeat) + " (the median over the trees if several)";
  // The median of the trees' medians, and the widest spread of their repetitions.
  const auto combined = [](const std::vector<Spread>& trees) {
    std::vector<double> medians;
    Spread s{0, trees.front().low, trees.front().high};
    for (const Spread& t : trees) {
      medians.push_back(t.median);
      s.low = std::min(s.low, t.low);
      s.high = std::max(s.high, t.high);
    }
    s.median = spread(medians).median;
    return s;
  };
  for (const char* cost : {"uts_binomial_ns", "uts_geo_linear_ns", "uts_geo_expdec_ns",
                           "uts_geo_cyclic_ns", "uts_geo_fixed_ns", "uts_hybrid_ns"}) {
    if (per_node.count(cost) != 0) {
      const Spread s = combined(per_node[cost]);
      out.push_back({cost, s.median, s.low, s.high,
                     sources[cost] + "'s" + how +
                         "; the serial traversal's, ns a node: " + serial_notes[cost]});
    } else if (per_node.count("uts_geo_linear_ns") != 0) {
      const Spread s = combined(per_node["uts_geo_linear_ns"]);
      out.push_back({cost, s.median, s.low, s.high,
                     "no calibration tree of this kind: the geometric linear shape's (" +
                         sources["uts_geo_linear_ns"] + ")"});
    }
  }
}

// Threads spinning on every other CPU while it lives, one on each, and the calling thread on
// its own (SeparateCpus): a thief's victims are running. Returns once every spinner runs.
class BusyOthers {
 public:
  BusyOthers() {
    for (const int cpu : placement_.others()) {
      spinners_.emplace_back([this, cpu] {
        (void)SeparateCpus::place_helper(cpu);
        started_.fetch_add(1, std::memory_order_relaxed);
        while (!stop_.load(std::memory_order_relaxed)) {
        }
      });
    }
    while (started_.load(std::memory_order_relaxed) < spinners_.size()) std::this_thread::yield();
  }
  ~BusyOthers() {
    stop_.store(true, std::memory_order_relaxed);
    for (std::thread& t : spinners_) t.join();
  }
  BusyOthers(const BusyOthers&) = delete;
  BusyOthers& operator=(const BusyOthers&) = delete;

  // What the measurements' methods say about the other CPUs.
  std::string others() const {
    return spinners_.empty() ? "on one CPU (no other CPU to keep busy)"
                             : "with every other CPU spinning (one thread on each, the timing "
                               "thread on its own)";
  }

 private:
  SeparateCpus placement_;  // first: the spinners take the CPUs it leaves
  // relaxed, both: a flag and a count that publish nothing else; the spinners read stop_
  // until they see it, and the constructor reads started_ until every spinner has counted.
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> started_{0};
  std::vector<std::thread> spinners_;
};

// A claim's barrier, and the idle tiers' pause and sched_yield, with the other CPUs busy.
void measure_idle_and_claim(const CalibrateOptions& o, std::vector<Measurement>& out,
                            const std::function<void(const std::string&)>& progress) {
  progress("membarrier, pause and sched_yield with the other CPUs busy");
  const BusyOthers busy;
  if (weft::platform::expedited_membarrier_available()) {
    const Spread s = per_call_ns(o.repeat, 200, [] { weft::platform::membarrier_all_threads(); });
    out.push_back({"claim_ns", s.median, s.low, s.high,
                   "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) " + busy.others() + ", " +
                       batches(200, o.repeat) + " (the claim's port and slot reads not added)"});
  } else {
    out.push_back({"claim_ns", 1000, 1000, 1000,
                   "placeholder: this kernel has no expedited membarrier to time"});
  }
  const Spread pause = per_call_ns(o.repeat, 100000, [] { weft::platform::cpu_relax(); });
  out.push_back({"spin_ns", pause.median, pause.low, pause.high,
                 "the spin tier's cpu_relax (pause), " + batches(100000, o.repeat)});
  const Spread yield = per_call_ns(o.repeat, 2000, [] { sched_yield(); });
  out.push_back({"yield_ns", yield.median, yield.low, yield.high,
                 "sched_yield " + busy.others() + ", " + batches(2000, o.repeat)});
}

// What weft's thief barrier does on a fenced stack (thief_store_load_barrier in
// src/tasks/barrier_mode.cpp): a seq_cst fence, in a function of its own as there (noipa: the
// compiler may neither inline the call nor drop it).
WEFT_NOIPA void fenced_claim_barrier() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// A fenced stack's two costs (task_stack.hpp BS1-BS3): the thief's fence after its store of H,
// with the other CPUs busy, and what the owner's fenced pop adds to a spawn+join, timed as
// weft's frame cost is (frame_cost.hpp), on a private stack fenced and not.
void measure_fences(const CalibrateOptions& o, std::vector<Measurement>& out,
                    const std::function<void(const std::string&)>& progress) {
  progress("a claim's fence with the other CPUs busy, and a fenced stack's frame cost");
  std::vector<double> extra;
  for (int r = 0; r < o.repeat; ++r) extra.push_back(weft::detail::fenced_pop_extra_ns());
  const Spread join = spread(extra);
  out.push_back({"fenced_join_ns", join.median, join.low, join.high,
                 "weft's spawn+join recursion on a private fenced stack less the same on an "
                 "unfenced one, alternated (weft::detail::fenced_pop_extra_ns), median of " +
                     std::to_string(o.repeat)});
  const BusyOthers busy;
  std::atomic<std::uint64_t> head{0};
  std::uint64_t h = 0;
  const Spread fence = per_call_ns(o.repeat, 20000, [&] {
    head.store(++h, std::memory_order_relaxed);  // the claim's store of H, then its barrier
    fenced_claim_barrier();
  });
  out.push_back({"fence_claim_ns", fence.median, fence.low, fence.high,
                 "a store and a fenced stack's thief barrier (a seq_cst fence, out of line) " +
                     busy.others() + ", " + batches(20000, o.repeat) +
                     " (the claim's port and slot reads not added)"});
}

// From futex_wake to the sleeper running: a thread sleeps on a word, is woken, and reads
// the clock; the waker read it just before the wake. The median of 200 per repetition.
void measure_wake(const CalibrateOptions& o, std::vector<Measurement>& out,
                  const std::function<void(const std::string&)>& progress) {
  progress("futex wake to running");
  std::vector<double> medians;
  for (int r = 0; r < o.repeat; ++r) {
    std::vector<double> latencies;
    for (int i = 0; i < 200; ++i) {
      std::atomic<std::uint32_t> word{0};
      std::atomic<std::int64_t> woke_at{0};
      std::thread sleeper([&] {
        while (word.load(std::memory_order_acquire) == 0) weft::platform::futex_wait(word, 0);
        woke_at.store(Clock::now().time_since_epoch().count(), std::memory_order_release);
      });
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // let it fall asleep
      const std::int64_t woken = Clock::now().time_since_epoch().count();
      word.store(1, std::memory_order_release);
      weft::platform::futex_wake(word, 1);
      sleeper.join();
      latencies.push_back(
          std::chrono::duration<double, std::nano>(Clock::duration(woke_at.load() - woken))
              .count());
    }
    medians.push_back(spread(latencies).median);
  }
  const Spread s = spread(medians);
  out.push_back({"wake_ns", s.median, s.low, s.high,
                 "futex_wake to the woken thread reading the clock, median of 200 wakes per "
                 "repetition, median of " +
                     std::to_string(o.repeat)});
}

}  // namespace

std::vector<Measurement> calibrate(const CalibrateOptions& options,
                                   const std::function<void(const std::string&)>& progress) {
  check(options.repeat >= 1, "repeat must be at least 1");
  std::vector<Measurement> measured;
  measure_fib(options, measured, progress);
  measure_uts(options, measured, progress);
  measure_idle_and_claim(options, measured, progress);
  measure_fences(options, measured, progress);
  measure_wake(options, measured, progress);
  measure_handoff(options, measured, progress);
  // In cost_fields() order, the costs with no microbenchmark yet kept at their placeholder.
  Costs placeholder = uncalibrated_costs();
  std::vector<Measurement> all;
  for (const CostField& f : cost_fields()) {
    const auto it = std::find_if(measured.begin(), measured.end(),
                                 [&](const Measurement& m) { return m.name == f.name; });
    if (it != measured.end()) {
      all.push_back(*it);
    } else {
      const double ns = static_cast<double>(f.get(placeholder)) * 1e-3;
      all.push_back({std::string(f.name), ns, ns, ns, "placeholder: no microbenchmark yet"});
    }
  }
  return all;
}

std::string costs_file_text(const std::vector<Measurement>& measurements) {
  nlohmann::ordered_json doc;
  doc["format"] = "weft-sim costs";
  doc["version"] = kCostsVersion;
  doc["cpus"] = std::thread::hardware_concurrency();
  nlohmann::ordered_json costs = nlohmann::ordered_json::object();
  for (const Measurement& m : measurements) {
    costs[m.name] = {
        {"median", m.median_ns}, {"spread", {m.low_ns, m.high_ns}}, {"method", m.method}};
  }
  doc["costs"] = costs;
  return doc.dump(2) + "\n";
}

}  // namespace sim

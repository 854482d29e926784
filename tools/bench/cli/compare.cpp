#include "tools/bench/cli/compare.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <weft/weft.hpp>

#include "tools/bench/cli/peer_process.hpp"
#include "tools/bench/stats/paired.hpp"
#include "tools/bench/stats/randomized_blocks.hpp"
#include "tools/bench/stats/sequential_looks.hpp"
#include "workloads/common/text_format.hpp"
#include "workloads/kernels/par.hpp"
#include "workloads/kernels/weft_par.hpp"

namespace bench_cli {
namespace {

std::string program_dir() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string exe(path, static_cast<std::size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A weft run with the runtime it keeps across the repetitions (as sweep.cpp does): thread
// start-up is not timed, and each repetition meets the same workers.
struct WeftSlot {
  std::size_t run;
  std::unique_ptr<weft::Runtime> rt;
};

void add_stats(CompareRun& run, const weft::Stats& stats) {
  run.counters += stats.total;
  run.spawns_counted = stats.spawns_counted;
  run.membarrier_ns = stats.membarrier_ns;
  if (run.per_worker.size() < stats.per_worker.size())
    run.per_worker.resize(stats.per_worker.size());
  for (std::size_t i = 0; i < stats.per_worker.size(); ++i)
    run.per_worker[i] += stats.per_worker[i];
}

void check(const CompareRun& run, const kernels::Spec& spec, const std::string& error) {
  if (!error.empty()) throw VerifyError(spec.text() + " on " + run.label() + ": " + error);
}

CompareRun make_run(std::string impl, std::string steal, unsigned workers, std::string skipped,
                    weft::StealMechanism mechanism = weft::StealMechanism::kConcurrent) {
  CompareRun run;
  run.impl = std::move(impl);
  run.mechanism = mechanism;
  run.steal = std::move(steal);
  run.workers = workers;
  run.skipped = std::move(skipped);
  return run;
}

// Whether `c` steals, and (on a loop workload) schedules and runs its loops, as a default
// Config does. The other fields are the environment's, as for every run.
bool swept_settings_are_defaults(const weft::Config& c, bool loops) {
  const weft::Config d;
  if (c.mechanism != d.mechanism || c.steal.spec() != d.steal.spec()) return false;
  return !loops || (c.schedule.spec() == d.schedule.spec() && c.loops == d.loops &&
                    c.loop_frames == d.loop_frames && c.adaptive_fork == d.adaptive_fork);
}

// weft's loop schedules for a loop workload: --schedule, else the Config's; "" otherwise.
std::vector<std::string> weft_schedules(const Options& o, bool loops) {
  if (!loops) return {""};
  if (!o.schedules.empty()) return o.schedules;
  return {weft::Config::from_env().schedule.spec()};
}

// The schedules a peer runs a workload under: each --schedule spec on a loop workload, else
// its own ("default"); "" for a fork-join workload.
std::vector<std::string> peer_schedules(const Options& o, bool loops) {
  if (!loops) return {""};
  if (!o.schedules.empty()) return o.schedules;
  return {"default"};
}

// One series of a peer: a loop variant under a schedule, or why it does not run.
struct PeerSeries {
  std::string variant;
  std::string schedule;
  std::string skipped;
  bool operator==(const PeerSeries&) const = default;
};

// One peer entry of --peers ("gomp" or "gomp/nested") as its series for a workload: a
// fork-join workload runs the peer once, a loop workload once per variant named or, with none
// named, per variant the peer lists, each once per schedule (variant by variant) that the
// peer lists the variant under (oneTBB runs only its static partitioner under static; a
// variant named that does not run under a schedule is a skipped series). A peer that cannot
// run the workload gets one series, to be reported as skipped. Throws PeerError for a
// variant the peer lacks.
std::vector<PeerSeries> peer_series(const std::string& entry, const std::string& program,
                                    const std::vector<std::string>& schedules, bool loops,
                                    bool runs) {
  const std::size_t slash = entry.find('/');
  const std::string peer = entry.substr(0, slash);
  const std::string named = slash == std::string::npos ? "" : entry.substr(slash + 1);
  if (!loops) return {{"", "", ""}};
  if (!runs) return {{named, "", ""}};
  const std::vector<std::string> variants = peer_loop_variants(program);
  std::vector<PeerSeries> all;
  if (variants.empty()) {  // a peer with loops but no variants to list
    for (const std::string& schedule : schedules) all.push_back({"", schedule, ""});
    return all;
  }
  if (!named.empty() && !contains(variants, named)) {
    std::string known;
    for (const std::string& v : variants) known += (known.empty() ? "" : ", ") + v;
    throw PeerError("--peers " + entry + ": " + peer + " has no loop variant '" + named +
                    "' (known: " + known + ")");
  }
  std::vector<std::vector<std::string>> under;  // per schedule, the variants running it
  for (const std::string& schedule : schedules)
    under.push_back(schedule == "default" ? variants : peer_loop_variants(program, schedule));
  for (const std::string& variant : variants) {
    if (!named.empty() && variant != named) continue;
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      if (contains(under[k], variant)) {
        all.push_back({variant, schedules[k], ""});
      } else if (!named.empty() || under[k].empty()) {
        std::string these;
        for (const std::string& v : under[k]) these += (these.empty() ? "" : ", ") + v;
        all.push_back({variant, schedules[k],
                       peer + " does not run " + variant + " under " + schedules[k] + " (" +
                           (these.empty() ? "no variant does" : "these do: " + these) + ")"});
      }
    }
  }
  return all;
}

// weft's loop settings for a loop workload: each combination of --loops, --frames and
// --adaptive (loop_settings); none otherwise (the Config from the environment's, unlabelled).
std::vector<std::optional<LoopSettings>> weft_loop_settings(const Options& o, bool loops) {
  if (!loops) return {std::nullopt};
  std::vector<std::optional<LoopSettings>> all;
  for (const LoopSettings& s : loop_settings(o)) all.emplace_back(s);
  return all;
}

// Sets up every implementation of `spec`: serial first, then weft per mechanism, policy,
// schedule and loop settings (loop workloads) and worker count, then the peers, per loop
// variant and schedule on a loop workload (skipped ones keep their reason and never run).
CompareWorkload plan(const Options& o, const kernels::Spec& spec, const std::string& peer_dir,
                     std::vector<WeftSlot>& weft_slots) {
  CompareWorkload w{spec, {}, kernels::is_loop_workload(spec.name), 0, {}, 0};
  w.runs.push_back(make_run("serial", "", 1, ""));
  const std::vector<std::optional<LoopSettings>> settings = weft_loop_settings(o, w.loops);
  for (const weft::StealMechanism mechanism : o.mechanisms) {
    for (std::size_t s = 0; s < o.steal.size(); ++s) {
      const std::string& steal = o.steal[s];
      for (const std::string& schedule : weft_schedules(o, w.loops)) {
        for (const std::optional<LoopSettings>& loops : settings) {
          for (unsigned workers : o.workers) {
            weft::Config c = weft_run_config(o, mechanism, o.steal_policies[s], workers,
                                             loops ? &*loops : nullptr);
            if (!schedule.empty()) c.schedule = weft::Schedule::parse(schedule);
            w.runs.push_back(make_run("weft", steal, workers, "", mechanism));
            w.runs.back().schedule = schedule;
            w.runs.back().loop_settings = loops;
            w.runs.back().show_loop_settings = o.loop_settings_given();
            w.runs.back().defaults = swept_settings_are_defaults(c, w.loops);
            weft_slots.push_back({w.runs.size() - 1, std::make_unique<weft::Runtime>(c)});
          }
        }
      }
    }
  }
  const std::vector<std::string> schedules = peer_schedules(o, w.loops);
  std::vector<std::pair<std::string, PeerSeries>> planned;
  for (const std::string& entry : o.peers) {
    const std::string peer = entry.substr(0, entry.find('/'));
    const std::string program = peer_dir + "/weft-peer-" + peer;
    std::string skipped;
    if (access(program.c_str(), X_OK) != 0) {
      skipped = "not built (no " + program + ")";
    } else if (!contains(peer_workloads(program), spec.name)) {
      skipped = "does not implement " + spec.name;
    }
    for (const PeerSeries& series :
         peer_series(entry, program, schedules, w.loops, skipped.empty())) {
      const std::pair<std::string, PeerSeries> key{peer, series};
      if (std::find(planned.begin(), planned.end(), key) != planned.end()) continue;
      planned.push_back(key);
      for (unsigned workers : o.workers) {
        w.runs.push_back(make_run(peer, "", workers, skipped.empty() ? series.skipped : skipped));
        w.runs.back().variant = series.variant;
        w.runs.back().schedule = series.schedule;
      }
    }
  }
  return w;
}

}  // namespace

const std::vector<std::string>& known_peers() {
  static const std::vector<std::string> peers{"gomp",  "libomp", "tbb", "rayon",
                                              "chili", "java",   "go"};
  return peers;
}

std::string CompareRun::label() const {
  if (impl == "serial") return impl;
  if (impl == "weft") return "weft " + weft_config() + " w=" + std::to_string(workers);
  return impl + (variant.empty() ? "" : "/" + variant) + (schedule.empty() ? "" : " " + schedule) +
         " w=" + std::to_string(workers);
}

std::string CompareRun::weft_config() const {
  std::string config = std::string(weft::mechanism_name(mechanism)) + "/" + steal;
  if (!schedule.empty()) config.append(" ").append(schedule);
  if (show_loop_settings && loop_settings) config.append(" ").append(loop_settings->text());
  return config;
}

std::string default_peer_dir() {
  const char* env = std::getenv("WEFT_PEER_DIR");
  if (env != nullptr && *env != '\0') return env;
  return program_dir() + "/../../peers";
}

std::vector<PeerRatio> peer_ratios(const CompareWorkload& workload) {
  std::vector<PeerRatio> ratios;
  for (const CompareRun& peer : workload.runs) {
    if (!peer.is_peer() || peer.times.empty()) continue;
    const CompareRun* weft = weft_run_for_peer(workload, peer);
    if (weft == nullptr || weft->times.empty()) continue;
    const std::vector<double> per_rep = bench_stats::paired_ratios(weft->times, peer.times);
    ratios.push_back({weft, &peer, median(per_rep), min_of(per_rep), max_of(per_rep)});
  }
  return ratios;
}

namespace {

// One of the settings weft_pairs compares by: its JSON field, the prefix its values' names
// take in a pair's name ("adapt=1/0"), the group it is written in within a series' name (the
// runtime's mechanism/policy, the schedule, the loop settings), and a weft run's value (""
// where it does not apply: no schedule or loop settings on a fork-join workload, so that they
// never pair there).
struct WeftSetting {
  const char* field;
  const char* prefix;
  int group;
  std::string (*name)(const CompareRun&);
};

constexpr WeftSetting kWeftSettings[] = {
    {"mechanism", "", 0,
     [](const CompareRun& r) -> std::string { return weft::mechanism_name(r.mechanism); }},
    {"steal", "", 0, [](const CompareRun& r) -> std::string { return r.steal; }},
    {"schedule", "", 1, [](const CompareRun& r) -> std::string { return r.schedule; }},
    {"loops", "", 2,
     [](const CompareRun& r) -> std::string {
       return r.loop_settings ? weft::loop_scheme_name(r.loop_settings->scheme) : "";
     }},
    {"frames", "", 2,
     [](const CompareRun& r) -> std::string {
       return r.loop_settings ? weft::loop_frames_name(r.loop_settings->frames) : "";
     }},
    {"adaptive_fork", "adapt=", 2,
     [](const CompareRun& r) -> std::string {
       return r.loop_settings ? weft::adaptive_fork_name(r.loop_settings->adaptive) : "";
     }},
};

// Whether two weft runs are one series but for `setting`: every other setting and the
// workers alike.
bool alike_but(const WeftSetting& setting, const CompareRun& a, const CompareRun& b) {
  if (a.workers != b.workers) return false;
  for (const WeftSetting& other : kWeftSettings) {
    if (&other != &setting && other.name(a) != other.name(b)) return false;
  }
  return true;
}

// "concurrent/one dynamic:1 stack/adapt=0 w=2": the run's series less `setting`; values of
// one group joined by "/", the groups by " ".
std::string context_without(const WeftSetting& setting, const CompareRun& run) {
  std::string context;
  int last_group = -1;
  for (const WeftSetting& s : kWeftSettings) {
    const std::string value = s.name(run);
    if (&s == &setting || value.empty()) continue;
    if (!context.empty()) context.append(s.group == last_group ? "/" : " ");
    context.append(s.prefix).append(value);
    last_group = s.group;
  }
  return context.append(" w=").append(std::to_string(run.workers));
}

}  // namespace

std::vector<WeftPair> weft_pairs(const CompareWorkload& workload) {
  std::vector<const CompareRun*> weft;  // weft's runs, in order
  for (const CompareRun& r : workload.runs)
    if (r.impl == "weft" && r.skipped.empty()) weft.push_back(&r);
  std::vector<WeftPair> pairs;
  for (const WeftSetting& setting : kWeftSettings) {
    std::vector<std::string> values;  // in the runs' order: the first is the numerator's
    for (const CompareRun* r : weft) {
      const std::string v = setting.name(*r);
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    for (std::size_t k = 1; k < values.size(); ++k) {
      for (const CompareRun* a : weft) {
        if (setting.name(*a) != values[0]) continue;
        const auto b = std::find_if(weft.begin(), weft.end(), [&](const CompareRun* r) {
          return setting.name(*r) == values[k] && alike_but(setting, *a, *r);
        });
        if (b == weft.end()) continue;
        const std::vector<double> per_rep = bench_stats::paired_ratios(a->times, (*b)->times);
        pairs.push_back(
            {setting.field,
             std::string(setting.prefix).append(values[0]).append("/").append(values[k]),
             context_without(setting, *a), a, *b, median(per_rep), min_of(per_rep),
             max_of(per_rep)});
      }
    }
  }
  return pairs;
}

namespace {

// Runs every run of `w` that is not skipped once, in the order block_order draws for this
// repetition (runs[0], the serial elision, included), checking each.
void run_repetition(CompareWorkload& w, std::vector<WeftSlot>& weft_slots,
                    const std::string& peer_dir, std::uint64_t order_seed,
                    const std::function<void(const CompareRun&)>& before) {
  kernels::SerialPar serial;
  const kernels::Spec& spec = w.spec;
  const int rep = w.repetitions + 1;
  for (const std::size_t i :
       bench_stats::block_order(w.runs.size(), order_seed, static_cast<std::uint64_t>(rep))) {
    CompareRun& run = w.runs[i];
    if (!run.skipped.empty()) continue;
    before(run);
    double seconds = 0;
    if (run.impl == "serial") {
      const kernels::Outcome out = kernels::run_spec(spec, serial);
      check(run, spec, out.error);
      seconds = out.seconds;
      run.result = out.result;
      w.iterations = out.iterations;
    } else if (run.impl == "weft") {
      auto slot = std::find_if(weft_slots.begin(), weft_slots.end(),
                               [i](const WeftSlot& s) { return s.run == i; });
      weft::Runtime& rt = *slot->rt;
      weft::Stats stats;
      weft::LoopOptions loops;
      if (!run.schedule.empty()) loops.schedule = weft::Schedule::parse(run.schedule);
      kernels::WeftPar par(rt, &stats, loops);
      kernels::warm_up(par);  // as each peer's process does before its timed run
      const kernels::Outcome out = kernels::run_spec(spec, par);
      check(run, spec, out.error);
      seconds = out.seconds;
      run.result = out.result;
      add_stats(run, stats);
    } else {
      const PeerRun out = run_peer(peer_dir + "/weft-peer-" + run.impl, spec.text(), run.workers,
                                   run.variant, run.schedule);
      check(run, spec, out.verified ? "" : out.error);
      seconds = out.seconds;
      run.result = out.result;
      run.threads = std::max(run.threads, out.threads);
    }
    run.times.push_back(seconds);
  }
  ++w.repetitions;
}

std::size_t undecided_pairs(const std::vector<CompareWorkload>& all) {
  std::size_t n = 0;
  for (const CompareWorkload& w : all)
    for (const ComparePair& p : w.pairs) n += p.decided ? 0 : 1;
  return n;
}

std::size_t total_pairs(const std::vector<CompareWorkload>& all) {
  std::size_t n = 0;
  for (const CompareWorkload& w : all) n += w.pairs.size();
  return n;
}

// The streams of one sitting seed: each workload's order and its pairs' resamples.
std::uint64_t order_seed(std::uint64_t seed, std::size_t workload) {
  return bench_stats::derive_seed(seed, 1000 + workload);
}
std::uint64_t bootstrap_seed(std::uint64_t seed, std::size_t workload) {
  return bench_stats::derive_seed(seed, 2000 + workload);
}

}  // namespace

CompareResult run_compare(const Options& o, const Progress& progress,
                          const LookReport& look_report) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const auto elapsed = [&t0] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  CompareResult result;
  result.repeat = o.repeat;
  result.profiled = o.profile;
  result.peer_dir = o.peer_dir.empty() ? default_peer_dir() : o.peer_dir;
  result.resamples = o.resamples;
  result.until_decided = o.until_decided;
  result.budget_s = o.budget_s;
  std::vector<std::string_view> words(o.command_line.begin(), o.command_line.end());
  result.sitting = bench_stats::current_sitting(words, o.seed);
  bench_stats::HostMonitor host;
  host.calibrate();
  // Every workload is planned, and its runtimes started, before any runs: with
  // --until-decided the workloads take their repetitions in turns.
  std::vector<std::vector<WeftSlot>> slots(o.workload_specs.size());
  for (std::size_t k = 0; k < o.workload_specs.size(); ++k) {
    const kernels::Spec spec = kernels::parse_spec(o.workload_specs[k]);
    result.workloads.push_back(plan(o, spec, result.peer_dir, slots[k]));
    result.workloads.back().pairs = plan_pairs(result.workloads.back());
  }
  std::vector<CompareWorkload>& all = result.workloads;
  bench_stats::RepetitionPlan repetitions(o.until_decided, o.repeat, o.budget_s);
  const std::size_t pairs_in_all = total_pairs(all);
  std::vector<bool> active(all.size(), true);
  for (int rep = 1;; ++rep) {
    const double round_start = elapsed();
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (!active[k]) continue;
      CompareWorkload& w = all[k];
      run_repetition(
          w, slots[k], result.peer_dir, order_seed(o.seed, k), [&](const CompareRun& run) {
            if (!progress) return;
            std::string label = w.spec.text() + " " + run.label();
            if (o.until_decided) {
              label =
                  common::format("%zu of %zu pairs undecided, %.0f s left: ", undecided_pairs(all),
                                 pairs_in_all, std::max(0.0, o.budget_s - elapsed())) +
                  label;
            }
            progress(rep, o.until_decided ? 0 : o.repeat, label);
          });
    }
    host.calibrate();
    const bench_stats::RepetitionPlan::Step step =
        repetitions.after(rep, elapsed(), elapsed() - round_start);
    if (!step.look) continue;
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (!active[k]) continue;
      summarize_pairs(all[k], step.confidence, o.resamples, bootstrap_seed(o.seed, k),
                      step.look_index);
      if (o.until_decided && all_decided(all[k])) active[k] = false;
    }
    if (o.until_decided && look_report) {
      look_report(common::format(
          "look %d at %d repetitions (%.2f %% intervals): %zu of %zu pairs decided, %.0f s left",
          step.look_index, rep, step.confidence * 100, pairs_in_all - undecided_pairs(all),
          pairs_in_all, std::max(0.0, o.budget_s - elapsed())));
    }
    if (step.stop || std::none_of(active.begin(), active.end(), [](bool a) { return a; })) break;
  }
  result.looks = repetitions.looks();
  result.host = host.steadiness();
  result.elapsed_s = elapsed();
  return result;
}

}  // namespace bench_cli

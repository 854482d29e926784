// run_barnes, run_dtree: the series of the two applications, in randomized blocks like the
// other benchmarks (series_runner.hpp), every run verified.
#include "tools/bench/threads/app_benches.hpp"

#include <numeric>
#include <string>

#include "tools/bench/threads/run_sample.hpp"
#include "tools/bench/threads/series_runner.hpp"
#include "workloads/thread_apps/barnes_hut.hpp"
#include "workloads/thread_apps/decision_tree.hpp"

namespace bench_threads {

namespace {

// serial; then per worker count the `extra` version (if any) and the thread version under
// every scheduler.
std::vector<Series> app_plan(const Settings& st, Bench bench, std::size_t size, const char* extra) {
  const std::vector<unsigned> workers = st.workers.empty() ? default_workers(bench) : st.workers;
  std::vector<Series> all{make_series(bench, "serial", 1, size)};
  for (const unsigned w : workers) {
    if (extra != nullptr) all.push_back(make_series(bench, extra, w, size));
    for (const weft::ThreadSched sched : scheds_of(st, bench)) {
      Series s = make_series(bench, "threads", w, size);
      s.sched = sched;
      all.push_back(std::move(s));
    }
  }
  return all;
}

// The first --stack, if any (the applications are not swept over stacks).
weft::Config app_config(const Settings& st, const Series& s) {
  return run_config(s.workers, s.sched.value_or(weft::ThreadSched::kDf), 0,
                    st.stacks.empty() ? 0 : st.stacks.front());
}

Sample sample_of(double seconds, const weft::ThreadStats& threads) {
  Sample x;
  x.seconds = seconds;
  x.heap_peak = threads.heap_high_water;
  x.threads = threads;
  return x;
}

}  // namespace

void run_barnes(Sitting& sitting) {
  const Settings& st = sitting.settings;
  thread_apps::BarnesHutParams params;
  params.bodies = st.bh_bodies;
  params.steps = st.bh_steps;
  if (st.spoil_answers) params.max_force_error = -1;  // no force can pass: the check must fail
  std::vector<Series> series = app_plan(st, Bench::kBarnes, st.bh_bodies, "coarse");
  alternate(sitting, series, [&](const Series& s) {
    const thread_apps::BhVersion v = s.version == "serial"   ? thread_apps::BhVersion::kSerial
                                     : s.version == "coarse" ? thread_apps::BhVersion::kCoarse
                                                             : thread_apps::BhVersion::kFine;
    const thread_apps::BarnesHutRun run = thread_apps::run_barnes_hut(params, v, app_config(st, s));
    if (!run.result.verified) throw WrongAnswer("barnes " + s.label() + ": " + run.result.failure);
    // The paper times the steps after the first two when there are more than two.
    const auto& steps = run.result.step_seconds;
    const std::size_t skip = steps.size() > 2 ? 2 : 0;
    return sample_of(
        std::accumulate(steps.begin() + static_cast<std::ptrdiff_t>(skip), steps.end(), 0.0),
        run.threads);
  });
}

void run_dtree(Sitting& sitting) {
  const Settings& st = sitting.settings;
  thread_apps::DecisionTreeParams params;
  params.instances = st.dt_instances;
  std::vector<Series> series = app_plan(st, Bench::kDtree, st.dt_instances, nullptr);
  alternate(sitting, series, [&](const Series& s) {
    const thread_apps::DtVersion v =
        s.version == "serial" ? thread_apps::DtVersion::kSerial : thread_apps::DtVersion::kFine;
    const thread_apps::DecisionTreeRun run =
        thread_apps::run_decision_tree(params, v, app_config(st, s));
    if (!run.result.verified || st.spoil_answers)
      throw WrongAnswer(
          "dtree " + s.label() + ": " +
          (st.spoil_answers ? std::string("spoiled for the test") : run.result.failure));
    return sample_of(run.result.build_seconds, run.threads);
  });
}

}  // namespace bench_threads

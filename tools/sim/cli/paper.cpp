#include "tools/sim/cli/paper.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <tuple>

#include "tools/sim/engine/workload.hpp"

namespace sim {
namespace {

std::string fixed(double x, int digits = 3) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

std::string percent(double x) { return fixed(100 * x, 1) + " %"; }

double share(const RunRecord& r, std::uint64_t part) {
  return static_cast<double>(part) /
         (static_cast<double>(r.workers) * static_cast<double>(r.result.makespan_ps));
}

// Runs `workload` at each worker count under each policy, request mechanism, keeping every
// run by (policy, workers).
class Runner {
 public:
  Runner(const PaperOptions& o, const std::function<void(const std::string&)>& progress,
         PaperResult& out)
      : o_(o), progress_(progress), out_(out) {}

  using Runs = std::map<std::pair<std::string, unsigned>, RunRecord>;

  Runs run(const std::string& spec, const std::vector<std::string>& policies,
           const std::vector<unsigned>& workers) {
    Workload w;
    parse_workload(spec, w);  // the experiments' own specs: a bad one is a bug, and throws
    load_workload(w);
    const std::uint64_t expected = expected_tasks(w);
    Runs runs;
    for (const std::string& policy : policies) {
      for (unsigned p : workers) {
        progress_(spec + ", " + policy + ", " + std::to_string(p) + " workers");
        EngineConfig config{.workers = p,
                            .policy = weft::StealPolicy::parse(policy),
                            .mechanism = weft::StealMechanism::kRequest,
                            .seed = o_.seed,
                            .costs = o_.costs.engine};
        RunRecord r;
        r.workers = p;
        r.mechanism = "request";
        r.steal = policy;
        r.seed = o_.seed;
        r.result = simulate_workload(w, o_.costs, config);
        r.verified = r.result.tasks == expected && r.result.counters.spawns + 1 == expected;
        if (!r.verified) {
          throw std::runtime_error(spec + ": " + std::to_string(r.result.tasks) +
                                   " tasks, expected " + std::to_string(expected));
        }
        runs.emplace(std::make_pair(policy, p), r);
        out_.runs.emplace_back(spec, r);
      }
    }
    return runs;
  }

 private:
  const PaperOptions& o_;
  const std::function<void(const std::string&)>& progress_;
  PaperResult& out_;
};

double speedup(const Runner::Runs& runs, const std::string& policy, unsigned p) {
  return static_cast<double>(runs.at({policy, 1}).result.makespan_ps) /
         static_cast<double>(runs.at({policy, p}).result.makespan_ps);
}

double steal_share(const RunRecord& r) { return share(r, r.result.shares.steal_ps); }
double frame_share(const RunRecord& r) { return share(r, r.result.shares.frame_ps); }

// Fig. 15's "busy / steal / idle".
std::string busy_steal_idle(const RunRecord& r) {
  return fixed(share(r, r.result.shares.busy_ps), 2) + " / " +
         fixed(share(r, r.result.shares.steal_ps), 2) + " / " +
         fixed(share(r, r.result.shares.idle_ps), 2);
}

// Figs. 9-11's worker counts up to P, ending at P even where the paper has no point there.
std::vector<unsigned> uts_curve(unsigned P) {
  std::vector<unsigned> curve{1, 2, 4, 8, 12, 16, 20, 24};
  curve.erase(std::remove_if(curve.begin(), curve.end(), [&](unsigned p) { return p > P; }),
              curve.end());
  if (curve.back() != P) curve.push_back(P);
  return curve;
}

// Strassen, Sparse-LU and FFT (Figs. 17-24) as recorded DAGs, fixed:2 being the paper's
// st_sta for them, at the worker counts the paper shows their shares at.
struct RegularDag {
  const char* file;
  const char* figures;
  unsigned paper_workers;
  const char* paper_speedups;
  const char* paper_shares;
};
constexpr RegularDag kRegularDags[] = {
    {"strassen.wdag", "Figs. 17, 19 (Strassen)", 16, "st_dyn as good as st_org, st_sta lower",
     "overhead grows only under st_sta"},
    {"sparselu.wdag", "Figs. 20, 21 (Sparse-LU)", 20,
     "st_sta fails to scale, st_dyn comparable to st_org", "st_sta's idle and steal large"},
    {"fft.wdag", "Figs. 22, 24 (FFT)", 20, "st_dyn comparable to st_org",
     "R_steal st_sta 13.5 %, st_dyn 11.9 %"},
};

// run_paper's experiments at P workers; each runs its simulations through one Runner, so that
// they are recorded in the order run, and adds its rows in the order the report shows them.
class Experiments {
 public:
  Experiments(const PaperOptions& o, const std::function<void(const std::string&)>& progress,
              PaperResult& out)
      : o_(o), P_(o.workers), ps_(std::to_string(P_)), runner_(o, progress, out), out_(out) {}

  // UTS A (= T3): Figs. 9-11, Table 2, and s_i (Sect. 3.4).
  void uts_a() {
    const std::vector<unsigned> curve = uts_curve(P_);
    const Runner::Runs a = runner_.run("uts:A", uts_policies_, curve);
    uts_a_speedups(a);
    uts_a_overheads(a);
    uts_a_steal_trend(a, curve);
    uts_a_occupancy(a);
    uts_a_busy_follows_s1(a.at({"half", P_}));
  }

  // UTS B: Fig. 12.
  void uts_b() {
    const Runner::Runs b = runner_.run("uts:B", uts_policies_, {1, P_});
    row("Fig. 12", "UTS B speedup at " + ps_ + ": one / fixed:20 / half / adaptive",
        "st_dyn improves on A, st_org degrades",
        fixed(speedup(b, "one", P_), 2) + " / " + fixed(speedup(b, "fixed:20", P_), 2) + " / " +
            fixed(speedup(b, "half", P_), 2) + " / " + fixed(speedup(b, "adaptive", P_), 2),
        "half above one on B", speedup(b, "half", P_) > speedup(b, "one", P_));
  }

  // fib: Fig. 15, its shares under fixed:d for d = 1..16.
  void fib_depths() {
    const std::string fib = fib_spec();
    std::vector<std::string> ds;
    for (int d = 1; d <= 16; ++d) ds.push_back("fixed:" + std::to_string(d));
    const Runner::Runs f = runner_.run(fib, ds, {P_});
    const RunRecord &d1 = f.at({"fixed:1", P_}), &d16 = f.at({"fixed:16", P_});
    row("Fig. 15", fib + " at " + ps_ + ", fixed:16: busy / steal / idle",
        "0.16 / 0.43 / 0.40 (fib(40))", busy_steal_idle(d16),
        "busy lower and steal + idle higher than at fixed:1 (" + busy_steal_idle(d1) + ")",
        share(d16, d16.result.shares.busy_ps) < share(d1, d1.result.shares.busy_ps) &&
            share(d16, d16.result.shares.steal_ps + d16.result.shares.idle_ps) >
                share(d1, d1.result.shares.steal_ps + d1.result.shares.idle_ps));
  }

  // fib: Fig. 16, its speedups.
  void fib_speedups() {
    const std::string fib = fib_spec();
    const Runner::Runs fs = runner_.run(fib, {"one", "fixed:2", "half"}, {1, P_});
    row("Fig. 16", fib + " speedup at " + ps_ + ": one / fixed:2 / half",
        "1.90 / about 1.90 / 1.86 (fib(40), over the serial program)",
        fixed(speedup(fs, "one", P_), 2) + " / " + fixed(speedup(fs, "fixed:2", P_), 2) + " / " +
            fixed(speedup(fs, "half", P_), 2) + " (over 1 worker)",
        "one at least half, within 10 % of each other",
        speedup(fs, "one", P_) >= speedup(fs, "half", P_) &&
            speedup(fs, "half", P_) >= 0.9 * speedup(fs, "one", P_));
  }

  // Figs. 17-24: each of kRegularDags found in --dags, and a "not run" row for each not.
  void regular_dags() {
    for (const RegularDag& g : kRegularDags) {
      const std::string path = o_.dags_dir.empty() ? "" : o_.dags_dir + "/" + g.file;
      if (path.empty() || !std::filesystem::exists(path)) {
        out_.rows.push_back({g.figures, "speedups and shares", g.paper_speedups,
                             "not run: no " + std::string(g.file) +
                                 (o_.dags_dir.empty() ? " (--dags DIR)" : " in " + o_.dags_dir),
                             "", false, /*ran=*/false});
        continue;
      }
      regular_dag(g, path);
    }
  }

 private:
  void row(std::string figure, std::string what, std::string paper, std::string sim,
           std::string rule, bool agrees) {
    out_.rows.push_back({std::move(figure), std::move(what), std::move(paper), std::move(sim),
                         std::move(rule), agrees});
  }

  std::string fib_spec() const { return "fib:" + std::to_string(o_.fib_n); }

  // Fig. 9.
  void uts_a_speedups(const Runner::Runs& a) {
    row("Fig. 9", "UTS A speedup at " + ps_ + ": one / fixed:20 / half / adaptive",
        "st_org the only poor one",
        fixed(speedup(a, "one", P_), 2) + " / " + fixed(speedup(a, "fixed:20", P_), 2) + " / " +
            fixed(speedup(a, "half", P_), 2) + " / " + fixed(speedup(a, "adaptive", P_), 2),
        "one below fixed:20 and half",
        speedup(a, "one", P_) < speedup(a, "fixed:20", P_) &&
            speedup(a, "one", P_) < speedup(a, "half", P_));
  }

  // Table 2 and Fig. 10: R_steal and R_frame at P.
  void uts_a_overheads(const Runner::Runs& a) {
    const RunRecord &a_one = a.at({"one", P_}), &a_sta = a.at({"fixed:20", P_}),
                    &a_dyn = a.at({"half", P_});
    row("Table 2, Fig. 10", "UTS A R_steal at " + ps_ + ": one / fixed:20 / half",
        "28.7 / 6.7 / 6.3 %",
        percent(steal_share(a_one)) + " / " + percent(steal_share(a_sta)) + " / " +
            percent(steal_share(a_dyn)),
        "one above fixed:20 and half",
        steal_share(a_one) > steal_share(a_sta) && steal_share(a_one) > steal_share(a_dyn));
    row("Table 2, Fig. 10", "UTS A R_frame at " + ps_ + ": one / fixed:20 / half",
        "11.5 / 6.9 / 3.9 %",
        percent(frame_share(a_one)) + " / " + percent(frame_share(a_sta)) + " / " +
            percent(frame_share(a_dyn)),
        "one > fixed:20 > half",
        frame_share(a_one) > frame_share(a_sta) && frame_share(a_sta) > frame_share(a_dyn));
  }

  // Fig. 11: one's R_steal along the curve from P = 2.
  void uts_a_steal_trend(const Runner::Runs& a, const std::vector<unsigned>& curve) {
    std::string trend;
    bool rising = true;
    double last = -1;
    for (unsigned p : curve) {
      if (p < 2) continue;
      const double s = steal_share(a.at({"one", p}));
      if (!trend.empty()) trend += ", ";
      trend += fixed(100 * s, 1);
      if (s < last) rising = false;
      last = s;
    }
    row("Fig. 11", "UTS A R_steal of one over P = 2.." + ps_ + " (%)", "rises with P", trend,
        "never falls as P grows", rising);
  }

  // Sect. 3.4: s_1..s_4 at P under one and half.
  void uts_a_occupancy(const Runner::Runs& a) {
    const RunRecord &a_one = a.at({"one", P_}), &a_dyn = a.at({"half", P_});
    std::string one_s, half_s;
    bool above = true;
    for (unsigned i = 1; i <= 4; ++i) {
      const double so = a_one.result.occupancy.mean[i - 1], sh = a_dyn.result.occupancy.mean[i - 1];
      if (i > 1) {
        one_s += ", ";
        half_s += ", ";
      }
      one_s += fixed(so);
      half_s += fixed(sh);
      if (sh < so) above = false;
    }
    row("Sect. 3.4", "UTS A s_1..s_4 at " + ps_ + ", one | half", "half raises s_i for 1 <= i <= d",
        one_s + " | " + half_s, "half's s_i at least one's for i = 1..4", above);
  }

  // Sect. 3.4: under half at P, the time a worker runs tasks against its mean s_1.
  void uts_a_busy_follows_s1(const RunRecord& r) {
    const double running = share(r, r.result.shares.busy_ps + r.result.shares.frame_ps);
    const double s1 = r.result.occupancy.mean[0];
    row("Sect. 3.4", "UTS A at " + ps_ + ", half: R_busy + R_frame | mean s_1",
        "R_busy follows s_1", fixed(running) + " | " + fixed(s1), "within 0.05",
        std::abs(running - s1) <= 0.05);
  }

  // One of Figs. 17-24 from the DAG at `path`, at P or the paper's worker count if fewer.
  void regular_dag(const RegularDag& g, const std::string& path) {
    const unsigned q = std::min(P_, g.paper_workers);
    const std::string qs = std::to_string(q);
    const Runner::Runs d = runner_.run("dag:" + path, {"one", "fixed:2", "half"}, {1, q});
    const double one = speedup(d, "one", q), sta = speedup(d, "fixed:2", q),
                 dyn = speedup(d, "half", q);
    row(g.figures, "speedup at " + qs + ": one / fixed:2 / half", g.paper_speedups,
        fixed(one, 2) + " / " + fixed(sta, 2) + " / " + fixed(dyn, 2),
        "half within 10 % of one, fixed:2 below one", dyn >= 0.9 * one && sta < one);
    const auto lost = [&](const char* policy) {
      const RunRecord& r = d.at({policy, q});
      return share(r, r.result.shares.steal_ps + r.result.shares.idle_ps);
    };
    row(g.figures, "R_steal + R_idle at " + qs + ": one / fixed:2 / half", g.paper_shares,
        percent(lost("one")) + " / " + percent(lost("fixed:2")) + " / " + percent(lost("half")),
        "fixed:2 above one and half",
        lost("fixed:2") > lost("one") && lost("fixed:2") > lost("half"));
  }

  const PaperOptions& o_;
  const unsigned P_;
  const std::string ps_;
  // The policies of Figs. 9-12: the paper's three and weft's adaptive.
  const std::vector<std::string> uts_policies_{"one", "fixed:20", "half", "adaptive"};
  Runner runner_;
  PaperResult& out_;
};

}  // namespace

PaperResult run_paper(const PaperOptions& o,
                      const std::function<void(const std::string&)>& progress) {
  PaperResult out;
  Experiments experiments(o, progress, out);
  experiments.uts_a();
  experiments.uts_b();
  experiments.fib_depths();
  experiments.fib_speedups();
  experiments.regular_dags();
  return out;
}

}  // namespace sim

// `weft-sim paper`: Adnan & Sato's experiments (Sect. 4; docs/REFERENCES.md) re-run on
// simulated weft workers under the request mechanism, their steal-port protocol, with
// st_org = one, st_sta = fixed:20 (UTS) or fixed:2 (the others), st_dyn = half, and weft's
// adaptive policy beside them. Each row puts a figure the paper prints or states beside the
// simulator's and a verdict computed by the rule the row names, so that nothing is judged
// by eye: "agrees" or "differs".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/sim/engine/costs.hpp"
#include "tools/sim/engine/report.hpp"

namespace sim {

struct PaperOptions {
  unsigned workers = 24;  // the paper's machine: two 12-core Opterons
  int fib_n = 30;         // the paper's fib(40) takes about an hour here; --fib 40 asks for it
  // Figs. 17-24: a directory holding strassen.wdag, sparselu.wdag and fft.wdag (weft-sim
  // record); each present is run, each absent is reported as not run. "" runs none.
  std::string dags_dir;
  std::uint64_t seed = 1;
  Costs costs;
};

struct PaperRow {
  std::string figure;  // "Table 2", "Fig. 15", ...
  std::string what;    // the quantity compared
  std::string paper;   // as the paper gives it
  std::string sim;     // weft-sim's
  std::string rule;    // how the verdict is decided
  bool agrees = false;
  bool ran = true;  // false: the experiment's input was missing (and `sim` says which)
};

struct PaperResult {
  std::vector<PaperRow> rows;
  std::vector<std::pair<std::string, RunRecord>> runs;  // (workload, run) for the JSON
};

// Runs every experiment, reporting each simulation through `progress`. Throws
// std::runtime_error if a run's task count is wrong.
PaperResult run_paper(const PaperOptions& options,
                      const std::function<void(const std::string&)>& progress);

}  // namespace sim

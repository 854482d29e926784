// The compare workloads as one list: parse a "name[:size]" spec, list the names with their
// default sizes, and run a spec on any backend. Adding a workload means adding its class to
// AllWorkloads (and its files to CMakeLists.txt); every runner picks it up from here.
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "workloads/kernels/fft.hpp"
#include "workloads/kernels/fib.hpp"
#include "workloads/kernels/loop_gauss.hpp"
#include "workloads/kernels/loop_matmul.hpp"
#include "workloads/kernels/loop_shapes.hpp"
#include "workloads/kernels/matmul.hpp"
#include "workloads/kernels/nqueens.hpp"
#include "workloads/kernels/sort.hpp"
#include "workloads/kernels/sparselu.hpp"
#include "workloads/kernels/strassen.hpp"
#include "workloads/kernels/uts_tasks.hpp"
#include "workloads/kernels/workload.hpp"

namespace kernels {

// In the order weft-bench compare runs them by default: the irregular ones first.
using ForkJoinWorkloads = std::tuple<Fib, Uts, NQueens, Strassen, SparseLu, Fft, Sort, Matmul>;
// The nested parallel loops (par.hpp's for_range): the paper's two programs, then the shapes.
using LoopWorkloads =
    std::tuple<MatmulLoops, GaussJordan, TriangleLoops, ParetoLoops, NarrowLoops, EmptyLoop>;
using AllWorkloads =
    decltype(std::tuple_cat(std::declval<ForkJoinWorkloads>(), std::declval<LoopWorkloads>()));

// A workload and its size, both checked by parse_spec.
struct Spec {
  std::string name;
  std::string size;  // as given, or the workload's default
  std::string text() const { return name + ":" + size; }
};

struct WorkloadInfo {
  std::string_view name;
  std::string_view default_size;
};

// Calls visit(std::type_identity<W>{}) for the workload named `name`; false if none is.
template <class Visit>
bool visit_workload(std::string_view name, Visit&& visit) {
  return []<class... W>(std::string_view n, Visit& v, std::type_identity<std::tuple<W...>>) {
    return ((W::kName == n ? (v(std::type_identity<W>{}), true) : false) || ...);
  }(name, visit, std::type_identity<AllWorkloads>{});
}

std::vector<WorkloadInfo> workload_list();

// Whether `name` is one of LoopWorkloads: its peers' series are their loop variants, and
// weft's its loop schedules.
bool is_loop_workload(std::string_view name);

// "strassen:2048", "fib" (the default size), ... Throws SizeError naming the spec and the
// problem: an unknown workload (listing the known ones) or a size its parse rejects.
Spec parse_spec(std::string_view text);

// The default workloads and sizes of the comparison table, comma-separated as --workloads
// takes them.
std::string_view default_specs();

// Builds, times and verifies one run of `spec` on `par` (workload.hpp's measure).
template <class Par>
Outcome run_spec(const Spec& spec, Par& par) {
  Outcome outcome;
  const bool known = visit_workload(spec.name, [&]<class W>(std::type_identity<W>) {
    outcome = measure<W>(W::parse(spec.size), par);
  });
  if (!known) throw SizeError(spec.text() + ": unknown workload");
  return outcome;
}

// What every backend runs just before each timed run: the peers' processes (peer_cli.hpp)
// and weft-bench's weft series alike. A small fork-join run starts the backend's threads and
// leaves them as a run leaves them: looking for work, not asleep. Without it on both sides,
// only the side whose threads fell asleep since its last run (weft's, while the serial run
// and the verification ran) would time a wake-up, which on a VM can take milliseconds.
template <class Par>
void warm_up(Par& par) {
  (void)run_spec(Spec{"fib", "20"}, par);
}

}  // namespace kernels

// The graph of runtimes waiting on each other (nested_runs.hpp). Nested runs are rare and
// each costs a wake-up anyway, so one process-wide lock guards the graph.
//
// Invariant: the graph has an edge from -> to exactly while some worker of `from` holds a
// NestedRunEdge for `to` (counted, since several workers may wait on the same runtime), and
// it never has a cycle: an edge that would close one is refused before it is added.
#include "core/nested_runs.hpp"

#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace weft::detail {
namespace {

struct Graph {
  std::mutex mutex;
  std::map<std::pair<const void*, const void*>, int> edges;  // guarded by mutex

  // Whether `target` is reachable from `start` along the edges (caller holds the mutex).
  bool reaches(const void* start, const void* target) const {
    std::vector<const void*> todo{start};
    std::set<const void*> seen{start};
    while (!todo.empty()) {
      const void* at = todo.back();
      todo.pop_back();
      if (at == target) return true;
      for (auto it = edges.lower_bound({at, nullptr}); it != edges.end() && it->first.first == at;
           ++it) {
        if (seen.insert(it->first.second).second) todo.push_back(it->first.second);
      }
    }
    return false;
  }
};

Graph& graph() {
  static Graph g;  // leaked at exit only in the sense of static storage: no threads remain
  return g;
}

}  // namespace

NestedRunEdge::NestedRunEdge(const void* from, const void* to) : from_(from), to_(to) {
  Graph& g = graph();
  std::lock_guard lock(g.mutex);
  if (g.reaches(to, from)) {
    throw std::logic_error(
        "weft::Runtime::run: a task of one runtime calls run() on a second runtime that is "
        "itself waiting (through run() calls from its tasks) on the first: runtimes that wait "
        "on each other deadlock once all their workers wait, so weft refuses the cycle. "
        "Nest runtimes one way only, or run the inner work on the same runtime.");
  }
  ++g.edges[{from, to}];
}

NestedRunEdge::~NestedRunEdge() {
  Graph& g = graph();
  std::lock_guard lock(g.mutex);
  auto it = g.edges.find({from_, to_});
  if (--it->second == 0) g.edges.erase(it);
}

}  // namespace weft::detail

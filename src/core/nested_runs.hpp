// Runs of one runtime from a task of another. The calling worker blocks until the other
// runtime has run the job, so runtimes whose tasks wait on each other can deadlock: A's task
// waits in B.run() for a job whose task waits in A.run(), and if every worker of A and B is
// waiting, nobody is left to run either job. weft lets runtimes nest one way (a task of A may
// run B) but not both ways at once: a run() that would close such a cycle throws
// std::logic_error instead of hanging.
//
// The check is on the runtimes, not on the workers: it refuses a cycle even when a spare
// worker could have broken it, so the answer never depends on timing.
#pragma once

namespace weft::detail {

// Held by a worker of `from` while it waits in `to`'s run(); records the edge from -> to.
// Throws std::logic_error if `to` already waits, directly or through other runtimes, on
// `from`.
class NestedRunEdge {
 public:
  NestedRunEdge(const void* from, const void* to);
  ~NestedRunEdge();
  NestedRunEdge(const NestedRunEdge&) = delete;
  NestedRunEdge& operator=(const NestedRunEdge&) = delete;

 private:
  const void* from_;
  const void* to_;
};

}  // namespace weft::detail

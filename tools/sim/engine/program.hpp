// What the simulator runs: a task is a strand of ops in program order, made lazily, with
// weft's semantics (docs/SIMULATOR.md): a spawn pushes the child on the worker's task stack
// and the parent runs on; a join takes the parent's newest child not yet joined, runs it
// inline if it is still on top of the worker's stack, and otherwise waits for its thief.
#pragma once

#include <cstdint>
#include <memory>

namespace sim {

class Strand;

struct Op {
  enum class Kind : std::uint8_t { kWork, kSpawn, kJoin, kEnd };
  Kind kind = Kind::kEnd;
  std::uint64_t ps = 0;           // kWork: how long the strand runs before its next op, ps
  std::unique_ptr<Strand> child;  // kSpawn: the new task

  static Op work(std::uint64_t ps) { return Op{Kind::kWork, ps, nullptr}; }
  static Op spawn(std::unique_ptr<Strand> child) { return Op{Kind::kSpawn, 0, std::move(child)}; }
  static Op join() { return Op{Kind::kJoin, 0, nullptr}; }
  static Op end() { return Op{Kind::kEnd, 0, nullptr}; }
};

// One task's ops. next() is called until it returns kEnd, once per op, by the engine alone.
class Strand {
 public:
  virtual ~Strand() = default;
  virtual Op next() = 0;
};

}  // namespace sim

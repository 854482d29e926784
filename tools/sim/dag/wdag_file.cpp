#include "tools/sim/dag/wdag_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "workloads/common/output_file.hpp"

namespace sim {
namespace {

// "WDAG" then CR LF, SUB and LF as PNG does: a transfer that rewrites line ends or stops at
// a DOS end-of-file mark breaks the magic rather than the ops.
constexpr char kMagic[8] = {'W', 'D', 'A', 'G', '\r', '\n', '\x1a', '\n'};
// A work op's duration in ps, and the sum of them all, stay below this: the engine adds
// them up in 64 bits.
constexpr std::uint64_t kMaxPs = std::uint64_t{1} << 62;

void put_fixed(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
}

void put_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// What a read is of, spelled out only when it fails: "task 3 op 7", "tasks".
struct Field {
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  // Implicit, so that a header field is named by its string.
  Field(const char* n, std::uint64_t t = kNone, std::uint64_t o = kNone)  // NOLINT
      : name(n), task(t), op(o) {}

  const char* name;
  std::uint64_t task;
  std::uint64_t op;

  std::string text() const {
    if (task == kNone) return name;
    std::string t = "task " + std::to_string(task);
    return op == kNone ? t + " " + name : t + " op " + std::to_string(op);
  }
};

// Reads the file front to back; every read names its field, so that an error can say where
// and what.
class Cursor {
 public:
  Cursor(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  std::size_t offset() const { return pos_; }
  std::size_t left() const { return bytes_.size() - pos_; }

  [[noreturn]] void fail(std::size_t at, const Field& field, const std::string& what) const {
    throw WdagError(name_ + ": offset " + std::to_string(at) + ": " + field.text() + ": " + what);
  }

  std::uint64_t fixed(int bytes, const Field& field) {
    if (left() < static_cast<std::size_t>(bytes)) truncated(field);
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
      value |= std::uint64_t{static_cast<unsigned char>(bytes_[pos_ + i])} << (8 * i);
    pos_ += static_cast<std::size_t>(bytes);
    return value;
  }

  std::string_view take(std::size_t n, const Field& field) {
    if (left() < n) truncated(field);
    const std::string_view view = bytes_.substr(pos_, n);
    pos_ += n;
    return view;
  }

  // LEB128, at most 10 bytes, no bits beyond the 64th.
  std::uint64_t varint(const Field& field) {
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      if (left() == 0) truncated(field);
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      if (shift == 63 && byte > 1) fail(start, field, "varint overflows 64 bits");
      value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
  }

 private:
  [[noreturn]] void truncated(const Field& field) const {
    fail(pos_, field, "truncated (the file ends at byte " + std::to_string(bytes_.size()) + ")");
  }

  std::string_view bytes_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

struct Header {
  std::string spec;
  std::uint64_t tasks = 0;
  std::uint64_t ops = 0;
  std::size_t ops_offset = 0;
  std::uint64_t clock_cost_ps = 0;
  std::uint64_t unit_ps = 0;
};

Header read_header(Cursor& in) {
  Header h;
  if (in.take(sizeof kMagic, "magic") != std::string_view(kMagic, sizeof kMagic))
    in.fail(0, "magic", "not a .wdag file (the magic is not \"WDAG\\r\\n\\x1a\\n\")");
  const std::size_t version_offset = in.offset();
  if (const std::uint64_t v = in.fixed(4, "version"); v != kWdagVersion)
    in.fail(version_offset, "version",
            "version " + std::to_string(v) + ", this reader knows version " +
                std::to_string(kWdagVersion) + " only");
  const std::size_t spec_offset = in.offset();
  const std::uint64_t spec_bytes = in.fixed(4, "spec_bytes");
  if (spec_bytes > kWdagMaxSpec)
    in.fail(spec_offset, "spec_bytes",
            std::to_string(spec_bytes) + " > " + std::to_string(kWdagMaxSpec));
  h.spec = std::string(in.take(spec_bytes, "spec"));
  const std::size_t tasks_offset = in.offset();
  h.tasks = in.fixed(8, "tasks");
  h.ops_offset = in.offset();
  h.ops = in.fixed(8, "ops");
  h.clock_cost_ps = in.fixed(8, "clock_cost_ps");
  const std::size_t unit_offset = in.offset();
  h.unit_ps = in.fixed(8, "unit_ps");
  if (h.unit_ps == 0) in.fail(unit_offset, "unit_ps", "zero");
  // Checked against the bytes left before anything is allocated: a task takes at least two
  // (its op count and its end), an op at least one.
  if (h.tasks == 0 || h.tasks > in.left() / 2)
    in.fail(tasks_offset, "tasks",
            std::to_string(h.tasks) + " tasks cannot be in the " + std::to_string(in.left()) +
                " bytes left (at least 1, and 2 bytes each): the file is truncated or the "
                "count wrong");
  if (h.ops < h.tasks || h.ops > in.left())
    in.fail(h.ops_offset, "ops",
            std::to_string(h.ops) + " ops: fewer than the tasks (" + std::to_string(h.tasks) +
                ") or more than the bytes left (" + std::to_string(in.left()) + ")");
  return h;
}

// Reads task t's ops into dag, checking them against weft's rules as it goes.
class BodyReader {
 public:
  BodyReader(Cursor& in, const Header& h, Dag& dag)
      : in_(in), h_(h), dag_(dag), spawned_(h.tasks, false) {}

  void task(std::uint64_t t) {
    const Field count_field{"op_count", t};
    if (t > 0 && !spawned_[t])
      in_.fail(in_.offset(), count_field, "task never spawned (no task before it spawns it)");
    const std::size_t count_offset = in_.offset();
    const std::uint64_t count = in_.varint(count_field);
    if (count == 0) in_.fail(count_offset, count_field, "zero (a task ends with an end op)");
    if (count > h_.ops - dag_.ops.size())
      in_.fail(count_offset, count_field,
               std::to_string(count) + " ops would make more than the header's " +
                   std::to_string(h_.ops));
    unjoined_.clear();
    for (std::uint64_t i = 0; i < count; ++i) op(Field{"", t, i}, i + 1 == count);
    dag_.first_op.push_back(dag_.ops.size());
  }

 private:
  void op(const Field& field, bool last) {
    const std::size_t at = in_.offset();
    const std::uint64_t word = in_.varint(field);
    const auto kind = static_cast<DagOpKind>(word & 3);
    const std::uint64_t operand = word >> 2;
    if (kind == DagOpKind::kEnd && !last) in_.fail(at, field, "an end before the task's last op");
    if (kind != DagOpKind::kEnd && last) in_.fail(at, field, "the task's last op is not an end");
    switch (kind) {
      case DagOpKind::kWork:
        if (operand > kMaxPs / h_.unit_ps || operand * h_.unit_ps > kMaxPs - work_ps_)
          in_.fail(at, field, "the work adds up to more than 2^62 ps");
        work_ps_ += operand * h_.unit_ps;
        dag_.ops.push_back(DagOp::make(kind, operand));
        return;
      case DagOpKind::kSpawn: return spawn(field.task, at, field, operand);
      case DagOpKind::kJoin: return join(field.task, at, field, operand);
      case DagOpKind::kEnd:
        if (operand != 0) in_.fail(at, field, "an end with operand " + std::to_string(operand));
        if (!unjoined_.empty())
          in_.fail(at, field,
                   "the task ends with " + std::to_string(unjoined_.size()) +
                       " children not joined (the newest: task " +
                       std::to_string(unjoined_.back()) + ")");
        dag_.ops.push_back(DagOp::make(kind, 0));
        return;
    }
  }

  bool in_range(std::uint64_t t, std::uint64_t delta) const {
    return delta != 0 && delta < h_.tasks - t;
  }
  std::string child_name(std::uint64_t t, std::uint64_t delta) const {
    if (in_range(t, delta)) return "task " + std::to_string(t + delta);
    return "task " + std::to_string(t) + " + " + std::to_string(delta) + ", out of range (" +
           std::to_string(h_.tasks) + " tasks, a child above its parent)";
  }

  // The child is task t + delta: spawned by a task of lower index, so the DAG has no cycle.
  void spawn(std::uint64_t t, std::size_t at, const Field& field, std::uint64_t delta) {
    if (!in_range(t, delta)) in_.fail(at, field, "spawn of " + child_name(t, delta));
    const std::uint64_t child = t + delta;
    if (spawned_[child]) in_.fail(at, field, "task " + std::to_string(child) + " spawned twice");
    spawned_[child] = true;
    unjoined_.push_back(child);
    dag_.ops.push_back(DagOp::make(DagOpKind::kSpawn, child));
  }

  void join(std::uint64_t t, std::size_t at, const Field& field, std::uint64_t delta) {
    if (unjoined_.empty() || unjoined_.back() != t + delta) {
      const std::string child = child_name(t, delta);
      // Searched only on the way to an error: a wide scope's joins stay linear.
      if (std::find(unjoined_.begin(), unjoined_.end(), t + delta) == unjoined_.end())
        in_.fail(at, field, "join of " + child + ", which this task has not spawned or has joined");
      in_.fail(at, field,
               "join of " + child + ", not the newest unjoined child (task " +
                   std::to_string(unjoined_.back()) + ")");
    }
    unjoined_.pop_back();
    dag_.ops.push_back(DagOp::make(DagOpKind::kJoin, t + delta));
  }

  Cursor& in_;
  const Header& h_;
  Dag& dag_;
  std::vector<bool> spawned_;
  std::vector<std::uint64_t> unjoined_;  // this task's children not yet joined, oldest first
  std::uint64_t work_ps_ = 0;
};

}  // namespace

std::string encode_wdag(const Dag& dag) {
  if (dag.spec.size() > kWdagMaxSpec)
    throw std::invalid_argument("a .wdag spec has at most " + std::to_string(kWdagMaxSpec) +
                                " bytes");
  std::string out(kMagic, sizeof kMagic);
  put_fixed(out, kWdagVersion, 4);
  put_fixed(out, dag.spec.size(), 4);
  out += dag.spec;
  put_fixed(out, dag.tasks(), 8);
  put_fixed(out, dag.ops.size(), 8);
  put_fixed(out, dag.clock_cost_ps, 8);
  put_fixed(out, dag.unit_ps, 8);
  for (std::uint64_t t = 0; t < dag.tasks(); ++t) {
    put_varint(out, dag.first_op[t + 1] - dag.first_op[t]);
    for (std::uint64_t i = dag.first_op[t]; i < dag.first_op[t + 1]; ++i) {
      const DagOp op = dag.ops[i];
      std::uint64_t operand = op.operand();
      if (op.kind() == DagOpKind::kSpawn || op.kind() == DagOpKind::kJoin) {
        if (operand <= t)
          throw std::invalid_argument("task " + std::to_string(t) + " names task " +
                                      std::to_string(operand) + " as a child, not above it");
        operand -= t;  // small for the children spawned near their parent
      }
      put_varint(out, DagOp::make(op.kind(), operand).word);
    }
  }
  return out;
}

Dag decode_wdag(std::string_view bytes, const std::string& name) {
  Cursor in(bytes, name);
  const Header h = read_header(in);
  Dag dag;
  dag.spec = h.spec;
  dag.clock_cost_ps = h.clock_cost_ps;
  dag.unit_ps = h.unit_ps;
  dag.first_op.reserve(h.tasks + 1);
  dag.ops.reserve(h.ops);
  BodyReader body(in, h, dag);
  for (std::uint64_t t = 0; t < h.tasks; ++t) body.task(t);
  if (dag.ops.size() != h.ops)
    in.fail(h.ops_offset, "ops",
            "the header says " + std::to_string(h.ops) + ", the tasks have " +
                std::to_string(dag.ops.size()));
  if (in.left() != 0)
    in.fail(in.offset(), "end of file",
            std::to_string(in.left()) + " bytes after the last task's ops");
  return dag;
}

Dag read_wdag(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw WdagError(path + ": cannot open: " + std::strerror(errno));
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (file.bad()) throw WdagError(path + ": cannot read: " + std::strerror(errno));
  return decode_wdag(bytes, path);
}

std::string write_wdag(const std::string& path, const Dag& dag) {
  return bench_cli::replace_file(path, encode_wdag(dag));
}

}  // namespace sim

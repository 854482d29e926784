// A rank's stack of tree nodes, each a fixed number of bytes (a trivially copyable node as it
// lies in memory), so that one protocol serves every node type and a chunk travels as the
// bytes it already is. The newest node is on top and is expanded next; the oldest are at the
// bottom and are the ones given away (the oldest nodes head the largest subtrees).
//
// Storage: one byte buffer holding the nodes from begin_ to end_. Taking from the bottom
// moves begin_ up; a push that finds no room at the end first slides the nodes down over
// the space taken from the bottom and grows the buffer only when that is not enough.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace dist {

class NodeStack {
 public:
  explicit NodeStack(std::size_t node_bytes) : node_(node_bytes) {}

  std::size_t node_bytes() const { return node_; }
  std::size_t size() const { return (end_ - begin_) / node_; }
  bool empty() const { return end_ == begin_; }

  // A node of the size this stack holds; its caller checks sizeof(Node) == node_bytes() once.
  template <class Node>
  void push(const Node& node) {
    static_assert(std::is_trivially_copyable_v<Node>, "nodes travel as bytes");
    if (bytes_.size() - end_ < sizeof(Node)) make_room(sizeof(Node));
    std::memcpy(bytes_.data() + end_, &node, sizeof(Node));
    end_ += sizeof(Node);
  }
  template <class Node>
  Node pop() {
    end_ -= sizeof(Node);
    Node node;
    std::memcpy(&node, bytes_.data() + end_, sizeof(Node));
    return node;
  }

  // Appends whole nodes given as bytes (a chunk that arrived).
  void push_bytes(const std::byte* data, std::size_t n) {
    if (bytes_.size() - end_ < n) make_room(n);
    if (n > 0) std::memcpy(bytes_.data() + end_, data, n);
    end_ += n;
  }
  // Moves the `count` oldest nodes into `out`, replacing what it held.
  void take_oldest(std::size_t count, std::vector<std::byte>& out) {
    const std::size_t n = count * node_;
    out.assign(bytes_.data() + begin_, bytes_.data() + begin_ + n);
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }

 private:
  void make_room(std::size_t n) {
    const std::size_t used = end_ - begin_;
    if (begin_ > 0) {
      std::memmove(bytes_.data(), bytes_.data() + begin_, used);
      begin_ = 0;
      end_ = used;
    }
    if (bytes_.size() - end_ < n)
      bytes_.resize(std::max<std::size_t>(2 * bytes_.size(), used + n + 64 * node_));
  }

  std::size_t node_;
  std::vector<std::byte> bytes_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
};

}  // namespace dist

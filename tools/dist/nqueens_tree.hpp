// N-Queens as a user tree of weft::dist: a node is a partial placement as three bit masks
// (the columns, and the columns attacked along each diagonal, on the row to fill next) and
// that row, 16 trivially copyable bytes; expanding it pushes a child per safe column, and a
// full board contributes one solution. weft-nqueens-dist and the tests search it.
#pragma once

#include <cstdint>

#include "tools/dist/tree_search.hpp"

namespace dist {

struct Placement {
  std::uint32_t columns = 0;  // columns holding a queen
  std::uint32_t left = 0;     // columns attacked on this row along down-left diagonals
  std::uint32_t right = 0;    // ... along down-right diagonals
  std::uint8_t row = 0;       // the row to place next
  std::uint8_t n = 0;         // the board's side, 1 to 31
  std::uint8_t unused[2] = {};

  static Placement empty_board(int n) {
    Placement p;
    p.n = static_cast<std::uint8_t>(n);
    return p;
  }
};
static_assert(sizeof(Placement) == 16);

struct ExpandPlacement {
  std::uint64_t operator()(const Placement& p, Children<Placement>& children) const {
    if (p.row == p.n) return 1;
    const std::uint32_t board = (1u << p.n) - 1;
    for (std::uint32_t free = ~(p.columns | p.left | p.right) & board; free != 0;
         free &= free - 1) {
      const std::uint32_t bit = free & (0u - free);  // the lowest safe column
      Placement child;
      child.columns = p.columns | bit;
      child.left = ((p.left | bit) << 1) & board;
      child.right = (p.right | bit) >> 1;
      child.row = static_cast<std::uint8_t>(p.row + 1);
      child.n = p.n;
      children.push(child);
    }
    return 0;
  }
};

}  // namespace dist

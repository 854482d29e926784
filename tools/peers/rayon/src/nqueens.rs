//! nqueens: count the placements of n non-attacking queens on an n x n board. A task per
//! placed queen at every level, no cutoff: count(n, j, board) with the columns of the queens
//! of rows 0..j-1 in board (copied into each child) sums count(n, j+1, board + column i) over
//! the safe columns i of row j.
//!
//! The children are a par.map_reduce over the columns: on Rayon the idiomatic parallel
//! iterator, `(0..n).into_par_iter().map(child or 0).reduce(...)`, whose children live in the
//! parent's stack frame and are split into jobs by Rayon's adaptive splitter (rayon::scope,
//! the literal "spawn each child" form, heap-allocates every spawn and sums through shared
//! state; see README.md); on chili a recursive halving of the columns by join.

use crate::par::Par;

pub const DEFAULT: &str = "13";
pub const MAX_N: i64 = 20;

/// OEIS A000170: solutions for n = 1..=20.
#[rustfmt::skip]
const A000170: [u64; 20] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884,
];

pub type Board = [i8; MAX_N as usize];

/// Whether a queen in row j, column i is attacked by none of the queens of rows 0..j-1.
#[inline]
fn safe(board: &Board, j: usize, i: i32) -> bool {
    board[..j].iter().enumerate().all(|(k, &col)| {
        let c = col as i32;
        c != i && (c - i).abs() != (j - k) as i32
    })
}

pub fn count<P: Par>(par: &mut P, n: usize, j: usize, board: Board) -> u64 {
    if j == n {
        return 1;
    }
    par.map_reduce(
        0..n as i32,
        move |p, i| {
            if !safe(&board, j, i) {
                return 0;
            }
            let mut child = board;
            child[j] = i as i8;
            count(p, n, j + 1, child)
        },
        || 0,
        |a, b| a + b,
    )
}

pub fn solve<P: Par>(par: &mut P, n: usize) -> u64 {
    count(par, n, 0, [0; MAX_N as usize])
}

pub fn result(solutions: u64) -> String {
    format!("solutions={solutions}")
}

pub fn verify(n: usize, solutions: u64) -> Option<String> {
    let expected = A000170[n - 1];
    (solutions != expected)
        .then(|| format!("{solutions} solutions for n={n}, expected {expected} (OEIS A000170)"))
}

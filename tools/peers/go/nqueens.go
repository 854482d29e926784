// nqueens, the fine-grained irregular workload, as workloads/kernels/nqueens.hpp: count the
// placements of n non-attacking queens on an n x n board, every safe partial placement a
// task, no cutoff, verified against OEIS A000170.
//
//	count(n, j, board): board holds the columns of the queens of rows 0..j-1. If j == n it
//	is one solution. Otherwise each safe column i of row j is a child that computes
//	count(n, j+1, board + i) on its own copy of the board.
//
// The C++ side spawns a node's children in one scope, each writing its count into its own
// slot of an array of n counts, summed after the scope. Here the scope is a WaitGroup: one
// goroutine per child, the board copied into the goroutine as an argument (a 20-byte
// array, so siblings share nothing), the count written to the child's own slot, and the
// parent goroutine waits for all of them before it sums.
package main

import (
	"fmt"
	"sync"
)

const (
	nqueensDefault = "13"
	// The largest n the table knows; it would take days as tasks.
	nqueensMaxN = 20
)

// OEIS A000170: the solutions for n = 1..20. Published counts, not recorded runs.
var knownSolutions = [nqueensMaxN]int64{
	1, 0, 0, 2, 10, 4, 40, 92, 352, 724,
	2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884,
}

// The columns of the queens of rows 0..j-1; the rest is unused.
type board [nqueensMaxN]int8

// isSafe: no queen of rows 0..row-1 shares the column or a diagonal with (row, column).
func isSafe(b *board, row, column int) bool {
	for k := 0; k < row; k++ {
		diff := int(b[k]) - column
		if diff == 0 || diff == row-k || diff == k-row {
			return false
		}
	}
	return true
}

func nqueensCount(n, row int, b board) int64 {
	if row == n {
		return 1
	}
	var counts [nqueensMaxN]int64 // slot i: column i's subtree
	var wg sync.WaitGroup
	for column := 0; column < n; column++ {
		if !isSafe(&b, row, column) {
			continue
		}
		child := b
		child[row] = int8(column)
		wg.Add(1)
		go func(out *int64, child board) {
			*out = nqueensCount(n, row+1, child)
			wg.Done()
		}(&counts[column], child)
	}
	wg.Wait()
	var sum int64
	for _, c := range counts[:n] {
		sum += c
	}
	return sum
}

type nqueensWork struct {
	n         int
	solutions int64 // -1 until compute: never a valid count
}

func parseNQueens(size string) (job, string) {
	n, what := parseCount(size, 1, nqueensMaxN)
	if what != "" {
		return job{}, what
	}
	return job{fmt.Sprintf("nqueens:%d", n), func() work {
		return &nqueensWork{n: int(n), solutions: -1}
	}}, ""
}

func (w *nqueensWork) compute() { w.solutions = nqueensCount(w.n, 0, board{}) }

func (w *nqueensWork) verify() string {
	if expected := knownSolutions[w.n-1]; w.solutions != expected {
		return fmt.Sprintf("nqueens(%d) counted %d solutions, expected %d (OEIS A000170)",
			w.n, w.solutions, expected)
	}
	return ""
}

func (w *nqueensWork) result() string { return fmt.Sprintf("solutions=%d", w.solutions) }

// nqueens against the known table (OEIS A000170) at small n, in goroutines, and a wrong
// count failing verify.
package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestSmallBoardsMatchTheTable(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	want := []int64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724}
	for n := 1; n <= len(want); n++ {
		w := &nqueensWork{n: n, solutions: -1}
		w.compute()
		if w.solutions != want[n-1] {
			t.Errorf("n=%d: %d solutions, want %d", n, w.solutions, want[n-1])
		}
		if failure := w.verify(); failure != "" {
			t.Errorf("n=%d: %s", n, failure)
		}
	}
}

func TestWrongCountFailsVerify(t *testing.T) {
	w := &nqueensWork{n: 8, solutions: -1}
	w.compute()
	if got := w.result(); got != "solutions=92" {
		t.Errorf("result %q", got)
	}
	w.solutions++
	if failure := w.verify(); !strings.Contains(failure, "expected 92") {
		t.Errorf("a count of 93 for n=8: verify said %q", failure)
	}
	untouched := &nqueensWork{n: 1, solutions: -1} // compute never ran
	if untouched.verify() == "" {
		t.Error("an uncomputed count verified")
	}
}

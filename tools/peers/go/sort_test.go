// sort: small sorts in goroutines with low cutoffs (many forks), the input and result
// strings the C++ side gives, and corrupted outputs failing verify.
package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestSmallSortsVerify(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, c := range []struct{ n, cutoff int }{
		{1, 1}, {2, 1}, {7, 1}, {100, 3}, {12345, 16}, {10000, 2048}, {100000, 64},
	} {
		w := newSortWork(c.n, c.cutoff, c.cutoff)
		w.compute()
		if failure := w.verify(); failure != "" {
			t.Errorf("n=%d cutoff=%d: %s", c.n, c.cutoff, failure)
		}
	}
}

func TestInputIsTheCppSides(t *testing.T) {
	// The result strings of weft-peer-gomp (the C++ Sort) for these sizes.
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "sorted n=1 min=166854045 max=166854045"},
		{12345, "sorted n=12345 min=-2147283432 max=2147244956"},
		{100000, "sorted n=100000 min=-2147459890 max=2147352886"},
	} {
		w := newSortWork(c.n, sortCutoff, mergeCutoff)
		w.compute()
		if got := w.result(); got != c.want {
			t.Errorf("n=%d: %q, want %q", c.n, got, c.want)
		}
	}
}

func TestCorruptedOutputsFail(t *testing.T) {
	w := newSortWork(10000, 16, 16)
	w.compute()
	w.data[10], w.data[5500] = w.data[5500], w.data[10]
	if failure := w.verify(); !strings.Contains(failure, "not sorted at index") {
		t.Errorf("swapped elements: verify said %q", failure)
	}

	w = newSortWork(10000, 16, 16)
	w.compute()
	w.data[5000] = w.data[5001] // still sorted, but one element lost and one duplicated
	if failure := w.verify(); !strings.Contains(failure, "not the input's elements") {
		t.Errorf("a duplicated element: verify said %q", failure)
	}

	w = newSortWork(10000, 16, 16) // never computed: the input is not sorted
	if w.verify() == "" {
		t.Error("the unsorted input verified")
	}
}

func TestMergeHelpers(t *testing.T) {
	run := []int32{1, 3, 3, 7}
	for x, want := range map[int32]int{0: 0, 1: 0, 2: 1, 3: 1, 4: 3, 7: 3, 8: 4} {
		if got := lowerBound(run, x); got != want {
			t.Errorf("lowerBound(%d) = %d, want %d", x, got, want)
		}
	}
	out := make([]int32, 7)
	serialMerge([]int32{1, 4, 4, 9}, []int32{0, 4, 10}, out)
	if got, want := out, []int32{0, 1, 4, 4, 4, 9, 10}; !equalInt32s(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
}

func equalInt32s(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sort, the memory-bound divide-and-conquer workload, step for step as
// workloads/kernels/sort.hpp/.cpp (Cilk's cilksort):
//
//	sortInPlace(a, tmp) sorts a using tmp as scratch; sortInto(a, tmp) sorts a's elements
//	into tmp using a as scratch. At or below the sort cutoff (2048) both sort serially
//	(sortInto copies first). Above it each sorts the halves (the first n/2, the other
//	n - n/2) in parallel with the other function, so the sorted halves land in the buffer
//	that is not the destination, then merges them in parallel into the destination.
//	merge(run1, run2, out): make run1 the longer; at or below the merge cutoff (2048
//	elements in all) merge serially; else split run1 at its middle m1, find
//	m2 = lower_bound(run2, run1[m1]), put run1[m1] at out[m1+m2] and merge the two pairs on
//	either side in parallel.
//
// Every C++ par.invoke(f, g) is invoke(f, g): g in a new goroutine, f in the calling one,
// then a WaitGroup wait, the roles par.invoke gives them. The halves are subslices of the
// two buffers, which never overlap between the two sides of a fork.
//
// Input: element i is the top 32 bits, as int32, of output i of splitmix64 started at state
// 0x5eed, the C++ side's very array. The scratch buffer and the copy that verify sorts are
// made with the input, untimed. Verified as the C++ side: sorted, then equal to a reference
// sort of the input (so a sorted output that lost or duplicated an element fails).
package main

import (
	"fmt"
	"sync"
)

const (
	sortDefault     = "1e7"
	sortMaxElements = 2000000000
	sortSeed        = 0x5eed
	// Cilk's QUICKSIZE and MERGESIZE, as the C++ side (sort.hpp gives its measurements).
	sortCutoff  = 2048
	mergeCutoff = 2048
)

type sortWork struct {
	sortCutoff, mergeCutoff int
	input                   []int32 // kept for verify; never touched by compute
	data                    []int32 // the input, sorted in place by compute
	scratch                 []int32 // compute's second buffer
}

// splitmix64 is one step of Vigna's generator: add the gamma, then mix.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func makeSortInput(n int, seed uint64) []int32 {
	input := make([]int32, n)
	state := seed
	for i := range input {
		// The top 32 bits, reinterpreted as two's complement: negative values included.
		input[i] = int32(uint32(splitmix64(&state) >> 32))
	}
	return input
}

// newSortWork builds the input and both buffers; tests lower the cutoffs (>= 1) to make
// many forks of a small input.
func newSortWork(n, sortCut, mergeCut int) *sortWork {
	input := makeSortInput(n, sortSeed)
	data := make([]int32, n)
	copy(data, input)
	return &sortWork{sortCut, mergeCut, input, data, make([]int32, n)}
}

func parseSort(size string) (job, string) {
	n, what := parseCount(size, 1, sortMaxElements)
	if what != "" {
		return job{}, what
	}
	return job{fmt.Sprintf("sort:%d", n), func() work {
		return newSortWork(int(n), sortCutoff, mergeCutoff)
	}}, ""
}

// invoke runs f here and g in a new goroutine, and returns when both are done.
func invoke(f, g func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		g()
		wg.Done()
	}()
	f()
	wg.Wait()
}

func (w *sortWork) compute() { w.sortInPlace(w.data, w.scratch) }

func (w *sortWork) sortInPlace(a, tmp []int32) {
	if len(a) <= w.sortCutoff {
		sortInt32s(a)
		return
	}
	half := len(a) / 2
	invoke(func() { w.sortInto(a[:half], tmp[:half]) },
		func() { w.sortInto(a[half:], tmp[half:]) })
	w.merge(tmp[:half], tmp[half:], a)
}

func (w *sortWork) sortInto(a, tmp []int32) {
	if len(a) <= w.sortCutoff {
		copy(tmp, a)
		sortInt32s(tmp)
		return
	}
	half := len(a) / 2
	invoke(func() { w.sortInPlace(a[:half], tmp[:half]) },
		func() { w.sortInPlace(a[half:], tmp[half:]) })
	w.merge(a[:half], a[half:], tmp)
}

// merge merges two sorted runs into out (len(out) == len(run1) + len(run2)).
func (w *sortWork) merge(run1, run2, out []int32) {
	if len(run1) < len(run2) {
		run1, run2 = run2, run1
	}
	if len(out) <= w.mergeCutoff {
		serialMerge(run1, run2, out)
		return
	}
	// run1 is the longer and out holds more than mergeCutoff >= 1 elements, so run1 is not
	// empty and its middle exists.
	m1 := len(run1) / 2
	pivot := run1[m1]
	m2 := lowerBound(run2, pivot)
	out[m1+m2] = pivot
	invoke(func() { w.merge(run1[:m1], run2[:m2], out[:m1+m2]) },
		func() { w.merge(run1[m1+1:], run2[m2:], out[m1+m2+1:]) })
}

// lowerBound is the first index of run whose element is not less than x (std::lower_bound).
func lowerBound(run []int32, x int32) int {
	lo, hi := 0, len(run)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if run[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// serialMerge is std::merge: on equal keys the element of run1 goes first.
func serialMerge(run1, run2, out []int32) {
	i, j := 0, 0
	for k := range out {
		if j < len(run2) && (i == len(run1) || run2[j] < run1[i]) {
			out[k] = run2[j]
			j++
		} else {
			out[k] = run1[i]
			i++
		}
	}
}

func (w *sortWork) verify() string {
	for i := 1; i < len(w.data); i++ {
		if w.data[i] < w.data[i-1] {
			return fmt.Sprintf("sort: output not sorted at index %d (%d before %d)",
				i, w.data[i-1], w.data[i])
		}
	}
	// Sorted, but is it the input's elements? Compare with a reference sort of the input.
	expected := make([]int32, len(w.input))
	copy(expected, w.input)
	sortInt32s(expected)
	for i := range expected {
		if w.data[i] != expected[i] {
			return fmt.Sprintf("sort: output is sorted but not the input's elements: "+
				"index %d holds %d, expected %d", i, w.data[i], expected[i])
		}
	}
	return ""
}

func (w *sortWork) result() string {
	lo, hi := w.data[0], w.data[0]
	for _, x := range w.data {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return fmt.Sprintf("sorted n=%d min=%d max=%d", len(w.data), lo, hi)
}

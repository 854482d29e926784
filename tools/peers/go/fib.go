// fib, the spawn-overhead workload, as workloads/kernels/fib.hpp: fib(n) by the doubly
// recursive definition, every call a fork, no cutoff, verified against the iterative value.
//
// The C++ par.invoke(f, g) runs f = fib(n-2) at once and offers g = fib(n-1) to thieves;
// here g is a new goroutine and f runs in the calling one, which then waits for g on a
// WaitGroup. The goroutine writes its result into a variable of the parent's frame (which
// Go moves to the heap), as the C++ closure writes through a reference.
package main

import (
	"fmt"
	"sync"
)

const (
	fibDefault = "35"
	// fib.cpp's bound: 50 already takes hours as tasks.
	fibMaxN = 50
)

func fib(n int) int64 {
	if n < 2 {
		return int64(n)
	}
	var b int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		b = fib(n - 1)
		wg.Done()
	}()
	a := fib(n - 2)
	wg.Wait()
	return a + b
}

// fibByIteration is the reference (common/fib_reference.hpp).
func fibByIteration(n int) int64 {
	var a, b int64 = 0, 1
	for i := 0; i < n; i++ {
		a, b = b, a+b
	}
	return a
}

type fibWork struct {
	n     int
	value int64
}

func parseFib(size string) (job, string) {
	n, what := parseCount(size, 0, fibMaxN)
	if what != "" {
		return job{}, what
	}
	return job{fmt.Sprintf("fib:%d", n), func() work { return &fibWork{n: int(n), value: -1} }}, ""
}

func (w *fibWork) compute() { w.value = fib(w.n) }

func (w *fibWork) verify() string {
	if expected := fibByIteration(w.n); w.value != expected {
		return fmt.Sprintf("fib(%d) = %d, expected %d", w.n, w.value, expected)
	}
	return ""
}

func (w *fibWork) result() string { return fmt.Sprintf("fib(%d) = %d", w.n, w.value) }

// fib in goroutines against the iterative reference, and a wrong value failing verify.
package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestFibVerifies(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for n := 0; n <= 20; n++ {
		w := &fibWork{n: n, value: -1}
		w.compute()
		if failure := w.verify(); failure != "" {
			t.Errorf("n=%d: %s", n, failure)
		}
	}
	if got := fibByIteration(50); got != 12586269025 {
		t.Errorf("fib(50) by iteration = %d", got)
	}
}

func TestWrongFibFailsVerify(t *testing.T) {
	w := &fibWork{n: 20, value: -1}
	w.compute()
	if got := w.result(); got != "fib(20) = 6765" {
		t.Errorf("result %q", got)
	}
	w.value++
	if failure := w.verify(); failure != "fib(20) = 6766, expected 6765" {
		t.Errorf("verify said %q", failure)
	}
}

// A failed run's line says verified false and carries the error, last.
func TestFailureLine(t *testing.T) {
	line := outcomeLine("go", "fib:20", 2, 0.5, "fib(20) = 6766", "fib(20) = 6766, expected 6765")
	if !strings.Contains(line, `"verified":false,"error":"fib(20) = 6766, expected 6765"}`) {
		t.Errorf("line %s", line)
	}
}

// weft-peer-go: weft's compare workloads fib, uts, nqueens and sort in Go, speaking the peer
// protocol of tools/peers/peer_cli.hpp as the Rayon peer does:
//
//	weft-peer-go --workload <name>[:<size>] --workers <W> [--repeat <R>]
//	weft-peer-go --list
//
// Go's own scheduler is the pool: runtime.GOMAXPROCS(W) before anything runs, goroutines
// for the tasks. Each repetition builds its input (untimed), times the computation alone,
// verifies it (untimed) and prints one JSON line. A failed verification prints its line
// with "verified":false and an "error", then exits 1; a bad argument prints
// "weft-peer-go: <argument>: <what is wrong>" on stderr and exits 2.
//
// main only wires the process (arguments, streams, exit status) to run, so that the tests
// can drive the whole program in-process.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
)

const prog = "weft-peer-go"

// run is the whole program: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %s\n", prog, err.arg, err.what)
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if cmd.list {
		for _, w := range workloads {
			fmt.Fprintf(out, "%s %s\n", w.name, w.defaultSize)
		}
		return 0
	}
	runtime.GOMAXPROCS(cmd.workers)
	// Start the scheduler's threads before the first timed run, as the C++ peers do with
	// an untimed fib(20) (peer_cli.hpp): no peer times thread start-up.
	_ = fib(20)
	for rep := 0; rep < cmd.repeat; rep++ {
		seconds, result, failure := measure(cmd.job)
		fmt.Fprintln(out, outcomeLine("go", cmd.job.canonical, cmd.workers, seconds, result, failure))
		// Each line goes out as soon as it is known, as the other peers flush theirs.
		if err := out.Flush(); err != nil {
			fmt.Fprintf(stderr, "%s: stdout: %v\n", prog, err)
			return 1
		}
		if failure != "" {
			return 1
		}
	}
	return 0
}

// measure builds the job's input, times compute alone, then verifies: workload.hpp's
// measure(). Returns the seconds, the result and "" or the verification error.
func measure(j job) (float64, string, string) {
	w := j.build()
	// The garbage of the previous repetition (its input and buffers) is collected here,
	// untimed, so that a collection inside the timed part is caused by the computation's
	// own allocations only.
	runtime.GC()
	start := time.Now()
	w.compute()
	seconds := time.Since(start).Seconds()
	return seconds, w.result(), w.verify()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

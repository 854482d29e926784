// The workloads this peer runs, in the order of the C++ suite's ForkJoinWorkloads
// (workloads/kernels/suite.hpp) with its default sizes, and the interface each implements:
// workload.hpp's, cut to what a peer needs. The input is built by the job's build function
// (untimed), compute is the timed part, verify and result run after it (untimed).
package main

type work interface {
	compute()
	// "" if compute's output is right, else a one-line reason.
	verify() string
	// The C++ workload's result() string, which weft-bench compare compares across sides.
	result() string
}

type workloadInfo struct {
	name        string
	defaultSize string
	// parse turns a size into a job, or returns what is wrong with the size.
	parse func(size string) (job, string)
}

// A parsed workload: its canonical "name:size" and how to build one run of it.
type job struct {
	canonical string
	build     func() work
}

// The fork-join workloads of the C++ suite that this peer implements; strassen, sparselu,
// fft and matmul are left out, and so is every loop workload.
var workloads = []workloadInfo{
	{"fib", fibDefault, parseFib},
	{"uts", utsDefault, parseUts},
	{"nqueens", nqueensDefault, parseNQueens},
	{"sort", sortDefault, parseSort},
}

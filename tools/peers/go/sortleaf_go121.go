//go:build go1.21

// The serial leaf sort where the toolchain has the generic slices.Sort (Go 1.21 and later):
// pdqsort on []int32 directly, the counterpart of the C++ side's std::sort and Rust's
// sort_unstable. For int32 every correct sort gives the same output.
package main

import "slices"

func sortInt32s(a []int32) { slices.Sort(a) }

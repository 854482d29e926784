//go:build !go1.21

// The serial leaf sort for toolchains before Go 1.21 (Debian's golang-go 1.19), which have
// no generic slices.Sort: sort.Sort, the same pdqsort through the sort.Interface methods,
// slower per element. Only the timing differs; the output is the same.
package main

import "sort"

type int32s []int32

func (a int32s) Len() int           { return len(a) }
func (a int32s) Less(i, j int) bool { return a[i] < a[j] }
func (a int32s) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }

func sortInt32s(a []int32) { sort.Sort(int32s(a)) }

// UTS against the C++ side: the small presets' published counts (sequentially: the tree
// itself, its SHA-1 stream and child-count formulas), every tree type and shape on small
// trees whose counts weft's C++ library gives (`weft-bench uts <flags> --impl seq`), the
// parallel traversal on those, and a wrong count failing verify. The large presets take
// minutes here; WEFT_GO_UTS_LARGE=1 checks them too (README.md has their counts).
package main

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestSmallPresetsMatchPublishedCountsSequentially(t *testing.T) {
	for _, name := range []string{"T1", "T2", "T3", "T4", "T5"} {
		p := findPreset(name)
		// Seconds each: side by side on the test's cores.
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := newUtsTree(p.params).traverseSequential()
			want := utsCounts{p.nodes, p.leaves, p.maxDepth}
			if got != want {
				t.Errorf("counted %v, published %v", got, want)
			}
		})
	}
}

// The large presets, and B (whose leaves and depth the C++ side measured).
func TestLargePresetsMatchSequentially(t *testing.T) {
	if os.Getenv("WEFT_GO_UTS_LARGE") == "" {
		t.Skip("takes minutes; set WEFT_GO_UTS_LARGE=1")
	}
	bLeaves, bDepth := uint64(20266744), int32(6974) // measured by the C++ side (presets.cpp)
	for _, name := range []string{"A", "B", "T1L", "T2L", "T3L"} {
		p := findPreset(name)
		got := newUtsTree(p.params).traverseSequential()
		want := utsCounts{p.nodes, p.leaves, p.maxDepth}
		if name == "B" {
			want.leaves, want.maxDepth = bLeaves, bDepth
		}
		t.Logf("%s: %v", name, got)
		if got != want {
			t.Errorf("%s: counted %v, expected %v", name, got, want)
		}
	}
}

func TestCustomTreesMatchTheCppSide(t *testing.T) {
	geo := func(shape geoShape, genMx int32, b0 float64, seed int32) treeParams {
		return geometricParams(shape, genMx, b0, seed)
	}
	balanced := geo(linearShape, 6, 4, 0)
	balanced.typ = balancedTree
	shifted := hybridParams(cyclicShape, 10, 3, 0.2, 4, 0)
	shifted.shiftDepth = 0.3
	coarse := geo(linearShape, 12, 3.5, 11)
	coarse.granularity = 2
	cases := []struct {
		flags  string
		params treeParams
		want   utsCounts
	}{
		{"-t 1 -a 1 -d 6 -b 4 -r 0", geo(expDecShape, 6, 4, 0), utsCounts{4509, 2319, 17}},
		{"-t 1 -a 1 -d 10 -b 3 -r 7", geo(expDecShape, 10, 3, 7), utsCounts{11360, 5746, 28}},
		{"-t 1 -a 2 -d 8 -b 3 -r 1", geo(cyclicShape, 8, 3, 1), utsCounts{296, 174, 8}},
		{"-t 1 -a 2 -d 8 -b 3 -r 4", geo(cyclicShape, 8, 3, 4), utsCounts{114, 62, 11}},
		{"-t 1 -a 3 -d 7 -b 4 -r 5", geo(fixedShape, 7, 4, 5), utsCounts{946, 780, 7}},
		{"-t 3 -b 4 -d 6 -r 0", balanced, utsCounts{5461, 4096, 6}},
		{"-t 2 -a 1 -d 8 -b 4 -q 0.2 -m 4 -r 0", hybridParams(expDecShape, 8, 4, 0.2, 4, 0),
			utsCounts{2068, 1533, 18}},
		{"-t 2 -a 2 -d 10 -b 3 -q 0.2 -m 4 -r 0 -f 0.3", shifted, utsCounts{451, 341, 15}},
		{"-t 1 -a 0 -d 12 -b 3.5 -r 11 -g 2", coarse, utsCounts{7447, 4049, 12}},
		{"-t 0 -b 50.5 -q 0.22 -m 4 -r 3", binomialParams(50.5, 0.22, 4, 3), utsCounts{239, 191, 9}},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, c := range cases {
		tree := newUtsTree(c.params)
		if got := tree.traverseSequential(); got != c.want {
			t.Errorf("%s sequentially: %v, want %v", c.flags, got, c.want)
		}
		root := tree.root()
		if got := tree.visit(&root); got != c.want {
			t.Errorf("%s in goroutines: %v, want %v", c.flags, got, c.want)
		}
	}
}

func TestWrongCountsFailVerify(t *testing.T) {
	p := findPreset("T3")
	w := &utsWork{preset: p, tree: newUtsTree(p.params)}
	for _, wrong := range []utsCounts{
		{p.nodes + 1, p.leaves, p.maxDepth},
		{p.nodes, p.leaves - 1, p.maxDepth},
		{p.nodes, p.leaves, p.maxDepth + 1},
		{}, // compute never ran
	} {
		w.counts = wrong
		if failure := w.verify(); !strings.HasSuffix(failure, "(published)") {
			t.Errorf("T3 counted %v: verify said %q", wrong, failure)
		}
	}
	w.counts = utsCounts{p.nodes, p.leaves, p.maxDepth}
	if failure := w.verify(); failure != "" {
		t.Errorf("T3's published counts fail: %s", failure)
	}
	if got, want := w.result(), "nodes=4112897 leaves=3599034 depth=1572"; got != want {
		t.Errorf("result %q, want %q", got, want)
	}

	// A preset that publishes only its nodes, as B: leaves and depth come from the
	// sequential traversal (a small tree here, B's takes seconds).
	partial := &utsPreset{"partial", binomialParams(50.5, 0.22, 4, 3), 239, 0, 0}
	w = &utsWork{preset: partial, tree: newUtsTree(partial.params)}
	for _, c := range []struct {
		counts utsCounts
		ok     bool
	}{
		{utsCounts{239, 191, 9}, true},
		{utsCounts{238, 191, 9}, false},
		{utsCounts{239, 190, 9}, false},
		{utsCounts{239, 191, 8}, false},
	} {
		w.counts = c.counts
		failure := w.verify()
		if c.ok != (failure == "") || (!c.ok && !strings.HasSuffix(failure, "(published or sequential)")) {
			t.Errorf("%v: verify said %q", c.counts, failure)
		}
	}
}

func TestPresetLookup(t *testing.T) {
	if p := findPreset("t3l"); p == nil || p.name != "T3L" {
		t.Errorf("t3l: %v", p)
	}
	if findPreset("T6") != nil || findPreset("") != nil {
		t.Error("unknown preset found")
	}
	if got := presetNames(); got != "T1, T2, T3, T4, T5, T1L, T2L, T3L, A, B" {
		t.Errorf("names %q", got)
	}
}

// The UTS presets of workloads/uts/presets.cpp with their published counts, so that every run
// can be checked: T1..T5, T1L, T2L, T3L are the UTS 2.1 sample trees
// (sample_workloads.sh), A and B Adnan & Sato's binomial trees (A is T3; B is the Barcelona
// OpenMP Tasks Suite's "tiny" input, corrected to 30,399,117 nodes; its leaves and depth are
// not published).
package main

import "strings"

type utsPreset struct {
	name   string
	params treeParams
	nodes  uint64
	// 0 where the source publishes none: verify then takes the sequential traversal's.
	leaves   uint64
	maxDepth int32
}

func geometricParams(shape geoShape, genMx int32, b0 float64, seed int32) treeParams {
	p := defaultParams
	p.typ, p.shape, p.genMx, p.b0, p.seed = geometricTree, shape, genMx, b0, seed
	return p
}

func binomialParams(b0, q float64, m, seed int32) treeParams {
	p := defaultParams
	p.typ, p.b0, p.q, p.m, p.seed = binomialTree, b0, q, m, seed
	return p
}

func hybridParams(shape geoShape, genMx int32, b0, q float64, m, seed int32) treeParams {
	p := geometricParams(shape, genMx, b0, seed)
	p.typ, p.q, p.m = hybridTree, q, m
	return p // shift_depth keeps the default 0.5
}

var utsPresets = []utsPreset{
	{"T1", geometricParams(fixedShape, 10, 4, 19), 4130071, 3305118, 10},
	{"T2", geometricParams(cyclicShape, 16, 6, 502), 4117769, 2342762, 81},
	{"T3", binomialParams(2000, 0.124875, 8, 42), 4112897, 3599034, 1572},
	{"T4", hybridParams(linearShape, 16, 6, 0.234375, 4, 1), 4132453, 3108986, 134},
	{"T5", geometricParams(linearShape, 20, 4, 34), 4147582, 2181318, 20},
	{"T1L", geometricParams(fixedShape, 13, 4, 29), 102181082, 81746377, 13},
	{"T2L", geometricParams(cyclicShape, 23, 7, 220), 96793510, 53791152, 67},
	{"T3L", binomialParams(2000, 0.200014, 5, 7), 111345631, 89076904, 17844},
	{"A", binomialParams(2000, 0.124875, 8, 42), 4112897, 3599034, 1572},
	{"B", binomialParams(2000, 0.333332, 3, 8), 30399117, 0, 0},
}

// findPreset looks a preset up by name, case-insensitively ("t3", "T3").
func findPreset(name string) *utsPreset {
	for i := range utsPresets {
		if strings.EqualFold(utsPresets[i].name, name) {
			return &utsPresets[i]
		}
	}
	return nil
}

func presetNames() string {
	names := make([]string, len(utsPresets))
	for i, p := range utsPresets {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

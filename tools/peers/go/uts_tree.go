// UTS trees bit for bit as weft's C++ library (workloads/uts/sha1_stream.*, tree.*), which
// follows the UTS 2.1 reference (uts.c, rng/brg_sha1.c):
//
//	root state   = SHA-1(16 zero bytes || seed as 4 big-endian bytes)
//	child state  = SHA-1(parent state || child index as 4 big-endian bytes)
//	random value = state bytes 16..19 read big-endian, top bit cleared (31 bits)
//	probability  = random value / 2^31
//
// SHA-1 is crypto/sha1 (the same function as the C++ side's OpenSSL, so the same digests).
// The number-of-children formulas keep the C++ operand order, since a reordered expression
// can round differently and move a floor() across an integer. Go may fuse x*y+z into one
// FMA on some architectures, across statements too; the C++ side builds with
// -ffp-contract=off, so every product that a later addition could absorb is rounded by an
// explicit float64() conversion, which the Go spec says prevents the fusion. log, pow, sin
// are Go's math package rather than glibc's; the presets' counts (uts_test.go, README.md)
// show that the trees come out the same.
package main

import (
	"crypto/sha1"
	"encoding/binary"
	"math"
)

const (
	stateBytes  = 20
	maxChildren = 100 // the reference's MAXNUMCHILDREN
	// The reference's pi, 3.141592653589793, as a double: the same value as the C++ literal.
	referencePi float64 = 3.141592653589793
)

type rngState [stateBytes]byte

func rootState(seed int32) rngState {
	var message [stateBytes]byte // 16 zero bytes, then the seed
	binary.BigEndian.PutUint32(message[16:], uint32(seed))
	return sha1.Sum(message[:])
}

func childState(parent *rngState, index int32) rngState {
	// One contiguous 24-byte message, as the C++ side.
	var message [stateBytes + 4]byte
	copy(message[:stateBytes], parent[:])
	binary.BigEndian.PutUint32(message[stateBytes:], uint32(index))
	return sha1.Sum(message[:])
}

func rand31(s *rngState) int32 {
	return int32(binary.BigEndian.Uint32(s[16:20]) & 0x7fffffff)
}

func toProb(n int32) float64 {
	if n < 0 {
		return 0
	}
	return float64(n) / 2147483648.0
}

type treeType int

// The reference's -t codes.
const (
	binomialTree treeType = iota
	geometricTree
	hybridTree
	balancedTree
)

type geoShape int

// The reference's -a codes.
const (
	linearShape geoShape = iota // b0 * (1 - d / gen_mx)
	expDecShape                 // b0 * d^(-log b0 / log gen_mx)
	cyclicShape                 // b0^sin(2 pi d / gen_mx), 0 below depth 5 * gen_mx
	fixedShape                  // b0 above depth gen_mx, 0 from there
)

// treeParams is tree.hpp's TreeParams; the presets' values are all valid (tree.cpp's
// validate), and nothing else builds one outside the tests.
type treeParams struct {
	typ         treeType
	b0          float64
	seed        int32
	m           int32
	q           float64
	genMx       int32
	shape       geoShape
	shiftDepth  float64
	granularity int32
}

// defaultParams are the reference's defaults, as tree.hpp.
var defaultParams = treeParams{
	typ: geometricTree, b0: 4.0, seed: 0, m: 4, q: 15.0 / 64.0, genMx: 6,
	shape: linearShape, shiftDepth: 0.5, granularity: 1,
}

type utsNode struct {
	state  rngState
	height int32
}

type utsTree struct {
	p              treeParams
	expdecExponent float64 // -log(b0) / log(gen_mx)
}

func newUtsTree(p treeParams) *utsTree {
	return &utsTree{p, -math.Log(p.b0) / math.Log(float64(p.genMx))}
}

func (t *utsTree) root() utsNode { return utsNode{rootState(t.p.seed), 0} }

// child is child number index of parent, hashed granularity times (the reference repeats
// the identical hash to make nodes costlier; the result is the same).
func (t *utsTree) child(parent *utsNode, index int32) utsNode {
	c := utsNode{childState(&parent.state, index), parent.height + 1}
	for extra := int32(1); extra < t.p.granularity; extra++ {
		c.state = childState(&parent.state, index)
	}
	return c
}

// childrenFromFloor: the reference's C cast of floor(...) to int is undefined for NaN and
// out-of-range values, and yields INT_MIN (a leaf) on x86-64; tree.cpp spells that out.
func childrenFromFloor(floored float64) int32 {
	if !(floored >= 0.0 && floored < 2147483648.0) {
		return 0
	}
	return int32(floored)
}

func (t *utsTree) binomialChildren(node *utsNode) int32 {
	if toProb(rand31(&node.state)) < t.p.q {
		return t.p.m
	}
	return 0
}

// geometricMean is b_d at depth d > 0.
func (t *utsTree) geometricMean(depth int32) float64 {
	b0 := t.p.b0
	d := float64(depth)
	genMx := float64(t.p.genMx)
	switch t.p.shape {
	case expDecShape:
		return float64(b0 * math.Pow(d, t.expdecExponent))
	case cyclicShape:
		if depth > 5*t.p.genMx {
			return 0.0
		}
		return math.Pow(b0, math.Sin(2.0*referencePi*d/genMx))
	case fixedShape:
		if depth < t.p.genMx {
			return b0
		}
		return 0.0
	}
	return float64(b0 * (1.0 - d/genMx))
}

func (t *utsTree) geometricChildren(node *utsNode) int32 {
	b := t.p.b0
	if node.height > 0 {
		b = t.geometricMean(node.height)
	}
	// A geometric distribution with success probability p has mean (1 - p) / p = b;
	// drawing u uniformly on [0, 1), the inverse CDF gives floor(log(1-u) / log(1-p)).
	p := 1.0 / (1.0 + b)
	u := toProb(rand31(&node.state))
	return childrenFromFloor(math.Floor(math.Log(1.0-u) / math.Log(1.0-p)))
}

// numChildren is the number of children of node, >= 0 (uts_numChildren).
func (t *utsTree) numChildren(node *utsNode) int32 {
	var n int32
	switch t.p.typ {
	case binomialTree:
		if node.height == 0 {
			// The root's fixed fan-out, capped at ceil(b0) as the reference does (floor(b0)
			// never exceeds it; kept so that the rule reads as the reference's).
			n = int32(math.Floor(t.p.b0))
			if rootCap := int32(math.Ceil(t.p.b0)); n > rootCap {
				n = rootCap
			}
			return n
		}
		n = t.binomialChildren(node)
	case geometricTree:
		n = t.geometricChildren(node)
	case hybridTree:
		// No root special case: a hybrid root is geometric unless shift_depth is 0.
		if float64(node.height) < t.p.shiftDepth*float64(t.p.genMx) {
			n = t.geometricChildren(node)
		} else {
			n = t.binomialChildren(node)
		}
	case balancedTree:
		if node.height < t.p.genMx {
			return int32(t.p.b0) // never capped
		}
		return 0
	}
	if n > maxChildren {
		return maxChildren
	}
	return n
}

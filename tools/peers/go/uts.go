// uts as a compare workload, as workloads/kernels/uts_tasks.hpp: every node is a task that
// draws its own number of children, spawns one child task per child in one scope, and adds
// the children's counts after the scope. A child computes its own SHA-1 state from its
// parent's (so whoever runs a child also does its hashing) and writes its subtree's counts
// into its own slot of the parent's array. Leaves, most of the nodes, open no scope.
//
// The scope is a WaitGroup: one goroutine per child but the last, which the parent runs
// itself before it waits for the others and sums the slots. Each goroutine has its own
// growable stack; a chain of last children deepens one (T3L: up to 17,844 levels), which Go
// grows as needed.
//
// The size is a preset name; the counts are checked against the preset's published ones,
// and any the source does not publish (B's leaves and depth) against the sequential
// traversal (untimed).
package main

import (
	"fmt"
	"sync"
)

const utsDefault = "T3"

// utsCounts is counts.hpp's Counts; the root is at depth 0.
type utsCounts struct {
	nodes, leaves uint64
	maxDepth      int32
}

func (c *utsCounts) add(o utsCounts) {
	c.nodes += o.nodes
	c.leaves += o.leaves
	if o.maxDepth > c.maxDepth {
		c.maxDepth = o.maxDepth
	}
}

func (c utsCounts) String() string {
	return fmt.Sprintf("nodes=%d leaves=%d depth=%d", c.nodes, c.leaves, c.maxDepth)
}

func (t *utsTree) visit(node *utsNode) utsCounts {
	children := t.numChildren(node)
	counts := utsCounts{nodes: 1, maxDepth: node.height}
	if children == 0 {
		counts.leaves = 1
		return counts
	}
	childCounts := make([]utsCounts, children)
	var wg sync.WaitGroup
	last := children - 1
	wg.Add(int(last))
	for i := int32(0); i < last; i++ {
		go func(i int32) {
			child := t.child(node, i)
			childCounts[i] = t.visit(&child)
			wg.Done()
		}(i)
	}
	// The last child runs in this goroutine, as fib's second call does: one goroutine fewer
	// per inner node, and the tree is walked depth first along the last children, so that
	// the goroutines waiting in the run queues stay near (children - 1) x depth instead of
	// growing with the tree's width.
	lastChild := t.child(node, last)
	childCounts[last] = t.visit(&lastChild)
	wg.Wait()
	for _, c := range childCounts {
		counts.add(c)
	}
	return counts
}

// traverseSequential is uts_seq.cpp's depth-first traversal with an explicit stack: the
// reference for what a preset does not publish, and for the tests.
func (t *utsTree) traverseSequential() utsCounts {
	var counts utsCounts
	stack := make([]utsNode, 0, 4096)
	stack = append(stack, t.root())
	for len(stack) > 0 {
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		children := t.numChildren(&node)
		counts.add(utsCounts{nodes: 1, maxDepth: node.height})
		if children == 0 {
			counts.leaves++
		}
		for i := int32(0); i < children; i++ {
			stack = append(stack, t.child(&node, i))
		}
	}
	return counts
}

type utsWork struct {
	preset *utsPreset
	tree   *utsTree
	counts utsCounts // all zero until compute: no tree has zero nodes
}

func parseUts(size string) (job, string) {
	p := findPreset(size)
	if p == nil {
		return job{}, fmt.Sprintf("'%s' is not a UTS preset (expected one of %s)", size, presetNames())
	}
	return job{"uts:" + p.name, func() work { return &utsWork{preset: p, tree: newUtsTree(p.params)} }}, ""
}

func (w *utsWork) compute() {
	root := w.tree.root()
	w.counts = w.tree.visit(&root)
}

// knowsEverything: the preset publishes leaves and depth as well as nodes.
func (p *utsPreset) knowsEverything() bool { return p.leaves != 0 }

func (w *utsWork) verify() string {
	expected := utsCounts{w.preset.nodes, w.preset.leaves, w.preset.maxDepth}
	source := "published"
	if !w.preset.knowsEverything() {
		// Only what the source leaves out is computed, and only then: B's sequential
		// traversal takes seconds.
		reference := w.tree.traverseSequential()
		expected.leaves, expected.maxDepth = reference.leaves, reference.maxDepth
		source = "published or sequential"
	}
	if w.counts == expected {
		return ""
	}
	return fmt.Sprintf("uts %s: counted %v, expected %v (%s)", w.preset.name, w.counts, expected, source)
}

func (w *utsWork) result() string { return w.counts.String() }

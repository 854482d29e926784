#!/usr/bin/env python3
"""The df and dfd schedulers' rules on weft-bench's synthetic tree, in lock step: the heap
peak a greedy depth-first schedule reaches, and what a stalled worker does to it.

weft-bench threads --bench tree runs a complete binary tree of weft::threads, each node
allocating one block and holding it while its two children (threads) run, and compares the
heap's peak under df and dfd with AsyncDF's bound S1 + 4*p*D*K. This script runs the same tree
under df's rules, or dfd's (docs/THREADS.md, "Memory and the space bound"), on an idealised
machine:

  - one list of the live threads in the serial depth-first order; a forked child goes just
    left of its creator and runs at once, the creator waiting ready beside it; a worker with
    no thread takes the leftmost ready one; a join of an unfinished thread blocks; a thread's
    end makes its joiner ready;
  - an allocation of m > K bytes first forks ceil(m/K) dummy threads as a binary tree (the
    shape of weft::allocate's fork_dummy_tree) and joins them;
  - --sched dfd: no one list; each worker pushes a creator on its own deque while the child
    runs, pushes the joiner a thread's end makes ready, and pops its newest thread when its
    thread ended or blocked. The deques sit in one list R in the depth-first order. A worker
    whose deque is empty takes, from the leftmost deque that has a thread, its newest (the
    leftmost) if nobody owns it, and its oldest otherwise, and puts its own deque beside it on
    that thread's side. A dummy stands for K bytes, so a worker whose dummy ended has spent
    its quota: it leaves its deque to anyone (never pushed again) and takes as an empty one
    does (DFDeques); --dummy-keeps-deque drops that rule, and the worker pops its own deque;
  - every action (a fork, a join, an allocation, an end) takes one step, and every worker
    holding a thread takes one action each step: the synchronous machine the bound is proved
    for;
  - optionally, a worker stalls: each step it has, with probability 1/EVERY, it stops for
    STEPS steps, keeping its thread, as a descheduled CPU does.

It prints S1 (the one-worker peak), the peak, and the bound, with D = 1 + depth + the dummy
tree's depth as weft-bench counts it; --json prints the same as one JSON object.

Usage: scripts/df_space_model.py [--sched df|dfd] [--dummy-keeps-deque] [--depth N]
                                 [--workers P] [--block-kib B] [--quota-kib K]
                                 [--stall-every EVERY --stall-steps STEPS] [--seed S] [--json]
Defaults: df, the benchmark's tree (depth 12, 64 KiB blocks), 2 workers, K = 4 KiB, no
stalls. A depth-12 tree takes about ten seconds a run.
"""
import argparse
import json
import random
import sys


class Thread:
    __slots__ = ("body", "state", "joiner", "done", "send", "dummy")

    def __init__(self, body, dummy=False):
        self.body = body  # a generator of actions
        self.state = "ready"
        self.joiner = None
        self.done = False
        self.send = None  # what the next action receives (a forked child)
        self.dummy = dummy  # one of a large allocation's dummies


class Deque:
    """A dfd worker's deque: threads oldest first; owner -1 once left to anyone."""
    __slots__ = ("threads", "owner")

    def __init__(self, owner):
        self.threads = []
        self.owner = owner


def dummy_tree(n):
    """weft::allocate's fork_dummy_tree(n): n threads as a binary tree."""
    if n == 0:
        return
    left = (n - 1) // 2
    t = yield ("fork_dummy", lambda: dummy_tree(left))
    yield from dummy_tree(n - 1 - left)
    yield ("join", t)


def node(number, below, block, quota):
    """threads_bench's tree node: allocate, fork both children, join them, free."""
    if 0 < quota < block:
        yield from dummy_tree(-(-block // quota))
    yield ("alloc", block)
    if below > 0:
        left = yield ("fork", lambda: node(2 * number, below - 1, block, quota))
        right = yield ("fork", lambda: node(2 * number + 1, below - 1, block, quota))
        yield ("join", left)
        yield ("join", right)
    yield ("alloc", -block)


class Stalls:
    """Each step a worker has, with probability 1/EVERY, it stops for STEPS steps."""

    def __init__(self, workers, every, steps, seed):
        self.rng = random.Random(seed)
        self.every, self.steps = every, steps
        self.left = [0] * workers

    def stalled(self, w):
        if self.left[w] > 0:
            self.left[w] -= 1
            return True
        if self.every and self.rng.random() * self.every < 1:
            self.left[w] = self.steps
            return True
        return False


class DfRules:
    """df: one list of the live threads in the serial depth-first order."""

    def __init__(self, workers, root):
        self.order = [root]

    def take(self, w):
        return next((t for t in self.order if t.state == "ready"), None)

    def forked(self, w, creator, child):
        self.order.insert(self.order.index(creator), child)  # just left of its creator

    def ended(self, w, t):
        self.order.remove(t)
        if t.joiner is not None:
            t.joiner.state = "ready"


class DfdRules:
    """dfd: per-worker deques in one list R in the depth-first order."""

    def __init__(self, workers, root, dummy_keeps_deque):
        self.deques = [Deque(0)]  # R, left to right
        self.own = [self.deques[0]] + [None] * (workers - 1)
        self.own[0].threads.append(root)
        self.spent = [False] * workers  # a dummy of this worker's ended: its quota is spent
        self.dummy_keeps_deque = dummy_keeps_deque

    def push(self, w, t):
        if self.own[w] is None:
            self.own[w] = Deque(w)
            self.deques.append(self.own[w])  # no deque yet: the right end
        self.own[w].threads.append(t)

    def take(self, w):
        own = self.own[w]
        if self.spent[w] and own is not None:
            own.owner = -1  # left to anyone, never pushed again
            own = self.own[w] = None
        self.spent[w] = False
        if own is not None and own.threads:
            return own.threads.pop()
        return self.steal(w)

    def steal(self, w):
        for d in list(self.deques):
            if d is self.own[w]:
                continue
            if not d.threads:
                if d.owner == -1:
                    self.deques.remove(d)  # left to anyone and empty: dead
                continue
            ownerless = d.owner == -1
            t = d.threads.pop() if ownerless else d.threads.pop(0)
            mine = self.own[w]
            if mine is None:
                mine = self.own[w] = Deque(w)
            elif mine in self.deques:
                self.deques.remove(mine)
            # On the stolen thread's side: left of an ownerless deque, right of an owned one.
            self.deques.insert(self.deques.index(d) + (0 if ownerless else 1), mine)
            if ownerless and not d.threads:
                self.deques.remove(d)
            return t
        return None

    def forked(self, w, creator, child):
        self.push(w, creator)  # the creator waits on this worker's deque

    def ended(self, w, t):
        if t.joiner is not None:
            t.joiner.state = "ready"
            self.push(w, t.joiner)
        self.spent[w] = t.dummy and not self.dummy_keeps_deque


def simulate(depth, workers, block, quota, stall_every=0, stall_steps=0, seed=1, sched="df",
             dummy_keeps_deque=False):
    """Returns (peak heap, steps) of one run under df's rules, or dfd's."""
    stalls = Stalls(workers, stall_every, stall_steps, seed)
    root = Thread(node(1, depth, block, quota))
    rules = DfRules(workers, root) if sched == "df" else DfdRules(workers, root,
                                                                  dummy_keeps_deque)
    running = [None] * workers
    heap = peak = steps = 0
    live = 1
    while live:
        steps += 1
        for w in range(workers):
            if running[w] is None:
                running[w] = rules.take(w)
                if running[w] is not None:
                    running[w].state = "running"
        for w in range(workers):
            t = running[w]
            if t is None or stalls.stalled(w):
                continue
            value, t.send = t.send, None
            try:
                kind, arg = t.body.send(value)
            except StopIteration:
                t.done = True
                live -= 1
                running[w] = None
                rules.ended(w, t)
                continue
            if kind == "alloc":
                heap += arg
                peak = max(peak, heap)
            elif kind in ("fork", "fork_dummy"):
                child = Thread(arg(), dummy=kind == "fork_dummy")
                live += 1
                t.send = child
                t.state = "ready"  # the creator waits beside its child
                rules.forked(w, t, child)
                child.state = "running"
                running[w] = child  # which runs at once, here
            elif not arg.done:  # join
                arg.joiner = t
                t.state = "blocked"
                running[w] = None
    return peak, steps


def dummy_depth(block, quota):
    """bench_threads::dummy_tree_depth: ceil(log2(dummies + 1))."""
    if quota == 0 or block <= quota:
        return 0
    dummies = -(-block // quota)
    depth = 0
    while (1 << depth) < dummies + 1:
        depth += 1
    return depth


def positive(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}': expected a positive whole number")
    return value


def non_negative(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}': expected a whole number >= 0")
    return value


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sched", choices=("df", "dfd"), default="df")
    parser.add_argument("--dummy-keeps-deque", action="store_true",
                        help="dfd: a worker whose dummy ended pops its own deque")
    parser.add_argument("--depth", type=non_negative, default=12)
    parser.add_argument("--workers", type=positive, default=2)
    parser.add_argument("--block-kib", type=positive, default=64)
    parser.add_argument("--quota-kib", type=non_negative, default=4, help="0: no quota")
    parser.add_argument("--stall-every", type=non_negative, default=0)
    parser.add_argument("--stall-steps", type=non_negative, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.depth > 16:
        parser.error(f"--depth {args.depth}: at most 16 (a depth-16 tree is 131,071 nodes)")
    if bool(args.stall_every) != bool(args.stall_steps):
        parser.error("--stall-every and --stall-steps go together")
    if args.dummy_keeps_deque and args.sched != "dfd":
        parser.error("--dummy-keeps-deque is a dfd rule: it needs --sched dfd")
    block, quota = args.block_kib, args.quota_kib
    s1, _ = simulate(args.depth, 1, block, quota)
    peak, steps = simulate(args.depth, args.workers, block, quota, args.stall_every,
                           args.stall_steps, args.seed, args.sched, args.dummy_keeps_deque)
    fork_depth = 1 + args.depth + dummy_depth(block, quota)
    bound = s1 + 4 * args.workers * fork_depth * quota
    result = {"sched": args.sched, "dummy_keeps_deque": args.dummy_keeps_deque,
              "depth": args.depth, "workers": args.workers, "block_kib": block,
              "quota_kib": quota, "stall_every": args.stall_every,
              "stall_steps": args.stall_steps, "seed": args.seed, "s1_kib": s1,
              "peak_kib": peak, "fork_depth": fork_depth, "bound_kib": bound, "steps": steps}
    if args.json:
        print(json.dumps(result))
    else:
        stalls = (f"a worker stalls {args.stall_steps} steps with probability 1/"
                  f"{args.stall_every} a step" if args.stall_every else "no stalls")
        rule = " (a dummy's end keeps the deque)" if args.dummy_keeps_deque else ""
        print(f"{args.sched}{rule}, depth {args.depth}, {args.workers} workers, {block} KiB blocks, K = {quota} KiB, "
              f"{stalls}:\n  S1 {s1} KiB ({s1 // block} blocks), peak {peak} KiB "
              f"({peak / block:g} blocks), S1 + 4*p*D*K = {bound} KiB (D = {fork_depth}); "
              f"{steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

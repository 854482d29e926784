//! UTS, the Unbalanced Tree Search benchmark, bit for bit as weft's C++ library in
//! workloads/uts/ (sha1_stream.*, tree.*, presets.*, counts.hpp), which follows the UTS 2.1
//! reference (uts.c, rng/brg_sha1.c):
//!   root state   = SHA-1(16 zero bytes || seed as 4 big-endian bytes)
//!   child state  = SHA-1(parent state || child index as 4 big-endian bytes)
//!   random value = state bytes 16..19 read big-endian, top bit cleared (31 bits)
//!   probability  = random value / 2^31
//! SHA-1 is OpenSSL's libcrypto through SHA1_Init/Update/Final (openssl::sha::Sha1), the
//! same calls as the C++ side. The floating-point expressions keep the C++ operand order;
//! rustc never contracts a*b+c into an FMA, as the C++ side's -ffp-contract=off, and ln,
//! powf and sin are glibc's log, pow and sin there and here.

use openssl::sha::Sha1;

use crate::par::Par;

pub const DEFAULT: &str = "T3";

const STATE_BYTES: usize = 20;
const MAX_CHILDREN: i32 = 100; // the reference's MAXNUMCHILDREN

pub type State = [u8; STATE_BYTES];

#[inline]
fn sha1(message: &[u8]) -> State {
    let mut hasher = Sha1::new();
    hasher.update(message);
    hasher.finish()
}

pub fn root_state(seed: i32) -> State {
    let mut message = [0u8; STATE_BYTES]; // 16 zero bytes, then the seed
    message[16..].copy_from_slice(&seed.to_be_bytes());
    sha1(&message)
}

#[inline]
pub fn child_state(parent: &State, index: i32) -> State {
    // One contiguous 24-byte message, one update, as the C++ side.
    let mut message = [0u8; STATE_BYTES + 4];
    message[..STATE_BYTES].copy_from_slice(parent);
    message[STATE_BYTES..].copy_from_slice(&index.to_be_bytes());
    sha1(&message)
}

#[inline]
fn rand31(s: &State) -> i32 {
    (u32::from_be_bytes([s[16], s[17], s[18], s[19]]) & 0x7fff_ffff) as i32
}

#[inline]
fn to_prob(n: i32) -> f64 {
    if n < 0 {
        0.0
    } else {
        n as f64 / 2147483648.0
    }
}

// Every tree type and shape of the reference is here, though no preset uses Balanced or
// ExpDec: the tests check them against trees the C++ side counted.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeType {
    Binomial,
    Geometric,
    Hybrid,
    Balanced,
}

#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeoShape {
    Linear,
    ExpDec,
    Cyclic,
    Fixed,
}

#[derive(Clone, Copy, Debug)]
pub struct TreeParams {
    pub tree_type: TreeType,
    pub b0: f64,
    pub seed: i32,
    pub m: i32,
    pub q: f64,
    pub gen_mx: i32,
    pub shape: GeoShape,
    pub shift_depth: f64,
    pub granularity: i32,
}

// The reference's defaults, as TreeParams in tree.hpp.
const DEFAULTS: TreeParams = TreeParams {
    tree_type: TreeType::Geometric,
    b0: 4.0,
    seed: 0,
    m: 4,
    q: 15.0 / 64.0,
    gen_mx: 6,
    shape: GeoShape::Linear,
    shift_depth: 0.5,
    granularity: 1,
};

const fn geometric(shape: GeoShape, gen_mx: i32, b0: f64, seed: i32) -> TreeParams {
    TreeParams {
        tree_type: TreeType::Geometric,
        shape,
        gen_mx,
        b0,
        seed,
        ..DEFAULTS
    }
}

const fn binomial(b0: f64, q: f64, m: i32, seed: i32) -> TreeParams {
    TreeParams {
        tree_type: TreeType::Binomial,
        b0,
        q,
        m,
        seed,
        ..DEFAULTS
    }
}

const fn hybrid(shape: GeoShape, gen_mx: i32, b0: f64, q: f64, m: i32, seed: i32) -> TreeParams {
    TreeParams {
        tree_type: TreeType::Hybrid,
        shape,
        gen_mx,
        b0,
        q,
        m,
        seed,
        ..DEFAULTS
    }
}

pub struct Preset {
    pub name: &'static str,
    pub params: TreeParams,
    pub nodes: u64,
    pub leaves: Option<u64>,
    pub max_depth: Option<i32>,
}

/// workloads/uts/presets.cpp: the UTS 2.1 sample trees and Adnan & Sato's A (= T3) and B.
#[rustfmt::skip]
pub const PRESETS: [Preset; 10] = [
    Preset { name: "T1", params: geometric(GeoShape::Fixed, 10, 4.0, 19),
             nodes: 4130071, leaves: Some(3305118), max_depth: Some(10) },
    Preset { name: "T2", params: geometric(GeoShape::Cyclic, 16, 6.0, 502),
             nodes: 4117769, leaves: Some(2342762), max_depth: Some(81) },
    Preset { name: "T3", params: binomial(2000.0, 0.124875, 8, 42),
             nodes: 4112897, leaves: Some(3599034), max_depth: Some(1572) },
    Preset { name: "T4", params: hybrid(GeoShape::Linear, 16, 6.0, 0.234375, 4, 1),
             nodes: 4132453, leaves: Some(3108986), max_depth: Some(134) },
    Preset { name: "T5", params: geometric(GeoShape::Linear, 20, 4.0, 34),
             nodes: 4147582, leaves: Some(2181318), max_depth: Some(20) },
    Preset { name: "T1L", params: geometric(GeoShape::Fixed, 13, 4.0, 29),
             nodes: 102181082, leaves: Some(81746377), max_depth: Some(13) },
    Preset { name: "T2L", params: geometric(GeoShape::Cyclic, 23, 7.0, 220),
             nodes: 96793510, leaves: Some(53791152), max_depth: Some(67) },
    Preset { name: "T3L", params: binomial(2000.0, 0.200014, 5, 7),
             nodes: 111345631, leaves: Some(89076904), max_depth: Some(17844) },
    Preset { name: "A", params: binomial(2000.0, 0.124875, 8, 42),
             nodes: 4112897, leaves: Some(3599034), max_depth: Some(1572) },
    // B's leaves and depth are not published (the C++ side measured 20,266,744 and 6,974).
    Preset { name: "B", params: binomial(2000.0, 0.333332, 3, 8),
             nodes: 30399117, leaves: None, max_depth: None },
];

/// The preset called `name`, case-insensitively ("t3", "T3").
pub fn find_preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

pub fn preset_names() -> String {
    PRESETS
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Clone, Copy)]
pub struct Node {
    pub state: State,
    pub height: i32,
}

pub struct Tree {
    p: TreeParams,
    expdec_exponent: f64, // -log(b0) / log(gen_mx)
}

/// floor(...) as a child count; NaN and values outside [0, 2^31) give 0 (a leaf), as the
/// C++ side spells out the reference's x86-64 behaviour.
#[inline]
fn children_from_floor(floored: f64) -> i32 {
    if !(0.0..2147483648.0).contains(&floored) {
        return 0;
    }
    floored as i32
}

impl Tree {
    /// The presets' parameters are all valid (workloads/uts/tree.cpp validate()).
    pub fn new(p: TreeParams) -> Tree {
        let expdec_exponent = -p.b0.ln() / (p.gen_mx as f64).ln();
        Tree { p, expdec_exponent }
    }

    pub fn root(&self) -> Node {
        Node {
            state: root_state(self.p.seed),
            height: 0,
        }
    }

    #[inline]
    pub fn child(&self, parent: &Node, index: i32) -> Node {
        let mut c = Node {
            state: child_state(&parent.state, index),
            height: parent.height + 1,
        };
        for _ in 1..self.p.granularity {
            c.state = child_state(&parent.state, index);
        }
        c
    }

    #[inline]
    fn binomial_children(&self, node: &Node) -> i32 {
        if to_prob(rand31(&node.state)) < self.p.q {
            self.p.m
        } else {
            0
        }
    }

    /// b_d at depth d > 0, each expression in the C++ (and reference) operand order.
    fn geometric_mean(&self, depth: i32) -> f64 {
        let b0 = self.p.b0;
        let d = depth as f64;
        let gen_mx = self.p.gen_mx as f64;
        match self.p.shape {
            GeoShape::ExpDec => b0 * d.powf(self.expdec_exponent),
            GeoShape::Cyclic => {
                if depth > 5 * self.p.gen_mx {
                    return 0.0;
                }
                // PI is the reference's literal 3.141592653589793, the same double.
                b0.powf((2.0 * std::f64::consts::PI * d / gen_mx).sin())
            }
            GeoShape::Fixed => {
                if depth < self.p.gen_mx {
                    b0
                } else {
                    0.0
                }
            }
            GeoShape::Linear => b0 * (1.0 - d / gen_mx),
        }
    }

    #[inline]
    fn geometric_children(&self, node: &Node) -> i32 {
        let b = if node.height > 0 {
            self.geometric_mean(node.height)
        } else {
            self.p.b0
        };
        // Inverse CDF of a geometric distribution with mean b = (1 - p) / p.
        let p = 1.0 / (1.0 + b);
        let u = to_prob(rand31(&node.state));
        children_from_floor(((1.0 - u).ln() / (1.0 - p).ln()).floor())
    }

    /// The number of children of `node`, >= 0 (uts_numChildren).
    #[inline]
    pub fn num_children(&self, node: &Node) -> i32 {
        let p = &self.p;
        let n = match p.tree_type {
            TreeType::Binomial => {
                if node.height == 0 {
                    // The root's fixed fan-out, capped at ceil(b0) as the reference does.
                    let n = p.b0.floor() as i32;
                    let root_cap = p.b0.ceil() as i32;
                    return n.min(root_cap);
                }
                self.binomial_children(node)
            }
            TreeType::Geometric => self.geometric_children(node),
            TreeType::Hybrid => {
                // No root special case: a hybrid root is geometric unless shift_depth is 0.
                if (node.height as f64) < p.shift_depth * p.gen_mx as f64 {
                    self.geometric_children(node)
                } else {
                    self.binomial_children(node)
                }
            }
            TreeType::Balanced => {
                return if node.height < p.gen_mx {
                    p.b0 as i32
                } else {
                    0
                }; // never capped
            }
        };
        n.min(MAX_CHILDREN)
    }
}

/// What a traversal reports (counts.hpp); the root is at depth 0.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Counts {
    pub nodes: u64,
    pub leaves: u64,
    pub max_depth: i32,
}

impl Counts {
    #[inline]
    fn combine(a: Counts, b: Counts) -> Counts {
        Counts {
            nodes: a.nodes + b.nodes,
            leaves: a.leaves + b.leaves,
            max_depth: a.max_depth.max(b.max_depth),
        }
    }
}

/// One node and its subtree: the node counts itself, then its children are traversed by
/// par.map_reduce (Rayon: a parallel iterator; chili: the index range halved by join), each
/// child hashing its own state in its own task (as the C++ side's child tasks do), and
/// their counts are reduced.
fn visit<P: Par>(par: &mut P, tree: &Tree, node: &Node) -> Counts {
    let n = tree.num_children(node);
    let own = Counts {
        nodes: 1,
        leaves: (n == 0) as u64,
        max_depth: node.height,
    };
    if n == 0 {
        return own;
    }
    let children = par.map_reduce(
        0..n,
        move |p, i| visit(p, tree, &tree.child(node, i)),
        Counts::default,
        Counts::combine,
    );
    Counts::combine(own, children)
}

/// Traverses the whole tree; call inside the pool (its workers have deep stacks).
pub fn traverse<P: Par>(par: &mut P, tree: &Tree) -> Counts {
    visit(par, tree, &tree.root())
}

pub fn result(c: &Counts) -> String {
    format!(
        "nodes={} leaves={} depth={}",
        c.nodes, c.leaves, c.max_depth
    )
}

pub fn verify(preset: &Preset, c: &Counts) -> Option<String> {
    let mut wrong = Vec::new();
    if c.nodes != preset.nodes {
        wrong.push(format!("nodes {} (expected {})", c.nodes, preset.nodes));
    }
    if let Some(l) = preset.leaves.filter(|&l| l != c.leaves) {
        wrong.push(format!("leaves {} (expected {l})", c.leaves));
    }
    if let Some(d) = preset.max_depth.filter(|&d| d != c.max_depth) {
        wrong.push(format!("depth {} (expected {d})", c.max_depth));
    }
    (!wrong.is_empty()).then(|| format!("UTS {}: {}", preset.name, wrong.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::{on_chili, Rayon, Serial};

    /// A sequential depth-first count with an explicit stack, the reference the parallel
    /// traversal must agree with (workloads/uts/uts_seq.cpp).
    fn sequential(tree: &Tree) -> Counts {
        let mut c = Counts::default();
        let mut stack = vec![tree.root()];
        while let Some(node) = stack.pop() {
            let n = tree.num_children(&node);
            c = Counts::combine(
                c,
                Counts {
                    nodes: 1,
                    leaves: (n == 0) as u64,
                    max_depth: node.height,
                },
            );
            for i in 0..n {
                stack.push(tree.child(&node, i));
            }
        }
        c
    }

    fn counts(nodes: u64, leaves: u64, max_depth: i32) -> Counts {
        Counts {
            nodes,
            leaves,
            max_depth,
        }
    }

    /// Trees beyond the presets (every type and shape), with the counts that weft's C++
    /// library gives for them (`weft-bench uts <flags> --impl seq`).
    #[test]
    fn custom_trees_match_the_cpp_side() {
        let g = |shape, gen_mx, b0, seed| geometric(shape, gen_mx, b0, seed);
        #[rustfmt::skip]
        let cases = [
            ("-t 1 -a 1 -d 6 -b 4 -r 0", g(GeoShape::ExpDec, 6, 4.0, 0), counts(4509, 2319, 17)),
            ("-t 1 -a 1 -d 10 -b 3 -r 7", g(GeoShape::ExpDec, 10, 3.0, 7), counts(11360, 5746, 28)),
            ("-t 3 -b 4 -d 6 -r 0", TreeParams { tree_type: TreeType::Balanced, ..g(GeoShape::Linear, 6, 4.0, 0) },
             counts(5461, 4096, 6)),
            ("-t 2 -a 1 -d 8 -b 4 -q 0.2 -m 4 -r 0", hybrid(GeoShape::ExpDec, 8, 4.0, 0.2, 4, 0),
             counts(2068, 1533, 18)),
            ("-t 2 -a 2 -d 10 -b 3 -q 0.2 -m 4 -r 0 -f 0.3",
             TreeParams { shift_depth: 0.3, ..hybrid(GeoShape::Cyclic, 10, 3.0, 0.2, 4, 0) },
             counts(451, 341, 15)),
            ("-t 1 -a 0 -d 12 -b 3.5 -r 11 -g 2",
             TreeParams { granularity: 2, ..g(GeoShape::Linear, 12, 3.5, 11) }, counts(7447, 4049, 12)),
        ];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for (flags, params, expected) in cases {
            let tree = Tree::new(params);
            assert_eq!(sequential(&tree), expected, "{flags} sequentially");
            assert_eq!(
                pool.install(|| traverse(&mut Rayon, &tree)),
                expected,
                "{flags} on Rayon"
            );
            assert_eq!(
                on_chili(|s| traverse(s, &tree)),
                expected,
                "{flags} on chili"
            );
            assert_eq!(
                traverse(&mut Serial, &tree),
                expected,
                "{flags} by the serial elision"
            );
        }
    }

    #[test]
    fn small_presets_match_published_counts_sequentially() {
        for name in ["T1", "T2", "T3", "T4", "T5"] {
            let preset = find_preset(name).unwrap();
            let c = sequential(&Tree::new(preset.params));
            assert_eq!(verify(preset, &c), None, "{name}");
        }
    }
}

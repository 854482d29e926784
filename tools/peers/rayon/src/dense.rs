//! The dense-matrix pieces strassen and matmul share, as workloads/kernels/dense_kernel.hpp:
//! square row-major matrices of doubles and views of their blocks, per-call temporaries,
//! the serial base-case kernel (i-k-j with k unrolled by four), the row-band parallel loop
//! of the O(n^2) additions, the sampled check of a product, and the result's summary.
//!
//! Where Rust differs:
//! - A block is a raw pointer, stride and order (`Block`, `ConstBlock`), as the C++ side's
//!   BasicBlock: the recursions hand quadrants of one matrix to sibling tasks, and quadrants
//!   interleave row by row, which slices cannot express. Soundness rests on the recursions'
//!   discipline, the C++ side's too: a task writes only its own output block, and no block
//!   is read while a task may be writing it (see each `unsafe`).
//! - Temporaries are uninitialised, as make_unique_for_overwrite: `Buffer` holds
//!   `MaybeUninit<f64>`, and the two writers of fresh memory (the kernel's zeroing of C and
//!   Strassen's operand sums) write it before anything reads it.
//! - check_product's reference dot product is in double-double (an f64 pair, about 106
//!   significant bits) instead of x87 long double (64): Rust has no long double, and the
//!   reference only has to be more precise than the tolerance needs, which both are by
//!   far. The product terms are exact (mul_add gives each product's rounding error).
//! - The kernel's inner loop is the same expression in the same operand order, so the
//!   product rounds identically: rustc, like the C++ build (no -march), emits no FMA.

use std::mem::MaybeUninit;

use crate::cfmt;
use crate::par::{seed_mix, Par};

/// The orders parse accepts: at least one 16x16 block, at most 3 x 512 MiB of matrices.
pub const MIN_ORDER: i64 = 16;
pub const MAX_ORDER: i64 = 8192;
/// Additions split into row bands of at least this many elements (256 KiB of one operand).
pub const BAND_ELEMENTS: usize = 1 << 15;
/// The inputs' seeds, shared by both workloads so that one order multiplies the same A, B.
pub const SEED_A: u64 = 0xA11CE;
pub const SEED_B: u64 = 0xB0B;
/// Orders at or below this are multiplied by the kernel (both recursions measured best at
/// 64 on the C++ side; strassen.hpp and matmul.hpp have the numbers).
pub const BASE_ORDER: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub n: usize,
    /// A power of two >= 16. Not set by parse: tests lower it for deep trees at small sizes.
    pub base: usize,
}

impl Params {
    pub fn new(n: usize) -> Self {
        Params {
            n,
            base: BASE_ORDER,
        }
    }
}

/// A writable square block of a row-major matrix: `order` rows of `order` elements, row i
/// at data + i * stride.
#[derive(Clone, Copy)]
pub struct Block {
    data: *mut f64,
    stride: usize,
    pub order: usize,
}

/// A read-only block.
#[derive(Clone, Copy)]
pub struct ConstBlock {
    data: *const f64,
    stride: usize,
    pub order: usize,
}

// SAFETY: blocks are plain views; which task may touch which block is the recursions'
// contract (module comment), exactly as for the C++ side's BasicBlock.
unsafe impl Send for Block {}
unsafe impl Sync for Block {}
unsafe impl Send for ConstBlock {}
unsafe impl Sync for ConstBlock {}

impl Block {
    /// Quadrant (r, c), r and c in {0, 1}, of an even-order block.
    pub fn quadrant(self, r: usize, c: usize) -> Block {
        let half = self.order / 2;
        Block {
            data: self.data.wrapping_add(r * half * self.stride + c * half),
            stride: self.stride,
            order: half,
        }
    }
    pub fn as_const(self) -> ConstBlock {
        ConstBlock {
            data: self.data,
            stride: self.stride,
            order: self.order,
        }
    }
    fn row_ptr(self, i: usize) -> *mut f64 {
        self.data.wrapping_add(i * self.stride)
    }
    /// Row i.
    ///
    /// # Safety
    /// The row is initialised, and nothing else reads or writes it while the slice lives.
    pub unsafe fn row_mut<'a>(self, i: usize) -> &'a mut [f64] {
        std::slice::from_raw_parts_mut(self.row_ptr(i), self.order)
    }
    /// Row i, possibly uninitialised, for writing.
    ///
    /// # Safety
    /// Nothing else reads or writes the row while the slice lives.
    pub unsafe fn row_uninit<'a>(self, i: usize) -> &'a mut [MaybeUninit<f64>] {
        std::slice::from_raw_parts_mut(self.row_ptr(i).cast(), self.order)
    }
}

impl ConstBlock {
    pub fn quadrant(self, r: usize, c: usize) -> ConstBlock {
        let half = self.order / 2;
        ConstBlock {
            data: self.data.wrapping_add(r * half * self.stride + c * half),
            stride: self.stride,
            order: half,
        }
    }
    /// Row i.
    ///
    /// # Safety
    /// The row is initialised, and no one writes it while the slice lives.
    pub unsafe fn row<'a>(self, i: usize) -> &'a [f64] {
        std::slice::from_raw_parts(self.data.wrapping_add(i * self.stride), self.order)
    }
}

/// A per-call temporary, uninitialised, freed when it goes out of scope (the C++ side's
/// Buffer = unique_ptr<double[]> from make_unique_for_overwrite).
pub struct Buffer(Box<[MaybeUninit<f64>]>);

impl Buffer {
    pub fn new(elements: usize) -> Self {
        Buffer(Box::new_uninit_slice(elements))
    }
    /// The contiguous block of order n at element `offset`.
    pub fn block(&mut self, offset: usize, n: usize) -> Block {
        assert!(offset + n * n <= self.0.len(), "block outside its buffer");
        Block {
            data: self.0[offset..].as_mut_ptr().cast(),
            stride: n,
            order: n,
        }
    }
}

/// An n x n row-major matrix that owns its elements.
pub struct Matrix {
    n: usize,
    values: Vec<f64>,
}

impl Matrix {
    pub fn filled(n: usize, fill: f64) -> Self {
        Matrix {
            n,
            values: vec![fill; n * n],
        }
    }

    /// Elements uniform in [-1, 1), element i = unit_interval(mix(mix(seed) + i)): the C++
    /// Matrix::random, so both sides multiply the same A and B.
    pub fn random(n: usize, seed: u64) -> Self {
        let start = seed_mix(seed);
        let values = (0..(n * n) as u64)
            .map(|i| unit_interval(seed_mix(start.wrapping_add(i))))
            .collect();
        Matrix { n, values }
    }

    pub fn order(&self) -> usize {
        self.n
    }
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.n + j]
    }
    pub fn block(&self) -> ConstBlock {
        ConstBlock {
            data: self.values.as_ptr(),
            stride: self.n,
            order: self.n,
        }
    }
    pub fn block_mut(&mut self) -> Block {
        Block {
            data: self.values.as_mut_ptr(),
            stride: self.n,
            order: self.n,
        }
    }
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    #[cfg(test)]
    pub fn values_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }
}

/// 53 bits -> [0, 2) -> [-1, 1).
fn unit_interval(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0
}

/// c[j] += a0*b0[j] + a1*b1[j] + a2*b2[j] + a3*b3[j]: the kernel's inner loop, in the C++
/// operand order. Slices of one length let LLVM drop the bounds checks and vectorise.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn multiply_add_row(
    c: &mut [f64],
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    b0: &[f64],
    b1: &[f64],
    b2: &[f64],
    b3: &[f64],
) {
    let n = c.len();
    let (b0, b1, b2, b3) = (&b0[..n], &b1[..n], &b2[..n], &b3[..n]);
    for j in 0..n {
        c[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
    }
}

/// C = A*B for three blocks of one order, a multiple of 4; C must not overlap A or B. Not
/// inlined, as the C++ kernel: one copy of the code serves every caller.
#[inline(never)]
pub fn multiply_block(a: ConstBlock, b: ConstBlock, c: Block) {
    let n = c.order;
    assert!(a.order == n && b.order == n && n.is_multiple_of(4));
    for i in 0..n {
        // SAFETY: C is this call's output, written by no one else and not read meanwhile;
        // zeroing the row initialises it (0.0 is all zero bits). A and B are not written
        // while a product runs.
        let (ci, ai) = unsafe {
            std::ptr::write_bytes(c.row_ptr(i), 0, n);
            (c.row_mut(i), a.row(i))
        };
        for k in (0..n).step_by(4) {
            // SAFETY: as above.
            let (b0, b1, b2, b3) = unsafe { (b.row(k), b.row(k + 1), b.row(k + 2), b.row(k + 3)) };
            multiply_add_row(ci, ai[k], ai[k + 1], ai[k + 2], ai[k + 3], b0, b1, b2, b3);
        }
    }
}

/// Calls f(begin, end) on disjoint bands of rows covering [first, last), halving by
/// par.join while a band holds more than BAND_ELEMENTS elements (dense::for_row_bands).
pub fn for_row_bands<P: Par, F>(
    par: &mut P,
    first: usize,
    last: usize,
    elements_per_row: usize,
    f: &F,
) where
    F: Fn(usize, usize) + Sync,
{
    if last - first < 2 || (last - first) * elements_per_row <= BAND_ELEMENTS {
        f(first, last);
        return;
    }
    let middle = first + (last - first) / 2;
    par.join(
        |p| for_row_bands(p, first, middle, elements_per_row, f),
        |p| for_row_bands(p, middle, last, elements_per_row, f),
    );
}

/// The order in `size` ("1024", "2^11"): a power of two in [16, 8192].
pub fn parse_order(size: &str) -> Result<usize, String> {
    let n = crate::parse_count(size, MIN_ORDER, MAX_ORDER)? as usize;
    if !n.is_power_of_two() {
        return Err(format!(
            "'{size}' is not a power of two (the recursion halves the order down to its base)"
        ));
    }
    Ok(n)
}

/// A sum kept as an unevaluated pair hi + lo (double-double), for check_product's reference.
#[derive(Clone, Copy, Default)]
struct DoubleDouble {
    hi: f64,
    lo: f64,
}

impl DoubleDouble {
    /// self + (p + pe), renormalised.
    fn add(self, p: f64, pe: f64) -> Self {
        let s = self.hi + p;
        let v = s - self.hi;
        let e = (self.hi - (s - v)) + (p - v) + (self.lo + pe);
        let hi = s + e;
        DoubleDouble {
            hi,
            lo: e - (hi - s),
        }
    }
}

/// Checks C = A*B as dense::check_product: every entry finite (C starts as NaN, so this
/// also catches any block no task wrote), then the four corners and 256 pseudo-random
/// entries against |C[i][j] - dot| <= tolerance * sum_k |A[i][k]*B[k][j]|, the dot product
/// taken directly. None, or the first failure.
pub fn check_product(a: &Matrix, b: &Matrix, c: &Matrix, tolerance: f64) -> Option<String> {
    let n = c.order();
    for (index, &value) in c.values().iter().enumerate() {
        if !value.is_finite() {
            return Some(format!(
                "C[{}][{}] = {}: not finite",
                index / n,
                index % n,
                cfmt::g(value, 6)
            ));
        }
    }
    let check_entry = |i: usize, j: usize| -> Option<String> {
        let (mut dot, mut magnitude) = (DoubleDouble::default(), DoubleDouble::default());
        for k in 0..n {
            let (x, y) = (a.at(i, k), b.at(k, j));
            let p = x * y;
            let pe = x.mul_add(y, -p); // the exact product is p + pe
            dot = dot.add(p, pe);
            magnitude = if p < 0.0 {
                magnitude.add(-p, -pe)
            } else {
                magnitude.add(p, pe)
            };
        }
        let value = c.at(i, j);
        let error = ((value - dot.hi) - dot.lo).abs();
        let bound = tolerance * (magnitude.hi + magnitude.lo);
        if error <= bound {
            return None;
        }
        Some(format!(
            "C[{i}][{j}] = {}, expected {} (error {} > {})",
            cfmt::g(value, 17),
            cfmt::g(dot.hi + dot.lo, 17),
            cfmt::e(error, 3),
            cfmt::e(bound, 3)
        ))
    };
    for (i, j) in [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)] {
        if let Some(failure) = check_entry(i, j) {
            return Some(failure);
        }
    }
    const SAMPLE_SEED: u64 = 0x5a3b_1e5c_a11a_b1e5;
    for s in 0..256u64 {
        let bits = seed_mix(SAMPLE_SEED.wrapping_add(s));
        let failure = check_entry(
            ((bits & 0xffff_ffff) % n as u64) as usize,
            ((bits >> 32) % n as u64) as usize,
        );
        if failure.is_some() {
            return failure;
        }
    }
    None
}

/// "C[0][0]=... trace=...": a short account of the product (dense::summary).
pub fn summary(c: &Matrix) -> String {
    let mut trace = 0.0;
    for i in 0..c.order() {
        trace += c.at(i, i);
    }
    format!(
        "C[0][0]={} trace={}",
        cfmt::e(c.at(0, 0), 6),
        cfmt::e(trace, 6)
    )
}

/// What strassen and matmul share (dense::SquareProduct): C = A*B of order n, A and B from
/// the fixed seeds, C started as NaN, the base order of the kernel.
pub struct SquareProduct {
    pub n: usize,
    pub base: usize,
    pub a: Matrix,
    pub b: Matrix,
    pub c: Matrix,
}

impl SquareProduct {
    pub fn new(params: Params) -> Self {
        let Params { n, base } = params;
        assert!(
            n.is_power_of_two() && (MIN_ORDER as usize..=MAX_ORDER as usize).contains(&n),
            "order {n} is not a power of two in [16, 8192]"
        );
        assert!(
            base.is_power_of_two() && base >= MIN_ORDER as usize,
            "base order {base} is not a power of two of at least 16"
        );
        SquareProduct {
            n,
            base,
            a: Matrix::random(n, SEED_A),
            b: Matrix::random(n, SEED_B),
            c: Matrix::filled(n, f64::NAN),
        }
    }

    /// The three blocks of the top-level call.
    pub fn blocks(&mut self) -> (ConstBlock, ConstBlock, Block) {
        (self.a.block(), self.b.block(), self.c.block_mut())
    }

    pub fn check(&self, tolerance: f64) -> Option<String> {
        check_product(&self.a, &self.b, &self.c, tolerance)
    }

    pub fn result(&self) -> String {
        summary(&self.c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain triple loop, for the kernel's test.
    fn naive(a: &Matrix, b: &Matrix) -> Matrix {
        let n = a.order();
        let mut c = Matrix::filled(n, 0.0);
        for i in 0..n {
            for j in 0..n {
                c.values_mut()[i * n + j] = (0..n).map(|k| a.at(i, k) * b.at(k, j)).sum();
            }
        }
        c
    }

    #[test]
    fn kernel_multiplies_and_check_catches_errors() {
        let mut p = SquareProduct::new(Params::new(32));
        let (a, b, c) = p.blocks();
        multiply_block(a, b, c);
        assert_eq!(p.check(32.0 * f64::EPSILON), None);
        let reference = naive(&p.a, &p.b);
        for (x, y) in p.c.values().iter().zip(reference.values()) {
            assert!((x - y).abs() < 1e-12);
        }
        p.c.values_mut()[0] += 1e-6; // a corner is always checked
        assert!(p.check(32.0 * f64::EPSILON).is_some());
        p.c.values_mut()[0] = f64::NAN;
        assert!(p.check(32.0 * f64::EPSILON).unwrap().contains("not finite"));
    }
}

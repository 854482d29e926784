//! sparselu: LU factorisation without pivoting of a block-sparse matrix of B x B blocks of
//! S x S floats ("50x100" by default), as workloads/kernels/sparselu.hpp/.cpp (after the
//! Barcelona OpenMP Tasks Suite). A block is stored only where the matrix is nonzero; the
//! factorisation allocates the fill-in it creates. For each step kk along the diagonal
//! (the loop itself is serial):
//!   lu0   factorise A[kk][kk] in place, on the calling thread;
//!   scope one task per nonzero A[kk][jj], jj > kk (fwd), then one per nonzero A[ii][kk],
//!         ii > kk (bdiv), in that order in one par.spawn_each;
//!   scope one task per (ii, jj) with A[ii][kk] and A[kk][jj] nonzero (bmod:
//!         A[ii][jj] -= A[ii][kk] * A[kk][jj]), allocating A[ii][jj] when it is zero.
//! A par.spawn_each is a rayon::scope spawning the tasks in order on Rayon, and on chili
//! the list of tasks halved by join.
//! The input (sparsity pattern, seeded values, a diagonal of 1 + the row's off-diagonal
//! absolute sum), the kernels and their operation order are the C++ side's, so the factors
//! and the result string's checksum are the same bit for bit.
//!
//! Rust's difference: the tasks get their blocks as disjoint `&mut` borrows (the block
//! array is split at row kk + 1, each row below at column kk + 1), where the C++ tasks get
//! raw pointers; no unsafe code is needed.
//!
//! Verified as the C++ side: every block equal bit for bit to the serial factorisation of
//! the same input (the same code run by the serial elision, cached per size and seed), then
//! L * (U * x) against A * x for a seeded vector x with tolerance 8 sqrt(n) 2^-24 of
//! (|L| (|U| |x|)) per row.

use std::sync::{Arc, Mutex};

use crate::cfmt;
use crate::par::{seed_mix, Par, Serial};

pub const DEFAULT: &str = "50x100";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub blocks: usize,     // B: blocks per side, 1..=200
    pub block_size: usize, // S: rows (and columns) per block, 1..=500
    pub seed: u64,
}

type Slot = Option<Box<[f32]>>;

pub struct SparseLu {
    params: Params,
    blocks: Vec<Slot>, // B x B, row-major; None for a zero block
    /// Each global row's sum of |off-diagonal elements|: its diagonal is 1 + that sum
    /// (strict diagonal dominance, so no pivoting is needed).
    row_abs_sums: Vec<f64>,
}

/// Uniform in [-1, 1): 24 random bits, exactly representable in a float.
fn off_diagonal_value(seed: u64, r: u64, c: u64) -> f32 {
    let bits = seed_mix(seed ^ seed_mix((r << 32) | c));
    ((bits >> 40) as f64 * (1.0 / (1u64 << 23) as f64) - 1.0) as f32
}

/// The product check's pseudo-random vector, in [-1, 1).
fn probe_element(seed: u64, c: u64) -> f64 {
    (seed_mix(seed_mix(seed) ^ c) >> 11) as f64 * (1.0 / (1u64 << 52) as f64) * 2.0 - 1.0
}

/// The sparsity rule (BOTS-style): the tridiagonal band of blocks is nonzero; off the band
/// only blocks with an even row and column can be, above the diagonal those in rows
/// 0, 6, 12, ..., below it those in columns 0, 6, 12, ...
fn initially_nonzero(ii: usize, jj: usize) -> bool {
    if ii.abs_diff(jj) <= 1 {
        return true;
    }
    if !ii.is_multiple_of(2) || !jj.is_multiple_of(2) {
        return false;
    }
    if ii < jj {
        ii.is_multiple_of(3)
    } else {
        jj.is_multiple_of(3)
    }
}

fn zero_block(s: usize) -> Box<[f32]> {
    vec![0.0; s * s].into_boxed_slice()
}

// The block kernels. Blocks are row-major: element (i, j) is b[i * s + j]. Each innermost
// loop runs along a row with unit stride and no reduction, in the C++ operand order.

/// diag = L * U in place (L unit lower triangular, U upper), no pivoting.
fn lu0(diag: &mut [f32], s: usize) {
    for k in 0..s {
        let (head, tail) = diag.split_at_mut((k + 1) * s);
        let pivot_row = &head[k * s..];
        for row in tail.chunks_exact_mut(s) {
            row[k] /= pivot_row[k];
            let l = row[k];
            for (x, &p) in row[k + 1..].iter_mut().zip(&pivot_row[k + 1..]) {
                *x -= l * p;
            }
        }
    }
}

/// row_block = L^-1 * row_block, L the unit lower triangle of the factorised diagonal.
fn fwd(diag: &[f32], row_block: &mut [f32], s: usize) {
    for k in 0..s {
        let (head, tail) = row_block.split_at_mut((k + 1) * s);
        let source = &head[k * s..];
        for (i, target) in (k + 1..).zip(tail.chunks_exact_mut(s)) {
            let l = diag[i * s + k];
            for (x, &y) in target.iter_mut().zip(source) {
                *x -= l * y;
            }
        }
    }
}

/// column_block = column_block * U^-1, U the upper triangle of the factorised diagonal.
fn bdiv(diag: &[f32], column_block: &mut [f32], s: usize) {
    for row in column_block.chunks_exact_mut(s) {
        for k in 0..s {
            let u_row = &diag[k * s..(k + 1) * s];
            row[k] /= u_row[k];
            let l = row[k];
            for (x, &u) in row[k + 1..].iter_mut().zip(&u_row[k + 1..]) {
                *x -= l * u;
            }
        }
    }
}

/// target -= left * upper, i-k-j: each target element gets its s products in increasing k.
fn bmod(left: &[f32], upper: &[f32], target: &mut [f32], s: usize) {
    for (target_row, left_row) in target.chunks_exact_mut(s).zip(left.chunks_exact(s)) {
        for (&l, upper_row) in left_row.iter().zip(upper.chunks_exact(s)) {
            for (x, &u) in target_row.iter_mut().zip(upper_row) {
                *x -= l * u;
            }
        }
    }
}

/// A task of a step's first scope: a block of row kk right of the diagonal, or of column
/// kk below it.
enum Solve<'b> {
    Fwd(&'b mut [f32]),
    Bdiv(&'b mut [f32]),
}

/// The fwd and bdiv tasks of step kk.
fn solve_row_and_column<P: Par>(par: &mut P, blocks: &mut [Slot], nb: usize, s: usize, kk: usize) {
    let (head, below) = blocks.split_at_mut((kk + 1) * nb);
    let (to_diag, right) = head[kk * nb..].split_at_mut(kk + 1);
    let diag: &[f32] = to_diag[kk]
        .as_deref()
        .expect("the diagonal blocks are nonzero");
    let row_blocks = right.iter_mut().filter_map(|slot| slot.as_deref_mut());
    let column_blocks = below
        .chunks_exact_mut(nb)
        .filter_map(|row| row[kk].as_deref_mut());
    let tasks = row_blocks
        .map(Solve::Fwd)
        .chain(column_blocks.map(Solve::Bdiv));
    par.spawn_each(tasks, |_, task| match task {
        Solve::Fwd(b) => fwd(diag, b, s),
        Solve::Bdiv(b) => bdiv(diag, b, s),
    });
}

/// The bmod tasks of step kk, row by row: (A[ii][kk], A[kk][jj], the slot of A[ii][jj]).
/// Only the task of (ii, jj) touches that slot during the step, so it allocates the fill-in
/// itself; the scope's join publishes it to the next step.
fn update_trailing<P: Par>(par: &mut P, blocks: &mut [Slot], nb: usize, s: usize, kk: usize) {
    let (head, below) = blocks.split_at_mut((kk + 1) * nb);
    let upper_row: &[Slot] = &head[kk * nb..];
    let tasks = below
        .chunks_exact_mut(nb)
        .filter_map(|row| {
            let (to_left, targets) = row.split_at_mut(kk + 1);
            Some((to_left[kk].as_deref()?, targets))
        })
        .flat_map(move |(left, targets)| {
            (kk + 1..)
                .zip(targets.iter_mut())
                .filter_map(move |(jj, target)| Some((left, upper_row[jj].as_deref()?, target)))
        });
    par.spawn_each(tasks, |_, (left, upper, target)| {
        let target = target.get_or_insert_with(|| zero_block(s));
        bmod(left, upper, target, s);
    });
}

/// A matrix-vector product and, beside it, the same product of the absolute values.
struct Product {
    value: Vec<f64>,
    magnitude: Vec<f64>,
}

/// The cached serial factorisation: one entry, as the C++ side (a sweep runs one size many
/// times in a row; keeping every size would keep hundreds of megabytes alive).
static SERIAL_REFERENCE: Mutex<Option<(Params, Arc<SparseLu>)>> = Mutex::new(None);

impl SparseLu {
    /// "BxS", 1 <= B <= 200, 1 <= S <= 500.
    pub fn parse(size: &str) -> Result<Params, String> {
        let Some(x) = size.find(['x', 'X']) else {
            return Err(format!(
                "'{size}' is not BxS (B blocks per side x S floats per block side, e.g. 50x100)"
            ));
        };
        let blocks =
            crate::parse_count(&size[..x], 1, 200).map_err(|e| format!("blocks per side: {e}"))?;
        let block_size =
            crate::parse_count(&size[x + 1..], 1, 500).map_err(|e| format!("block size: {e}"))?;
        Ok(Params {
            blocks: blocks as usize,
            block_size: block_size as usize,
            seed: 0x05ba_45e1,
        })
    }

    /// Builds the input (untimed).
    pub fn new(params: Params) -> Self {
        let (nb, s) = (params.blocks, params.block_size);
        assert!((1..=200).contains(&nb) && (1..=500).contains(&s));
        let mut blocks: Vec<Slot> = (0..nb * nb).map(|_| None).collect();
        let mut row_abs_sums = vec![0.0f64; nb * s];
        for ii in 0..nb {
            for jj in 0..nb {
                if !initially_nonzero(ii, jj) {
                    continue;
                }
                let mut b = zero_block(s);
                for i in 0..s {
                    let r = ii * s + i;
                    for j in 0..s {
                        let c = jj * s + j;
                        if r == c {
                            continue; // set below, once the row's sum is known
                        }
                        let v = off_diagonal_value(params.seed, r as u64, c as u64);
                        b[i * s + j] = v;
                        row_abs_sums[r] += v.abs() as f64;
                    }
                }
                blocks[ii * nb + jj] = Some(b);
            }
        }
        let mut lu = SparseLu {
            params,
            blocks,
            row_abs_sums,
        };
        for ii in 0..nb {
            for i in 0..s {
                let r = ii * s + i;
                let value = lu.input_element(r, r);
                lu.blocks[ii * nb + ii].as_mut().expect("diagonal")[i * s + i] = value;
            }
        }
        lu
    }

    pub fn compute<P: Par>(&mut self, par: &mut P) {
        let (nb, s) = (self.params.blocks, self.params.block_size);
        for kk in 0..nb {
            lu0(
                self.blocks[kk * nb + kk]
                    .as_deref_mut()
                    .expect("the diagonal blocks are nonzero"),
                s,
            );
            solve_row_and_column(par, &mut self.blocks, nb, s, kk);
            update_trailing(par, &mut self.blocks, nb, s, kk);
        }
    }

    fn block(&self, ii: usize, jj: usize) -> Option<&[f32]> {
        self.blocks[ii * self.params.blocks + jj].as_deref()
    }

    pub fn nonzero_blocks(&self) -> usize {
        self.blocks.iter().filter(|b| b.is_some()).count()
    }

    /// The input's element (r, c) in global coordinates, regenerated from the seed.
    fn input_element(&self, r: usize, c: usize) -> f32 {
        let s = self.params.block_size;
        if !initially_nonzero(r / s, c / s) {
            return 0.0;
        }
        if r == c {
            return (1.0 + self.row_abs_sums[r]) as f32;
        }
        off_diagonal_value(self.params.seed, r as u64, c as u64)
    }

    /// The same input factorised by the serial elision, computed once per (B, S, seed).
    fn serial_reference(params: Params) -> Arc<SparseLu> {
        // The lock is held while computing, so concurrent verifiers compute it once.
        let mut cached = SERIAL_REFERENCE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((p, reference)) = cached.as_ref() {
            if *p == params {
                return Arc::clone(reference);
            }
        }
        *cached = None; // free the old one before building the new
        let mut reference = SparseLu::new(params);
        reference.compute(&mut Serial);
        let reference = Arc::new(reference);
        *cached = Some((params, Arc::clone(&reference)));
        reference
    }

    /// Every block must equal the serial factorisation's bit for bit: each block receives
    /// its updates in the same order whatever the schedule, and nothing is reduced across
    /// tasks, so any difference means a task ran too early, too late or twice. Then the
    /// product check, which also catches a kernel bug both runs share.
    pub fn verify(&self) -> Option<String> {
        let reference = Self::serial_reference(self.params);
        let (nb, s) = (self.params.blocks, self.params.block_size);
        for ii in 0..nb {
            for jj in 0..nb {
                match (self.block(ii, jj), reference.block(ii, jj)) {
                    (None, None) => {}
                    (got, want) if got.is_some() != want.is_some() => {
                        let state =
                            |b: Option<&[f32]>| if b.is_some() { "nonzero" } else { "null" };
                        return Some(format!(
                            "block ({ii},{jj}) is {}, the serial factorisation's is {}",
                            state(got),
                            state(want)
                        ));
                    }
                    (Some(got), Some(want)) => {
                        if let Some(e) = (0..s * s).find(|&e| got[e].to_bits() != want[e].to_bits())
                        {
                            return Some(format!(
                                "block ({ii},{jj}) element ({},{}) is {}, the serial factorisation's {}",
                                e / s,
                                e % s,
                                cfmt::g(got[e] as f64, 9),
                                cfmt::g(want[e] as f64, 9)
                            ));
                        }
                    }
                    _ => unreachable!(),
                }
            }
        }
        self.check_product()
    }

    /// L * (U * x) == A * x for a pseudo-random x (Freivalds' check), in double; each row's
    /// error against (|L| (|U| |x|))[r] with tolerance 8 sqrt(n) 2^-24 (sparselu.cpp gives
    /// the measurements behind it). `!(error <= bound)` fails a NaN too.
    #[allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]
    fn check_product(&self) -> Option<String> {
        let n = self.params.blocks * self.params.block_size;
        let x: Vec<f64> = (0..n as u64)
            .map(|c| probe_element(self.params.seed, c))
            .collect();
        let lux = self.times_lower(&self.times_upper(&x));
        let ax = self.input_times(&x);
        let relative_tolerance = 8.0 * (n as f64).sqrt() * (1.0 / (1u64 << 24) as f64);
        for r in 0..n {
            if !((lux.value[r] - ax[r]).abs() <= relative_tolerance * lux.magnitude[r]) {
                return Some(format!(
                    "(L*U*x)[{r}] = {} but (A*x)[{r}] = {}: L*U is not the input",
                    cfmt::g(lux.value[r], 9),
                    cfmt::g(ax[r], 9)
                ));
            }
        }
        None
    }

    /// U * x, U being the blocks on and right of the diagonal, a diagonal block from its
    /// diagonal on.
    fn times_upper(&self, x: &[f64]) -> Product {
        let (nb, s) = (self.params.blocks, self.params.block_size);
        let mut y = Product {
            value: vec![0.0; x.len()],
            magnitude: vec![0.0; x.len()],
        };
        for kb in 0..nb {
            for jb in kb..nb {
                let Some(u) = self.block(kb, jb) else {
                    continue;
                };
                for i in 0..s {
                    for j in (if jb == kb { i } else { 0 })..s {
                        let term = u[i * s + j] as f64 * x[jb * s + j];
                        y.value[kb * s + i] += term;
                        y.magnitude[kb * s + i] += term.abs();
                    }
                }
            }
        }
        y
    }

    /// L * y, L unit lower triangular: its diagonal is an implicit 1 (the stored diagonal
    /// belongs to U).
    fn times_lower(&self, y: &Product) -> Product {
        let (nb, s) = (self.params.blocks, self.params.block_size);
        let mut z = Product {
            value: y.value.clone(),
            magnitude: y.magnitude.clone(),
        };
        for rb in 0..nb {
            for kb in 0..=rb {
                let Some(l) = self.block(rb, kb) else {
                    continue;
                };
                for i in 0..s {
                    for j in 0..(if kb == rb { i } else { s }) {
                        let l_ij = l[i * s + j] as f64;
                        z.value[rb * s + i] += l_ij * y.value[kb * s + j];
                        z.magnitude[rb * s + i] += l_ij.abs() * y.magnitude[kb * s + j];
                    }
                }
            }
        }
        z
    }

    /// A * x, the input regenerated element by element.
    fn input_times(&self, x: &[f64]) -> Vec<f64> {
        let (nb, s) = (self.params.blocks, self.params.block_size);
        let mut ax = vec![0.0; x.len()];
        for rb in 0..nb {
            for cb in 0..nb {
                if !initially_nonzero(rb, cb) {
                    continue;
                }
                for i in 0..s {
                    let r = rb * s + i;
                    for j in 0..s {
                        let c = cb * s + j;
                        ax[r] += self.input_element(r, c) as f64 * x[c];
                    }
                }
            }
        }
        ax
    }

    pub fn result(&self) -> String {
        let mut checksum = 0.0f64;
        for b in self.blocks.iter().flatten() {
            for &e in b.iter() {
                checksum += e as f64;
            }
        }
        let nb = self.params.blocks;
        format!(
            "blocks {} of {}, checksum {}",
            self.nonzero_blocks(),
            nb * nb,
            cfmt::e(checksum, 6)
        )
    }

    #[cfg(test)]
    fn block_mut(&mut self, ii: usize, jj: usize) -> &mut [f32] {
        self.blocks[ii * self.params.blocks + jj]
            .as_deref_mut()
            .expect("a nonzero block")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::on_each_runtime;

    fn params(blocks: usize, block_size: usize) -> Params {
        Params {
            blocks,
            block_size,
            seed: 0x05ba_45e1,
        }
    }

    #[test]
    fn small_factorisations_verify() {
        on_each_runtime!(|par, runtime| {
            for (b, s) in [(1, 1), (1, 5), (2, 3), (6, 8), (13, 4), (10, 20)] {
                let mut lu = SparseLu::new(params(b, s));
                lu.compute(par);
                assert_eq!(lu.verify(), None, "{runtime}: {b}x{s}");
            }
        });
    }

    #[test]
    fn the_sparsity_and_fill_in_are_the_cpp_sides() {
        // sparselu.hpp: 364 of 2500 blocks start nonzero at B = 50, 1300 are stored at the
        // end.
        on_each_runtime!(|par, runtime| {
            let mut lu = SparseLu::new(params(50, 2));
            assert_eq!(lu.nonzero_blocks(), 364);
            lu.compute(par);
            assert_eq!(lu.nonzero_blocks(), 1300, "{runtime}");
        });
    }

    #[test]
    fn the_factors_are_the_cpp_sides_bit_for_bit() {
        // FNV-1a over the blocks in order (a null block hashes as the byte 0xff, a stored
        // one as its floats' bytes) and the result string, as the C++ SparseLu printed them.
        on_each_runtime!(|par, runtime| {
            for (b, s, hash, result) in [
                (
                    6,
                    8,
                    0x30ad_db22_09ba_85de,
                    "blocks 24 of 36, checksum 6.516657e+02",
                ),
                (
                    13,
                    7,
                    0xa006_cc38_3105_d2ad,
                    "blocks 109 of 169, checksum 1.400902e+03",
                ),
                (
                    10,
                    20,
                    0x18ff_6e98_f5e2_f1b3,
                    "blocks 60 of 100, checksum 7.603894e+03",
                ),
            ] {
                let mut lu = SparseLu::new(params(b, s));
                lu.compute(par);
                assert_eq!(lu.result(), result, "{runtime}");
                let bytes = lu.blocks.iter().flat_map(|slot| match slot {
                    None => vec![0xff],
                    Some(block) => block.iter().flat_map(|x| x.to_le_bytes()).collect(),
                });
                assert_eq!(crate::par::fnv1a(bytes), hash, "{runtime}: {b}x{s}");
            }
        });
    }

    #[test]
    fn a_changed_element_fails() {
        on_each_runtime!(|par, runtime| {
            let mut lu = SparseLu::new(params(6, 8));
            lu.compute(par);
            let b = lu.block_mut(3, 2);
            b[9] = f32::from_bits(b[9].to_bits() ^ 1); // one ulp
            let error = lu.verify().unwrap();
            assert!(
                error.starts_with("block (3,2) element (1,1)"),
                "{runtime}: {error}"
            );
        });
    }

    #[test]
    fn a_missing_fill_in_fails() {
        on_each_runtime!(|par, runtime| {
            let mut lu = SparseLu::new(params(6, 8));
            lu.compute(par);
            assert!(lu.blocks[2 * 6 + 4].is_some() && !initially_nonzero(2, 4));
            lu.blocks[2 * 6 + 4] = None;
            assert!(
                lu.verify()
                    .unwrap()
                    .contains("is null, the serial factorisation's is nonzero"),
                "{runtime}"
            );
        });
    }

    #[test]
    fn the_product_check_catches_a_shared_kernel_bug() {
        // A factorisation with a step's bmod updates skipped, as its own reference would
        // be too: the block comparison cannot see it, the product check must.
        on_each_runtime!(|par, runtime| {
            let mut lu = SparseLu::new(params(6, 8));
            let (nb, s) = (6, 8);
            for kk in 0..nb {
                lu0(lu.blocks[kk * nb + kk].as_deref_mut().unwrap(), s);
                solve_row_and_column(par, &mut lu.blocks, nb, s, kk);
                if kk != 2 {
                    update_trailing(par, &mut lu.blocks, nb, s, kk);
                }
            }
            let error = lu.check_product().unwrap();
            assert!(error.contains("L*U is not the input"), "{runtime}");
        });
    }

    #[test]
    fn sizes_parse_like_the_cpp_side() {
        assert_eq!(SparseLu::parse("50x100"), Ok(params(50, 100)));
        assert_eq!(SparseLu::parse("6X8"), Ok(params(6, 8)));
        assert!(SparseLu::parse("50").is_err());
        assert!(SparseLu::parse("0x10").is_err());
        assert!(SparseLu::parse("201x10").is_err());
        assert!(SparseLu::parse("10x501").is_err());
    }
}

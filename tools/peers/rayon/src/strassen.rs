//! strassen: Strassen's matrix multiply, C = A*B for n x n doubles, n a power of two in
//! [16, 8192], as workloads/kernels/strassen.hpp/.cpp. Each level splits A, B and C into
//! quadrants and forms the seven products
//!   M1 = (A11+A22)(B11+B22)  M2 = (A21+A22)B11  M3 = A11(B12-B22)  M4 = A22(B21-B11)
//!   M5 = (A11+A12)B22        M6 = (A21-A11)(B11+B12)               M7 = (A12-A22)(B21+B22)
//! as seven tasks of one par.spawn_each (the C++ par.scope: a rayon::scope, or the seven
//! halved by chili's join); each task forms its own operand sums serially in scratch that
//! lives as long as the task, then recurses. M1, M2, M3 and M6 go straight into C11, C21,
//! C12 and C22; only M4, M5 and M7 are allocated. After the join
//!   C22 = M6 + M1 - M2 + M3,  C11 = M1 + M4 - M5 + M7,  C12 = M3 + M5,  C21 = M2 + M4
//! element by element in that order, by row bands split with par.join. At or below the
//! base order (64) the kernel of dense.rs multiplies. The same operations in the same order
//! as the C++ side, so the product, and the result string, are the same bit for bit.
//!
//! Verified as the C++ side: dense::check_product with tolerance 1e-9 * n.

use std::mem::MaybeUninit;

use crate::dense::{self, Block, Buffer, ConstBlock, Params, SquareProduct};
use crate::par::Par;

pub const DEFAULT: &str = "1024";

/// An operand of one of the seven products: a quadrant, or a quadrant plus or minus another.
#[derive(Clone, Copy)]
struct Operand {
    first: ConstBlock,
    second: ConstBlock, // used when sign != 0
    sign: i32,          // 0: first alone; +1: first + second; -1: first - second
}

fn just(x: ConstBlock) -> Operand {
    Operand {
        first: x,
        second: x,
        sign: 0,
    }
}
fn sum(x: ConstBlock, y: ConstBlock) -> Operand {
    Operand {
        first: x,
        second: y,
        sign: 1,
    }
}
fn difference(x: ConstBlock, y: ConstBlock) -> Operand {
    Operand {
        first: x,
        second: y,
        sign: -1,
    }
}

struct Product {
    left: Operand,
    right: Operand,
    out: Block,
}

pub struct Strassen {
    product: SquareProduct,
}

impl Strassen {
    pub fn parse(size: &str) -> Result<Params, String> {
        dense::parse_order(size).map(Params::new)
    }

    pub fn new(params: Params) -> Self {
        Strassen {
            product: SquareProduct::new(params),
        }
    }

    pub fn compute<P: Par>(&mut self, par: &mut P) {
        let base = self.product.base;
        let (a, b, c) = self.product.blocks();
        multiply(par, base, a, b, c);
    }

    /// Strassen's error bound grows faster with n than the conventional product's, so the
    /// tolerance grows with n: 1e-9 * n of sum |A[i][k]*B[k][j]|.
    pub fn verify(&self) -> Option<String> {
        self.product.check(1e-9 * self.product.n as f64)
    }

    pub fn result(&self) -> String {
        self.product.result()
    }

    #[cfg(test)]
    pub fn output_mut(&mut self) -> &mut [f64] {
        self.product.c.values_mut()
    }
}

fn multiply<P: Par>(par: &mut P, base: usize, a: ConstBlock, b: ConstBlock, c: Block) {
    if c.order <= base {
        dense::multiply_block(a, b, c);
        return;
    }
    let h = c.order / 2;
    let mut extra = Buffer::new(3 * h * h); // M4, M5, M7
    let m4 = extra.block(0, h);
    let m5 = extra.block(h * h, h);
    let m7 = extra.block(2 * h * h, h);
    let (a11, a12, a21, a22) = (
        a.quadrant(0, 0),
        a.quadrant(0, 1),
        a.quadrant(1, 0),
        a.quadrant(1, 1),
    );
    let (b11, b12, b21, b22) = (
        b.quadrant(0, 0),
        b.quadrant(0, 1),
        b.quadrant(1, 0),
        b.quadrant(1, 1),
    );
    let products = [
        Product {
            left: sum(a11, a22),
            right: sum(b11, b22),
            out: c.quadrant(0, 0),
        }, // M1 -> C11
        Product {
            left: sum(a21, a22),
            right: just(b11),
            out: c.quadrant(1, 0),
        }, // M2 -> C21
        Product {
            left: just(a11),
            right: difference(b12, b22),
            out: c.quadrant(0, 1),
        }, // M3 -> C12
        Product {
            left: just(a22),
            right: difference(b21, b11),
            out: m4,
        }, // M4
        Product {
            left: sum(a11, a12),
            right: just(b22),
            out: m5,
        }, // M5
        Product {
            left: difference(a21, a11),
            right: sum(b11, b12),
            out: c.quadrant(1, 1),
        }, // M6 -> C22
        Product {
            left: difference(a12, a22),
            right: sum(b21, b22),
            out: m7,
        }, // M7
    ];
    par.spawn_each(&products, |p, product| run_product(p, base, product));
    // Each row of a band updates one row of each of C's four quadrants.
    dense::for_row_bands(par, 0, h, 4 * h, &|first, last| {
        combine_rows(c, m4.as_const(), m5.as_const(), m7.as_const(), first, last)
    });
}

fn run_product<P: Par>(par: &mut P, base: usize, product: &Product) {
    let h = product.out.order;
    let sums = (product.left.sign != 0) as usize + (product.right.sign != 0) as usize;
    let mut scratch = Buffer::new(sums * h * h);
    let mut next = 0;
    let left = materialise(&product.left, &mut scratch, &mut next);
    let right = materialise(&product.right, &mut scratch, &mut next);
    multiply(par, base, left, right, product.out);
}

/// `operand` as a block: the quadrant itself, or its sum or difference written into
/// `scratch` at element `next` (order h, contiguous), after which `next` advances past it.
fn materialise(operand: &Operand, scratch: &mut Buffer, next: &mut usize) -> ConstBlock {
    if operand.sign == 0 {
        return operand.first;
    }
    let h = operand.first.order;
    let out = scratch.block(*next, h);
    *next += h * h;
    for i in 0..h {
        // SAFETY: the operands are quadrants of A or B or of a sum above, which no one writes
        // while this task runs; `out` is this task's own fresh scratch.
        let (x, y, o) = unsafe {
            (
                operand.first.row(i),
                operand.second.row(i),
                out.row_uninit(i),
            )
        };
        add_or_subtract_row(o, x, y, operand.sign > 0);
    }
    out.as_const()
}

#[inline(always)]
fn add_or_subtract_row(o: &mut [MaybeUninit<f64>], x: &[f64], y: &[f64], add: bool) {
    let h = o.len();
    let (x, y) = (&x[..h], &y[..h]);
    if add {
        for j in 0..h {
            o[j].write(x[j] + y[j]);
        }
    } else {
        for j in 0..h {
            o[j].write(x[j] - y[j]);
        }
    }
}

/// The four updates of C's quadrants from the seven products, for rows [first, last) of
/// each quadrant. On entry C11 = M1, C12 = M3, C21 = M2, C22 = M6.
fn combine_rows(
    c: Block,
    m4: ConstBlock,
    m5: ConstBlock,
    m7: ConstBlock,
    first: usize,
    last: usize,
) {
    let (c11, c12, c21, c22) = (
        c.quadrant(0, 0),
        c.quadrant(0, 1),
        c.quadrant(1, 0),
        c.quadrant(1, 1),
    );
    for i in first..last {
        // SAFETY: the seven products have joined; this band owns rows [first, last) of each
        // quadrant of C, and M4, M5, M7 are only read. Row i of the four quadrants are four
        // disjoint ranges.
        unsafe {
            combine_row(
                c11.row_mut(i),
                c12.row_mut(i),
                c21.row_mut(i),
                c22.row_mut(i),
                m4.row(i),
                m5.row(i),
                m7.row(i),
            );
        }
    }
}

#[inline(always)]
fn combine_row(
    c11: &mut [f64],
    c12: &mut [f64],
    c21: &mut [f64],
    c22: &mut [f64],
    m4: &[f64],
    m5: &[f64],
    m7: &[f64],
) {
    let h = c11.len();
    let (c12, c21, c22) = (&mut c12[..h], &mut c21[..h], &mut c22[..h]);
    let (m4, m5, m7) = (&m4[..h], &m5[..h], &m7[..h]);
    for j in 0..h {
        c22[j] += c11[j] - c21[j] + c12[j]; // C22 = M6 + M1 - M2 + M3, before M1..M3 change
        c11[j] += m4[j] - m5[j] + m7[j]; // C11 = M1 + M4 - M5 + M7
        c12[j] += m5[j]; // C12 = M3 + M5
        c21[j] += m4[j]; // C21 = M2 + M4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::{on_each_runtime, Serial};

    #[test]
    fn small_products_verify_and_corruption_fails() {
        on_each_runtime!(|par, runtime| {
            for (n, base) in [(16, 16), (64, 16), (128, 32), (128, 64)] {
                let mut s = Strassen::new(Params { n, base });
                s.compute(par);
                assert_eq!(s.verify(), None, "{runtime}: n={n} base={base}");
                // One wrong entry in the last row: the corner (n-1, n-1) is always checked.
                s.output_mut()[n * n - 1] += 1e-3;
                assert!(
                    s.verify().is_some(),
                    "{runtime}: n={n} base={base}: corruption not caught"
                );
            }
        });
    }

    #[test]
    fn parallel_equals_serial_bit_for_bit() {
        let mut serial = Strassen::new(Params { n: 128, base: 16 });
        serial.compute(&mut Serial);
        on_each_runtime!(|par, runtime| {
            let mut parallel = Strassen::new(Params { n: 128, base: 16 });
            parallel.compute(par);
            assert!(
                parallel
                    .output_mut()
                    .iter()
                    .zip(serial.output_mut().iter())
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "{runtime}"
            );
        });
    }

    #[test]
    fn the_product_is_the_cpp_sides_bit_for_bit() {
        // FNV-1a of the product's bytes and the result string, as the C++ Strassen printed
        // them for the same Params.
        on_each_runtime!(|par, runtime| {
            for (n, base, hash, result) in [
                (
                    128,
                    16,
                    0x82ba_6266_5b9a_5d08,
                    "C[0][0]=-3.884388e+00 trace=-6.584868e+01",
                ),
                (
                    256,
                    32,
                    0x486a_895d_2e19_60a1,
                    "C[0][0]=-4.652681e+00 trace=9.608018e+01",
                ),
                (
                    64,
                    64,
                    0x0dc3_8234_e779_4f32,
                    "C[0][0]=1.930519e+00 trace=2.563186e+01",
                ),
            ] {
                let mut s = Strassen::new(Params { n, base });
                s.compute(par);
                assert_eq!(s.result(), result, "{runtime}");
                let bytes = s
                    .output_mut()
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect::<Vec<_>>();
                assert_eq!(
                    crate::par::fnv1a(bytes),
                    hash,
                    "{runtime}: n={n} base={base}"
                );
            }
        });
    }

    #[test]
    fn a_missing_quadrant_fails() {
        on_each_runtime!(|par, runtime| {
            let mut s = Strassen::new(Params { n: 64, base: 16 });
            s.compute(par);
            s.output_mut()[5] = f64::NAN; // as if no task wrote it
            assert!(s.verify().unwrap().contains("not finite"), "{runtime}");
        });
    }

    #[test]
    fn sizes_parse_like_the_cpp_side() {
        assert_eq!(Strassen::parse("1024"), Ok(Params::new(1024)));
        assert_eq!(Strassen::parse("2^11"), Ok(Params::new(2048)));
        assert!(Strassen::parse("1000").is_err());
        assert!(Strassen::parse("8").is_err());
        assert!(Strassen::parse("16384").is_err());
    }
}

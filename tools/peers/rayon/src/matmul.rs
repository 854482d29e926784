//! matmul: the divide-and-conquer matrix multiply of Narlikar & Blelloch, the
//! allocation-heavy workload, as workloads/kernels/matmul.hpp/.cpp: C = A*B for n x n
//! doubles, n a power of two in [16, 8192]. Each call splits A, B and C into quadrants,
//! allocates a temporary T of C's order, and computes the eight quadrant products
//!   C11 = A11*B11  C12 = A11*B12  C21 = A21*B11  C22 = A21*B12
//!   T11 = A12*B21  T12 = A12*B22  T21 = A22*B21  T22 = A22*B22
//! as eight tasks of one par.spawn_each (the C++ par.scope: a rayon::scope, or the eight
//! halved by chili's join); after the join C += T by row bands split with par.join. T lives exactly as long as the call (freed on return, like
//! the C++ unique_ptr), so how many are live at once depends on the scheduler's order, the
//! point of the benchmark. At or below the base order (64) the kernel of dense.rs
//! multiplies. Same operations, same order: the product and the result string are the C++
//! side's bit for bit.
//!
//! Verified as the C++ side: dense::check_product with tolerance n * 2^-52.

use crate::dense::{self, Block, Buffer, ConstBlock, Params, SquareProduct};
use crate::par::Par;

pub const DEFAULT: &str = "1024";

struct Product {
    left: ConstBlock,
    right: ConstBlock,
    out: Block,
}

pub struct Matmul {
    product: SquareProduct,
}

impl Matmul {
    pub fn parse(size: &str) -> Result<Params, String> {
        dense::parse_order(size).map(Params::new)
    }

    pub fn new(params: Params) -> Self {
        Matmul {
            product: SquareProduct::new(params),
        }
    }

    pub fn compute<P: Par>(&mut self, par: &mut P) {
        let base = self.product.base;
        let (a, b, c) = self.product.blocks();
        multiply(par, base, a, b, c);
    }

    /// Every entry is a conventional dot product (summed in another order), whose rounding
    /// error is at most about n*u*sum|A[i][k]*B[k][j]| with u = 2^-53; n * 2^-52 allows twice.
    pub fn verify(&self) -> Option<String> {
        self.product.check(self.product.n as f64 * f64::EPSILON)
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
    let mut temporary = Buffer::new(c.order * c.order); // this call's T
    let t = temporary.block(0, c.order);
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
            left: a11,
            right: b11,
            out: c.quadrant(0, 0),
        },
        Product {
            left: a11,
            right: b12,
            out: c.quadrant(0, 1),
        },
        Product {
            left: a21,
            right: b12,
            out: c.quadrant(1, 1),
        },
        Product {
            left: a21,
            right: b11,
            out: c.quadrant(1, 0),
        },
        Product {
            left: a12,
            right: b21,
            out: t.quadrant(0, 0),
        },
        Product {
            left: a12,
            right: b22,
            out: t.quadrant(0, 1),
        },
        Product {
            left: a22,
            right: b22,
            out: t.quadrant(1, 1),
        },
        Product {
            left: a22,
            right: b21,
            out: t.quadrant(1, 0),
        },
    ];
    par.spawn_each(&products, |p, product| {
        multiply(p, base, product.left, product.right, product.out)
    });
    let t = t.as_const();
    dense::for_row_bands(par, 0, c.order, c.order, &|first, last| {
        add_rows(c, t, first, last)
    });
}

/// c += t for rows [first, last).
fn add_rows(c: Block, t: ConstBlock, first: usize, last: usize) {
    for i in first..last {
        // SAFETY: the eight products have joined; this band owns rows [first, last) of C and
        // only reads T.
        let (ci, ti) = unsafe { (c.row_mut(i), t.row(i)) };
        let ti = &ti[..ci.len()];
        for j in 0..ci.len() {
            ci[j] += ti[j];
        }
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
                let mut m = Matmul::new(Params { n, base });
                m.compute(par);
                assert_eq!(m.verify(), None, "{runtime}: n={n} base={base}");
                m.output_mut()[n - 1] += 1e-6; // the corner (0, n-1), slightly off
                assert!(
                    m.verify().is_some(),
                    "{runtime}: n={n} base={base}: corruption not caught"
                );
            }
        });
    }

    #[test]
    fn parallel_equals_serial_bit_for_bit() {
        let mut serial = Matmul::new(Params { n: 128, base: 16 });
        serial.compute(&mut Serial);
        on_each_runtime!(|par, runtime| {
            let mut parallel = Matmul::new(Params { n: 128, base: 16 });
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
        // FNV-1a of the product's bytes and the result string, as the C++ Matmul printed
        // them for the same Params.
        on_each_runtime!(|par, runtime| {
            for (n, base, hash, result) in [
                (
                    128,
                    16,
                    0x3a62_a196_6cda_d6ef,
                    "C[0][0]=-3.884388e+00 trace=-6.584868e+01",
                ),
                (
                    256,
                    32,
                    0x541f_4960_2740_f91a,
                    "C[0][0]=-4.652681e+00 trace=9.608018e+01",
                ),
                (
                    64,
                    64,
                    0x0dc3_8234_e779_4f32,
                    "C[0][0]=1.930519e+00 trace=2.563186e+01",
                ),
            ] {
                let mut m = Matmul::new(Params { n, base });
                m.compute(par);
                assert_eq!(m.result(), result, "{runtime}");
                let bytes = m
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
            let mut m = Matmul::new(Params { n: 64, base: 16 });
            m.compute(par);
            m.output_mut()[64 * 40 + 50] = f64::NAN; // as if no task wrote it
            assert!(m.verify().unwrap().contains("not finite"), "{runtime}");
        });
    }
}

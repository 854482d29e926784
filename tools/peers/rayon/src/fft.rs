//! fft: the one-dimensional DFT of n = 2^k complex doubles (2^22 by default) by recursive
//! radix-2 Cooley-Tukey, decimation in time, as workloads/kernels/fft.hpp/.cpp. Out of place:
//! the even-indexed inputs' transform goes to the first half of the output, the odd ones'
//! to the second (both read the input with twice the stride, so no bit-reversal pass), and
//! the combine merges the halves in place with n/2 butterflies. The two half transforms are
//! a par.join (rayon::join, chili's join) down to 64-point leaves; a level's combine is split
//! by par.join until a range has at most 4096 butterflies. The twiddles, built untimed, are the top level's n/2
//! roots exp(-2 pi i k / n) and in front of them each smaller level's roots, copied from
//! the top level's, n entries in all. Same operations in the same order (complex products
//! written out as the C++ side's times(); cos, sin and hypot are glibc's there and here), so
//! the output, and the result string, are the C++ side's bit for bit.
//!
//! Rust's difference: a combine splits into the two halves of the level's output
//! (split_at_mut) and then both at the middle of the butterfly range, so that each task
//! holds its own two slices; the C++ side passes one pointer and an index range.
//!
//! Verified as the C++ side: (a) 8 output frequencies against the DFT's definition summed
//! directly, tolerance 1e-11 * log2 n * ||x||_2; (b) the inverse transform of the output by
//! the serial elision against the input, tolerance 1e-14 * log2 n.

use crate::cfmt;
use crate::par::{seed_mix, Par, Serial};

pub const DEFAULT: &str = "2^22";
const MIN_POINTS: i64 = 1 << 4;
const MAX_POINTS: i64 = 1 << 27;
const LEAF_POINTS: usize = 64; // transforms this small run serially
const COMBINE_GRAIN: usize = 4096; // butterflies per combine task
const LEAF_BITS: u32 = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub log2_points: u32,
    pub seed: u64,
}

/// std::complex<double>, with the arithmetic the C++ side uses: component-wise + and -,
/// and the product written out (times()).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex {
    pub re: f64,
    pub im: f64,
}

impl Complex {
    fn add(self, o: Complex) -> Complex {
        Complex {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
    fn sub(self, o: Complex) -> Complex {
        Complex {
            re: self.re - o.re,
            im: self.im - o.im,
        }
    }
    fn times(self, b: Complex) -> Complex {
        Complex {
            re: self.re * b.re - self.im * b.im,
            im: self.re * b.im + self.im * b.re,
        }
    }
    /// std::abs: glibc's cabs, which is hypot.
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// exp(-2 pi i k / n) for an exact integer phase k mod n.
fn root_of_unity(k: u64, n: u64) -> Complex {
    let angle = -2.0 * std::f64::consts::PI * (k % n) as f64 / n as f64;
    Complex {
        re: angle.cos(),
        im: angle.sin(),
    }
}

fn uniform_signed(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0 // [-1, 1)
}

/// The bit reversal of the 6-bit indices of a 64-point leaf.
const BIT_REVERSED_6: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        let mut r = 0;
        let mut b = 0;
        while b < LEAF_BITS {
            r |= ((j >> b) & 1) << (LEAF_BITS - 1 - b);
            b += 1;
        }
        table[j] = r as u8;
        j += 1;
    }
    table
};

pub struct Fft {
    points: usize,
    log2_points: u32,
    seed: u64,
    input: Vec<Complex>,
    output: Vec<Complex>,
    /// twiddles[m/2 + k] = exp(-2 pi i k / m) for each level m = 2, 4, ..., points and
    /// k < m/2 (entry 0 unused).
    twiddles: Vec<Complex>,
}

impl Fft {
    /// A power-of-two point count from 2^4 to 2^27: "4194304", "2^22", or with a binary
    /// suffix "32M" (2^25), "16K".
    pub fn parse(size: &str) -> Result<Params, String> {
        let points = match size.as_bytes().last() {
            Some(b'K' | b'k' | b'M' | b'm') => {
                let shift = if size.ends_with(['K', 'k']) { 10 } else { 20 };
                // The range is checked below on the whole count, so the message quotes
                // the whole size.
                crate::parse_count(&size[..size.len() - 1], 1, MAX_POINTS)? << shift
            }
            _ => crate::parse_count(size, MIN_POINTS, MAX_POINTS)?,
        };
        if !(MIN_POINTS..=MAX_POINTS).contains(&points) {
            return Err(format!("'{size}' is out of range [2^4, 2^27] points"));
        }
        if points & (points - 1) != 0 {
            return Err(format!("'{size}' is not a power of two"));
        }
        Ok(Params {
            log2_points: points.trailing_zeros(),
            seed: 0xff7,
        })
    }

    /// The input and the twiddle table (untimed).
    pub fn new(params: Params) -> Self {
        assert!((4..=27).contains(&params.log2_points));
        let points = 1usize << params.log2_points;
        let seed = params.seed;
        let input = (0..points as u64)
            .map(|j| {
                let bits = seed_mix(seed ^ seed_mix(j));
                Complex {
                    re: uniform_signed(bits),
                    im: uniform_signed(seed_mix(bits)),
                }
            })
            .collect();
        let mut twiddles = vec![Complex::default(); points];
        let top = points / 2;
        for k in 0..top {
            twiddles[top + k] = root_of_unity(k as u64, points as u64);
        }
        // Smaller levels copy every (n/m)-th root, so their values are the top level's.
        let mut half = top / 2;
        while half >= 1 {
            for k in 0..half {
                twiddles[half + k] = twiddles[top + k * (top / half)];
            }
            half /= 2;
        }
        Fft {
            points,
            log2_points: params.log2_points,
            seed,
            input,
            output: vec![Complex::default(); points],
            twiddles,
        }
    }

    pub fn compute<P: Par>(&mut self, par: &mut P) {
        transform(par, &self.twiddles, &self.input, 1, &mut self.output);
    }

    pub fn verify(&self) -> Option<String> {
        self.check_sampled_frequencies()
            .or_else(|| self.check_inverse())
    }

    pub fn result(&self) -> String {
        format!(
            "X[1]=({},{})",
            cfmt::e(self.output[1].re, 6),
            cfmt::e(self.output[1].im, 6)
        )
    }

    /// (a) The output at 8 frequencies (0, 1, n/2, n-1 and 4 drawn from the seed) against
    /// the DFT's definition summed directly; the kernel advances by one complex product per
    /// point and is recomputed from cos/sin of the exact phase every 1024 points.
    /// `!(error <= tolerance)` fails a NaN too.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn check_sampled_frequencies(&self) -> Option<String> {
        let mut norm_squared = 0.0;
        for x in &self.input {
            norm_squared += x.re * x.re + x.im * x.im; // std::norm
        }
        let scale = f64::sqrt(norm_squared);
        let tolerance = 1e-11 * self.log2_points as f64 * scale;
        let n = self.points as u64;
        let mut frequencies = [0, 1, n / 2, n - 1, 0, 0, 0, 0];
        for (t, f) in frequencies.iter_mut().enumerate().skip(4) {
            *f = seed_mix(self.seed.wrapping_add(t as u64)) % n;
        }
        const RESYNC: u64 = 1024;
        for f in frequencies {
            let rotation = root_of_unity(f, n);
            let (mut sum, mut kernel) = (Complex::default(), Complex::default());
            for (j, x) in (0u64..).zip(&self.input) {
                kernel = if j % RESYNC == 0 {
                    root_of_unity(j * f % n, n)
                } else {
                    kernel.times(rotation)
                };
                sum = sum.add(x.times(kernel));
            }
            let got = self.output[f as usize];
            let error = got.sub(sum).abs();
            if !(error <= tolerance) {
                return Some(format!(
                    "X[{f}] = ({}, {}) but the DFT's definition gives ({}, {})",
                    cfmt::e(got.re, 9),
                    cfmt::e(got.im, 9),
                    cfmt::e(sum.re, 9),
                    cfmt::e(sum.im, 9)
                ));
            }
        }
        None
    }

    /// (b) The inverse transform of the output, conj(FFT(conj(X))) / n by the serial
    /// elision, against the input: this one sees every output element.
    fn check_inverse(&self) -> Option<String> {
        let conjugated: Vec<Complex> = self
            .output
            .iter()
            .map(|x| Complex {
                re: x.re,
                im: -x.im,
            })
            .collect();
        let mut round_trip = vec![Complex::default(); self.points];
        transform(&mut Serial, &self.twiddles, &conjugated, 1, &mut round_trip);
        let inverse_n = 1.0 / self.points as f64;
        let tolerance = 1e-14 * self.log2_points as f64;
        let (mut worst, mut worst_at) = (0.0, 0);
        for (j, (r, x)) in round_trip.iter().zip(&self.input).enumerate() {
            // std::conj(r) * inverse_n - x, component by component.
            let error = Complex {
                re: r.re * inverse_n,
                im: -r.im * inverse_n,
            }
            .sub(*x)
            .abs();
            if error.is_nan() {
                return Some(format!("the inverse transform of the output is NaN at {j}"));
            }
            if error > worst {
                worst = error;
                worst_at = j;
            }
        }
        (worst > tolerance).then(|| {
            format!(
                "the inverse transform misses input[{worst_at}] by {} (tolerance {})",
                cfmt::e(worst, 3),
                cfmt::e(tolerance, 1)
            )
        })
    }

    #[cfg(test)]
    pub fn output_mut(&mut self) -> &mut [Complex] {
        &mut self.output
    }
}

/// The m/2 roots of a size-m transform's combine, contiguous.
fn level_roots(twiddles: &[Complex], m: usize) -> &[Complex] {
    &twiddles[m / 2..m]
}

/// out = DFT of the out.len() points input[0], input[stride], input[2 * stride], ...
fn transform<P: Par>(
    par: &mut P,
    twiddles: &[Complex],
    input: &[Complex],
    stride: usize,
    out: &mut [Complex],
) {
    let n = out.len();
    if n <= LEAF_POINTS {
        leaf_transform(twiddles, input, stride, out);
        return;
    }
    let half = n / 2;
    let (even, odd) = out.split_at_mut(half);
    par.join(
        |p| transform(p, twiddles, input, 2 * stride, even),
        |p| transform(p, twiddles, &input[stride..], 2 * stride, odd),
    );
    combine(par, level_roots(twiddles, n), even, odd);
}

/// Butterflies k in [0, even.len()) of one combine: `even` and `odd` are the matching
/// ranges of the level's two halves, `roots` the range's twiddles.
fn combine<P: Par>(par: &mut P, roots: &[Complex], even: &mut [Complex], odd: &mut [Complex]) {
    let count = even.len();
    if count <= COMBINE_GRAIN {
        butterflies(roots, even, odd);
        return;
    }
    let mid = count / 2;
    let (roots_lo, roots_hi) = roots.split_at(mid);
    let (even_lo, even_hi) = even.split_at_mut(mid);
    let (odd_lo, odd_hi) = odd.split_at_mut(mid);
    par.join(
        |p| combine(p, roots_lo, even_lo, odd_lo),
        |p| combine(p, roots_hi, even_hi, odd_hi),
    );
}

fn butterflies(roots: &[Complex], even: &mut [Complex], odd: &mut [Complex]) {
    let count = even.len();
    let (roots, odd) = (&roots[..count], &mut odd[..count]);
    for k in 0..count {
        let e = even[k];
        let o = odd[k].times(roots[k]);
        even[k] = e.add(o);
        odd[k] = e.sub(o);
    }
}

/// Gathers the strided points in bit-reversed order, then runs the radix-2 stages in place.
fn leaf_transform(twiddles: &[Complex], input: &[Complex], stride: usize, out: &mut [Complex]) {
    let n = out.len();
    let shift = LEAF_BITS - n.trailing_zeros();
    for j in 0..n {
        out[(BIT_REVERSED_6[j] >> shift) as usize] = input[j * stride];
    }
    let mut len = 2;
    while len <= n {
        let half = len / 2;
        let roots = level_roots(twiddles, len);
        for start in (0..n).step_by(len) {
            let (lo, hi) = out[start..start + len].split_at_mut(half);
            butterflies(roots, lo, hi);
        }
        len *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::{on_each_runtime, Rayon};

    #[test]
    fn small_transforms_verify() {
        on_each_runtime!(|par, runtime| {
            for log2 in [4, 5, 6, 7, 10, 13, 14] {
                let mut f = Fft::new(Params {
                    log2_points: log2,
                    seed: 0xff7,
                });
                f.compute(par);
                assert_eq!(f.verify(), None, "{runtime}: 2^{log2}");
            }
        });
    }

    #[test]
    fn matches_a_direct_dft() {
        let mut f = Fft::new(Params {
            log2_points: 7,
            seed: 3,
        });
        f.compute(&mut Rayon);
        let n = f.points;
        for k in 0..n {
            let (mut re, mut im) = (0.0, 0.0);
            for j in 0..n {
                let angle = -2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                re += f.input[j].re * angle.cos() - f.input[j].im * angle.sin();
                im += f.input[j].re * angle.sin() + f.input[j].im * angle.cos();
            }
            assert!((f.output[k].re - re).abs() < 1e-12 && (f.output[k].im - im).abs() < 1e-12);
        }
    }

    #[test]
    fn corrupted_outputs_fail() {
        on_each_runtime!(|par, runtime| {
            // One output element off by 1e-9 of its magnitude: the inverse check sees it (the
            // sampled frequencies miss index 77).
            let mut f = Fft::new(Params {
                log2_points: 14,
                seed: 0xff7,
            });
            f.compute(par);
            f.output_mut()[77].re *= 1.0 + 1e-6;
            assert!(
                f.verify().unwrap().contains("inverse transform misses"),
                "{runtime}"
            );
            // A sampled frequency grossly wrong.
            let mut f = Fft::new(Params {
                log2_points: 10,
                seed: 0xff7,
            });
            f.compute(par);
            f.output_mut()[1].im += 1.0;
            assert!(f.verify().unwrap().starts_with("X[1] = "), "{runtime}");
            // Two outputs swapped.
            let mut f = Fft::new(Params {
                log2_points: 10,
                seed: 0xff7,
            });
            f.compute(par);
            f.output_mut().swap(300, 301);
            assert!(f.verify().is_some(), "{runtime}");
        });
    }

    #[test]
    fn the_output_is_the_cpp_sides_bit_for_bit() {
        // FNV-1a of the output's bytes (re, im, ...) and the result string, as the C++ Fft
        // printed them for the same Params.
        on_each_runtime!(|par, runtime| {
            for (log2, hash, result) in [
                (4, 0xad42_2f7d_0f01_77bf, "X[1]=(1.315758e+00,5.656287e+00)"),
                (
                    5,
                    0x33c6_c9b0_5f12_94f2,
                    "X[1]=(-1.444039e+00,-4.138745e-01)",
                ),
                (
                    10,
                    0xa71a_2bae_d3e6_8dd8,
                    "X[1]=(-2.200713e+01,-4.046826e+01)",
                ),
                (
                    14,
                    0xee49_c343_ffa4_168a,
                    "X[1]=(1.094678e+02,5.921643e+01)",
                ),
            ] {
                let mut f = Fft::new(Params {
                    log2_points: log2,
                    seed: 0xff7,
                });
                f.compute(par);
                assert_eq!(f.result(), result, "{runtime}");
                let bytes = f
                    .output
                    .iter()
                    .flat_map(|x| [x.re.to_le_bytes(), x.im.to_le_bytes()])
                    .flatten();
                assert_eq!(crate::par::fnv1a(bytes), hash, "{runtime}: 2^{log2}");
            }
        });
    }

    #[test]
    fn parallel_equals_serial_bit_for_bit() {
        let params = Params {
            log2_points: 16,
            seed: 0xff7,
        };
        let mut s = Fft::new(params);
        s.compute(&mut Serial);
        on_each_runtime!(|par, runtime| {
            let mut p = Fft::new(params);
            p.compute(par);
            assert!(
                p.output
                    .iter()
                    .zip(&s.output)
                    .all(|(x, y)| x.re.to_bits() == y.re.to_bits()
                        && x.im.to_bits() == y.im.to_bits()),
                "{runtime}"
            );
        });
    }

    #[test]
    fn sizes_parse_like_the_cpp_side() {
        assert_eq!(Fft::parse("2^22").unwrap().log2_points, 22);
        assert_eq!(Fft::parse("4194304").unwrap().log2_points, 22);
        assert_eq!(Fft::parse("32M").unwrap().log2_points, 25);
        assert_eq!(Fft::parse("16K").unwrap().log2_points, 14);
        assert_eq!(Fft::parse("16").unwrap().log2_points, 4);
        assert!(Fft::parse("8").is_err());
        assert!(Fft::parse("1000").is_err());
        assert!(Fft::parse("256M").is_err());
        assert!(Fft::parse("2^28").is_err());
    }
}

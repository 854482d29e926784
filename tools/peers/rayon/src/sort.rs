//! sort: parallel merge sort of n int32 with a parallel merge (Cilk's cilksort), step for
//! step as workloads/kernels/sort.hpp/.cpp:
//!   sort_in_place(a, tmp) sorts a using tmp as scratch; sort_into(a, tmp) sorts a's elements
//!   into tmp using a as scratch. At or below the sort cutoff (2048) both sort serially
//!   (sort_into copies first). Above it each sorts the halves (the first n/2, the other
//!   n - n/2) in parallel with the other function, so the sorted halves land in the buffer
//!   that is not the destination, then merges them in parallel into the destination.
//!   merge(run1, run2, out): make run1 the longer; at or below the merge cutoff (2048
//!   elements in all) merge serially; else split run1 at its middle m1, find m2 =
//!   lower_bound(run2, run1[m1]), put run1[m1] at out[m1 + m2] and merge the two pairs on
//!   either side in parallel.
//! Every C++ par.invoke is a par.join (rayon::join, chili's join), the lower half first (run
//! at once), the upper offered to thieves. The halves are split with split_at_mut, so no unsafe code is needed.
//!
//! The serial leaf sort is slice::sort_unstable where the C++ side has std::sort (both
//! unstable sorts; for int32 every correct sort gives the same output), and the leaf merge
//! is written out (std::merge's rule: on equal keys the first run's element goes first).
//!
//! Input: element i is the top 32 bits, as int32, of output i of splitmix64 started at
//! state 0x5eed. Verified as the C++ side: sorted, then equal to a reference sort of the
//! input (so a sorted output that lost or duplicated elements fails).

use crate::par::{seed_mix, Par};

pub const DEFAULT: &str = "1e7";
pub const MAX_ELEMENTS: i64 = 2_000_000_000;
const SEED: u64 = 0x5eed;
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;
/// Cilk's QUICKSIZE and MERGESIZE, as the C++ side (sort.hpp gives the measurements).
pub const SORT_CUTOFF: usize = 2048;
pub const MERGE_CUTOFF: usize = 2048;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub n: usize,
    /// Not set by parse: tests lower them to make many tasks of a small input.
    pub sort_cutoff: usize,
    pub merge_cutoff: usize,
}

impl Params {
    pub fn new(n: usize) -> Self {
        Params {
            n,
            sort_cutoff: SORT_CUTOFF,
            merge_cutoff: MERGE_CUTOFF,
        }
    }
}

#[derive(Clone, Copy)]
struct Cutoffs {
    sort: usize,
    merge: usize,
}

pub struct Sort {
    cutoffs: Cutoffs,
    input: Vec<i32>,   // kept for verify(); never touched by compute
    data: Vec<i32>,    // the input, sorted in place by compute
    scratch: Vec<i32>, // compute's second buffer
}

/// The input: splitmix64 from `seed` (Vigna's next(): add the gamma, then the finaliser,
/// which is seed_mix of the state before the addition), top 32 bits reinterpreted as int32.
fn make_input(n: usize, seed: u64) -> Vec<i32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            let bits = seed_mix(state);
            state = state.wrapping_add(GAMMA);
            (bits >> 32) as u32 as i32
        })
        .collect()
}

impl Sort {
    pub fn parse(size: &str) -> Result<Params, String> {
        Ok(Params::new(
            crate::parse_count(size, 1, MAX_ELEMENTS)? as usize
        ))
    }

    /// Builds the input, the scratch buffer and the copy kept for verify() (untimed).
    pub fn new(params: Params) -> Self {
        assert!(
            params.n >= 1 && params.n as i64 <= MAX_ELEMENTS,
            "sort: n = {} is out of range",
            params.n
        );
        assert!(
            params.sort_cutoff >= 1 && params.merge_cutoff >= 1,
            "sort: cutoffs must be >= 1"
        );
        let input = make_input(params.n, SEED);
        Sort {
            cutoffs: Cutoffs {
                sort: params.sort_cutoff,
                merge: params.merge_cutoff,
            },
            data: input.clone(),
            scratch: vec![0; input.len()],
            input,
        }
    }

    pub fn compute<P: Par>(&mut self, par: &mut P) {
        sort_in_place(par, self.cutoffs, &mut self.data, &mut self.scratch);
    }

    pub fn verify(&self) -> Option<String> {
        if let Some(i) = (1..self.data.len()).find(|&i| self.data[i] < self.data[i - 1]) {
            return Some(format!(
                "sort: output not sorted at index {i} ({} before {})",
                self.data[i - 1],
                self.data[i]
            ));
        }
        // Sorted, but is it the input's elements? Compare with a reference sort of the input.
        let mut expected = self.input.clone();
        expected.sort_unstable();
        let i = self
            .data
            .iter()
            .zip(&expected)
            .position(|(got, want)| got != want)?;
        Some(format!(
            "sort: output is sorted but not the input's elements: index {i} holds {}, expected {}",
            self.data[i], expected[i]
        ))
    }

    pub fn result(&self) -> String {
        let min = self.data.iter().min().expect("n >= 1");
        let max = self.data.iter().max().expect("n >= 1");
        format!("sorted n={} min={min} max={max}", self.data.len())
    }

    #[cfg(test)]
    pub fn output_mut(&mut self) -> &mut [i32] {
        &mut self.data
    }
}

fn sort_in_place<P: Par>(par: &mut P, cut: Cutoffs, a: &mut [i32], tmp: &mut [i32]) {
    if a.len() <= cut.sort {
        a.sort_unstable();
        return;
    }
    let half = a.len() / 2;
    let (a_lo, a_hi) = a.split_at_mut(half);
    let (t_lo, t_hi) = tmp.split_at_mut(half);
    par.join(
        |p| sort_into(p, cut, a_lo, t_lo),
        |p| sort_into(p, cut, a_hi, t_hi),
    );
    merge(par, cut, t_lo, t_hi, a);
}

fn sort_into<P: Par>(par: &mut P, cut: Cutoffs, a: &mut [i32], tmp: &mut [i32]) {
    if a.len() <= cut.sort {
        tmp.copy_from_slice(a);
        tmp.sort_unstable();
        return;
    }
    let half = a.len() / 2;
    let (a_lo, a_hi) = a.split_at_mut(half);
    let (t_lo, t_hi) = tmp.split_at_mut(half);
    par.join(
        |p| sort_in_place(p, cut, a_lo, t_lo),
        |p| sort_in_place(p, cut, a_hi, t_hi),
    );
    merge(par, cut, a_lo, a_hi, tmp);
}

/// Merges two sorted runs into out (out.len() == run1.len() + run2.len()).
fn merge<P: Par>(par: &mut P, cut: Cutoffs, run1: &[i32], run2: &[i32], out: &mut [i32]) {
    let (run1, run2) = if run1.len() < run2.len() {
        (run2, run1)
    } else {
        (run1, run2)
    };
    if out.len() <= cut.merge {
        serial_merge(run1, run2, out);
        return;
    }
    // run1 is the longer and out holds more than merge_cutoff >= 1 elements, so run1 is not
    // empty and its middle exists.
    let m1 = run1.len() / 2;
    let pivot = run1[m1];
    let m2 = run2.partition_point(|&x| x < pivot); // lower_bound
    let (out_lo, rest) = out.split_at_mut(m1 + m2);
    let (middle, out_hi) = rest.split_at_mut(1);
    middle[0] = pivot;
    par.join(
        |p| merge(p, cut, &run1[..m1], &run2[..m2], out_lo),
        |p| merge(p, cut, &run1[m1 + 1..], &run2[m2..], out_hi),
    );
}

/// std::merge: on equal keys the element of run1 goes first.
fn serial_merge(run1: &[i32], run2: &[i32], out: &mut [i32]) {
    let (mut i, mut j) = (0, 0);
    for slot in out.iter_mut() {
        if j < run2.len() && (i == run1.len() || run2[j] < run1[i]) {
            *slot = run2[j];
            j += 1;
        } else {
            *slot = run1[i];
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::{on_each_runtime, Serial};

    fn small(n: usize, cutoff: usize) -> Sort {
        Sort::new(Params {
            n,
            sort_cutoff: cutoff,
            merge_cutoff: cutoff,
        })
    }

    #[test]
    fn small_sorts_verify() {
        on_each_runtime!(|par, runtime| {
            for (n, cutoff) in [
                (1, 1),
                (2, 1),
                (7, 1),
                (100, 3),
                (12345, 16),
                (10_000, 2048),
                (100_000, 64),
            ] {
                let mut s = small(n, cutoff);
                s.compute(par);
                assert_eq!(s.verify(), None, "{runtime}: n={n} cutoff={cutoff}");
            }
        });
    }

    #[test]
    fn corrupted_outputs_fail() {
        on_each_runtime!(|par, runtime| {
            let mut s = small(10_000, 16);
            s.compute(par);
            s.output_mut().swap(10, 11000 / 2);
            assert!(s.verify().unwrap().contains("not sorted"), "{runtime}");

            let mut s = small(10_000, 16);
            s.compute(par);
            let out = s.output_mut();
            out[5000] = out[5001]; // still sorted, but an element lost and one duplicated
            let error = s.verify().unwrap();
            assert!(error.contains("not the input's elements"), "{runtime}");
        });
    }

    #[test]
    fn the_input_is_the_cpp_sides() {
        // The result strings weft-bench compare printed for the C++ Sort of these sizes.
        on_each_runtime!(|par, runtime| {
            for (n, result) in [
                (10_000, "sorted n=10000 min=-2147283432 max=2147244956"),
                (12_345, "sorted n=12345 min=-2147283432 max=2147244956"),
            ] {
                let mut s = small(n, 2048);
                s.compute(par);
                assert_eq!(s.result(), result, "{runtime}");
            }
        });
        assert!(make_input(1000, SEED).iter().any(|&x| x < 0));
    }

    #[test]
    fn serial_and_parallel_agree() {
        let mut q = small(50_000, 8);
        q.compute(&mut Serial);
        on_each_runtime!(|par, runtime| {
            let mut p = small(50_000, 8);
            p.compute(par);
            assert_eq!(p.data, q.data, "{runtime}");
            assert_eq!(p.result(), q.result(), "{runtime}");
        });
    }

    #[test]
    fn sizes_parse_like_the_cpp_side() {
        assert_eq!(Sort::parse("1e7"), Ok(Params::new(10_000_000)));
        assert_eq!(Sort::parse("12345"), Ok(Params::new(12345)));
        assert!(Sort::parse("0").is_err());
        assert!(Sort::parse("3e9").is_err());
    }
}

//! fib: the spawn-overhead workload. fib(n) by the doubly recursive definition, every call a
//! par.join (rayon::join, chili's join), no cutoff -- as workloads/kernels/fib.hpp. fib(n-2)
//! runs here and fib(n-1) may be stolen, the roles of the C++ side's par.invoke(f, g).

use crate::par::Par;

pub const DEFAULT: &str = "35";
pub const MAX_N: i64 = 50;

pub fn fib<P: Par>(par: &mut P, n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        let (a, b) = par.join(|p| fib(p, n - 2), |p| fib(p, n - 1));
        a + b
    }
}

/// The iterative value, for verification.
pub fn fib_iterative(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        let next = a + b;
        a = b;
        b = next;
    }
    a
}

pub fn result(n: u32, value: u64) -> String {
    format!("fib({n}) = {value}")
}

/// None if `value` is fib(n), else the reason.
pub fn verify(n: u32, value: u64) -> Option<String> {
    let expected = fib_iterative(n);
    (value != expected).then(|| format!("fib({n}) = {value}, expected {expected}"))
}

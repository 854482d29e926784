//! The Rust counterpart of workloads/kernels/par.hpp for the workloads that need a serial
//! elision beside the parallel run: `Par::Rayon` is rayon::join / rayon::scope, `Par::Serial`
//! runs every spawn at once, in program order, as the C++ side's SerialPar. The C++
//! verifications recompute a reference with SerialPar (sparselu's serial factorisation,
//! fft's inverse transform); passing `Par::Serial` to the same Rust code does the same.
//!
//! The C++ Par is a template parameter; here it is a two-valued enum tested at each fork,
//! which costs a predictable branch per task and keeps one copy of each kernel's code.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Par {
    Rayon,
    Serial,
}

/// What a scope body spawns its tasks on: a Rayon scope, or nothing (the task runs at once).
pub enum Spawner<'a, 'scope> {
    Rayon(&'a rayon::Scope<'scope>),
    Serial,
}

impl<'scope> Spawner<'_, 'scope> {
    /// s.spawn(fn) of par.hpp: `task` may run in parallel; the scope waits for it.
    pub fn spawn<T: FnOnce() + Send + 'scope>(&self, task: T) {
        match self {
            Spawner::Rayon(scope) => scope.spawn(move |_| task()),
            Spawner::Serial => task(),
        }
    }
}

impl Par {
    /// par.invoke(f, g): rayon::join runs `f` at once on this worker and offers `g` to
    /// thieves, the roles par.hpp gives f and g.
    pub fn join<A, B, RA, RB>(self, f: A, g: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        match self {
            Par::Rayon => rayon::join(f, g),
            Par::Serial => (f(), g()),
        }
    }

    /// par.scope(body): every task `body` spawns has finished on return.
    pub fn scope<'scope, F>(self, body: F)
    where
        F: for<'a> FnOnce(&Spawner<'a, 'scope>) + Send,
    {
        match self {
            Par::Rayon => rayon::scope(|s: &rayon::Scope<'scope>| body(&Spawner::Rayon(s))),
            Par::Serial => body(&Spawner::Serial),
        }
    }
}

/// FNV-1a over bytes, for the tests that compare an output with a hash the C++ side's
/// code printed for the same input (its serial elision, built with the Release flags).
#[cfg(test)]
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// splitmix64's finaliser (Steele, Lea & Flood 2014; Vigna's public-domain code), as
/// seed_mix.hpp and the private `mix` functions of the C++ workloads: every seeded input
/// element is a pure function of its position.
#[inline]
pub fn seed_mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

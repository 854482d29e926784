//! The Rust counterpart of workloads/kernels/par.hpp: every kernel is generic over a `Par`,
//! as the C++ kernels are class templates over theirs, and each runtime is one
//! implementation, so there is one copy of each kernel and no runtime test at a fork:
//! - `Rayon`: rayon::join, rayon::scope and a parallel iterator (a zero-sized value; the
//!   kernels compile to the same code as when they called Rayon directly);
//! - `chili::Scope`: chili's join, the only operation chili has, so a scope's tasks and a
//!   node's children become a recursive halving of their list or index range by join;
//! - `Serial`: every fork runs at once, in program order, as the C++ side's SerialPar. The
//!   C++ verifications recompute a reference with SerialPar (sparselu's serial
//!   factorisation, fft's inverse transform); passing `Serial` to the same code does that.
//!
//! A forked closure gets the `Par` to fork with in its turn: chili's join hands each closure
//! the scope of the thread that runs it, so the scope cannot be captured; hence `Sub`, which
//! is the implementing type itself up to the scope's lifetimes.

use std::ops::Range;

pub trait Par {
    /// What a forked closure forks with: `Self`, for chili with the lifetimes of the scope
    /// chili hands the closure.
    type Sub<'a>: Par;

    /// par.invoke(f, g): `f` runs at once on this worker and `g` is offered to thieves, the
    /// roles par.hpp gives f and g.
    fn join<A, B, RA, RB>(&mut self, f: A, g: B) -> (RA, RB)
    where
        A: for<'a> FnOnce(&mut Self::Sub<'a>) -> RA + Send,
        B: for<'a> FnOnce(&mut Self::Sub<'a>) -> RB + Send,
        RA: Send,
        RB: Send;

    /// par.scope(body) with one s.spawn per task: `run(task)` for every task of `tasks`,
    /// which may run in parallel; all have finished on return. Rayon spawns them in order
    /// in one rayon::scope; chili halves the list by join down to single tasks.
    fn spawn_each<I, F>(&mut self, tasks: I, run: F)
    where
        I: IntoIterator + Send,
        I::Item: Send,
        F: for<'a> Fn(&mut Self::Sub<'a>, I::Item) + Sync;

    /// The children of a tree node: `child(i)` for every i in `range`, which may run in
    /// parallel, combined by `op` from `identity()`. Rayon's form is the idiomatic parallel
    /// iterator (its adaptive splitter decides which children become jobs, README.md);
    /// chili halves the range by join down to single children.
    fn map_reduce<T, F, ID, OP>(&mut self, range: Range<i32>, child: F, identity: ID, op: OP) -> T
    where
        T: Send,
        F: for<'a> Fn(&mut Self::Sub<'a>, i32) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        OP: Fn(T, T) -> T + Sync + Send;
}

/// Rayon: call inside the pool's install, where rayon::join and rayon::scope use its
/// workers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rayon;

impl Par for Rayon {
    type Sub<'a> = Rayon;

    #[inline]
    fn join<A, B, RA, RB>(&mut self, f: A, g: B) -> (RA, RB)
    where
        A: FnOnce(&mut Rayon) -> RA + Send,
        B: FnOnce(&mut Rayon) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        // rayon::join runs its first closure at once and offers the second to thieves.
        rayon::join(|| f(&mut Rayon), || g(&mut Rayon))
    }

    fn spawn_each<I, F>(&mut self, tasks: I, run: F)
    where
        I: IntoIterator + Send,
        I::Item: Send,
        F: Fn(&mut Rayon, I::Item) + Sync,
    {
        let run = &run;
        rayon::scope(move |s| {
            for task in tasks {
                s.spawn(move |_| run(&mut Rayon, task));
            }
        });
    }

    #[inline]
    fn map_reduce<T, F, ID, OP>(&mut self, range: Range<i32>, child: F, identity: ID, op: OP) -> T
    where
        T: Send,
        F: Fn(&mut Rayon, i32) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        OP: Fn(T, T) -> T + Sync + Send,
    {
        use rayon::prelude::*;
        range
            .into_par_iter()
            .map(|i| child(&mut Rayon, i))
            .reduce(identity, op)
    }
}

/// The serial elision: every fork runs at once, in program order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Par for Serial {
    type Sub<'a> = Serial;

    #[inline]
    fn join<A, B, RA, RB>(&mut self, f: A, g: B) -> (RA, RB)
    where
        A: FnOnce(&mut Serial) -> RA + Send,
        B: FnOnce(&mut Serial) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        (f(self), g(self))
    }

    fn spawn_each<I, F>(&mut self, tasks: I, run: F)
    where
        I: IntoIterator + Send,
        I::Item: Send,
        F: Fn(&mut Serial, I::Item) + Sync,
    {
        for task in tasks {
            run(self, task);
        }
    }

    fn map_reduce<T, F, ID, OP>(&mut self, range: Range<i32>, child: F, identity: ID, op: OP) -> T
    where
        T: Send,
        F: Fn(&mut Serial, i32) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        OP: Fn(T, T) -> T + Sync + Send,
    {
        range.fold(identity(), |acc, i| op(acc, child(self, i)))
    }
}

/// chili (heartbeat scheduling after Spice): a scope of chili::ThreadPool::scope(), or the
/// one chili hands a forked closure on the thread that runs it.
impl<'s> Par for chili::Scope<'s> {
    type Sub<'a> = chili::Scope<'a>;

    #[inline]
    fn join<A, B, RA, RB>(&mut self, f: A, g: B) -> (RA, RB)
    where
        A: for<'a> FnOnce(&mut chili::Scope<'a>) -> RA + Send,
        B: for<'a> FnOnce(&mut chili::Scope<'a>) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        // chili's join queues its first closure (to be shared at a heartbeat) and runs its
        // second at once: the other way round from rayon::join, so the closures are passed
        // swapped to keep par.hpp's roles.
        let (rg, rf) = chili::Scope::join(self, g, f);
        (rf, rg)
    }

    fn spawn_each<I, F>(&mut self, tasks: I, run: F)
    where
        I: IntoIterator + Send,
        I::Item: Send,
        F: for<'a> Fn(&mut chili::Scope<'a>, I::Item) + Sync,
    {
        let mut tasks: Vec<Option<I::Item>> = tasks.into_iter().map(Some).collect();
        spawn_halves(self, &mut tasks, &run);
    }

    fn map_reduce<T, F, ID, OP>(&mut self, range: Range<i32>, child: F, identity: ID, op: OP) -> T
    where
        T: Send,
        F: for<'a> Fn(&mut chili::Scope<'a>, i32) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        OP: Fn(T, T) -> T + Sync + Send,
    {
        if range.is_empty() {
            return identity();
        }
        map_reduce_halves(self, range, &child, &op)
    }
}

/// The tasks of a chili spawn_each: the first half at once, the second offered, down to
/// single tasks (each taken out of its slot once).
fn spawn_halves<T, F>(scope: &mut chili::Scope<'_>, tasks: &mut [Option<T>], run: &F)
where
    T: Send,
    F: for<'a> Fn(&mut chili::Scope<'a>, T) + Sync,
{
    match tasks {
        [] => {}
        [task] => run(scope, task.take().expect("each task runs once")),
        _ => {
            let (first, second) = tasks.split_at_mut(tasks.len() / 2);
            Par::join(
                scope,
                |s| spawn_halves(s, first, run),
                |s| spawn_halves(s, second, run),
            );
        }
    }
}

/// A non-empty range of a chili map_reduce, halved as spawn_halves does.
fn map_reduce_halves<T, F, OP>(
    scope: &mut chili::Scope<'_>,
    range: Range<i32>,
    child: &F,
    op: &OP,
) -> T
where
    T: Send,
    F: for<'a> Fn(&mut chili::Scope<'a>, i32) -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    if range.end - range.start == 1 {
        return child(scope, range.start);
    }
    let middle = range.start + (range.end - range.start) / 2;
    let (a, b) = Par::join(
        scope,
        |s| map_reduce_halves(s, range.start..middle, child, op),
        |s| map_reduce_halves(s, middle..range.end, child, op),
    );
    op(a, b)
}

/// A chili pool of two threads for the tests, shared by all of them (chili takes scopes
/// from any number of threads at once), and `body` run on a scope of it.
#[cfg(test)]
pub fn on_chili<R>(body: impl FnOnce(&mut chili::Scope<'_>) -> R) -> R {
    use std::num::NonZero;
    use std::sync::OnceLock;
    static POOL: OnceLock<chili::ThreadPool> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        chili::ThreadPool::with_config(chili::Config {
            thread_count: NonZero::new(2),
            ..Default::default()
        })
    });
    body(&mut pool.scope())
}

/// Runs `$body` once per runtime with `$par` a `&mut` of that runtime's Par and `$name` its
/// name: Rayon (its global pool) and chili (on_chili's pool). The tests of each workload
/// use it, so every check runs on both peers' runtimes.
#[cfg(test)]
macro_rules! on_each_runtime {
    (|$par:ident, $name:ident| $body:block) => {{
        {
            let $par = &mut $crate::par::Rayon;
            let $name = "rayon";
            $body
        }
        $crate::par::on_chili(|$par| {
            let $name = "chili";
            $body
        });
    }};
}
#[cfg(test)]
pub(crate) use on_each_runtime;

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

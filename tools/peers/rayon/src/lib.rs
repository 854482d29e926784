//! weft's compare workloads (fib, uts, nqueens, strassen, sparselu, fft, sort, matmul: all
//! of the fork-join ones, none of the loop ones) in Rust, behind the peer protocol, for two
//! peers built from this crate: weft-peer-rayon (Rayon) and weft-peer-chili (chili). Each
//! kernel is written once, generic over the `Par` of par.rs; each peer is a `Runtime` here,
//! and its program (src/bin/) calls `main`:
//!
//!   weft-peer-<peer> --workload <name>[:<size>] --workers <W> [--repeat <R>]
//!   weft-peer-<peer> --list
//!
//! The pool of W workers is built once; each repetition builds its input (untimed), times
//! the computation on the pool, verifies it (untimed) and prints one JSON line. A failed
//! verification prints its line with "verified":false and an "error", then exits 1; bad
//! arguments print "weft-peer-<peer>: <argument>: <what is wrong>" on stderr, exit 2.

mod cfmt;
mod dense;
mod fft;
mod fib;
mod matmul;
mod nqueens;
pub mod par;
mod sort;
mod sparselu;
mod strassen;
mod uts;

use fft::Fft;
use matmul::Matmul;
use par::Par;
use sort::Sort;
use sparselu::SparseLu;
use strassen::Strassen;

use std::io::Write;
use std::num::NonZero;
use std::process::exit;
use std::time::Instant;

/// Worker stacks of 256 MiB (weft's are 64 MiB), for both peers: UTS recurses through about
/// 1.3 KB of Rayon frames per tree level and T3L is 17,844 levels deep (about 25 MB), and a
/// worker waiting in a join runs stolen jobs on top of its own stack. Only touched pages are
/// committed.
pub const STACK_BYTES: usize = 256 << 20;

/// In the order of the C++ suite's ForkJoinWorkloads (suite.hpp), with its default sizes.
const WORKLOADS: [(&str, &str); 8] = [
    ("fib", fib::DEFAULT),
    ("uts", uts::DEFAULT),
    ("nqueens", nqueens::DEFAULT),
    ("strassen", strassen::DEFAULT),
    ("sparselu", sparselu::DEFAULT),
    ("fft", fft::DEFAULT),
    ("sort", sort::DEFAULT),
    ("matmul", matmul::DEFAULT),
];

enum Workload {
    Fib(u32),
    Uts(&'static uts::Preset),
    NQueens(usize),
    Strassen(dense::Params),
    SparseLu(sparselu::Params),
    Fft(fft::Params),
    Sort(sort::Params),
    Matmul(dense::Params),
}

impl Workload {
    /// The canonical "name:size".
    fn canonical(&self) -> String {
        match self {
            Workload::Fib(n) => format!("fib:{n}"),
            Workload::Uts(p) => format!("uts:{}", p.name),
            Workload::NQueens(n) => format!("nqueens:{n}"),
            Workload::Strassen(p) => format!("strassen:{}", p.n),
            Workload::SparseLu(p) => format!("sparselu:{}x{}", p.blocks, p.block_size),
            Workload::Fft(p) => format!("fft:2^{}", p.log2_points),
            Workload::Sort(p) => format!("sort:{}", p.n),
            Workload::Matmul(p) => format!("matmul:{}", p.n),
        }
    }
}

/// A bad argument: (the argument, what is wrong with it).
struct ArgError(String, String);

fn arg_error(arg: impl Into<String>, what: impl Into<String>) -> ArgError {
    ArgError(arg.into(), what.into())
}

fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A count as the C++ side's parse_count reads it: "30", "2^4", "1e1"; an integer in
/// [lo, hi]. The error names the value and what is wrong.
fn parse_count(text: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let not_count = || format!("'{text}' is not a count (write e.g. 4096, 2^22 or 1e7)");
    let value = if let Some(at) = text.find(['^', 'e', 'E']) {
        let (base, exp) = match (parse_int(&text[..at]), parse_int(&text[at + 1..])) {
            (Some(b), Some(e)) if b >= 1 && (0..=62).contains(&e) => (b, e),
            _ => return Err(not_count()),
        };
        let v = if text.as_bytes()[at] == b'^' {
            (base as f64).powf(exp as f64)
        } else {
            base as f64 * 10f64.powf(exp as f64)
        };
        if v > hi as f64 {
            return Err(format!("'{text}' is too large"));
        }
        v as i64
    } else {
        parse_int(text).ok_or_else(not_count)?
    };
    if value < lo || value > hi {
        return Err(format!("'{text}' is out of range [{lo}, {hi}]"));
    }
    Ok(value)
}

fn parse_workload(spec: &str) -> Result<Workload, ArgError> {
    let (name, size) = match spec.split_once(':') {
        Some((name, size)) => (name, size),
        None => (spec, ""),
    };
    let Some(&(_, default)) = WORKLOADS.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = WORKLOADS.iter().map(|(n, _)| *n).collect();
        return Err(arg_error(
            spec,
            format!("unknown workload (known: {})", names.join(", ")),
        ));
    };
    if spec.contains(':') && size.is_empty() {
        return Err(arg_error(spec, "empty size (omit ':' for the default)"));
    }
    let size = if size.is_empty() { default } else { size };
    let bad = |what: String| arg_error(spec, what);
    Ok(match name {
        "fib" => Workload::Fib(parse_count(size, 0, fib::MAX_N).map_err(bad)? as u32),
        "nqueens" => Workload::NQueens(parse_count(size, 1, nqueens::MAX_N).map_err(bad)? as usize),
        "strassen" => Workload::Strassen(Strassen::parse(size).map_err(bad)?),
        "sparselu" => Workload::SparseLu(SparseLu::parse(size).map_err(bad)?),
        "fft" => Workload::Fft(Fft::parse(size).map_err(bad)?),
        "sort" => Workload::Sort(Sort::parse(size).map_err(bad)?),
        "matmul" => Workload::Matmul(Matmul::parse(size).map_err(bad)?),
        _ => match uts::find_preset(size) {
            Some(p) => Workload::Uts(p),
            None => {
                return Err(bad(format!(
                    "'{size}' is not a UTS preset (expected one of {})",
                    uts::preset_names()
                )))
            }
        },
    })
}

enum Command {
    List,
    Run {
        workload: Workload,
        workers: usize,
        repeat: u64,
    },
}

fn parse_args(args: &[String]) -> Result<Command, ArgError> {
    let mut list = false;
    let mut workload: Option<Workload> = None;
    let mut workers: Option<usize> = None;
    let mut repeat: Option<u64> = None;
    let mut i = 0;
    while i < args.len() {
        let opt = args[i].as_str();
        i += 1;
        match opt {
            "--list" => {
                if list {
                    return Err(arg_error(opt, "given twice"));
                }
                list = true;
                continue;
            }
            "--workload" | "--workers" | "--repeat" => {}
            _ if opt.starts_with('-') => return Err(arg_error(opt, "unknown option")),
            _ => return Err(arg_error(opt, "unexpected argument")),
        }
        let value = match args.get(i) {
            Some(v) if !v.starts_with("--") => v.as_str(),
            _ => return Err(arg_error(opt, "missing value")),
        };
        i += 1;
        let twice = || arg_error(opt, "given twice");
        let positive = |max: i64| -> Result<i64, ArgError> {
            match parse_int(value) {
                None => Err(arg_error(opt, format!("'{value}' is not an integer"))),
                Some(v) if v < 1 || v > max => Err(arg_error(
                    opt,
                    format!("'{value}' is out of range [1, {max}]"),
                )),
                Some(v) => Ok(v),
            }
        };
        match opt {
            "--workload" => {
                if workload.is_some() {
                    return Err(twice());
                }
                workload = Some(parse_workload(value)?);
            }
            "--workers" => {
                if workers.is_some() {
                    return Err(twice());
                }
                workers = Some(positive(4096)? as usize);
            }
            _ => {
                if repeat.is_some() {
                    return Err(twice());
                }
                repeat = Some(positive(1_000_000)? as u64);
            }
        }
    }
    if list {
        if workload.is_some() || workers.is_some() || repeat.is_some() {
            return Err(arg_error("--list", "takes no other option"));
        }
        return Ok(Command::List);
    }
    let workload = workload.ok_or_else(|| arg_error("--workload", "required"))?;
    let workers = workers.ok_or_else(|| arg_error("--workers", "required"))?;
    Ok(Command::Run {
        workload,
        workers,
        repeat: repeat.unwrap_or(1),
    })
}

/// A JSON string literal: quotes, backslashes and control characters escaped.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What every workload has: built untimed, computed (timed) with a Par, then verified and
/// summarised untimed (the C++ side's workload.hpp interface).
pub trait Work {
    fn compute<P: Par>(&mut self, par: &mut P);
    fn verify(&self) -> Option<String>;
    fn result(&self) -> String;
}

macro_rules! impl_work {
    ($($t:ty),*) => {$(
        impl Work for $t {
            fn compute<P: Par>(&mut self, par: &mut P) {
                <$t>::compute(self, par)
            }
            fn verify(&self) -> Option<String> {
                <$t>::verify(self)
            }
            fn result(&self) -> String {
                <$t>::result(self)
            }
        }
    )*};
}
impl_work!(Strassen, SparseLu, Fft, Sort, Matmul);

/// fib, nqueens and uts as Work: a size in, a value out.
struct Fib {
    n: u32,
    value: u64,
}

impl Work for Fib {
    fn compute<P: Par>(&mut self, par: &mut P) {
        self.value = fib::fib(par, self.n);
    }
    fn verify(&self) -> Option<String> {
        fib::verify(self.n, self.value)
    }
    fn result(&self) -> String {
        fib::result(self.n, self.value)
    }
}

struct NQueens {
    n: usize,
    solutions: u64,
}

impl Work for NQueens {
    fn compute<P: Par>(&mut self, par: &mut P) {
        self.solutions = nqueens::solve(par, self.n);
    }
    fn verify(&self) -> Option<String> {
        nqueens::verify(self.n, self.solutions)
    }
    fn result(&self) -> String {
        nqueens::result(self.solutions)
    }
}

struct Uts {
    preset: &'static uts::Preset,
    tree: uts::Tree,
    counts: uts::Counts,
}

impl Work for Uts {
    fn compute<P: Par>(&mut self, par: &mut P) {
        self.counts = uts::traverse(par, &self.tree);
    }
    fn verify(&self) -> Option<String> {
        uts::verify(self.preset, &self.counts)
    }
    fn result(&self) -> String {
        uts::result(&self.counts)
    }
}

/// A peer's runtime: its pool of `workers` threads, and how a computation is timed on it.
pub trait Runtime: Sized {
    /// The peer's name: "peer" in the output lines, weft-peer-<NAME> in messages.
    const NAME: &'static str;
    fn build(workers: usize) -> Result<Self, String>;
    /// workload.hpp's measure(): runs and times only `work.compute`, in seconds.
    fn time<W: Work + Send>(&self, work: &mut W) -> f64;
}

/// Rayon: `ThreadPoolBuilder::num_threads(W)` with STACK_BYTES stacks; the computation
/// runs inside `install`, on one of the pool's workers.
impl Runtime for rayon::ThreadPool {
    const NAME: &'static str = "rayon";

    fn build(workers: usize) -> Result<Self, String> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("rayon-{i}"))
            .build()
            .map_err(|e| e.to_string())
    }

    fn time<W: Work + Send>(&self, work: &mut W) -> f64 {
        let start = Instant::now();
        self.install(|| work.compute(&mut par::Rayon));
        start.elapsed().as_secs_f64()
    }
}

/// chili: `ThreadPool::with_config` with W threads, that is W - 1 workers and the thread
/// that takes a scope, here the thread calling `main` (weft-peer-chili gives it and chili's
/// workers STACK_BYTES stacks), and chili's default heartbeat interval (100 us). Each
/// repetition takes a fresh scope, untimed, so that chili's heartbeat thread sleeps between
/// repetitions.
impl Runtime for chili::ThreadPool {
    const NAME: &'static str = "chili";

    fn build(workers: usize) -> Result<Self, String> {
        Ok(chili::ThreadPool::with_config(chili::Config {
            thread_count: NonZero::new(workers),
            ..Default::default()
        }))
    }

    fn time<W: Work + Send>(&self, work: &mut W) -> f64 {
        let mut scope = self.scope();
        let start = Instant::now();
        work.compute(&mut scope);
        start.elapsed().as_secs_f64()
    }
}

/// Times `work` (its input built) on the pool, then summarises and verifies it, untimed.
fn measure<R: Runtime, W: Work + Send>(pool: &R, mut work: W) -> (f64, String, Option<String>) {
    let seconds = pool.time(&mut work);
    (seconds, work.result(), work.verify())
}

/// One repetition: (seconds, result, None or the verification error).
fn run_once<R: Runtime>(workload: &Workload, pool: &R) -> (f64, String, Option<String>) {
    match *workload {
        Workload::Strassen(p) => measure(pool, Strassen::new(p)),
        Workload::SparseLu(p) => measure(pool, SparseLu::new(p)),
        Workload::Fft(p) => measure(pool, Fft::new(p)),
        Workload::Sort(p) => measure(pool, Sort::new(p)),
        Workload::Matmul(p) => measure(pool, Matmul::new(p)),
        Workload::Fib(n) => measure(pool, Fib { n, value: 0 }),
        Workload::NQueens(n) => measure(pool, NQueens { n, solutions: 0 }),
        Workload::Uts(preset) => measure(
            pool,
            Uts {
                preset,
                tree: uts::Tree::new(preset.params),
                counts: uts::Counts::default(),
            },
        ),
    }
}

/// The peer program weft-peer-<R::NAME>: parses the arguments, then lists the workloads or
/// runs one; exits 2 on a bad argument, 1 on a failed verification or pool.
pub fn main<R: Runtime>() {
    let program = format!("weft-peer-{}", R::NAME);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(ArgError(arg, what)) => {
            eprintln!("{program}: {arg}: {what}");
            exit(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (workload, workers, repeat) = match command {
        Command::List => {
            for (name, default) in WORKLOADS {
                writeln!(out, "{name} {default}").expect("stdout");
            }
            out.flush().expect("stdout");
            return;
        }
        Command::Run {
            workload,
            workers,
            repeat,
        } => (workload, workers, repeat),
    };
    let pool = match R::build(workers) {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("{program}: --workers: cannot build a pool of {workers} threads: {e}");
            exit(1);
        }
    };
    let name = workload.canonical();
    for _ in 0..repeat {
        let (seconds, result, error) = run_once(&workload, &pool);
        let mut line = format!(
            "{{\"peer\":{},\"workload\":{},\"workers\":{workers},\"seconds\":{seconds:.9},\
             \"result\":{},\"verified\":{}",
            json_string(R::NAME),
            json_string(&name),
            json_string(&result),
            error.is_none()
        );
        if let Some(e) = &error {
            line.push_str(&format!(",\"error\":{}", json_string(e)));
        }
        line.push('}');
        writeln!(out, "{line}").expect("stdout");
        out.flush().expect("stdout");
        if error.is_some() {
            exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn counts_parse_like_the_cpp_side() {
        assert_eq!(parse_count("30", 0, 50), Ok(30));
        assert_eq!(parse_count("2^4", 0, 50), Ok(16));
        assert_eq!(parse_count("1e1", 0, 50), Ok(10));
        assert!(parse_count("51", 0, 50).is_err());
        assert!(parse_count("x", 0, 50).is_err());
        assert!(parse_count("", 0, 50).is_err());
    }

    #[test]
    fn workloads_parse_like_the_cpp_side() {
        // The C++ suite's defaults (suite.cpp's default_specs), in its order.
        let names: Vec<&str> = WORKLOADS.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            ["fib", "uts", "nqueens", "strassen", "sparselu", "fft", "sort", "matmul"]
        );
        let canonical = |spec: &str| parse_workload(spec).ok().map(|w| w.canonical());
        for (spec, expected) in [
            ("strassen", "strassen:1024"),
            ("sparselu", "sparselu:50x100"),
            ("fft", "fft:2^22"),
            ("sort", "sort:10000000"),
            ("matmul", "matmul:1024"),
            ("strassen:2^6", "strassen:64"),
            ("sparselu:6X8", "sparselu:6x8"),
            ("fft:16K", "fft:2^14"),
            ("fft:1024", "fft:2^10"),
            ("sort:12345", "sort:12345"),
        ] {
            assert_eq!(canonical(spec).as_deref(), Some(expected), "{spec}");
        }
        for bad in [
            "strassen:1000",
            "matmul:8",
            "sparselu:50",
            "sparselu:0x4",
            "fft:1000",
            "fft:8",
            "sort:0",
            "sort:",
        ] {
            assert!(parse_workload(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn small_workloads_verify() {
        par::on_each_runtime!(|par, runtime| {
            for n in 0..20 {
                assert_eq!(fib::verify(n, fib::fib(par, n)), None, "{runtime}");
            }
            for n in 1..=9 {
                let solutions = nqueens::solve(par, n);
                assert_eq!(nqueens::verify(n, solutions), None, "{runtime}");
            }
        });
        for n in 1..=9 {
            assert_eq!(
                nqueens::verify(n, nqueens::solve(&mut par::Serial, n)),
                None
            );
        }
    }

    #[test]
    fn wrong_answers_fail() {
        assert!(fib::verify(20, 6764).unwrap().contains("expected 6765"));
        assert!(nqueens::verify(8, 91).unwrap().contains("expected 92"));
    }

    #[test]
    fn every_workload_runs_and_verifies_on_both_runtimes() {
        fn each<R: Runtime>(pool: &R) {
            for spec in [
                "fib:15",
                "uts:T1",
                "nqueens:6",
                "strassen:64",
                "sparselu:5x6",
                "fft:2^10",
                "sort:5000",
                "matmul:64",
            ] {
                let workload = parse_workload(spec).ok().unwrap();
                let (seconds, result, error) = run_once(&workload, pool);
                assert_eq!(error, None, "{} {spec}: {result}", R::NAME);
                assert!(seconds >= 0.0);
            }
        }
        each(&rayon::ThreadPool::build(2).unwrap());
        each(&chili::ThreadPool::build(2).unwrap());
    }
}

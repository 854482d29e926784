//! weft-peer-chili: weft's compare workloads on chili (heartbeat scheduling after Spice),
//! speaking the peer protocol (the crate's lib.rs has the protocol, par.rs the chili form of
//! each fork: join, and recursive halving by join where the C++ side spawns many).

use std::process::exit;

use weft_peer::STACK_BYTES;

fn main() {
    // The thread that takes chili's scope is one of its W threads: run everything on a
    // thread with the same deep stack as the Rayon peer's workers. chili starts its own
    // threads with std::thread::spawn, whose stack size is RUST_MIN_STACK (2 MiB unset):
    // set it before any thread starts (this thread is the only one so far).
    std::env::set_var("RUST_MIN_STACK", STACK_BYTES.to_string());
    let runner = std::thread::Builder::new()
        .name("chili-0".to_string())
        .stack_size(STACK_BYTES)
        .spawn(weft_peer::main::<chili::ThreadPool>);
    match runner.map(|thread| thread.join()) {
        Ok(Ok(())) => {}
        Ok(Err(_)) => exit(1), // a panic, whose message is on stderr (panic = "abort" aborts first)
        Err(e) => {
            eprintln!("weft-peer-chili: cannot start a thread: {e}");
            exit(1);
        }
    }
}

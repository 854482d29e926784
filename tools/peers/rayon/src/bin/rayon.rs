//! weft-peer-rayon: weft's compare workloads on Rayon, speaking the peer protocol (the
//! crate's lib.rs has the protocol, par.rs the Rayon form of each fork).

fn main() {
    weft_peer::main::<rayon::ThreadPool>();
}

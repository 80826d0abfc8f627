//! Arbitrary bytes → every parser → replay, and for what replays, what the service does
//! next: the moves listed at every turn, a turn analysed, the inline board, the final board.
#![no_main]

#[path = "../paths.rs"]
#[allow(dead_code)] // each target drives one of the paths
mod paths;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    paths::deep(bytes);
});

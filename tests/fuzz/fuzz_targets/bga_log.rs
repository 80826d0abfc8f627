//! JSON → the Board Game Arena importer → replay.
#![no_main]

#[path = "../paths.rs"]
#[allow(dead_code)] // each target drives one of the paths
mod paths;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    paths::bga_log(bytes);
});

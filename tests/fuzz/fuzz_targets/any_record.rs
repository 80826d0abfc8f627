//! Arbitrary bytes → format detection → every parser → replay → JSON and exports.
#![no_main]

#[path = "../paths.rs"]
#[allow(dead_code)] // each target drives one of the paths
mod paths;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    paths::any_record(bytes);
});

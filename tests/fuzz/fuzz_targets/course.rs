//! Text → the course notation's parser → replay.
#![no_main]

#[path = "../paths.rs"]
#[allow(dead_code)] // each target drives one of the paths
mod paths;

libfuzzer_sys::fuzz_target!(|text: &str| {
    paths::course(text);
});

//! What the tests share: the real app and a client for it (`app`), headless Chromium
//! (`browser`), hostile records (`hostile`), where the shared fixtures live, and loading
//! records. Tests step through a record with the crate's own walker, `record::Walk`.
//!
//! The fixtures are read from `../shared/fixtures` at test time and never copied into the
//! repository (several are AGPL).

#![allow(dead_code)]

pub mod app;
pub mod browser;
pub mod hostile;
pub mod postgres;
pub mod server;

use carcassonne_replay::engine::{Rotation, TileCatalog, TileKindId};
use carcassonne_replay::record::tile_names::{self, System};
use carcassonne_replay::record::{self, GameRecord};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The shared fixture directory, `../shared/fixtures`; see [`shared_dir`].
#[track_caller]
pub fn fixtures_dir() -> Option<PathBuf> {
    shared_dir("fixtures")
}

/// `../shared/<name>`. When it is missing the test fails (see [`missing`]); `None` only when
/// `SKIP_SHARED=1` says to skip such tests.
#[track_caller]
pub fn shared_dir(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    missing("SKIP_SHARED", &dir.display().to_string());
    None
}

/// What a test needs (`what`) is missing. That fails the test, on every machine: a check that
/// did not run must not pass. Only `switch=1` (`SKIP_SHARED`, `SKIP_BROWSER`), set by hand,
/// lets it pass without checking, and then it says so on stderr (`cargo test -- --nocapture`).
#[track_caller]
pub fn missing(switch: &str, what: &str) {
    if std::env::var(switch).as_deref() != Ok("1") {
        panic!("{what} is missing, and this test needs it (`{switch}=1` skips such tests)");
    }
    eprintln!("SKIPPED: {what} is missing, and {switch}=1, so this test checked nothing");
}

/// Ann has knights in two one-tile cities (north and west of (0,2)), Bob one in a third (east).
/// Tile R (city N, E, W) at (0,2) joins all three and closes them: 4 tiles, 8 points, and
/// Ann's two knights beat Bob's one, so Ann takes it all.
pub const STEAL: &str = r#"
    {"tile": "E", "at": [0, 1], "rotation": 180, "meeple": {"feature": "city", "at": "S"}},
    {"tile": "B", "at": [1, 1], "rotation": 0},
    {"tile": "B", "at": [-1, 1], "rotation": 0},
    {"tile": "E", "at": [1, 2], "rotation": 270, "meeple": {"feature": "city", "at": "W"}},
    {"tile": "E", "at": [-1, 2], "rotation": 90, "meeple": {"feature": "city", "at": "E"}},
    {"tile": "U", "at": [1, 0], "rotation": 90},
    {"tile": "R", "at": [2, 1], "rotation": 90}"#;

/// Files in `dir` whose name ends with `suffix`, sorted by name.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix))
        })
        .collect();
    out.sort();
    out
}

/// Sub-directories of `dir`, sorted by name.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: bad JSON: {e}", path.display()))
}

/// Every line of a `.jsonl` file, parsed.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{} line {}: bad JSON: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Parses a record file; the error is the importer's message.
pub fn load_record(path: &Path) -> Result<GameRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    record::parse(&bytes).map(|(r, _)| r).map_err(|e| e.to_string())
}

/// A JCZ tile id and JCZ rotation (degrees, clockwise) as our kind and rotation.
pub fn jcz_tile(cat: &TileCatalog, id: &str, degrees: i64) -> (TileKindId, Rotation) {
    let alias = tile_names::resolve(cat, System::Jcz, id).unwrap_or_else(|| panic!("unknown JCZ tile id {id:?}"));
    let r = Rotation::from_degrees(degrees).unwrap_or_else(|| panic!("JCZ rotation {degrees} is not a multiple of 90"));
    (alias.kind, r.plus(alias.offset))
}

/// Checks collected over one test: failures are reported together at the end.
#[derive(Default)]
pub struct Failures(pub Vec<String>);

impl Failures {
    pub fn push(&mut self, msg: impl Into<String>) {
        self.0.push(msg.into());
    }

    /// Panics with every failure when there is any.
    pub fn finish(self, what: &str) {
        if !self.0.is_empty() {
            let shown: Vec<&str> = self.0.iter().take(60).map(String::as_str).collect();
            let more = self.0.len().saturating_sub(shown.len());
            panic!(
                "{what}: {} failure(s):\n  {}{}",
                self.0.len(),
                shown.join("\n  "),
                if more > 0 {
                    format!("\n  … and {more} more")
                } else {
                    String::new()
                }
            );
        }
    }
}

/// Runs `check` on every `.jcz` save in `dirs`, prints how many games and turns it compared,
/// and fails with every mismatch it collected.
pub fn check_games(dirs: &[PathBuf], label: &str, check: impl Fn(&Path, &mut Failures) -> Result<usize, String>) {
    let mut f = Failures::default();
    let (mut games, mut turns) = (0, 0);
    for dir in dirs {
        for jcz in files_with_suffix(dir, ".jcz") {
            games += 1;
            match check(&jcz, &mut f) {
                Ok(n) => turns += n,
                Err(e) => f.push(format!("{label}/{}: {e}", file_name(&jcz))),
            }
        }
    }
    assert!(games > 0, "no games for {label}");
    println!(
        "{label}: {games} games, {turns} turns compared, {} mismatches",
        f.0.len()
    );
    f.finish(label);
}

/// Plays the next move of a walk, naming the move on failure.
pub fn step(w: &mut record::Walk, record: &GameRecord) -> Result<(), String> {
    match w.step() {
        Some(Ok(_)) | None => Ok(()),
        Some(Err(e)) => Err(e.describe(record)),
    }
}

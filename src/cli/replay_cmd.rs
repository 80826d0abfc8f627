//! `replay`, `export` and `generate`: read a record, replay it, print a table, JSON, a `.jcz`
//! or CSV; or play a game with bots and print its record. What each game does is in
//! [`super::game::Commands`].

use super::game::{self, Bots, Commands};
use super::output::emit;
use crate::record::{self, MAX_RECORD_BYTES};
use crate::selfplay::Policy;
use std::io::Read;
use std::path::Path;

/// Reads at most `MAX_RECORD_BYTES` (plus one, to tell a file that is too large).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

pub fn run(path: &Path, as_json: bool, preset_name: Option<&str>) -> Result<(), String> {
    let record = game::read(path)?;
    emit(&game::of_record(&record).replay(path, as_json, preset_name)?);
    Ok(())
}

pub fn export(path: &Path, to: &str) -> Result<(), String> {
    let record = game::read(path)?;
    emit(&game::of_record(&record).export(path, to)?);
    Ok(())
}

/// Why New World and the Card Game have no `.jcz`: JCloisterZone plays the tile game only.
pub fn no_jcz(game: &str) -> String {
    format!("JCloisterZone has no {game}, only the tile game; export this game to json or csv")
}

pub fn generate(
    seed: u64,
    players: u8,
    (game_name, preset_name): (&str, Option<&str>),
    policy: &str,
    river: bool,
    abbot: bool,
) -> Result<(), String> {
    let policy = match policy {
        "random" => Policy::Random,
        "greedy" => Policy::Greedy,
        "sampled" => Policy::Sampled,
        other => return Err(format!("unknown policy {other:?}; use random, greedy or sampled")),
    };
    let kind = game::kind(game_name)?;
    let bots = Bots {
        players,
        policy,
        seed,
        preset: preset_name,
        river,
        abbot,
    };
    emit(&record::dispatch_kind!(kind, R => R::generate(kind, &bots))?);
    Ok(())
}

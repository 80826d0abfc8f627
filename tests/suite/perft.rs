//! Legal-move generation ("perft") against the YetAnotherSpieskowcy engine's counts
//! (`../shared/fixtures/games/yas/<seed>.expected.json`).
//!
//! For every placed tile, on the game state before its turn with that tile drawn, the moves
//! `Position::legal_moves` lists:
//! - `num_placements`: distinct placements, rotations giving the same board counted once;
//! - `num_moves`: over those placements, 1 (no meeple) plus the legal deployments on the placed
//!   tile. The abbot is not in these games; a player with an empty supply has no deployments.

use crate::common;

use carcassonne_replay::engine::{Action, Game, Played, Position, TileKindId};
use carcassonne_replay::record::{RecordedMove, Walk};
use common::{Failures, file_name, fixtures_dir, read_json};
use serde_json::Value;
use std::path::Path;

/// (placements, moves) for drawing `tile` now.
fn perft1(game: &Game, tile: TileKindId) -> (usize, usize) {
    let mut drawn = game.clone();
    drawn.draw(tile).expect("the record's tile may be drawn");
    let mut moves = Vec::new();
    drawn.legal_moves(&mut moves);
    let placed: Vec<_> = moves
        .iter()
        .filter_map(|m| match m {
            Played::Place(mv) => Some(mv),
            Played::Discard(_) => None,
        })
        .filter(|mv| matches!(mv.action, Action::Pass | Action::Deploy { .. }))
        .collect();
    let mut placements: Vec<_> = placed.iter().map(|mv| mv.placement).collect();
    placements.dedup();
    (placements.len(), placed.len())
}

fn counts(v: &Value, key: &str) -> Result<Vec<usize>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no {key}"))?
        .iter()
        .map(|n| {
            n.as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| format!("{key}: not a count"))
        })
        .collect()
}

fn check_game(jcz: &Path, f: &mut Failures) -> Result<usize, String> {
    let stem = file_name(jcz).trim_end_matches(".jcz").to_string();
    let n = format!("yas/{stem}");
    let expected = read_json(&jcz.with_file_name(format!("{stem}.expected.json")));
    let want_placements = counts(&expected, "num_placements")?;
    let want_moves = counts(&expected, "num_moves")?;
    let record = common::load_record(jcz)?;
    if record.resolved_rules().abbot {
        return Err("the abbot is in play; the expected counts assume it is not".into());
    }
    let mut w = Walk::new(&record).map_err(|e| e.describe(&record))?;
    let mut turn = 0;
    while let Some(m) = w.peek() {
        if let RecordedMove::Place { tile, .. } = *m {
            let (placements, moves) = perft1(w.game(), tile);
            let name = w.game().catalog().name(tile).to_string();
            let want_p = want_placements.get(turn).copied();
            let want_m = want_moves.get(turn).copied();
            turn += 1;
            if want_p != Some(placements) || want_m != Some(moves) {
                let player = w.game().current_player();
                f.push(format!(
                    "{n} turn {turn} (tile {name}, player {player} with {} followers): {placements} placements / {moves} moves, expected {want_p:?} / {want_m:?}",
                    w.game().players()[player as usize].followers
                ));
            }
        }
        common::step(&mut w, &record).map_err(|e| format!("{n}: {e}"))?;
    }
    if turn != want_placements.len() || turn != want_moves.len() {
        f.push(format!(
            "{n}: {turn} turns, expected {} placement counts and {} move counts",
            want_placements.len(),
            want_moves.len()
        ));
    }
    Ok(turn)
}

#[test]
fn yas_perft_counts_match() {
    if let Some(fixtures) = fixtures_dir() {
        common::check_games(&[fixtures.join("games/yas")], "perft", check_game);
    }
}

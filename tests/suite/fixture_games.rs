//! Complete games with known results (`../shared/fixtures/games/`), replayed and compared.
//!
//! `jcz/*/<name>.jcz`, scored by JCloisterZone 5.12: final scores, scores before final scoring,
//! every turn's player, tile, placement, scores and number of legal placements (JCZ counts every
//! rotation, so `placements(tile, false)`), points per category, tiles placed per player, and
//! the discarded tiles with the turn they happened in.
//!
//! `yas/<seed>.jcz`, scored by the YetAnotherSpieskowcy engine: final scores, scores before
//! final scoring, every turn's player, scores and followers left, and the discards.
//!
//! In detail: the 21 JCloisterZone games and 10 YetAnotherSpieskowcy games in
//! `../shared/fixtures/games/`: every turn's scores, legal placement counts, points per
//! category, discards, final scores; native export round trips.

use crate::common;

use carcassonne_replay::engine::{Event, TileCategory, TileKindId};
use carcassonne_replay::record::{GameRecord, RecordedMove, Walk};
use carcassonne_replay::replay::{self, Categories, Replay};
use common::{Failures, file_name, files_with_suffix, fixtures_dir, jcz_tile, read_json, read_jsonl, subdirs};
use serde_json::Value;
use std::path::Path;

fn ints(v: Option<&Value>) -> Option<Vec<i64>> {
    v?.as_array()?.iter().map(Value::as_i64).collect()
}

fn scores(v: &[i32]) -> Vec<i64> {
    v.iter().map(|&s| s as i64).collect()
}

/// Number of legal placements (every rotation counted) of each placed tile, computed on the
/// game state before its turn.
fn legal_placements_per_turn(record: &GameRecord) -> Result<Vec<usize>, String> {
    let mut w = Walk::new(record).map_err(|e| e.describe(record))?;
    let mut out = Vec::new();
    let mut buf = Vec::new();
    while let Some(m) = w.peek() {
        if let RecordedMove::Place { tile, .. } = *m {
            w.game().placements(tile, false, &mut buf);
            out.push(buf.len());
        }
        common::step(&mut w, record)?;
    }
    Ok(out)
}

/// Our discards as (tile, turn, player): the turn is the placed tile the discard preceded
/// (JCZ: the discard happens in that turn, and the same player then draws again).
fn discards(r: &Replay) -> Vec<(TileKindId, u32, u8)> {
    let after = r.turns.len() as u32 + 1;
    r.turns
        .iter()
        .flat_map(|t| t.events.iter().map(move |e| (t.turn, e)))
        .chain(r.final_events.iter().map(|e| (after, e)))
        .filter_map(|(turn, e)| match *e {
            Event::TileDiscarded { player, tile } => Some((tile, turn, player)),
            _ => None,
        })
        .collect()
}

/// JCZ's scoring names summed into our categories.
fn jcz_categories(v: &Value) -> Result<Categories, String> {
    let mut c = Categories::new(&TileCategory::CARCASSONNE);
    for (name, points) in v.as_object().ok_or("points_by_category entry is not an object")? {
        let p = points.as_u64().ok_or_else(|| format!("{name}: not a number"))? as u32;
        let ours = match name.split('.').next().unwrap_or_default() {
            "monastery" => TileCategory::Cloister,
            "road" => TileCategory::Road,
            "city" => TileCategory::City,
            "garden" => TileCategory::Garden,
            "field" => TileCategory::Field,
            other => return Err(format!("unknown scoring name {other:?}")),
        };
        c.add(ours, p);
    }
    Ok(c)
}

fn ours(b: &replay::Breakdown) -> Categories {
    b.both()
}

/// Scores after the last placed tile, before final scoring.
fn before_final(r: &Replay) -> Vec<i32> {
    r.turns
        .last()
        .map_or_else(|| vec![0; r.final_scores.len()], |t| t.scores.clone())
}

/// Final scoring ran, and the scores before and after it are the expected ones.
fn check_end(n: &str, r: &Replay, expected: &Value, f: &mut Failures) -> Result<(), String> {
    if !r.finished {
        f.push(format!("{n}: the replay did not run final scoring"));
    }
    let want = ints(expected.get("final_scores")).ok_or("no final_scores")?;
    if scores(&r.final_scores) != want {
        f.push(format!("{n}: final scores {:?}, expected {want:?}", r.final_scores));
    }
    let want = ints(expected.get("scores_before_final")).ok_or("no scores_before_final")?;
    if scores(&before_final(r)) != want {
        f.push(format!(
            "{n}: scores before final scoring {:?}, expected {want:?}",
            before_final(r)
        ));
    }
    Ok(())
}

fn check_jcz_game(jcz: &Path, f: &mut Failures) -> Result<usize, String> {
    let dir = jcz.parent().expect("a file has a parent");
    let stem = file_name(jcz).trim_end_matches(".jcz").to_string();
    let expected = read_json(&dir.join(format!("{stem}.expected.json")));
    let lines = read_jsonl(&dir.join(format!("{stem}.turns.jsonl")));
    let record = common::load_record(jcz)?;
    let r = replay::replay(&record, None).map_err(|e| format!("replay failed: {e}"))?;
    let cat = &record.setup.catalog;
    let n = stem.as_str();

    check_end(n, &r, &expected, f)?;

    // Turn by turn.
    if r.turns.len() != lines.len() {
        f.push(format!(
            "{n}: {} turns replayed, turns.jsonl has {}",
            r.turns.len(),
            lines.len()
        ));
    }
    let legal = legal_placements_per_turn(&record)?;
    let mut first_score_diff = None;
    for (i, line) in lines.iter().enumerate() {
        let Some(t) = r.turns.get(i) else { break };
        let turn = line.get("turn").and_then(Value::as_u64).unwrap_or(0);
        if turn != t.turn as u64 {
            f.push(format!("{n}: line {} is turn {turn}, ours is turn {}", i + 1, t.turn));
        }
        let player = line.get("player").and_then(Value::as_u64);
        if player != Some(t.player as u64) {
            f.push(format!("{n} turn {turn}: player {}, expected {player:?}", t.player));
        }
        let id = line.get("tile_id").and_then(Value::as_str).unwrap_or_default();
        let deg = line.get("rotation").and_then(Value::as_i64).unwrap_or(-1);
        let (kind, rot) = jcz_tile(cat, id, deg);
        let pos = ints(line.get("position")).unwrap_or_default();
        if kind != t.mv.tile
            || rot != t.mv.placement.rotation
            || pos != [t.mv.placement.pos.x as i64, t.mv.placement.pos.y as i64]
        {
            f.push(format!(
                "{n} turn {turn}: placed {} at {} rotated {}, expected {id} at {pos:?} R{deg}",
                cat.name(t.mv.tile),
                t.mv.placement.pos,
                t.mv.placement.rotation
            ));
        }
        let want = ints(line.get("points")).unwrap_or_default();
        if scores(&t.scores) != want && first_score_diff.is_none() {
            // Later turns inherit the difference; report where it starts.
            first_score_diff = Some(turn);
            f.push(format!(
                "{n} turn {turn} ({id} at {pos:?}): scores {:?}, expected {want:?}; JCZ scoring: {}",
                t.scores,
                line.get("scoring").map(Value::to_string).unwrap_or_default()
            ));
        }
        let want = line.get("legal_placements").and_then(Value::as_u64);
        if legal.get(i).map(|&l| l as u64) != want {
            f.push(format!(
                "{n} turn {turn} ({id}): {:?} legal placements, expected {want:?}",
                legal.get(i)
            ));
        }
    }

    // Points per category and tiles per player.
    let by_cat = expected
        .get("points_by_category")
        .and_then(Value::as_array)
        .ok_or("no points_by_category")?;
    for (p, v) in by_cat.iter().enumerate() {
        let want = jcz_categories(v)?;
        let got = r
            .breakdown
            .get(p)
            .map_or_else(|| Categories::new(&TileCategory::CARCASSONNE), ours);
        if got != want {
            f.push(format!(
                "{n}: player {p} points by category {got:?}, expected {want:?} (JCZ: {v})"
            ));
        }
    }
    let want = ints(expected.get("tiles_placed")).ok_or("no tiles_placed")?;
    let mut got = vec![0i64; record.players.len()];
    for t in &r.turns {
        got[t.player as usize] += 1;
    }
    if got != want {
        f.push(format!("{n}: tiles placed per player {got:?}, expected {want:?}"));
    }

    // Discards.
    let want: Vec<(TileKindId, u32, u8)> = expected
        .get("discarded_tiles")
        .and_then(Value::as_array)
        .ok_or("no discarded_tiles")?
        .iter()
        .map(|d| {
            let id = d.get("tile").and_then(Value::as_str).unwrap_or_default();
            (
                jcz_tile(cat, id, 0).0,
                d.get("turn").and_then(Value::as_u64).unwrap_or(0) as u32,
                d.get("player").and_then(Value::as_u64).unwrap_or(0) as u8,
            )
        })
        .collect();
    let got = discards(&r);
    if got != want {
        let show = |l: &[(TileKindId, u32, u8)]| -> Vec<String> {
            l.iter()
                .map(|(k, t, p)| format!("{} in turn {t} by player {p}", cat.name(*k)))
                .collect()
        };
        f.push(format!("{n}: discards {:?}, expected {:?}", show(&got), show(&want)));
    }
    Ok(lines.len())
}

#[test]
fn jcz_games_match_jcloisterzone() {
    if let Some(fixtures) = fixtures_dir() {
        common::check_games(&subdirs(&fixtures.join("games/jcz")), "games/jcz", check_jcz_game);
    }
}

fn check_yas_game(jcz: &Path, f: &mut Failures) -> Result<usize, String> {
    let stem = file_name(jcz).trim_end_matches(".jcz").to_string();
    let expected = read_json(&jcz.with_file_name(format!("{stem}.expected.json")));
    let record = common::load_record(jcz)?;
    let r = replay::replay(&record, None).map_err(|e| format!("replay failed: {e}"))?;
    let n = format!("yas/{stem}");

    check_end(&n, &r, &expected, f)?;
    let per_turn: Vec<Vec<i64>> = expected
        .get("per_turn_scores")
        .and_then(Value::as_array)
        .ok_or("no per_turn_scores")?
        .iter()
        .map(|s| ints(Some(s)).unwrap_or_default())
        .collect();
    if per_turn.len() != r.turns.len() {
        f.push(format!(
            "{n}: {} turns replayed, {} expected",
            r.turns.len(),
            per_turn.len()
        ));
    }
    let players = ints(expected.get("per_turn_player")).unwrap_or_default();
    let meeples: Vec<Vec<i64>> = expected
        .get("per_turn_meeples_left")
        .and_then(Value::as_array)
        .map(|l| l.iter().map(|s| ints(Some(s)).unwrap_or_default()).collect())
        .unwrap_or_default();
    let mut first_score_diff = false;
    for (i, t) in r.turns.iter().enumerate() {
        if let Some(want) = per_turn.get(i)
            && scores(&t.scores) != *want
            && !first_score_diff
        {
            // Later turns inherit the difference; report where it starts.
            first_score_diff = true;
            f.push(format!("{n} turn {}: scores {:?}, expected {want:?}", t.turn, t.scores));
        }
        if let Some(&want) = players.get(i)
            && t.player as i64 != want
        {
            f.push(format!("{n} turn {}: player {}, expected {want}", t.turn, t.player));
        }
        if let Some(want) = meeples.get(i) {
            let got: Vec<i64> = t.supply.iter().map(|s| s.followers as i64).collect();
            if got != *want {
                f.push(format!(
                    "{n} turn {}: followers in supply {got:?}, expected {want:?}",
                    t.turn
                ));
            }
        }
    }
    // Discards: the tile, the turn (the placed tile it preceded) and the player who drew it.
    let mut want: Vec<(TileKindId, u32, u8)> = Vec::new();
    for d in expected
        .get("discarded")
        .and_then(Value::as_array)
        .ok_or("no discarded")?
    {
        let turn = d.get("turn").and_then(Value::as_u64).unwrap_or(0) as u32;
        let player = d.get("player").and_then(Value::as_u64).unwrap_or(0) as u8;
        for id in d.get("jcz_tiles").and_then(Value::as_array).into_iter().flatten() {
            let id = id.as_str().unwrap_or_default();
            want.push((jcz_tile(&record.setup.catalog, id, 0).0, turn, player));
        }
    }
    let got = discards(&r);
    if got != want {
        f.push(format!("{n}: discards (tile, turn, player) {got:?}, expected {want:?}"));
    }
    Ok(r.turns.len())
}

#[test]
fn yas_games_match_their_engine() {
    if let Some(fixtures) = fixtures_dir() {
        common::check_games(&[fixtures.join("games/yas")], "games/yas", check_yas_game);
    }
}

/// Native export keeps everything that matters: each game, exported and read back, replays to
/// the same scores turn by turn and at the end, under the same rules.
#[test]
fn jcz_games_survive_export_to_native_json() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    let mut games = 0;
    for dir in subdirs(&fixtures.join("games/jcz"))
        .into_iter()
        .chain([fixtures.join("games/yas")])
    {
        for jcz in files_with_suffix(&dir, ".jcz") {
            let record = common::load_record(&jcz).unwrap();
            let exported = carcassonne_replay::record::native::to_pretty_string(&record);
            let (again, _) = carcassonne_replay::record::parse(exported.as_bytes()).unwrap();
            let (a, b) = (
                replay::replay(&record, None).unwrap(),
                replay::replay(&again, None).unwrap(),
            );
            let per_turn = |r: &Replay| r.turns.iter().map(|t| t.scores.clone()).collect::<Vec<_>>();
            assert_eq!(per_turn(&a), per_turn(&b), "{}", file_name(&jcz));
            assert_eq!(a.final_scores, b.final_scores, "{}", file_name(&jcz));
            assert_eq!(a.rules(), b.rules(), "{}", file_name(&jcz));
            games += 1;
        }
    }
    println!("{games} games exported to native JSON and replayed identically");
    assert!(games >= 30);
}

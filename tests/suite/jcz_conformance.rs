//! JCloisterZone test saves (`../shared/fixtures/jcz-tests/*.jcz`): replay each save and check
//! every assertion of its `test` block (grammar: `reference/jcz-format.md` §10).
//!
//! Checked: `<Name> has <n> points`, `<Name> scored <feature> for <n> points`,
//! `TilePlacement <tile> options: …`, `Meeple <Type> options: …`, `Player can pass` and
//! `Player can't pass`. Engine-UI assertions (`Phase is`, `Undo is`, `Available action`) are
//! counted as skipped, and so is every assertion of a save the importer rejects as unsupported.
//!
//! Run with `--nocapture` to see the counts.

use crate::common;

use carcassonne_replay::engine::{
    Action, Event, FeatureKind, Figure, Game, NO_SEGMENT, Placement, Pos, Rotation, Side, TileKindId,
};
use carcassonne_replay::record::tile_names::{self, System};
use carcassonne_replay::record::{GameRecord, RecordedMove, Walk};
use carcassonne_replay::replay::{self, Replay};
use common::{Failures, file_name, files_with_suffix, fixtures_dir, jcz_tile, read_json};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

enum Outcome {
    Pass,
    Fail(String),
    Skip(&'static str),
}

/// What an assertion needs: the record, its replay, and the state of the save's last turn.
struct Save<'a> {
    record: &'a GameRecord,
    replay: &'a Replay,
    /// The save ends with a placed tile whose meeple step is still pending (no action, no
    /// COMMIT after the last PLACE_TILE).
    meeple_step_pending: bool,
}

impl Save<'_> {
    fn player(&self, name: &str) -> Result<usize, String> {
        self.record
            .players
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| format!("no player named {name:?}"))
    }

    /// The game just before the last placed tile, with that tile and its placement.
    fn before_last_tile(&self) -> Result<(Game, Placement, TileKindId), String> {
        let last = self
            .record
            .moves
            .iter()
            .rposition(|m| matches!(m, RecordedMove::Place { .. }))
            .ok_or("the save places no tile")?;
        let mut w = Walk::new(self.record).map_err(|e| e.describe(self.record))?;
        while w.index() < last {
            common::step(&mut w, self.record)?;
        }
        let RecordedMove::Place { tile, placement, .. } = self.record.moves[last] else {
            unreachable!()
        };
        Ok((w.into_game(), placement, tile))
    }

    /// Legal deployments of `figure` on the last placed tile, as segment indices.
    fn deployments(&self, figure: Figure) -> Result<(Game, Placement, TileKindId, BTreeSet<u8>), String> {
        let (game, placement, tile) = self.before_last_tile()?;
        let mut actions = Vec::new();
        game.actions(tile, placement, &mut actions);
        let segs = actions
            .iter()
            .filter_map(|a| match *a {
                Action::Deploy { segment, figure: f } if f == figure => Some(segment),
                _ => None,
            })
            .collect();
        Ok((game, placement, tile, segs))
    }
}

fn evaluate(save: &Save, text: &str) -> Outcome {
    match evaluate_inner(save, text) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

fn evaluate_inner(save: &Save, text: &str) -> Result<Outcome, String> {
    let a = text.trim().trim_end_matches('.').trim();
    let lower = a.to_ascii_lowercase();
    if lower.starts_with("phase is") {
        return Ok(Outcome::Skip("Phase is"));
    }
    if lower.starts_with("undo is") {
        return Ok(Outcome::Skip("Undo is"));
    }
    if lower.starts_with("available action") {
        return Ok(Outcome::Skip("Available action"));
    }
    if lower == "player can pass" || lower == "player can't pass" {
        return can_pass(save, lower == "player can pass");
    }
    if let Some(rest) = a.strip_prefix("TilePlacement ") {
        return tile_placement(save, rest);
    }
    if let Some(rest) = a.strip_prefix("Meeple ") {
        return meeple_options(save, rest);
    }
    let words: Vec<&str> = a.split_whitespace().collect();
    match words.as_slice() {
        [name, "has", n, "points" | "point"] => {
            let p = save.player(name)?;
            let n: i32 = n.parse().map_err(|_| format!("bad number {n:?}"))?;
            let got = save.replay.final_scores[p];
            Ok(if got == n {
                Outcome::Pass
            } else {
                Outcome::Fail(format!("{name} has {got} points (finished: {})", save.replay.finished))
            })
        }
        [name, "scored", feature, "for", n, "points" | "point"] => {
            let p = save.player(name)? as u8;
            let n: u32 = n.parse().map_err(|_| format!("bad number {n:?}"))?;
            let base = feature.split('.').next().unwrap_or_default().replace('-', "");
            let kind = FeatureKind::parse(&base).ok_or_else(|| format!("unknown feature {feature:?}"))?;
            let events = save
                .replay
                .turns
                .iter()
                .flat_map(|t| &t.events)
                .chain(&save.replay.final_events);
            let mut theirs = Vec::new();
            for e in events {
                if let Event::Scored(s) = e
                    && s.players.contains(p)
                {
                    if s.feature == kind && s.points == n {
                        return Ok(Outcome::Pass);
                    }
                    theirs.push(format!("{} {} ({:?})", s.feature, s.points, s.reason));
                }
            }
            Ok(Outcome::Fail(format!(
                "no {kind} scoring of {n} for {name}; their scorings: [{}]",
                theirs.join(", ")
            )))
        }
        _ => Ok(Outcome::Fail("unrecognised assertion".into())),
    }
}

/// "Player can pass": the pending step is the meeple step and it offers something besides
/// passing (JCZ skips a meeple step without options). After a COMMIT the pending step is the
/// tile placement, which cannot be passed in the base game.
fn can_pass(save: &Save, expected: bool) -> Result<Outcome, String> {
    let got = if save.meeple_step_pending {
        let (game, placement, tile) = save.before_last_tile()?;
        let mut actions = Vec::new();
        game.actions(tile, placement, &mut actions);
        actions.iter().any(|a| *a != Action::Pass)
    } else {
        false
    };
    Ok(if got == expected {
        Outcome::Pass
    } else {
        Outcome::Fail(format!(
            "the player {} pass (meeple step pending: {})",
            if got { "can" } else { "cannot" },
            save.meeple_step_pending
        ))
    })
}

/// The bracketed groups of a text: "[1,-3] - [0,90]" gives ["1,-3", "0,90"].
fn bracket_groups(s: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| format!("unclosed bracket in {s:?}"))?
            + open;
        out.push(&rest[open + 1..close]);
        rest = &rest[close + 1..];
    }
    Ok(out)
}

fn ints(s: &str) -> Result<Vec<i64>, String> {
    s.split(',')
        .map(|n| n.trim().parse().map_err(|_| format!("bad number {n:?}")))
        .collect()
}

/// "TilePlacement <tileId> options: [x,y] - [deg,…]; …": the complete set of legal placements
/// of that tile on the board at the end of the save. JCZ lists every rotation, symmetric or not.
fn tile_placement(save: &Save, rest: &str) -> Result<Outcome, String> {
    let (id, options) = rest
        .split_once(" options:")
        .ok_or("expected \"TilePlacement <tile> options: …\"")?;
    let id = id.trim();
    let cat = &save.record.setup.catalog;
    let kind = tile_names::resolve(cat, System::Jcz, id)
        .ok_or_else(|| format!("unknown tile {id:?}"))?
        .kind;
    // Ours as (x, y, our quarter turns), with the JCZ wording for messages.
    let mut expected: BTreeMap<(i32, i32, u8), String> = BTreeMap::new();
    for entry in options.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let groups = bracket_groups(entry)?;
        let [pos, rots] = groups.as_slice() else {
            return Err(format!("bad option {entry:?}"));
        };
        let xy = ints(pos)?;
        let [x, y] = xy.as_slice() else {
            return Err(format!("bad position in {entry:?}"));
        };
        for deg in ints(rots)? {
            let (k, r) = jcz_tile(cat, id, deg);
            if k != kind {
                return Err(format!("{id} R{deg} resolves to another tile kind"));
            }
            expected.insert((*x as i32, *y as i32, r.quarter_turns()), format!("[{x},{y}] R{deg}"));
        }
    }
    let mut out = Vec::new();
    save.replay.game.placements(kind, false, &mut out);
    let offset = tile_names::resolve(cat, System::Jcz, id)
        .expect("resolved above")
        .offset;
    let got: BTreeSet<(i32, i32, u8)> = out
        .iter()
        .map(|p| (p.pos.x, p.pos.y, p.rotation.quarter_turns()))
        .collect();
    let want: BTreeSet<(i32, i32, u8)> = expected.keys().copied().collect();
    if got == want {
        return Ok(Outcome::Pass);
    }
    let jcz = |&(x, y, q): &(i32, i32, u8)| format!("[{x},{y}] R{}", Rotation::new(q).minus(offset).degrees());
    let missing: Vec<String> = want.difference(&got).map(jcz).collect();
    let extra: Vec<String> = got.difference(&want).map(jcz).collect();
    Ok(Outcome::Fail(format!(
        "{} legal placements vs {} expected; missing (JCZ terms): {missing:?}; extra: {extra:?}",
        got.len(),
        want.len()
    )))
}

/// The segment of the placed tile that a JCZ location names, checked by identity: the
/// location must list exactly the segment's sides (cities, roads) or half-edges (fields).
fn jcz_segment(game: &Game, tile: TileKindId, r: Rotation, kind: FeatureKind, loc: &str) -> Result<u8, String> {
    let t = game.tile_kind(tile);
    let o = t.oriented(r);
    let seg = if kind.is_inner() {
        if loc != "I" {
            return Err(format!("{kind} location {loc:?} is not I"));
        }
        t.segments
            .iter()
            .position(|s| s.kind == kind)
            .map_or(NO_SEGMENT, |i| i as u8)
    } else if kind == FeatureKind::Field {
        const HALVES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
        let mut mask = 0u8;
        for h in loc.split('.') {
            let i = HALVES
                .iter()
                .position(|n| *n == h)
                .ok_or_else(|| format!("bad half-edge {h:?} in {loc:?}"))?;
            mask |= 1 << i;
        }
        let seg = o.half_segment[mask.trailing_zeros() as usize];
        if seg != NO_SEGMENT && o.halves[seg as usize] != mask {
            return Err(format!(
                "field {loc:?} is not one segment of tile {} (segment {seg} has half-edge mask {:#010b}, location {mask:#010b})",
                t.name, o.halves[seg as usize]
            ));
        }
        seg
    } else {
        let letters = |s: &str| -> Result<u8, String> {
            s.chars().try_fold(0u8, |m, c| {
                let side = Side::parse(&c.to_string()).ok_or_else(|| format!("bad side {c:?} in {loc:?}"))?;
                Ok(m | side.bit())
            })
        };
        let mask = match loc.strip_prefix('_') {
            Some(missing) => 0b1111 & !letters(missing)?,
            None => letters(loc)?,
        };
        if mask == 0 {
            return Err(format!("empty location {loc:?}"));
        }
        let seg = o.side_segment[mask.trailing_zeros() as usize];
        if seg != NO_SEGMENT && o.sides[seg as usize] != mask {
            return Err(format!(
                "{kind} {loc:?} is not one segment of tile {} (segment {seg} has side mask {:#06b}, location {mask:#06b})",
                t.name, o.sides[seg as usize]
            ));
        }
        seg
    };
    if seg == NO_SEGMENT || t.segments[seg as usize].kind != kind {
        return Err(format!("tile {} rotated {r} has no {kind} at {loc:?}", t.name));
    }
    Ok(seg)
}

/// "Meeple SmallFollower options: {Feature,Location,[x,y]}; …": the complete list of legal
/// deployments on the tile just placed. Each listed option must name a distinct deployable
/// segment, and the engine must offer no others.
fn meeple_options(save: &Save, rest: &str) -> Result<Outcome, String> {
    let (ty, options) = rest
        .split_once(" options:")
        .ok_or("expected \"Meeple <Type> options: …\"")?;
    let figure = match ty.trim() {
        "SmallFollower" => Figure::Follower,
        "Abbot" => Figure::Abbot,
        other => return Err(format!("meeple type {other:?} is not in the base game")),
    };
    let (game, placement, tile, legal) = save.deployments(figure)?;
    let mut listed = BTreeSet::new();
    let mut problems = Vec::new();
    for entry in options.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let inner = entry.trim_start_matches('{').trim_end_matches('}');
        let mut parts = inner.splitn(3, ',');
        let (Some(feature), Some(loc), Some(pos)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("bad option {entry:?}"));
        };
        let xy = ints(pos.trim().trim_start_matches('[').trim_end_matches(']'))?;
        let [x, y] = xy.as_slice() else {
            return Err(format!("bad position in {entry:?}"));
        };
        if Pos::new(*x as i32, *y as i32) != placement.pos {
            problems.push(format!("{entry} is not on the tile just placed at {}", placement.pos));
            continue;
        }
        let kind = carcassonne_replay::record::jcz::feature_kind(feature.trim())
            .ok_or_else(|| format!("feature {feature:?} is not in the base game"))?;
        match jcz_segment(&game, tile, placement.rotation, kind, loc.trim()) {
            Err(e) => problems.push(format!("{entry}: {e}")),
            Ok(seg) => {
                if !legal.contains(&seg) {
                    problems.push(format!("{entry}: the engine does not offer segment {seg}"));
                }
                if !listed.insert(seg) {
                    problems.push(format!("{entry}: segment {seg} is listed twice"));
                }
            }
        }
    }
    let kind = game.tile_kind(tile);
    for seg in legal.difference(&listed) {
        let s = &kind.segments[*seg as usize];
        problems.push(format!(
            "the engine also offers segment {seg} ({} at {})",
            s.kind,
            kind.location_of(placement.rotation, *seg)
        ));
    }
    Ok(if problems.is_empty() && listed.len() == legal.len() {
        Outcome::Pass
    } else {
        Outcome::Fail(format!(
            "{} options listed, {} offered: {}",
            listed.len(),
            legal.len(),
            problems.join("; ")
        ))
    })
}

/// Whether the last PLACE_TILE of the save is still waiting for its meeple step.
fn meeple_step_pending(raw: &Value) -> bool {
    let types: Vec<&str> = raw
        .get("replay")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|m| m.get("type").and_then(Value::as_str))
                .filter(|t| *t != "GAME_OVER")
                .collect()
        })
        .unwrap_or_default();
    types.last() == Some(&"PLACE_TILE")
}

/// The importer's words for a save that uses something we do not support (as opposed to a
/// broken save or an importer bug).
fn is_unsupported(err: &str) -> bool {
    err.contains("not supported") || err.contains("not in the base game") || err.contains("belongs to an expansion")
}

#[test]
fn jcz_test_saves_meet_their_assertions() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    let dir = fixtures.join("jcz-tests");
    let files = files_with_suffix(&dir, ".jcz");
    assert!(!files.is_empty(), "no .jcz files in {}", dir.display());

    let mut failures = Failures::default();
    let (mut ran, mut skipped_files, mut checked, mut passed) = (0, 0, 0, 0);
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for path in &files {
        let name = file_name(path);
        let raw = read_json(path);
        let assertions: Vec<String> = raw
            .pointer("/test/assertions")
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        if assertions.is_empty() {
            failures.push(format!("{name}: no test.assertions"));
            continue;
        }
        let record = match common::load_record(path) {
            Ok(r) => r,
            Err(e) if is_unsupported(&e) => {
                println!("{name}: skipped ({} assertions): {e}", assertions.len());
                skipped_files += 1;
                *skipped.entry("unsupported save".into()).or_default() += assertions.len();
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: the importer rejects it: {e}"));
                continue;
            }
        };
        let replay = match replay::replay(&record, None) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: replay failed: {e}"));
                continue;
            }
        };
        ran += 1;
        let save = Save {
            record: &record,
            replay: &replay,
            meeple_step_pending: meeple_step_pending(&raw),
        };
        let (mut file_checked, mut file_skipped) = (0, 0);
        for a in &assertions {
            match evaluate(&save, a) {
                Outcome::Pass => {
                    checked += 1;
                    passed += 1;
                    file_checked += 1;
                }
                Outcome::Fail(why) => {
                    checked += 1;
                    file_checked += 1;
                    failures.push(format!("{name}: \"{a}\": {why}"));
                }
                Outcome::Skip(kind) => {
                    file_skipped += 1;
                    *skipped.entry(kind.into()).or_default() += 1;
                }
            }
        }
        println!(
            "{name}: {file_checked} checked, {file_skipped} skipped; scores {:?} (finished: {})",
            replay.final_scores, replay.finished
        );
    }
    let skipped_total: usize = skipped.values().sum();
    println!(
        "jcz-tests: {ran} files ran, {skipped_files} skipped; {checked} assertions checked ({passed} passed), {skipped_total} skipped {skipped:?}"
    );
    failures.finish("jcz-tests");
}

/// The checks above must be able to fail: altered assertions on real saves are rejected.
#[test]
fn altered_assertions_are_rejected() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    let dir = fixtures.join("jcz-tests");
    let cases: [(&str, &[&str]); 4] = [
        (
            "abbot-no-garden-3-base-game-tiles-without-garden-test.jcz",
            &[
                "Betty has 1 points",
                "Player can pass",
                // One option left out.
                "TilePlacement BA/Ccc+ options: [1,-3] - [0]; [2,-2] - [0,180,270]; [-1,-1] - [270]; [0,1] - [180]",
                // One rotation too many.
                "TilePlacement BA/Ccc+ options: [1,-3] - [0,90]; [2,-2] - [0,180,270]; [-1,-1] - [270]; [0,1] - [180]; [2,-1] - [90]",
            ],
        ),
        (
            "farmers-no-farmers.jcz",
            &[
                "Player can't pass",
                // One option left out.
                "Meeple SmallFollower options: {City,S,[0,-1]}",
                // A field, but farmers are off in this save.
                "Meeple SmallFollower options: {City,S,[0,-1]}; {Road,WE,[0,-1]}; {Field,NL.NR,[0,-1]}",
                // A road segment named by only one of its sides.
                "Meeple SmallFollower options: {City,S,[0,-1]}; {Road,W,[0,-1]}",
                // The same segment twice.
                "Meeple SmallFollower options: {City,S,[0,-1]}; {Road,WE,[0,-1]}; {Road,WE,[0,-1]}",
            ],
        ),
        (
            "city-and-road-scoring.jcz",
            &[
                "Wendy scored city for 9 points",
                "David scored city for 3 points",
                "Nobody has 0 points",
            ],
        ),
        (
            "garden-scoring.jcz",
            &["Alice scored cloister for 9 points", "Bob has 5 points"],
        ),
    ];
    for (file, wrong) in cases {
        let path = dir.join(file);
        let raw = read_json(&path);
        let record = common::load_record(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let replay = replay::replay(&record, None).unwrap_or_else(|e| panic!("{file}: {e}"));
        let save = Save {
            record: &record,
            replay: &replay,
            meeple_step_pending: meeple_step_pending(&raw),
        };
        for a in wrong {
            assert!(
                matches!(evaluate(&save, a), Outcome::Fail(_)),
                "{file}: the wrong assertion \"{a}\" was accepted"
            );
        }
    }
}

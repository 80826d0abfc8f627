//! Board Game Arena logs: the real games in `../shared/fixtures/bga/` replay with every score
//! BGA recorded matching, turn by turn and at the end; the hand-made logs in
//! `tests/fixtures/bga/` cover discards, farmers off, numbers as strings, envelope B, and
//! broken files.
//!
//! In detail:
//! - the real BGA logs in `../shared/fixtures/bga/`: every running score, final score and
//!   category total BGA recorded equals ours, and every turn's offered meeple spots equal our
//!   legal meeple places
//! - an altered last award of final scoring is caught
//! - the hand-made logs in `tests/fixtures/bga/`: a discard, farmers off, numbers as strings,
//!   envelope B with colours, a score mismatch, an error answer (`status` 0), and truncated and
//!   malformed packets rejected naming the packet and turn

use crate::common;

use carcassonne_replay::engine::Action;
use carcassonne_replay::record::{self, Format, GameRecord, RecordedMove, Walk, bga};
use carcassonne_replay::replay::{self, Replay};
use common::fixtures_dir;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn ours(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bga")
        .join(name)
}

fn import(path: &Path) -> Result<GameRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (record, format) = record::parse(&bytes).map_err(|e| e.to_string())?;
    assert_eq!(format, Format::Bga, "{}", path.display());
    Ok(record)
}

fn replayed(path: &Path) -> (GameRecord, Replay) {
    let record = import(path).unwrap();
    let r = replay::replay(&record, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (record, r)
}

fn names(r: &GameRecord) -> Vec<(&str, Option<&str>)> {
    r.players
        .iter()
        .map(|p| (p.name.as_str(), p.colour.as_deref()))
        .collect()
}

/// The two real games: BGA's running score after every one of the 71 turns, its final scores
/// and its points by category all equal ours.
#[test]
fn real_logs_match_every_score_bga_recorded() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    // Final scores and road/city/cloister/field per player, from the fixtures' README.
    let games = [
        ("game-a.json", [96, 70], [[27, 61, 8, 0], [11, 32, 0, 27]]),
        ("game-b.json", [96, 98], [[10, 45, 17, 24], [16, 50, 26, 6]]),
    ];
    for (file, finals, categories) in games {
        let (record, r) = replayed(&fixtures.join("bga").join(file));
        let recorded = record.setup.recorded_scores.as_ref().expect("BGA scores are kept");
        assert_eq!(recorded.turns.len(), 71, "{file}: every placed tile");
        for (t, want) in r.turns.iter().zip(&recorded.turns) {
            let want = want
                .as_ref()
                .unwrap_or_else(|| panic!("{file}: turn {} has no BGA score", t.turn));
            assert_eq!(&t.scores, want, "{file}: turn {}", t.turn);
        }
        assert_eq!(recorded.final_scores.as_deref(), Some(&finals[..]), "{file}");
        assert_eq!(r.final_scores, finals, "{file}");
        assert_eq!(recorded.categories.as_deref(), Some(&categories[..]), "{file}");
        replay::recorded_scores(&record, &r).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(record.resolved_rules().farmers, "{file}: farmers were offered");
        println!("{file}: 71 turns, every BGA score matches, final {finals:?}");
    }
    let (record, _) = replayed(&fixtures.join("bga/game-a.json"));
    assert_eq!(
        names(&record),
        [("KokiYamaguchi", Some("#ffa500")), ("Kithara", Some("#000000"))],
        "names and colours from the result, in turn order"
    );
}

#[test]
fn a_discard_is_a_move_of_the_player_who_drew_again() {
    let (record, r) = replayed(&ours("discard.json"));
    let c = record.setup.catalog.by_name("C").unwrap();
    assert!(matches!(record.moves[1], RecordedMove::Discard { player: Some(1), tile } if tile == c));
    assert_eq!(r.turns.len(), 2);
    assert_eq!(r.turns[1].player, 1, "Bob discards C, then places U in the same turn");
    assert_eq!(r.final_scores, [4, 2]);
    replay::recorded_scores(&record, &r).unwrap();
}

#[test]
fn farmers_off_when_no_field_is_ever_offered() {
    let (record, r) = replayed(&ours("farmers-off.json"));
    assert!(!record.resolved_rules().farmers);
    assert_eq!(r.final_scores, [4, 4]);
    assert_eq!(
        names(&record),
        [("Ann", Some("#ff0000")), ("Bob", Some("#0000ff"))],
        "envelope B's player list"
    );
    replay::recorded_scores(&record, &r).unwrap();
}

#[test]
fn numbers_may_all_be_strings() {
    let (record, r) = replayed(&ours("strings.json"));
    assert!(record.resolved_rules().farmers);
    assert_eq!(r.final_scores, [4, 3], "Bob's farmer supplies the two-tile city");
    let recorded = record.setup.recorded_scores.as_ref().unwrap();
    assert_eq!(recorded.turns, [Some(vec![4, 0]), Some(vec![4, 0])]);
    assert_eq!(recorded.categories.as_deref(), Some(&[[0, 4, 0, 0], [0, 0, 0, 3]][..]));
    replay::recorded_scores(&record, &r).unwrap();
}

#[test]
fn a_score_that_differs_names_the_turn() {
    let (record, r) = replayed(&ours("score-mismatch.json"));
    let e = replay::recorded_scores(&record, &r).unwrap_err().to_string();
    assert!(e.starts_with("turn 1 (Ann, tile E at (0,-1)"), "{e}");
    assert!(e.contains("Ann 5") && e.contains("Ann 4"), "{e}");
}

#[test]
fn broken_logs_are_rejected_naming_the_packet_and_turn() {
    let cases = [
        (
            "truncated.json",
            "cut off or damaged in packet 4 or the one after it, after 1 placed tile",
        ),
        (
            "malformed-no-x.json",
            "packet 5, playTile event (turn 2): no integer \"x\"",
        ),
        ("malformed-packet.json", "packet 3 (turn 1): no \"data\" list of events"),
        (
            "malformed-spot.json",
            "packet 4, playPartisan event (turn 1): pos 9 is not a meeple spot",
        ),
    ];
    for (file, needle) in cases {
        let e = import(&ours(file)).unwrap_err();
        assert!(e.contains("Board Game Arena log") && e.contains(needle), "{file}: {e}");
    }
}

/// The `n`th event of a type in a log, for editing.
fn event_mut<'a>(doc: &'a mut Value, kind: &str, n: usize) -> &'a mut Value {
    doc["data"]["data"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|p| p["data"].as_array_mut().unwrap().iter_mut())
        .filter(|e| e["type"] == kind)
        .nth(n)
        .unwrap_or_else(|| panic!("no {kind} event number {n}"))
}

/// Small edits of a hand-made log, each a different way to be wrong, are rejected with the
/// packet and the reason.
#[test]
fn edited_events_are_rejected_with_a_reason() {
    let text = std::fs::read_to_string(ours("discard.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases: [(&str, usize, &str, Value, &str); 6] = [
        (
            "playTile",
            0,
            "type",
            json!("30"),
            "tile type 30 belongs to an expansion",
        ),
        (
            "playPartisan",
            0,
            "ptype",
            json!("big"),
            "meeple type \"big\" belongs to an expansion",
        ),
        (
            "playTile",
            1,
            "player_id",
            json!(77),
            "player 77 is not one of the game's players",
        ),
        (
            "playTile",
            1,
            "id",
            json!("22"),
            "tile id 22 is of type 11, but the event says type 16",
        ),
        ("playTile", 1, "ori", json!(5), "ori 5 is not 1 to 4"),
        (
            "winPoints",
            0,
            "score",
            json!("many"),
            "neither \"score\" nor \"points\"",
        ),
    ];
    for (kind, n, key, value, needle) in cases {
        let mut edited = doc.clone();
        let args = &mut event_mut(&mut edited, kind, n)["args"];
        args[key] = value.clone();
        if key == "score" {
            args.as_object_mut().unwrap().remove("points");
        }
        let e = record::parse(edited.to_string().as_bytes())
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(needle) && e.contains("packet "),
            "{kind} {key} = {value}: {e}"
        );
    }
}

#[test]
fn a_meeple_before_any_tile_is_rejected() {
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(ours("discard.json")).unwrap()).unwrap();
    let first_tile = event_mut(&mut doc, "playTile", 0);
    first_tile["type"] = json!("simpleNote");
    let e = record::parse(doc.to_string().as_bytes())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("a meeple without a tile placed before it"), "{e}");
}

/// Every turn's meeple spots as BGA offered them (state 3 after each `playTile`), with the
/// placed tile's type and `ori`.
fn offered_spots(log: &Value) -> Vec<(i64, i64, Vec<i64>)> {
    let num = |v: &Value| v.as_i64().or_else(|| v.as_str().and_then(|s| s.parse().ok()));
    let mut out: Vec<(i64, i64, Vec<i64>)> = Vec::new();
    let packets = log["data"]["data"].as_array().unwrap();
    for e in packets.iter().flat_map(|p| p["data"].as_array().unwrap()) {
        let args = &e["args"];
        match e["type"].as_str() {
            Some("playTile") => out.push((num(&args["type"]).unwrap(), num(&args["ori"]).unwrap(), Vec::new())),
            Some("gameStateChange") if num(&args["id"]) == Some(3) => {
                let spots = args["args"]["spots"].as_array().cloned().unwrap_or_default();
                out.last_mut().unwrap().2 = spots.iter().map(|s| num(&s["pos"]).unwrap()).collect();
            }
            _ => {}
        }
    }
    out
}

/// The spot table read against BGA's own data: on every turn of the real games, the spots BGA
/// offered are exactly the features of the new tile where our engine allows a meeple.
#[test]
fn offered_spots_are_our_legal_meeple_places() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    for file in ["game-a.json", "game-b.json"] {
        let path = fixtures.join("bga").join(file);
        let log: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let record = import(&path).unwrap();
        let offered = offered_spots(&log);
        let mut w = Walk::new(&record).unwrap();
        let mut actions = Vec::new();
        let mut turn = 0;
        while let Some(m) = w.peek() {
            if let RecordedMove::Place { tile, placement, .. } = *m {
                let (ty, ori, spots) = &offered[turn];
                w.game().actions(tile, placement, &mut actions);
                let mut ours: Vec<u8> = actions
                    .iter()
                    .filter_map(|a| match a {
                        Action::Deploy { segment, .. } => Some(*segment),
                        _ => None,
                    })
                    .collect();
                let kind = w.game().tile_kind(tile);
                let mut theirs: Vec<u8> = spots
                    .iter()
                    .map(|&pos| {
                        let (feature, at) = bga::spot_on_board(*ty, *ori, pos).unwrap();
                        kind.segment_at(placement.rotation, feature, Some(at)).unwrap()
                    })
                    .collect();
                ours.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(
                    ours,
                    theirs,
                    "{file} turn {}: our meeple places vs BGA's spots",
                    turn + 1
                );
                turn += 1;
            }
            common::step(&mut w, &record).unwrap();
        }
        assert_eq!(turn, 71);
    }
}

/// The last award of final scoring is checked too, not only the result the log ends with:
/// a log whose last running score was altered disagrees with our final scoring.
#[test]
fn an_altered_last_running_score_is_caught() {
    let Some(dir) = fixtures_dir() else { return };
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("bga/game-a.json")).unwrap()).unwrap();
    let awards = doc["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["data"].as_array().unwrap())
        .filter(|e| e["type"] == "winPoints")
        .count();
    let last = &mut event_mut(&mut doc, "winPoints", awards - 1)["args"];
    let score: i64 = last["score"].as_str().unwrap().parse().unwrap();
    last["score"] = json!((score + 5).to_string());
    let record = record::parse(doc.to_string().as_bytes()).unwrap().0;
    let r = replay::replay(&record, None).unwrap();
    let e = replay::recorded_scores(&record, &r).unwrap_err().to_string();
    assert!(e.contains("at the end of the game (after final scoring"), "{e}");
    assert!(e.contains(&(score + 5).to_string()), "{e}");
}

/// Board Game Arena answers an error with `"status": 0`: that is not a log.
#[test]
fn an_error_answer_is_not_a_log() {
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(ours("discard.json")).unwrap()).unwrap();
    doc["status"] = json!(0);
    let e = record::parse(doc.to_string().as_bytes())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"status\" is 0, not 1"), "{e}");
}

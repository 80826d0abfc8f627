//! Exports: `.jcz` saves and the scoring CSV.
//!
//! - native → `.jcz` → native gives the identical record (rules, colours and final scoring
//!   included), for our own games, the rulebook examples, the course example and BGA logs;
//! - every game in `../shared/fixtures/games/` exported to `.jcz` replays to the same scores,
//!   and its exported messages are JCloisterZone's own (tile ids, rotations, meeple locations
//!   and ids, skipped meeple steps);
//! - the CSV's points add up to every player's final score.
//!
//! In detail:
//! - New World games of the random and greedy bots written and read again to the same scores
//!   turn by turn
//! - native → `.jcz` → native gives the same record (generated games of every preset, the demo,
//!   the course example, the rulebook examples, BGA logs)
//! - the fixture games exported to `.jcz` give JCloisterZone's own messages and the same scores
//! - colour slots become colours and back
//! - the CSV adds up to the final scores

use crate::common;

use carcassonne_replay::engine::Preset;
use carcassonne_replay::export::{csv, jcz};
use carcassonne_replay::record::{self, GameRecord, RulesSpec, native};
use carcassonne_replay::replay::{self, Replay};
use carcassonne_replay::selfplay::{self, Policy};
use common::{file_name, files_with_suffix, fixtures_dir, read_json, subdirs};
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn parse(bytes: &[u8]) -> GameRecord {
    record::parse(bytes).unwrap_or_else(|e| panic!("{e}")).0
}

fn via_jcz(r: &GameRecord) -> GameRecord {
    let text = jcz::to_string(r).unwrap_or_else(|e| panic!("export failed: {e}"));
    let (again, format) = record::parse(text.as_bytes()).unwrap_or_else(|e| panic!("re-import failed: {e}"));
    assert_eq!(format, record::Format::Jcz);
    again
}

/// Identical once both are written the one canonical way (`GameRecord::canonicalise`: every
/// move names its player, every meeple the first place of its segment), which importers use.
fn assert_same_record(a: &GameRecord, b: &GameRecord, what: &str) {
    let mut a = a.clone();
    a.canonicalise();
    assert_eq!(
        native::to_pretty_string(&a),
        native::to_pretty_string(b),
        "{what}: the record changed on its way through .jcz"
    );
}

fn per_turn(r: &Replay) -> Vec<Vec<i32>> {
    r.turns.iter().map(|t| t.scores.clone()).collect()
}

/// Records of our own: generated games of every preset, with River and Abbot, the demo, the
/// course example and the rulebook examples.
fn own_records() -> Vec<(String, GameRecord)> {
    let mut out = Vec::new();
    // New World has no JCloisterZone or BGA form.
    let tile_game = Preset::ALL.into_iter().filter(|p| !p.is_new_world());
    for (seed, preset) in tile_game.enumerate() {
        for (river, abbot) in [(false, false), (true, true)] {
            let mut rules = RulesSpec::new(preset);
            rules.overrides.river = river.then_some(true);
            rules.overrides.abbot = abbot.then_some(true);
            let r = selfplay::generate(rules, 2 + seed as u8, Policy::Greedy, seed as u64 + 11).unwrap();
            out.push((format!("generated {preset} river={river} abbot={abbot}"), r));
        }
    }
    for path in [
        "static/games/demo-second-edition.json",
        "static/games/course-example.txt",
    ] {
        out.push((path.into(), parse(&std::fs::read(root().join(path)).unwrap())));
    }
    for path in files_with_suffix(&root().join("tests/fixtures/rules"), ".json") {
        let doc = read_json(&path);
        // Records that are meant to be refused, or bring their own tiles, have no `.jcz` form.
        let Ok((r, _)) = record::parse(doc["record"].to_string().as_bytes()) else {
            continue;
        };
        if r.setup.custom_tiles.is_empty() && replay::replay(&r, None).is_ok() {
            out.push((file_name(&path), r));
        }
    }
    out
}

#[test]
fn native_to_jcz_to_native_is_identical() {
    let records = own_records();
    for (what, r) in &records {
        assert_same_record(r, &via_jcz(r), what);
    }
    println!("{} records survived .jcz unchanged", records.len());
    assert!(records.len() > 40);
}

#[test]
fn bga_logs_survive_jcz_with_names_and_colours() {
    let mut paths = files_with_suffix(&root().join("tests/fixtures/bga"), ".json");
    if let Some(f) = fixtures_dir() {
        paths.extend(files_with_suffix(&f.join("bga"), ".json"));
    }
    let mut n = 0;
    for path in paths {
        let Ok((r, _)) = record::parse(&std::fs::read(&path).unwrap()) else {
            continue; // the broken ones
        };
        let again = via_jcz(&r);
        assert_same_record(&r, &again, &file_name(&path));
        let (a, b) = (replay::replay(&r, None).unwrap(), replay::replay(&again, None).unwrap());
        assert_eq!(per_turn(&a), per_turn(&b), "{}", file_name(&path));
        assert_eq!(a.final_scores, b.final_scores, "{}", file_name(&path));
        n += 1;
    }
    assert!(n >= 4, "the hand-made logs that parse");
}

/// What a message says, without what varies between saves (clocks, COMMIT's random value).
fn gist(m: &Value) -> Value {
    let mut m = serde_json::json!({"type": m["type"], "payload": m["payload"]});
    if m["type"] == "COMMIT" {
        m["payload"] = Value::Null;
    }
    m
}

#[test]
fn fixture_games_exported_to_jcz_replay_to_the_same_scores_and_messages() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    let dirs = subdirs(&fixtures.join("games/jcz"))
        .into_iter()
        .chain([fixtures.join("games/yas")]);
    let mut games = 0;
    for dir in dirs {
        for path in files_with_suffix(&dir, ".jcz") {
            let name = file_name(&path);
            let original = read_json(&path);
            let record = parse(&std::fs::read(&path).unwrap());
            let exported = jcz::to_value(&record).unwrap_or_else(|e| panic!("{name}: {e}"));
            let theirs: Vec<Value> = original["replay"].as_array().unwrap().iter().map(gist).collect();
            let ours: Vec<Value> = exported["replay"].as_array().unwrap().iter().map(gist).collect();
            assert_eq!(ours.len(), theirs.len(), "{name}: message count");
            for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
                assert_eq!(a, b, "{name}: message {}", i + 1);
            }
            assert_eq!(exported["setup"]["sets"], original["setup"]["sets"], "{name}");
            let again = via_jcz(&record);
            let (a, b) = (
                replay::replay(&record, None).unwrap(),
                replay::replay(&again, None).unwrap(),
            );
            assert_eq!(per_turn(&a), per_turn(&b), "{name}");
            assert_eq!(a.final_scores, b.final_scores, "{name}");
            assert_eq!(a.finished, b.finished, "{name}");
            games += 1;
        }
    }
    println!("{games} fixture games exported to .jcz: same messages, same scores");
    assert!(games >= 30);
}

#[test]
fn custom_tiles_cannot_be_written_as_jcz() {
    let doc = read_json(
        &root()
            .join("tests/fixtures/rules")
            .join("classic_two_tile_city_scores_2.json"),
    );
    let mut r = parse(doc["record"].to_string().as_bytes());
    r.setup.custom_tiles.push(record::CustomTile {
        name: "Z".into(),
        count: 1,
        segments: "city N".into(),
    });
    let e = jcz::to_value(&r).unwrap_err();
    assert_eq!(e.to_string(), "JCloisterZone has no tile like the record's own tile Z");
}

#[test]
fn the_scoring_csv_adds_up_to_the_final_scores() {
    for path in [
        "static/games/demo-second-edition.json",
        "static/games/demo-new-world.json",
        "static/games/course-example.txt",
    ] {
        let r = parse(&std::fs::read(root().join(path)).unwrap());
        let replayed = replay::replay(&r, None).unwrap();
        let text = csv::scoring_csv(&r, &replayed);
        let mut lines = text.split("\r\n").filter(|l| !l.is_empty());
        assert_eq!(lines.next().unwrap(), csv::HEADER.join(","), "{path}");
        let mut totals = vec![0; r.players.len()];
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), csv::HEADER.len(), "{path}: {line}");
            let player = r.players.iter().position(|p| p.name == cells[2]).unwrap();
            totals[player] += cells[5].parse::<i32>().unwrap();
        }
        assert_eq!(totals, replayed.final_scores, "{path}");
    }
}

/// New World games played by the random and greedy bots replay, are written as records and
/// read again to the same scores turn by turn.
#[test]
fn generated_new_world_games_export_and_reimport_to_the_same_scores() {
    for (seed, policy) in [(1, Policy::Random), (2, Policy::Greedy), (3, Policy::Random)] {
        let r = selfplay::generate(RulesSpec::new(Preset::NewWorld), 2 + seed as u8, policy, seed).unwrap();
        let replayed = replay::replay(&r, None).unwrap();
        let again = parse(native::to_value(&r).to_string().as_bytes());
        let replayed_again = replay::replay(&again, None).unwrap();
        assert_eq!(per_turn(&replayed_again), per_turn(&replayed), "{policy:?} seed {seed}");
        assert_eq!(replayed_again.final_scores, replayed.final_scores);
        assert!(replayed.finished && replayed.turns.len() > 50);
    }
}

/// A JCloisterZone save names each player's colour slot; the players keep those colours (red
/// and blue for slots 0 and 1), and a save we export puts them back in the same slots.
#[test]
fn jcz_colour_slots_become_the_players_colours_and_back() {
    let Some(dir) = fixtures_dir() else { return };
    let bytes = std::fs::read(dir.join("games/jcz/basic-c1/basic-c1-001-2p.jcz")).unwrap();
    let r = parse(&bytes);
    let colours: Vec<Option<&str>> = r.players.iter().map(|p| p.colour.as_deref()).collect();
    assert_eq!(colours, vec![Some("#ef0000"), Some("#03a9f4")]);
    let mut swapped = r.clone();
    swapped.players.swap(0, 1);
    let saved: Value = serde_json::from_str(&jcz::to_string(&swapped).unwrap()).unwrap();
    let slots: Vec<&Value> = saved["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["slot"])
        .collect();
    assert_eq!(slots, vec![1, 0], "each player in the slot of their colour");
    assert_eq!(via_jcz(&r).players, r.players);
}

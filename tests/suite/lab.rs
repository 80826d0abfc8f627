//! Carcassonne Lab links: every base-game fixture that fits the format goes out as a link and
//! comes back with the same moves and scores, and hand-made links check each part of the
//! encoding (`static/docs/carcassonne-lab.md`).
//!
//! In detail:
//! - Carcassonne Lab links: every base-game fixture that fits the format exported and read back
//!   to the same moves and turn-by-turn scores (final scores for whole games)
//! - a hand-made link with negative x and y, every rotation, meeples on a road, a city, a field
//!   and cloisters, percent-encoded names and colours, read and written back identically
//! - a wrong version, a truncated move, characters outside both alphabets, missing players, a
//!   stack and moves that disagree, a meeple spot the tile lacks, an unknown colour, and a tile
//!   that cannot go where the link puts it

use crate::common;

use carcassonne_replay::engine::{FeatureKind, Pos};
use carcassonne_replay::record::lab::{self, NoLink};
use carcassonne_replay::record::{self, Format, GameRecord, RecordedAction, RecordedMove};
use carcassonne_replay::replay;
use std::path::PathBuf;

fn read(text: &str) -> Result<GameRecord, String> {
    record::parse(text.as_bytes())
        .map(|(r, format)| {
            assert_eq!(format, Format::Lab);
            r
        })
        .map_err(|e| e.to_string())
}

/// Every base-game record among the shared fixtures, in any format.
fn fixture_records() -> Vec<(PathBuf, GameRecord)> {
    let Some(dir) = common::fixtures_dir() else {
        return Vec::new();
    };
    let mut files = common::files_with_suffix(&dir.join("bga"), ".json");
    files.extend(common::files_with_suffix(&dir.join("games/yas"), ".jcz"));
    files.extend(common::files_with_suffix(&dir.join("jcz-tests"), ".jcz"));
    for game in common::subdirs(&dir.join("games/jcz")) {
        files.extend(common::files_with_suffix(&game, ".jcz"));
    }
    files
        .into_iter()
        .filter_map(|f| Some((f.clone(), record::parse(&std::fs::read(&f).unwrap()).ok()?.0)))
        .collect()
}

#[test]
fn every_fitting_fixture_goes_out_as_a_link_and_comes_back_the_same() {
    let mut round_trips = 0;
    for (path, original) in fixture_records() {
        let name = path.display();
        let link = match lab::to_link(&original) {
            Ok(link) => link,
            // What the format cannot hold; anything else would be a bug.
            Err(NoLink::Discard(_) | NoLink::Rules(_) | NoLink::Players | NoLink::Tile(..) | NoLink::Start) => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let back = read(&link).unwrap_or_else(|e| panic!("{name}: {e}\n{link}"));
        let moves = |r: &GameRecord| {
            let mut r = r.clone();
            r.canonicalise();
            r.moves
        };
        assert_eq!(moves(&back), moves(&original), "{name}: the same moves");
        let (a, b) = (
            replay::replay(&original, None).unwrap(),
            replay::replay(&back, None).unwrap(),
        );
        let scores = |r: &replay::Replay| r.turns.iter().map(|t| t.scores.clone()).collect::<Vec<_>>();
        assert_eq!(scores(&b), scores(&a), "{name}: the same scores, turn by turn");
        if back.moves.len() == 71 {
            assert_eq!(b.final_scores, a.final_scores, "{name}: a whole game's final scores");
        }
        round_trips += 1;
    }
    if common::fixtures_dir().is_some() {
        assert!(round_trips >= 15, "only {round_trips} fixtures fit the format");
    }
}

/// A placed move's parts.
fn placed(m: &RecordedMove) -> (u8, Pos, u16, Option<FeatureKind>) {
    let RecordedMove::Place {
        player,
        placement,
        action,
        ..
    } = m
    else {
        panic!("a placement")
    };
    let meeple = match action {
        RecordedAction::Deploy { feature, .. } => Some(*feature),
        _ => None,
    };
    (player.unwrap(), placement.pos, placement.rotation.degrees(), meeple)
}

#[test]
fn a_hand_made_link_reads_every_part() {
    // Stack: D (type 15, the start), V (17), E (11), then four B (20). Moves, in the alphabet
    // without I, O and l: V at (−1,0) ori 3 (rotation 2 + 16 for x < 0) with a meeple on its
    // road; E at (0,−1) ori 3 (+32 for y < 0) on its city; four B along y = 1 in every
    // rotation: a farmer, two monks, nobody.
    let link =
        "https://www.carcassonnelab.com/#/0/0/CnRs6b/21K112b11212222132314240?players=Ann,Bob%20B.&colors=green,black";
    let r = read(link).unwrap();
    assert_eq!(r.players[1].name, "Bob B.");
    assert_eq!(r.players[0].colour.as_deref(), Some("#008000"));
    let moves: Vec<_> = r.moves.iter().map(placed).collect();
    use FeatureKind::{City, Cloister, Field, Road};
    assert_eq!(
        moves,
        vec![
            (0, Pos::new(-1, 0), 180, Some(Road)),
            (1, Pos::new(0, -1), 180, Some(City)),
            (0, Pos::new(0, 1), 0, Some(Field)),
            (1, Pos::new(1, 1), 90, Some(Cloister)),
            (0, Pos::new(2, 1), 180, Some(Cloister)),
            (1, Pos::new(3, 1), 270, None),
        ]
    );
    let names: Vec<&str> = r.moves.iter().map(|m| r.setup.catalog.name(m.tile())).collect();
    assert_eq!(names, ["V", "E", "B", "B", "B", "B"]);
    assert!(replay::replay(&r, None).is_ok(), "the link replays");
    // The fragment alone reads the same, and the link goes out as it came in.
    let fragment = &link[link.find('#').unwrap()..];
    assert_eq!(read(fragment).unwrap().moves, r.moves);
    assert_eq!(lab::to_link(&r).unwrap(), link);
}

#[test]
fn broken_links_say_what_is_wrong() {
    let wrong = |link: &str, wanted: &str| {
        let e = read(link).unwrap_err();
        assert!(e.contains(wanted), "{link}: {e:?} should say {wanted:?}");
    };
    // The start and a U (type 16) at (0,1) ori 2: "Ff" is 14 × 24 + 15 = 351, octal 0537.
    assert!(read("#/0/0/Ff/1220?players=Ann,Bob").is_ok());
    wrong(
        "#/1/0/Ff/1220?players=Ann,Bob",
        "version \"1\": only version 0 links are read",
    );
    wrong(
        "#/0/0/Ff/122?players=Ann,Bob",
        "move 1 is truncated: a move is 4 characters, and it has 3",
    );
    wrong(
        "#/0/0/Ff/1l20?players=Ann,Bob",
        "move 1: character 2 ('l') is not in the moves' alphabet",
    );
    wrong(
        "#/0/0/F!/1220?players=Ann,Bob",
        "stack character 2 ('!') is not one of A–Z a–z 0–9 - _",
    );
    wrong("#/0/0/Ff/1220", "no players=");
    wrong(
        "#/0/0/Ff/12201220?players=Ann,Bob",
        "the stack has 1 tiles after the start and the moves place 2",
    );
    wrong(
        "#/0/0/Ff/1229?players=Ann,Bob",
        "move 1: meeple 9 is not a spot of tile type 16",
    );
    wrong(
        "#/0/0/Ff/1220?players=Ann,Bob&colors=red,pink",
        "\"pink\" is not red, blue, green, yellow or black",
    );
    // A tile that cannot go where the link puts it is the replay's error, naming the move.
    let r = read("#/0/0/Ff/1210?players=Ann,Bob").unwrap();
    let e = replay::replay(&r, None).unwrap_err().describe(&r);
    assert!(e.contains("turn 1 (Ann)"), "{e}");
}

#[test]
fn replay_reads_a_link_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    std::fs::write(&path, "https://www.carcassonnelab.com/#/0/0/Ff/1220?players=Ann,Bob\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["replay", "--json", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["players"][1]["name"], "Bob");
    assert_eq!(doc["turns"][0]["tile"], "U");
    assert_eq!(doc["turns"][0]["position"], serde_json::json!([0, 1]));
}

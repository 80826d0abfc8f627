//! The fuzz targets' paths (`tests/fuzz/paths.rs`) on stable, for a bounded number of
//! cases, so that every `cargo test` checks them: damaged records of every format are refused
//! or replayed, never a panic, and whatever replays survives the native round trip. Course
//! records built from the notation's own words must also be refused with the line, or the
//! turn and player, of the first thing wrong.
//!
//! In detail:
//! - the fuzz targets' paths (`tests/fuzz/paths.rs`) under `proptest`, a few hundred cases
//!   each: damaged bytes of a record of every format, arbitrary bytes, and course records
//!   edited by the notation's own words, refused (with the line) or replayed until the first
//!   illegal turn (named with its player)
//! - whatever replays survives the native round trip with the same scores
//! - the deep path (the moves listed at every turn, a turn analysed, the boards drawn) over the
//!   whole bad-record corpus, the demos and damaged demos

#[path = "../fuzz/paths.rs"]
mod paths;

use carcassonne_replay::record::course;
use carcassonne_replay::replay;
use paths::Outcome;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use std::path::Path;

fn read(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// A record to damage: its name, its bytes, and the path it is driven through.
type Seed = (&'static str, Vec<u8>, fn(&[u8]) -> Outcome);

/// The seeds the damage starts from: a record of each format the repo carries.
fn seeds() -> Vec<Seed> {
    let course = |b: &[u8]| paths::course(&String::from_utf8_lossy(b));
    vec![
        (
            "the 2nd edition demo",
            read("static/games/demo-second-edition.json"),
            paths::any_record,
        ),
        (
            "the New World demo",
            read("static/games/demo-new-world.json"),
            paths::any_record,
        ),
        (
            "the Card Game demo",
            read("static/games/demo-card-game.json"),
            paths::any_record,
        ),
        ("the course example", read("static/games/course-example.txt"), course),
        (
            "a Board Game Arena log",
            read("tests/fixtures/bga/strings.json"),
            paths::bga_log,
        ),
    ]
}

/// Every record of the bad-record corpus (`tests/fixtures/bad/`: the custom tiles without
/// segments, the kinds of another game, the long Lab links…) and the demos, through the deep
/// path: refused, or replayed and then listed, analysed and drawn, never a panic.
#[test]
fn the_bad_records_and_the_demos_go_through_the_deep_path() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad");
    // Some are refused only at upload (a name over 40 characters, no moves): those replay.
    for entry in std::fs::read_dir(dir).unwrap() {
        paths::deep(&std::fs::read(entry.unwrap().path()).unwrap());
    }
    for (name, bytes, _) in seeds() {
        assert_ne!(paths::deep(&bytes), Outcome::Illegal, "{name}");
    }
}

#[test]
fn every_seed_replays_whole() {
    for (name, bytes, path) in seeds() {
        assert_eq!(path(&bytes), Outcome::Replayed, "{name}");
    }
}

/// Damage to bytes: each `(at, byte)` overwrites one byte, then the record may be cut short.
fn damage(bytes: &[u8], edits: &[(Index, u8)], cut: Option<Index>) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for (at, byte) in edits {
        let i = at.index(b.len());
        b[i] = *byte;
    }
    if let Some(cut) = cut {
        b.truncate(cut.index(b.len() + 1));
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Overwritten bytes, in JSON punctuation and digits as often as anywhere, and cut
    /// records, through detection, every parser, the replay, its JSON and the exports.
    #[test]
    fn damaged_records_are_refused_or_replay(
        seed in any::<Index>(),
        edits in prop::collection::vec(
            (any::<Index>(), prop_oneof![any::<u8>(), select(b"{}[],:\"0123456789-".to_vec())]),
            1..6,
        ),
        cut in prop::option::weighted(0.2, any::<Index>()),
    ) {
        let seeds = seeds();
        let (_, bytes, path) = &seeds[seed.index(seeds.len())];
        path(&damage(bytes, &edits, cut));
    }

    /// Damaged records as above, and for those that still replay, what the service does next
    /// on a tiny budget: moves listed at every turn, a turn analysed, the boards drawn.
    #[test]
    fn damaged_records_that_replay_are_analysed_and_drawn(
        seed in any::<Index>(),
        edits in prop::collection::vec((any::<Index>(), select(b"0123456789-".to_vec())), 1..4),
    ) {
        let seeds = seeds();
        let (_, bytes, _) = &seeds[seed.index(seeds.len() - 2)];
        paths::deep(&damage(bytes, &edits, None));
    }

    /// Arbitrary bytes are refused (or, by a miracle, replayed), never a panic.
    #[test]
    fn arbitrary_bytes_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        prop_assert_ne!(paths::any_record(&bytes), Outcome::Illegal);
    }
}

/// The example's statements, one per line, without comments.
fn course_statements() -> Vec<String> {
    String::from_utf8(read("static/games/course-example.txt"))
        .unwrap()
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A word of the notation, or one just beside it.
fn course_word() -> impl Strategy<Value = String> {
    let words = [
        "CFFF50", "RFRF50", "FFRFL50", "CCCCS50", "CFFCS50", "FFRR50", "FRRR50", "XXXX50", "0", "1", "2", "3", "4",
        "-1", "-2", "7", "x", "top", "bottom", "left", "right", "center", "discard", "end",
    ];
    prop_oneof![select(words.to_vec()).prop_map(String::from), "[a-z0-9-]{1,4}"]
}

/// One edit of the example: a word replaced, a statement dropped, repeated or moved.
#[derive(Clone, Debug)]
enum Edit {
    Word(Index, Index, String),
    Drop(Index),
    Repeat(Index),
    Swap(Index, Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), any::<Index>(), course_word()).prop_map(|(l, w, s)| Edit::Word(l, w, s)),
        any::<Index>().prop_map(Edit::Drop),
        any::<Index>().prop_map(Edit::Repeat),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

/// Edits after the first two statements (players and rules), so that the moves change.
fn apply(lines: &mut Vec<String>, e: &Edit) {
    let moves = lines.len() - 2;
    let pick = |i: &Index| 2 + i.index(moves);
    match e {
        Edit::Word(l, w, s) => {
            let l = pick(l);
            let mut words: Vec<&str> = lines[l].split_whitespace().collect();
            let w = w.index(words.len());
            words[w] = s;
            lines[l] = words.join(" ");
        }
        Edit::Drop(l) if moves > 1 => {
            lines.remove(pick(l));
        }
        Edit::Drop(_) => {}
        Edit::Repeat(l) => {
            let l = pick(l);
            lines.insert(l, lines[l].clone());
        }
        Edit::Swap(a, b) => {
            let (a, b) = (pick(a), pick(b));
            lines.swap(a, b);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// A course record off by a few words: refused with the line of the first statement
    /// that is not one, or replayed until the first illegal turn, named with its player; a
    /// record that replays survives the round trip.
    #[test]
    fn edited_course_records_name_the_first_fault(edits in prop::collection::vec(edit(), 1..4)) {
        let mut lines = course_statements();
        for e in &edits {
            apply(&mut lines, e);
        }
        let text = lines.join("\n");
        match course::parse(&text) {
            Err(e) => {
                let message = e.to_string();
                let line: usize = message
                    .split("line ")
                    .nth(1)
                    .and_then(|rest| rest.split(':').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{message:?} names no line"));
                prop_assert!((1..=lines.len()).contains(&line), "{message}");
            }
            Ok(r) => match replay::replay(&r, None) {
                Err(e) => {
                    let turn = e.turn().expect("the players and rules are untouched, so the setup is sound");
                    prop_assert!(turn as usize <= r.moves.len());
                    let said = e.describe(&r);
                    prop_assert!(said.starts_with(&format!("turn {turn} (")), "{said}");
                    prop_assert!(said.contains("(Ann)") || said.contains("(Bob)"), "{said}");
                }
                Ok(_) => prop_assert_eq!(paths::course(&text), Outcome::Replayed),
            },
        }
    }
}

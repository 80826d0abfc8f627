//! The paths the fuzz targets drive, shared with `tests/suite/properties.rs`, which runs them on
//! stable for a bounded number of cases in every `cargo test`. Whatever the bytes, a path
//! ends in an [`Outcome`] or an error value; a panic anywhere is the defect being hunted.
//!
//! A record that is accepted must also survive the trip out and back: written as native
//! JSON, it parses again and replays to the same scores. A difference panics, so the fuzzer
//! reports it like a crash.
//!
//! # The targets
//!
//! Four [cargo-fuzz](https://github.com/rust-fuzz/cargo-fuzz) targets in `fuzz_targets/`, a
//! package of its own so that the stable build never sees them:
//!
//! | target | what it feeds |
//! |---|---|
//! | `any_record` | arbitrary bytes to format detection and whichever parser they reach (native JSON, the Card Game, `.jcz`, BGA logs, course notation, Carcassonne Lab links), then the replay, its JSON, the exports and the native round trip |
//! | `course` | text to the course notation's parser, then the same |
//! | `bga_log` | JSON to the Board Game Arena importer, then the same |
//! | `deep_record` | what `any_record` feeds, and for a record that replays what the service does next, on a tiny budget: the legal moves listed at every turn (as the analysis plans a game), a turn analysed, the turn page's inline board and the final board drawn |
//!
//! # Running them
//!
//! ```sh
//! cargo install cargo-fuzz                       # once; fuzzing needs a nightly toolchain
//! mkdir -p tests/fuzz/corpus/any_record && cp static/games/* tests/fixtures/bga/*.json tests/fuzz/corpus/any_record/
//! cargo +nightly fuzz run --fuzz-dir tests/fuzz -O any_record tests/fuzz/corpus/any_record -- -max_total_time=1800
//! ```
//!
//! Seed `course` with `static/games/course-example.txt` and `bga_log` with
//! `tests/fixtures/bga/`. Seed `deep_record` with the demos and the bad-record corpus, and let
//! it grow past the default input size, since the records that took the service down were
//! 26 KB and more:
//!
//! ```sh
//! mkdir -p tests/fuzz/corpus/deep_record && cp static/games/*.json tests/fixtures/bad/* tests/fuzz/corpus/deep_record/
//! cargo +nightly fuzz run --fuzz-dir tests/fuzz -O deep_record tests/fuzz/corpus/deep_record -- -max_len=262144 -max_total_time=1800
//! ```
//!
//! Corpora and findings (`tests/fuzz/corpus`, `tests/fuzz/artifacts`) stay out of git. Each
//! target has run for 30 minutes on one core of the 2-core build machine and found nothing:
//! `any_record` 798,116 runs (10,906 edges), `bga_log` 370,286 (6,540), `course` 3,027,684
//! (5,018), `deep_record` 3,167,986 in 25 minutes with `-max_len=262144` (26,036).
//!
//! The course parser alone leaves the record limits to `record::parse`, which every caller in
//! `src` goes through, so the targets apply them the same way: without them a course record
//! with a 93-character name failed the round trip.

use carcassonne_replay::analysis::{self, AnalysisOptions, budget};
use carcassonne_replay::engine::cards::CardGame;
use carcassonne_replay::record::{self, AnyRecord, GameRecord, Record};
use carcassonne_replay::render::{self, ImageFormat, Picture, RenderOptions};
use carcassonne_replay::store::GameId;
use carcassonne_replay::{export, replay, web};

/// How far bytes got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not a record: refused by detection or a parser, with an error.
    Refused,
    /// A record whose moves break a rule: refused by the replay, with an error.
    Illegal,
    /// A record that replays, turned into JSON and exports, and back.
    Replayed,
}

/// Arbitrary bytes: format detection, then whichever parser they reach.
pub fn any_record(bytes: &[u8]) -> Outcome {
    match record::parse_any(bytes) {
        Err(e) => {
            let _ = e.to_string();
            Outcome::Refused
        }
        Ok(AnyRecord::Tiles(r, _)) => tiles(&r),
        Ok(AnyRecord::Cards(r)) => cards(&r),
    }
}

/// Arbitrary bytes, and for a record that replays, what the service then does with it, on a
/// tiny budget: the moves listed at every turn (as the analysis plans a game), one turn
/// analysed, the turn page's inline board, and the final board drawn. Records that replay
/// have reached every one of these and panicked there (a custom tile with no segments).
pub fn deep(bytes: &[u8]) -> Outcome {
    match record::parse_any(bytes) {
        Err(_) => Outcome::Refused,
        Ok(AnyRecord::Tiles(r, _)) => {
            let outcome = tiles(&r);
            if outcome == Outcome::Replayed {
                deep_tiles(&r);
            }
            outcome
        }
        Ok(AnyRecord::Cards(r)) => {
            let outcome = cards(&r);
            if outcome == Outcome::Replayed {
                deep_cards(&r);
            }
            outcome
        }
    }
}

fn tiny() -> AnalysisOptions {
    AnalysisOptions {
        playouts_per_alternative: Some(2),
        max_playouts_per_turn: 64,
        threads: 1,
        ..AnalysisOptions::default()
    }
}

fn deep_tiles(r: &GameRecord) {
    let sizes = budget::sizes(r).expect("a record that replays walks");
    let _ = budget::plan(&sizes, &AnalysisOptions::default());
    let turns = sizes.len() as u32;
    if turns > 0 {
        analysis::analyse_turn(r, turns.div_ceil(2), &tiny()).expect("a turn of a record that replays is analysed");
    }
    let replayed = replay::replay(r, None).expect("it replayed before");
    let features = analysis::board_features(&replayed.game);
    let _ = web::turn_board(r, (replayed.reached(), &features), (&GameId::of(""), r.turns()), None);
    let small = RenderOptions::default().with_size(RenderOptions::MIN_SIZE);
    render::draw(r, None, Picture::Board, ImageFormat::Png, &small).expect("the final board draws");
}

fn deep_cards(r: &Record<CardGame>) {
    if !r.moves.is_empty() {
        let turn = (r.moves.len() as u32).div_ceil(2);
        analysis::cards::analyse_turn(r, turn, 2, 0).expect("a turn of a record that replays is analysed");
    }
    render::draw(r, None, Picture::Board, ImageFormat::Svg, &RenderOptions::default()).expect("the table draws");
}

/// Course notation, straight to its parser, then the limits every record is held to (as
/// `record::parse` does).
pub fn course(text: &str) -> Outcome {
    within_limits(record::course::parse(text).ok())
}

/// A Board Game Arena log, straight to its importer once it is JSON, then the limits.
pub fn bga_log(bytes: &[u8]) -> Outcome {
    let Ok(value) = serde_json::from_slice(bytes) else {
        return Outcome::Refused;
    };
    within_limits(record::bga::from_value(&value).ok())
}

fn within_limits(r: Option<GameRecord>) -> Outcome {
    match r {
        Some(r) if r.check_limits().is_ok() => tiles(&r),
        _ => Outcome::Refused,
    }
}

/// A tile game record: replay, the replay's JSON, the exports, and the round trip.
pub fn tiles(r: &GameRecord) -> Outcome {
    let Ok(replayed) = replay::replay(r, None) else {
        return Outcome::Illegal;
    };
    let _ = replay::json::replay(r, &replayed);
    let _ = replay::recorded_scores(r, &replayed);
    let _ = export::csv::scoring_csv(r, &replayed);
    let _ = export::jcz::to_value(r);
    let _ = record::lab::to_link(r);
    let native = serde_json::to_vec(&record::native::to_value(r)).expect("a value serialises");
    let (again, _) = record::parse(&native).expect("a replayed record written as native JSON parses again");
    let again = replay::replay(&again, None).expect("a replayed record written as native JSON replays again");
    assert_eq!(
        again.final_scores, replayed.final_scores,
        "the native round trip changed the scores"
    );
    assert_eq!(
        again.turns.len(),
        replayed.turns.len(),
        "the native round trip changed the turns"
    );
    Outcome::Replayed
}

/// A Card Game record: replay, its JSON, the CSV and the round trip.
pub fn cards(r: &Record<CardGame>) -> Outcome {
    let Ok(replayed) = replay::cards::replay(r) else {
        return Outcome::Illegal;
    };
    let _ = replay::cards::to_json(r, &replayed);
    let _ = export::Export::scoring_csv(r);
    let native = serde_json::to_vec(&record::cards::to_value(r)).expect("a value serialises");
    let Ok(AnyRecord::Cards(again)) = record::parse_any(&native) else {
        panic!("a replayed Card Game record written out does not parse again as one");
    };
    let again = replay::cards::replay(&again).expect("a replayed Card Game record replays again");
    assert_eq!(
        again.final_scores, replayed.final_scores,
        "the round trip changed the scores"
    );
    Outcome::Replayed
}

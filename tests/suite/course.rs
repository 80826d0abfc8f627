//! Course notation: the shipped example replays to the scores worked out by hand in its
//! comments (and `static/docs/course-notation.md`); meeple addressing follows the course's edges and indices; bad
//! lines are rejected with their line number.

use carcassonne_replay::engine::{FeatureKind, HalfEdge, Location, Side, TileCategory};
use carcassonne_replay::record::{self, Format, GameRecord, RecordedAction, RecordedMove};
use carcassonne_replay::replay;
use std::path::Path;

fn parse(text: &str) -> Result<GameRecord, String> {
    let (r, format) = record::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    assert_eq!(format, Format::Course);
    Ok(r)
}

#[test]
fn the_example_game_scores_as_worked_out_by_hand() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/course-example.txt");
    let record = parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(record.setup.rules.preset.name(), "course");
    let r = replay::replay(&record, None).unwrap();
    let per_turn: Vec<Vec<i32>> = r.turns.iter().map(|t| t.scores.clone()).collect();
    let mut want = vec![vec![2, 0]; 4];
    want.extend(vec![vec![2, 4]; 3]);
    want.extend(vec![vec![2, 12]; 7]);
    assert_eq!(
        per_turn, want,
        "turn 1: two-tile town 2; turn 5: road 4; turn 8: town 8"
    );
    assert!(r.finished);
    assert_eq!(r.final_scores, [25, 20]);
    let total = |c: &replay::Categories| {
        [
            TileCategory::Road,
            TileCategory::City,
            TileCategory::Cloister,
            TileCategory::Field,
        ]
        .map(|n| c.get(n))
    };
    let ann = &r.breakdown[0];
    assert_eq!(
        total(&ann.end),
        [0, 2, 13, 8],
        "Ann: open town 2, cloisters 6 + 7, farms 4 + 4"
    );
    let bob = &r.breakdown[1];
    assert_eq!(total(&bob.end), [3, 1, 0, 4], "Bob: road 3, town 1, the tied farm 4");
}

fn first_action(text: &str) -> RecordedAction {
    match parse(text).unwrap().moves[0] {
        RecordedMove::Place { action, .. } => action,
        RecordedMove::Discard { .. } => panic!("a discard"),
    }
}

/// The course's own example (tiles.md §5.3): on CRFR50 the town is `top`, the field on the
/// town side of the road is `right 0` or `left 2`, and the road is on `left`.
#[test]
fn meeples_are_addressed_by_edge_and_index_clockwise() {
    let on = |meeple: &str| first_action(&format!("players: A\nCRFR50 0 -1 0 {meeple}"));
    let half = |h: &str| Location::Half(HalfEdge::parse(h).unwrap());
    let deploy = |feature, at| RecordedAction::Deploy {
        feature,
        at,
        figure: carcassonne_replay::engine::Figure::Follower,
    };
    // Records name each segment by its first place clockwise from the north, so the two
    // fields of CRFR50 read as E.n (the town side) and E.s, and its road as E.
    assert_eq!(on("top"), deploy(FeatureKind::City, Location::Side(Side::N)));
    assert_eq!(on("right 0"), deploy(FeatureKind::Field, half("E.n")));
    assert_eq!(on("left 2"), on("right 0"), "both name the field on the town side");
    assert_eq!(on("right 2"), deploy(FeatureKind::Field, half("E.s")));
    assert_eq!(on("left 0"), on("right 2"));
    assert_eq!(on("bottom"), on("right 2"));
    assert_eq!(on("left"), deploy(FeatureKind::Road, Location::Side(Side::E)));
    assert_eq!(on("left 1"), on("left"));
    assert_eq!(on("right 1"), on("left"));
    // Rotated a quarter turn the town is on the right.
    let turned = first_action("players: A\nCRFR50 1 0 -1 right");
    assert_eq!(turned, deploy(FeatureKind::City, Location::Side(Side::E)));
    // CFCF50 is drawn with towns top and bottom: H turned a quarter (tiles.md §5.3).
    let h = first_action("players: A\nCFCF50 0 0 1 top");
    assert_eq!(h, deploy(FeatureKind::City, Location::Side(Side::N)));
    assert_eq!(
        first_action("players: A\nFFRFL50 0 0 1 center"),
        deploy(FeatureKind::Cloister, Location::Center)
    );
}

#[test]
fn bad_lines_are_rejected_with_their_number() {
    let cases = [
        ("players: A, B\nCRFR5 0 0 1", "line 2: unknown tile \"CRFR5\""),
        ("players: A\n\n# c\nCFFF50 4 0 -1", "line 4: rotation is 0, 1, 2 or 3"),
        ("players: A\nCFFF50 0 x -1", "line 2: x \"x\" is not an integer"),
        (
            "players: A\nCFFF50 2 0 -1 top 1",
            "line 2: the field on the top edge has no region 1",
        ),
        ("players: A\nCFFF50 2 0 -1 center", "line 2: E has no cloister"),
        ("players: A\nCFFF50 2 0 -1 middle", "line 2: \"middle\" is not an edge"),
        ("players: A\nend\nCFFF50 2 0 -1", "line 3: nothing may follow \"end\""),
        (
            "players: A\nCFFF50 2 0 -1\nrules: course",
            "line 3: \"rules:\" names one preset",
        ),
        ("players: A\nrules: chess", "line 2: unknown preset \"chess\""),
        ("players: A\nhello", "line 2: \"hello\" is not a move"),
        ("players: A, B, C, D, E, F, G", "line 1: a game has 1 to 6 players"),
    ];
    for (text, needle) in cases {
        let e = parse(text).map(|_| ()).unwrap_err();
        assert!(e.contains("course notation") && e.contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn an_illegal_move_names_its_turn() {
    let record = parse("players: Ann, Bob\nCFFF50 0 0 -1").unwrap();
    let e = replay::replay(&record, None).unwrap_err().describe(&record);
    assert!(e.starts_with("turn 1 (Ann): tile E at (0,-1) rotated 0"), "{e}");
}

#[test]
fn text_that_is_not_course_notation_is_not_mistaken_for_it() {
    assert!(record::parse(b"hello world").is_err());
    assert!(record::parse(b"# only a comment\n").is_err());
}

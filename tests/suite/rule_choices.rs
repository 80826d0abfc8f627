//! Readings we chose where a rulebook is silent or unclear. Each is documented in the reference's
//! rules page (`static/docs/rules.md`, served at `/docs/rules`); these tests pin them down.

use carcassonne_replay::{record, replay};
use serde_json::Value;

/// Replays a native record; returns the `replay --json` document or the error text.
fn run(record_json: &str) -> Result<Value, String> {
    let (r, _) = record::parse(record_json.as_bytes()).map_err(|e| e.to_string())?;
    let rp = replay::replay(&r, None).map_err(|e| e.describe(&r))?;
    Ok(serde_json::to_value(replay::json::replay(&r, &rp)).expect("a replay serialises"))
}

fn game(rules: &str, extra: &str, moves: &str) -> String {
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "rules": {rules}, {extra} "moves": [{moves}]}}"#
    )
}

fn city_points(doc: &Value) -> Vec<i64> {
    doc["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["events"].as_array().unwrap().iter())
        .filter(|e| e["type"] == "scored" && e["feature"] == "city")
        .map(|e| e["points"].as_i64().unwrap())
        .collect()
}

/// classic-2000: "When a completed city has just two segments, the player scores two points
/// (not four)." With a shield we score it like an incomplete city, 1 per tile + 1 per shield = 3,
/// as JCloisterZone's tiny-city rule does. No base tile can make a two-tile city with a shield,
/// so a custom tile (E with a shield) closes the start tile's city.
#[test]
fn a_two_tile_city_with_a_shield_scores_3_under_the_classic_rules() {
    let tiles =
        r#""tiles": [{"name": "Es", "count": 1, "segments": "city N shield; field E.n E.s S.e S.w W.s W.n > 0"}],"#;
    let moves = r#"{"tile": "Es", "at": [0, -1], "rotation": 180, "meeple": {"feature": "city", "at": "S"}}"#;
    let classic = run(&game(r#"{"preset": "classic-2000"}"#, tiles, moves)).unwrap();
    assert_eq!(city_points(&classic), vec![3]);
    let second = run(&game(r#"{"preset": "second-edition"}"#, tiles, moves)).unwrap();
    assert_eq!(
        city_points(&second),
        vec![6],
        "2nd edition: 2 per tile + 2 per shield, no exception"
    );
}

const RIVER_STRAIGHT_BETWEEN: &str = r#"
    {"tile": "river-D", "at": [0, 1], "rotation": 0},
    {"tile": "river-G", "at": [0, 2], "rotation": 90},
    {"tile": "river-B", "at": [1, 2], "rotation": 0},
    {"tile": "river-E", "at": [2, 2], "rotation": 90}"#;

const RIVER_IMMEDIATE: &str = r#"
    {"tile": "river-D", "at": [0, 1], "rotation": 0},
    {"tile": "river-G", "at": [0, 2], "rotation": 90},
    {"tile": "river-E", "at": [1, 2], "rotation": 90}"#;

/// The 1st-edition River bans a U-turn; Hans im Glück ruled that only an immediate U-turn (two
/// adjacent bends the same way) is banned, so a straight between two left bends is legal.
#[test]
fn the_first_edition_river_bans_only_an_immediate_u_turn() {
    let classic = r#"{"preset": "classic-2000", "river": true}"#;
    run(&game(classic, "", RIVER_STRAIGHT_BETWEEN)).expect("a straight between two left bends is legal");
    let err = run(&game(classic, "", RIVER_IMMEDIATE)).unwrap_err();
    assert!(err.contains("turn 3") && err.contains("U-turn"), "{err}");
}

/// The 2nd edition: the river "cannot turn twice in the same direction"; we read that as
/// remembering the last bend across straights.
#[test]
fn the_second_edition_river_remembers_its_last_bend_across_straights() {
    let second = r#"{"preset": "second-edition", "river": true}"#;
    let err = run(&game(second, "", RIVER_STRAIGHT_BETWEEN)).unwrap_err();
    assert!(err.contains("turn 4") && err.contains("turn left twice"), "{err}");
}

/// JCloisterZone checks no turn rule but keeps room ahead of the river's end: the squares beside
/// the next square, and the square after it with its two sides, must be empty.
#[test]
fn the_room_ahead_rule_refuses_a_river_that_would_run_into_tiles() {
    let jcz = r#"{"preset": "second-edition", "river": true, "river_turns": "room-ahead"}"#;
    run(&game(jcz, "", RIVER_STRAIGHT_BETWEEN)).expect("open country ahead");
    // Bending back towards the spring: after G turns east at (0,2), a bend north at (1,2)
    // would lead to (1,1), whose west neighbour (0,1) holds a tile.
    let back = r#"
        {"tile": "river-D", "at": [0, 1], "rotation": 0},
        {"tile": "river-G", "at": [0, 2], "rotation": 90},
        {"tile": "river-E", "at": [1, 2], "rotation": 90}"#;
    let err = run(&game(jcz, "", back)).unwrap_err();
    assert!(err.contains("turn 3") && err.contains("needs room"), "{err}");
}

/// The abbot may be recalled in any of its owner's turns while its cloister or garden is
/// incomplete, but not by the tile that completes it: then it scores 9 as a completed cloister.
#[test]
fn the_abbot_cannot_be_recalled_from_a_cloister_the_tile_completes() {
    let rules = r#"{"preset": "second-edition", "abbot": true}"#;
    // Ann's abbot on a cloister at (0,1); the start tile and seven tiles surround it, and
    // Ann's ninth-turn tile at (1,2) fills the last square.
    let ring = r#"
        {"tile": "B", "at": [0, 1], "rotation": 0, "meeple": {"feature": "cloister", "abbot": true}},
        {"tile": "B", "at": [-1, 1], "rotation": 0},
        {"tile": "B", "at": [1, 1], "rotation": 0},
        {"tile": "V", "at": [-1, 0], "rotation": 180},
        {"tile": "V", "at": [1, 0], "rotation": 90},
        {"tile": "U", "at": [-1, 2], "rotation": 90},
        {"tile": "U", "at": [0, 2], "rotation": 90},
        {"tile": "U", "at": [2, 0], "rotation": 0}"#;
    let recall = format!(r#"{ring}, {{"tile": "U", "at": [1, 2], "rotation": 90, "recall_abbot": true}}"#);
    let err = run(&game(rules, "", &recall)).unwrap_err();
    assert!(
        err.contains("turn 9 (Ann)") && err.contains("cloister is complete"),
        "{err}"
    );

    let complete = format!(r#"{ring}, {{"tile": "U", "at": [1, 2], "rotation": 90}}"#);
    let doc = run(&game(rules, "", &complete)).unwrap();
    let last = &doc["turns"][8];
    let scored: Vec<&Value> = last["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "scored")
        .collect();
    assert_eq!(scored.len(), 1);
    assert_eq!(
        (scored[0]["feature"].as_str(), scored[0]["points"].as_i64()),
        (Some("cloister"), Some(9))
    );
    assert_eq!(last["scores"][0], 9);
}

/// A follower may not go on a segment whose feature, once the tile is placed, joins an occupied
/// one, also through the tile's other segments ("You may not place a meeple in a feature where
/// there already is at least one other meeple"; the classic rules: "already a farmer on a
/// connected field segment"). Ann's farmer holds the field south of the start tile. Bob's
/// curve V at (1,1) touches it with its outer field, which also touches the field of the
/// cloister A below; the curve's inner field (S.w) touches only that cloister's field, yet
/// once placed all three are one field, and Ann's.
#[test]
fn a_follower_may_not_join_an_occupied_feature_through_the_tiles_other_segments() {
    let rules = r#"{"preset": "second-edition"}"#;
    let setting = r#"
        {"tile": "U", "at": [1, 0], "rotation": 90, "meeple": {"feature": "field", "at": "W.s"}},
        {"tile": "J", "at": [2, 0], "rotation": 180},
        {"tile": "E", "at": [2, 1], "rotation": 0},
        {"tile": "B", "at": [2, 2], "rotation": 0},
        {"tile": "A", "at": [1, 2], "rotation": 180}"#;
    let inner = format!(
        r#"{setting}, {{"tile": "V", "at": [1, 1], "rotation": 0, "meeple": {{"feature": "field", "at": "S.w"}}}}"#
    );
    let err = run(&game(rules, "", &inner)).unwrap_err();
    assert!(
        err.starts_with("turn 6 (Bob): ")
            && err.ends_with("that field is already occupied: a meeple stands elsewhere on it"),
        "{err}"
    );
    // The curve itself is legal, and so is a farmer on the same field once it stays apart:
    // without the cloister below, the inner field touches nothing.
    run(&game(
        rules,
        "",
        &format!(r#"{setting}, {{"tile": "V", "at": [1, 1], "rotation": 0}}"#),
    ))
    .unwrap();
    let apart = r#"
        {"tile": "U", "at": [1, 0], "rotation": 90, "meeple": {"feature": "field", "at": "W.s"}},
        {"tile": "V", "at": [1, 1], "rotation": 0, "meeple": {"feature": "field", "at": "S.w"}}"#;
    run(&game(rules, "", apart)).unwrap();
}

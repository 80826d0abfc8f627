//! The JSON Schema in `static/` describes the records we write and read.
//!
//! In detail: our records match `static/record.schema.json`; the reference's New World example
//! replays as described; a stated scoring order survives writing the record; the schema rejects
//! what the parser rejects; a record names its game or is the tile game, with the same id
//! either way.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_slice(&std::fs::read(root().join("static/record.schema.json")).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

fn assert_valid(v: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} does not match the schema: {errors:?}");
}

#[test]
fn shipped_and_test_records_match_the_schema() {
    let v = validator();
    for demo in ["demo-second-edition.json", "demo-new-world.json"] {
        let doc: Value =
            serde_json::from_slice(&std::fs::read(root().join("static/games").join(demo)).unwrap()).unwrap();
        assert_valid(&v, &doc, demo);
    }
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("tests/fixtures/rules")).unwrap() {
        let path = entry.unwrap().path();
        let wrapper: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_valid(&v, &wrapper["record"], &path.display().to_string());
        n += 1;
    }
    assert!(n > 40, "the rulebook fixtures are there");
}

#[test]
fn exported_and_generated_records_match_the_schema() {
    let v = validator();
    let bin = env!("CARGO_BIN_EXE_carcassonne-replay");
    let out = Command::new(bin)
        .args(["generate", "--seed", "9", "--players", "5", "--river", "--abbot"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid(&v, &doc, "a generated River and Abbot game");
    // A Board Game Arena log brings player colours.
    let log = root().join("tests/fixtures/bga/farmers-off.json");
    let out = Command::new(bin)
        .args(["export", log.to_str().unwrap()])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["players"][0]["colour"], "#ff0000");
    assert_valid(&v, &doc, "a Board Game Arena log exported to native JSON");
}

#[test]
fn the_schema_rejects_what_the_parser_rejects() {
    let v = validator();
    let bad = [
        r#"{"format": "carcassonne-replay/2", "players": [{"name": "A"}], "moves": []}"#,
        r#"{"format": "carcassonne-replay/1", "players": [], "moves": []}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}], "moves": [{"tile": "E", "at": [0, 1], "rotation": 45}]}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}], "moves": [{"tile": "E", "at": [0, 1], "rotation": 0, "meeple": {"feature": "city", "at": "S"}, "recall_abbot": true}]}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}], "rules": {"preset": "second-edition", "dragons": true}, "moves": []}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A", "colour": "red"}], "moves": []}"#,
        r#"{"format": "carcassonne-replay/1", "game": "chess", "players": [{"name": "A"}], "moves": []}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}], "moves": [], "annotations": [{"turn": 0, "text": "a\u0007"}]}"#,
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}], "moves": [], "annotations": [{"turn": -1, "text": "a"}]}"#,
    ];
    for text in bad {
        let doc: Value = serde_json::from_str(text).unwrap();
        assert!(!v.is_valid(&doc), "the schema should reject {text}");
        assert!(
            carcassonne_replay::record::parse(text.as_bytes()).is_err(),
            "the parser should reject {text}"
        );
    }
}

/// Every record is of one game kind. Naming the tile game is the same as naming none: the same
/// canonical record, so the same game id. A game this version does not play is refused by name.
#[test]
fn a_record_names_its_game_or_is_the_tile_game() {
    use carcassonne_replay::engine::GameKind;
    use carcassonne_replay::record;
    use carcassonne_replay::store::canonical_id;
    let doc = |game: &str| {
        format!(
            r#"{{"format": "carcassonne-replay/1", {game} "players": [{{"name": "A"}}, {{"name": "B"}}],
                "moves": [{{"tile": "E", "at": [0, -1], "rotation": 180}}]}}"#
        )
    };
    let (named, _) = record::parse(doc(r#""game": "carcassonne","#).as_bytes()).unwrap();
    let (plain, _) = record::parse(doc("").as_bytes()).unwrap();
    assert_eq!(named.setup.game, GameKind::Carcassonne);
    assert_eq!(canonical_id(&named), canonical_id(&plain));
    let err = record::parse(doc(r#""game": "chess","#).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(r#"unknown game "chess""#) && err.contains(r#""carcassonne", "new-world""#),
        "{err}"
    );
    // New World's printed tiles are not public: its records bring their own.
    let err = record::parse(doc(r#""game": "new-world","#).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("brings its own tiles"), "{err}");
}

/// The reference's New World example is a complete record that means what the page says.
#[test]
fn the_reference_new_world_example_replays_as_described() {
    let section = std::fs::read_to_string(root().join("static/docs/new-world.md")).unwrap();
    let start = section.find("```json\n").expect("with an example record") + "```json\n".len();
    let text = &section[start..start + section[start..].find("```").unwrap()];
    let doc: Value = serde_json::from_str(text).unwrap();
    assert_valid(&validator(), &doc, "the reference's New World example");
    let (record, _) = carcassonne_replay::record::parse(text.as_bytes()).unwrap();
    let replay = carcassonne_replay::replay::replay(&record, None).unwrap();
    assert_eq!(
        replay.turns[1].scores,
        vec![2, 0],
        "the robber's trail closes on turn 2"
    );
    assert_eq!(
        replay.final_scores,
        vec![5, 0],
        "and the trapper's 3 animals score at the end"
    );
}

/// A New World record's stated scoring order is kept when the record is written again (the
/// store writes records this way), and the written record replays the same.
#[test]
fn a_stated_scoring_order_survives_writing_the_record() {
    use carcassonne_replay::record::{self, native};
    let path = root().join("tests/fixtures/rules/nw_score_order_stated_by_the_record.json");
    let fixture: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let (first, _) = record::parse(fixture["record"].to_string().as_bytes()).unwrap();
    let written = native::to_value(&first);
    assert_eq!(
        written["moves"][14]["score_order"],
        serde_json::json!([{"feature": "town", "on": [0, 6], "at": "S"}])
    );
    let (again, _) = record::parse(written.to_string().as_bytes()).unwrap();
    let scores = |r| carcassonne_replay::replay::replay(r, None).unwrap().final_scores;
    assert_eq!(scores(&again), scores(&first));
    assert_eq!(scores(&first), vec![14, 10, 13, 0]);
}

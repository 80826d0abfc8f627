//! The other formats from the command line: Board Game Arena logs and course notation through
//! `replay` (detected from content), a BGA score mismatch as a failure, and
//! `export --to jcz|csv`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "failed: {err}");
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn failed(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "expected a clean failure: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn replay_reads_bga_logs_and_course_notation() {
    let bga = path("tests/fixtures/bga/discard.json");
    let text = ok(&run(&["replay", bga.to_str().unwrap()]));
    assert!(text.starts_with("Ann vs Bob"), "{text}");
    assert!(text.contains("discarded: no legal placement"), "{text}");

    let course = path("static/games/course-example.txt");
    let doc: serde_json::Value =
        serde_json::from_str(&ok(&run(&["replay", "--json", course.to_str().unwrap()]))).unwrap();
    assert_eq!(doc["rules"], "course");
    assert_eq!(doc["final_scores"], serde_json::json!([25, 20]));
}

#[test]
fn a_bga_score_mismatch_fails_naming_the_turn() {
    let log = path("tests/fixtures/bga/score-mismatch.json");
    let err = failed(&run(&["replay", log.to_str().unwrap()]));
    assert!(err.contains("turn 1 (Ann, tile E at (0,-1) rotated 180)"), "{err}");
    assert!(
        err.contains("Board Game Arena recorded Ann 5, Bob 0, our replay has Ann 4, Bob 0"),
        "{err}"
    );
    let err = failed(&run(&["export", "--to", "csv", log.to_str().unwrap()]));
    assert!(err.contains("turn 1"), "{err}");
    // Under another preset the log's scores cannot apply; the replay goes on, with a note.
    let o = run(&["replay", "--preset", "classic-2000", log.to_str().unwrap()]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not checked"));
}

#[test]
fn export_writes_jcz_that_replays_the_same() {
    let course = path("static/games/course-example.txt");
    let jcz = ok(&run(&["export", "--to", "jcz", course.to_str().unwrap()]));
    let doc: serde_json::Value = serde_json::from_str(&jcz).unwrap();
    assert_eq!(doc["setup"]["sets"], serde_json::json!({"basic:1": 1}));
    assert_eq!(
        doc["setup"]["rules"]["tiny-city-scoring"], "2",
        "the course's two-tile town"
    );
    assert_eq!(doc["gameAnnotations"]["endTurn"], 15, "14 tiles and the discard");
    let dir = std::env::temp_dir().join(format!("cr-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.jcz");
    std::fs::write(&saved, jcz).unwrap();
    let again: serde_json::Value =
        serde_json::from_str(&ok(&run(&["replay", "--json", saved.to_str().unwrap()]))).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(again["rules"], "course", "our rules travel with the save");
    assert_eq!(again["final_scores"], serde_json::json!([25, 20]));
}

#[test]
fn export_writes_the_scoring_csv() {
    let course = path("static/games/course-example.txt");
    let csv = ok(&run(&["export", "--to", "csv", course.to_str().unwrap()]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("turn,phase,player,feature,reason,points,breakdown,tied_with,x,y,location")
    );
    assert_eq!(
        lines.next(),
        Some("1,play,Ann,city,completed,2,city of 2 tiles × 1 (two-tile city),,0,-1,S")
    );
    assert!(
        csv.contains(",end,Bob,field,farm,4,farm supplying 1 completed city × 4,Ann,"),
        "{csv}"
    );
}

#[test]
fn export_to_an_unknown_format_lists_the_known_ones() {
    let o = run(&[
        "export",
        "--to",
        "xml",
        path("static/games/course-example.txt").to_str().unwrap(),
    ]);
    // Refused as the arguments are parsed, before the record is read: a usage error, status 2.
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("supported: json, jcz, csv"), "{err}");
}

//! A corpus of bad records, uploaded one by one to the real service.
//!
//! `tests/fixtures/bad/` holds records of our own that the service must refuse, in every format
//! it reads (native JSON, the Card Game, JCloisterZone `.jcz` saves, Board Game Arena logs,
//! course notation and Carcassonne Lab links), each broken in one way: unreadable bytes,
//! unknown names and values, limits passed, and illegal moves. `expected.json` lists every file
//! with the status it must get, the words its problem's `detail` must contain and, for an
//! illegal move, the turn and player the problem's `turn` and `player` members must name.
//!
//! For every entry this test POSTs the file to `/api/games` and checks the status, that the
//! answer is `application/problem+json` (with the same `status` member) and the detail and
//! members. Where a refusal is about a turn but is not an illegal move (Board Game Arena's
//! scores disagreeing with ours), its entry gives no `turn` and its `says` holds "turn N"
//! instead, so the detail must still name it. Afterwards nothing may have been stored and `/livez` must still answer. The corpus
//! must hold at least [`MIN_RECORDS`] entries, and `expected.json` and the directory must list
//! the same files, so a record cannot be added without its expectation or the other way round.
//!
//! Why: a user who uploads a broken game must be told what is wrong and where, in the words
//! of their own record, with a 4xx status and nothing kept; a panic, a 5xx, a vague message or
//! a stored half-game is a bug. Every failure is collected and reported together at the end.
//!
//! In detail:
//! - 119 bad records of our own in `tests/fixtures/bad/` (native JSON, `.jcz`, BGA logs, course
//!   notation, Lab links and Card Games; among them custom tiles with no segments or half-edges
//!   left out, kinds of another game, a meeple on a half-field, 30 KB Lab stacks, 100 KB names,
//!   keys and cards), each uploaded to the real app: the status (400, 413 or 422) and
//!   problem+json its entry in `expected.json` gives, the detail's words (never over 600
//!   characters: the record is quoted short), and for an illegal move the `turn` and `player`
//!   members
//! - nothing stored, `/livez` still answering
//! - the corpus and its expectations list the same files. Then the analysis worker: a poison
//!   record an earlier release stored fails its analysis alone (and its pages answer 410) while
//!   the next game's runs
//! - a stored game holding a move this release refuses (a farmer its tile joined to an occupied
//!   field) answers 410 naming the turn and the rule, not 500
//! - an analysis interrupted twice is not started a third time
//! - 512 tiles in a line are stored, and their analysis refused at once as too long; so is the
//!   analysis of a game whose board gives every tile a sample draws hundreds of places

use crate::common;

use carcassonne_replay::analysis::Sampler;
use common::app::{get, post, small_game, spawn_app, spawn_app_at, spawn_app_configured, upload_id};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The corpus must not shrink below this.
const MIN_RECORDS: usize = 60;

/// A problem's detail says what is wrong and where, quoting the record short: never more.
const MAX_DETAIL_CHARS: usize = 600;

/// The statuses a bad record may get: unreadable, too large, invalid or illegal.
const STATUSES: [u16; 3] = [400, 413, 422];

/// One entry of `expected.json`.
struct Expected {
    file: String,
    status: u16,
    /// The illegal move's turn, where the error is about one.
    turn: Option<u64>,
    /// The player of that turn, by name.
    player: Option<String>,
    /// Words the problem's `detail` must contain.
    says: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad")
}

/// Reads `expected.json`, pushing a failure for each malformed entry.
fn expectations(failures: &mut Vec<String>) -> Vec<Expected> {
    let path = corpus_dir().join("expected.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    let entries = doc
        .as_array()
        .unwrap_or_else(|| panic!("{}: not an array", path.display()));
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("expected.json entry {}", i + 1);
        let Some(obj) = entry.as_object() else {
            failures.push(format!("{at}: not an object"));
            continue;
        };
        for key in obj.keys() {
            if !["file", "status", "turn", "player", "says", "why"].contains(&key.as_str()) {
                failures.push(format!("{at}: unknown key {key:?}"));
            }
        }
        let text = |key: &str| obj.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
        let (Some(file), Some(says)) = (text("file"), text("says")) else {
            failures.push(format!("{at}: needs a \"file\" and a non-empty \"says\""));
            continue;
        };
        if text("why").is_none() {
            failures.push(format!("{file}: needs a \"why\""));
        }
        let status = obj.get("status").and_then(Value::as_u64).unwrap_or(0) as u16;
        if !STATUSES.contains(&status) {
            failures.push(format!("{file}: status {status} is not one of {STATUSES:?}"));
        }
        let turn = obj.get("turn").and_then(Value::as_u64);
        let player = text("player").map(str::to_string);
        if player.is_some() && turn.is_none() {
            failures.push(format!("{file}: a \"player\" goes with a \"turn\""));
        }
        out.push(Expected {
            file: file.to_string(),
            status,
            turn,
            player,
            says: says.to_string(),
        });
    }
    out
}

/// The record files of the corpus: every file of the directory but `expected.json`.
fn corpus_files() -> BTreeSet<String> {
    std::fs::read_dir(corpus_dir())
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", corpus_dir().display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_string))
        .filter(|n| n != "expected.json")
        .collect()
}

/// What is wrong with the answer to one upload, if anything.
fn check(want: &Expected, status: u16, content_type: &str, body: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    if status != want.status {
        wrong.push(format!("status {status}, expected {}", want.status));
    }
    if content_type != "application/problem+json" {
        wrong.push(format!(
            "content type {content_type:?}, expected \"application/problem+json\""
        ));
    }
    let problem: Value = match serde_json::from_str(body) {
        Ok(p) => p,
        Err(e) => {
            wrong.push(format!("the body is not JSON ({e})"));
            Value::Null
        }
    };
    if problem.get("status").and_then(Value::as_u64) != Some(u64::from(status)) {
        wrong.push(format!(
            "the problem's \"status\" is {}, not {status}",
            problem["status"]
        ));
    }
    let detail = problem.get("detail").and_then(Value::as_str).unwrap_or_default();
    if detail.chars().count() > MAX_DETAIL_CHARS {
        wrong.push(format!(
            "the detail is {} characters long: it echoes the record instead of quoting it short",
            detail.chars().count()
        ));
    }
    if !detail.contains(&want.says) {
        wrong.push(format!("the detail does not contain {:?}", want.says));
    }
    if let Some(turn) = want.turn {
        if problem.get("turn").and_then(Value::as_u64) != Some(turn) {
            wrong.push(format!(
                "the problem's \"turn\" is {}, expected {turn}",
                problem["turn"]
            ));
        }
        if problem.get("reason").and_then(Value::as_str).is_none_or(str::is_empty) {
            wrong.push("the problem has no \"reason\"".to_string());
        }
    }
    if let Some(player) = &want.player
        && problem.get("player").and_then(Value::as_str) != Some(player.as_str())
    {
        wrong.push(format!(
            "the problem's \"player\" is {}, expected {player:?}",
            problem["player"]
        ));
    }
    wrong
}

#[test]
fn every_bad_record_is_refused_with_the_right_problem_and_nothing_is_stored() {
    let mut failures = Vec::new();
    let expected = expectations(&mut failures);

    let listed: BTreeSet<String> = expected.iter().map(|e| e.file.clone()).collect();
    if listed.len() != expected.len() {
        failures.push("expected.json lists a file more than once".to_string());
    }
    let files = corpus_files();
    for missing in files.difference(&listed) {
        failures.push(format!("{missing}: in tests/fixtures/bad/ but not in expected.json"));
    }
    for missing in listed.difference(&files) {
        failures.push(format!("{missing}: in expected.json but not in tests/fixtures/bad/"));
    }
    if expected.len() < MIN_RECORDS {
        failures.push(format!(
            "the corpus has {} records; it must keep at least {MIN_RECORDS}",
            expected.len()
        ));
    }

    let app = spawn_app();
    let stored = app.stored_games();
    for want in expected.iter().filter(|e| files.contains(&e.file)) {
        let bytes = std::fs::read(corpus_dir().join(&want.file)).expect("a listed file is readable");
        let a = post(&app, "/api/games", &bytes);
        let wrong = check(want, a.status, &a.content_type, &a.body);
        if !wrong.is_empty() {
            let body: String = a.body.chars().take(600).collect();
            failures.push(format!(
                "{}: {}\n      answer: {} {body}",
                want.file,
                wrong.join("; "),
                a.status
            ));
        }
    }
    let now = app.stored_games();
    if now != stored {
        failures.push(format!(
            "the bad records changed the games stored from {stored} to {now}"
        ));
    }
    let live = get(&app, "/livez");
    if live.status != 200 {
        failures.push(format!("/livez answers {} after the corpus", live.status));
    }
    app.stop();

    assert!(
        failures.is_empty(),
        "{} failure(s) over {} bad records:\n  {}",
        failures.len(),
        expected.len(),
        failures.join("\n  ")
    );
}

/// Replaces a stored game's record, as an earlier release that accepted it would have stored
/// it, and queues its analysis behind the service's back, as that release's queue held it.
fn store_as_an_earlier_release(db: &Path, id: &str, record: &[u8]) {
    use std::io::Write;
    let mut deflated = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    deflated.write_all(record).unwrap();
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute(
        "UPDATE games SET record = ?2 WHERE id = ?1",
        rusqlite::params![id, deflated.finish().unwrap()],
    )
    .unwrap();
}

fn queue_behind_the_service(db: &Path, id: &str, status: &str, starts: u32) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute(
        "INSERT INTO analyses (game, status, starts, updated_at)
         SELECT seq, ?2, ?3, '2026-01-01T00:00:00Z' FROM games WHERE id = ?1",
        rusqlite::params![id, status, starts],
    )
    .unwrap();
}

/// Waits for a game's analysis to end; its last status.
fn analysis_end(app: &common::app::TestApp, id: &str) -> Value {
    for _ in 0..600 {
        let status = get(app, &format!("/api/games/{id}/analysis")).json();
        if status["status"] == "done" || status["status"] == "failed" {
            return status;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!(
        "the analysis of {id} never ended: {}",
        get(app, &format!("/api/games/{id}/analysis")).body
    )
}

/// A record an earlier release stored, and this release refuses: a custom tile with no
/// segments, placed below the start. Its analysis, queued when the service stopped, used to
/// kill the analysis worker at every start, so that no later analysis ever ran. Now its pages
/// say it is withdrawn and why (410), its analysis fails with that reason, and the worker goes
/// on with the next game.
#[test]
fn a_poison_record_stored_by_an_earlier_release_fails_alone_and_the_queue_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite");
    let app = spawn_app_at(db.clone(), None);
    let poison = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let healthy = upload_id(&app, small_game(["Cy", "Di"]).as_bytes());
    app.stop();
    let bytes = std::fs::read(corpus_dir().join("native-custom-tile-empty.json")).unwrap();
    store_as_an_earlier_release(&db, &poison, &bytes);
    queue_behind_the_service(&db, &poison, "queued", 0);
    queue_behind_the_service(&db, &healthy, "queued", 0);

    let app = spawn_app_at(db.clone(), Some(dir));
    assert_eq!(analysis_end(&app, &healthy)["status"], "done");
    // The queue runs in order, so the poison's analysis ended before: it failed, saying why.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (status, error): (String, String) = conn
        .query_row(
            "SELECT a.status, a.error FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = ?1",
            [&poison],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(status, "failed");
    assert!(error.contains("half-edge N.w belongs to no segment"), "{error}");
    for path in ["", "/t/1", "/t/1/alternatives", ".jcz", "/t/1.png", "/analysis"] {
        let a = get(&app, &format!("/g/{poison}{path}"));
        assert_eq!(a.status, 410, "/g/{poison}{path}: {}", a.body);
        assert_eq!(a.content_type, "application/problem+json");
        assert!(a.body.contains("stored by an earlier release"), "{}", a.body);
    }
    assert_eq!(get(&app, "/livez").status, 200);
    app.stop();
}

/// A game an earlier release stored with a farmer on a field its tile joined to an occupied
/// one (`../shared/fixtures/engine/farmer-on-occupied-field.json`, turn 61), which this
/// release refuses: its pages say it is withdrawn, naming the turn and the rule, instead of
/// failing with 500.
#[test]
fn a_game_stored_with_a_move_this_release_refuses_is_withdrawn_saying_why() {
    let Some(fixtures) = common::fixtures_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite");
    let app = spawn_app_at(db.clone(), None);
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    app.stop();
    let bytes = std::fs::read(fixtures.join("engine/farmer-on-occupied-field.json")).unwrap();
    store_as_an_earlier_release(&db, &id, &bytes);
    let app = spawn_app_at(db, Some(dir));
    for path in ["", "/t/1", "/t/1.png", "/analysis"] {
        let a = get(&app, &format!("/g/{id}{path}"));
        assert_eq!(a.status, 410, "/g/{id}{path}: {}", a.body);
        let detail = a.json()["detail"].as_str().unwrap().to_string();
        assert!(
            detail.contains("turn 61 (Ann)") && detail.contains("already occupied"),
            "{detail}"
        );
    }
    app.stop();
}

/// An analysis that was running when the service stopped is started again at the next start,
/// once: one that was interrupted twice may be what takes the process down, so it fails
/// instead of being started at every start.
#[test]
fn an_analysis_interrupted_twice_is_not_started_a_third_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite");
    let app = spawn_app_at(db.clone(), None);
    let twice = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let once = upload_id(&app, small_game(["Cy", "Di"]).as_bytes());
    app.stop();
    queue_behind_the_service(&db, &twice, "running", 2);
    queue_behind_the_service(&db, &once, "running", 1);

    let app = spawn_app_at(db, Some(dir));
    let failed = analysis_end(&app, &twice);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("stopped 2 times while this analysis ran"),
        "{failed}"
    );
    assert_eq!(analysis_end(&app, &once)["status"], "done");
    // Asked for again, it runs: a person asking is not a crash loop.
    assert_eq!(post(&app, &format!("/g/{twice}/analysis"), b"").status, 202);
    assert_eq!(analysis_end(&app, &twice)["status"], "done");
    app.stop();
}

/// A record of two players placing custom `kinds` (name, copies, segments), in their order, at
/// `at(1)`, `at(2)`, … rotated 0.
fn tiles_in_a_line(kinds: &[(&str, u32, &str)], at: impl Fn(i32) -> (i32, i32)) -> String {
    let tiles: Vec<String> = (kinds.iter())
        .map(|(name, count, segments)| format!(r#"{{"name": "{name}", "count": {count}, "segments": "{segments}"}}"#))
        .collect();
    let names = (kinds.iter()).flat_map(|(name, count, _)| std::iter::repeat_n(*name, *count as usize));
    let moves: Vec<String> = (names.zip(1..))
        .map(|(tile, i)| {
            let (x, y) = at(i);
            format!(r#"{{"tile": "{tile}", "at": [{x}, {y}], "rotation": 0}}"#)
        })
        .collect();
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "tiles": [{}], "moves": [{}]}}"#,
        tiles.join(", "),
        moves.join(", ")
    )
}

/// 512 tiles of the record's own, all field, in a line below the start: a legal game, stored
/// as any other. Its whole-game analysis with playouts to the end would have played for about
/// an hour of both cores while every other analysis waited; it is refused at once, saying why,
/// and the next game's analysis runs.
#[test]
fn a_game_too_long_to_analyse_is_refused_and_the_queue_goes_on() {
    // A kind holds at most 255 copies: three kinds of the same tile make 512.
    let field = "field N.w N.e E.n E.s S.e S.w W.s W.n";
    let record = tiles_in_a_line(
        &[("meadow", 255, field), ("prairie", 255, field), ("lea", 2, field)],
        |y| (0, y),
    );
    let app = spawn_app_configured(|s| s.analysis.sampler = Sampler::ToTheEnd);
    let a = post(&app, "/api/games", record.as_bytes());
    assert_eq!(a.status, 201, "a long game is legal: {}", a.body);
    let long = a.json()["id"].as_str().unwrap().to_string();
    let next = upload_id(&app, small_game(["Cy", "Di"]).as_bytes());
    assert_eq!(post(&app, &format!("/g/{long}/analysis"), b"").status, 202);
    assert_eq!(post(&app, &format!("/g/{next}/analysis"), b"").status, 202);
    let refused = analysis_end(&app, &long);
    assert_eq!(refused["status"], "failed", "{refused}");
    let why = refused["error"].as_str().unwrap();
    assert!(
        why.contains("the game is too long to analyse") && why.contains("512 turns"),
        "{why}"
    );
    assert_eq!(analysis_end(&app, &next)["status"], "done");
    app.stop();
}

/// 300 tiles of a road laid in a line, then its east end capped 212 times by a tile that fits
/// nowhere else: few moves a turn, but each tile a sample draws from the pack (the base
/// game's, on top) has hundreds of places along the line, and the bots weigh every one.
/// Counted in tiles alone this analysis fitted the budget and took about two minutes of both
/// cores; weighed by the board it is refused at once, and the next game's analysis runs.
#[test]
fn a_game_whose_board_makes_every_sample_dear_is_refused() {
    let road = "road E W; field N.w N.e E.n W.n; field E.s S.e S.w W.s";
    let cap = "city N; city S; road E W; field E.n W.n; field E.s W.s";
    let record = tiles_in_a_line(&[("ka", 255, road), ("kb", 45, road), ("kc", 212, cap)], |x| (x, 0));
    // The default analysis, as the service runs it (the tests' own take two samples a move).
    let app = spawn_app_configured(|s| s.analysis.playouts_per_alternative = None);
    let a = post(&app, "/api/games", record.as_bytes());
    assert_eq!(a.status, 201, "a long game is legal: {}", a.body);
    let trap = a.json()["id"].as_str().unwrap().to_string();
    assert_eq!(post(&app, &format!("/g/{trap}/analysis"), b"").status, 202);
    let refused = analysis_end(&app, &trap);
    assert_eq!(refused["status"], "failed", "{refused}");
    let why = refused["error"].as_str().unwrap();
    assert!(
        why.contains("the game is too long to analyse") && why.contains("the places a drawn tile has on its board"),
        "{why}"
    );
    app.stop();
}

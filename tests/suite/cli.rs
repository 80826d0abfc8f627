//! The command line as a user meets it: readable output, the JSON contract, and clear errors
//! (never a panic) for bad input.
//!
//! In detail:
//! - the commands as a user runs them: table, JSON contract, `--preset`, export, and clear
//!   errors for broken JSON, truncated and oversized files, unknown tiles, illegal placements,
//!   occupied features, farmers and gardens
//! - the hostile records of `tests/suite/common/hostile.rs` (far and extreme coordinates in every
//!   format, huge custom tile sets, repeated keys, BGA error answers, a `.jcz` player 256, more
//!   moves than tiles, a 1 MB name) each refused with exit 1
//! - the first rule broken named (a tile that touches nothing before the meeple it cannot take;
//!   a `.jcz` by turn and player, and its meeple put on another square judged after its tile)
//! - a line of 500 custom tiles replayed
//! - `train` writes weights and its held-out fit

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json")
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `content` to a temp file and runs `replay` on it.
fn replay_text(name: &str, content: &[u8]) -> Output {
    let dir = std::env::temp_dir().join(format!("cr-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    std::fs::write(&path, content).unwrap();
    let out = run(&["replay", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    out
}

/// Asserts a clean failure: exit code 1, the message, and no panic.
fn assert_rejected(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "expected a clean failure, got {:?}: {err}",
        o.status
    );
    assert!(!err.contains("panicked"), "the program panicked: {err}");
    for n in needles {
        assert!(err.contains(n), "error should mention {n:?}: {err}");
    }
}

fn record(moves: &str, rules: &str) -> String {
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "rules": {rules}, "moves": [{moves}]}}"#
    )
}

#[test]
fn the_demo_game_replays_to_a_table_with_a_breakdown() {
    let o = run(&["replay", demo().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("Ada vs Bruno vs Chloé — 2nd edition rules (second-edition)"),
        "{text}"
    );
    // The expansions are named with the rulebook.
    let generated = run(&["generate", "--river", "--abbot", "--seed", "3"]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("river-abbot.json");
    std::fs::write(&record, &generated.stdout).unwrap();
    let o = run(&["replay", record.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("— 2nd edition rules with The River and The Abbot (second-edition)"),
        "{first}"
    );
    assert!(text.contains("Final scoring"));
    for word in ["road", "city", "cloister", "garden", "field", "total"] {
        assert!(text.contains(word), "breakdown column {word} missing");
    }
}

#[test]
fn replay_json_follows_the_contract() {
    let o = run(&["replay", "--json", demo().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["players"].as_array().unwrap().len(), 3);
    assert!(doc["players"][0]["name"].is_string());
    let turns = doc["turns"].as_array().unwrap();
    assert_eq!(
        turns.len(),
        71,
        "a base game without discards places 71 tiles after the start"
    );
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(t["turn"], i + 1);
        assert!(t["player"].is_u64() && t["tile"].is_string() && t["events"].is_array());
        assert_eq!(t["scores"].as_array().unwrap().len(), 3);
    }
    let finals: Vec<i64> = doc["final_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let breakdown = doc["breakdown"].as_array().unwrap();
    for (p, b) in breakdown.iter().enumerate() {
        let sum: i64 = ["play", "end"]
            .iter()
            .flat_map(|phase| ["road", "city", "cloister", "garden", "field"].map(|c| b[phase][c].as_i64().unwrap()))
            .sum();
        assert_eq!(sum, finals[p], "player {p}'s breakdown adds up to the final score");
    }
    // Scores never go down, and the last turn's scores plus final scoring are the final scores.
    let last = turns.last().unwrap()["scores"].as_array().unwrap();
    for (p, s) in last.iter().enumerate() {
        assert!(s.as_i64().unwrap() <= finals[p]);
    }
}

#[test]
fn another_preset_rescores_the_same_moves() {
    let second = run(&["replay", "--json", demo().to_str().unwrap()]);
    let classic = run(&["replay", "--json", "--preset", "classic-2000", demo().to_str().unwrap()]);
    assert!(classic.status.success(), "{}", stderr(&classic));
    let a: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&classic.stdout).unwrap();
    assert_eq!(b["rules"], "classic-2000");
    assert_eq!(
        a["turns"].as_array().unwrap().len(),
        b["turns"].as_array().unwrap().len()
    );
    assert_ne!(
        a["final_scores"], b["final_scores"],
        "two-tile cities and farms score differently"
    );
    // A name that is no preset is refused as the arguments are parsed: a usage error, status 2.
    let bad = run(&["replay", "--preset", "third-edition", demo().to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    for says in ["unknown preset \"third-edition\"", "classic-2000-alternate"] {
        assert!(stderr(&bad).contains(says), "{}", stderr(&bad));
    }
    let other_game = run(&["replay", "--preset", "new-world", demo().to_str().unwrap()]);
    assert_rejected(&other_game, &["new-world is not a rulebook of carcassonne"]);
}

#[test]
fn export_gives_a_record_that_replays_identically() {
    let o = run(&["export", "--to", "json", demo().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = replay_text("export", &o.stdout);
    let original = run(&["replay", demo().to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&original.stdout)
    );
}

#[test]
fn broken_json_names_the_line_and_column() {
    let o = replay_text("broken", b"{\"format\": \"carcassonne-replay/1\",\n \"players\": [}");
    assert_rejected(&o, &["not valid JSON", "line 2"]);
}

#[test]
fn a_truncated_file_is_rejected() {
    let full = std::fs::read(demo()).unwrap();
    let o = replay_text("truncated", &full[..full.len() / 2]);
    assert_rejected(&o, &["not valid JSON", "EOF"]);
}

#[test]
fn an_empty_file_and_a_non_record_are_rejected() {
    assert_rejected(&replay_text("empty", b"  \n"), &["empty"]);
    assert_rejected(&replay_text("other", b"{\"hello\": 1}"), &["unrecognised record"]);
    assert_rejected(&replay_text("binary", &[0xff, 0xfe, 0x00]), &["not UTF-8"]);
}

#[test]
fn a_50_mb_file_is_refused_without_reading_it_all() {
    let big = vec![b' '; 50 * 1024 * 1024];
    assert_rejected(&replay_text("big", &big), &["the limit is 4194304 bytes"]);
}

#[test]
fn an_unknown_tile_names_the_move() {
    let moves = r#"{"tile": "E", "at": [0, -1], "rotation": 180}, {"tile": "Z9", "at": [1, 0], "rotation": 0}"#;
    let o = replay_text("tile", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(&o, &["move 2", "unknown tile \"Z9\""]);
}

#[test]
fn an_edge_mismatch_names_turn_player_move_and_rule() {
    // U rotated 0 runs a road north–south; below the start tile its road meets a field.
    let moves = r#"{"tile": "E", "at": [0, -1], "rotation": 180}, {"tile": "U", "at": [0, 1], "rotation": 0}"#;
    let o = replay_text("edge", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(
        &o,
        &[
            "turn 2 (Bob): tile U at (0,1) rotated 0: its north edge (road) meets the south edge (field) of the tile at (0,0)",
        ],
    );
}

#[test]
fn a_tile_away_from_the_landscape_is_rejected() {
    let moves = r#"{"tile": "B", "at": [5, 5], "rotation": 0}"#;
    let o = replay_text("far", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(&o, &["turn 1 (Ann)", "(5,5) touches no placed tile"]);
}

#[test]
fn the_first_rule_broken_is_named_not_the_meeple() {
    // B is a cloister: it has no road at N. But at (5,5) it touches nothing, which a player
    // meets first.
    let moves = r#"{"tile": "B", "at": [5, 5], "rotation": 0, "meeple": {"feature": "road", "at": "N"}}"#;
    let o = replay_text("first", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(&o, &["turn 1 (Ann)", "(5,5) touches no placed tile"]);
}

/// A save in JCloisterZone 5's shape: Oscar's one turn, `meeple` the pointer's square.
fn jcz_turn(tile_at: [i32; 2], meeple_at: [i32; 2]) -> Vec<u8> {
    format!(
        r#"{{"appVersion": "5.10.0", "setup": {{"sets": {{"basic:1": 1}}, "elements": {{"farmers": true}}}},
            "players": [{{"name": "Oscar", "slot": 0}}, {{"name": "Bob", "slot": 1}}],
            "replay": [
              {{"type": "PLACE_TILE", "player": 0, "payload": {{"tileId": "BA/RFr", "rotation": "R0", "position": {tile_at:?}}}}},
              {{"type": "DEPLOY_MEEPLE", "player": 0, "payload": {{"pointer": {{"position": {meeple_at:?}, "feature": "Road", "location": "N"}}, "meepleId": "1.small"}}}},
              {{"type": "COMMIT", "player": 0}}]}}"#
    )
    .into_bytes()
}

#[test]
fn a_jcz_error_names_the_turn_the_player_and_the_first_rule_broken() {
    // Both the tile and the meeple are wrong: the tile touches nothing, and that comes first.
    let o = replay_text("jcz-far", &jcz_turn([40, 40], [0, 1]));
    assert_rejected(
        &o,
        &["turn 1 (Oscar): tile U at (40,40)", "(40,40) touches no placed tile"],
    );
    assert!(!stderr(&o).contains("replay message"), "{}", stderr(&o));
    // The tile fits below the start; the meeple goes elsewhere.
    let o = replay_text("jcz-elsewhere", &jcz_turn([0, 1], [3, 3]));
    assert_rejected(
        &o,
        &[
            "turn 1 (Oscar): tile U at (0,1)",
            "a meeple goes only on the tile just placed, at (0,1), but this one goes to (3,3)",
        ],
    );
}

#[test]
fn a_meeple_on_an_occupied_feature_is_rejected() {
    // Ann's highwayman on K joins the start tile's road; Bob's V extends the same road west.
    let moves = r#"{"tile": "K", "at": [1, 0], "rotation": 0, "meeple": {"feature": "road", "at": "W"}},
                   {"tile": "V", "at": [-1, 0], "rotation": 180, "meeple": {"feature": "road", "at": "E"}}"#;
    let o = replay_text("occupied", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(
        &o,
        &[
            "turn 2 (Bob)",
            "with a meeple on the road at E: that road is already occupied",
        ],
    );
}

#[test]
fn farmers_are_refused_when_the_rules_have_none() {
    let moves = r#"{"tile": "B", "at": [0, 1], "rotation": 0, "meeple": {"feature": "field", "at": "S.w"}}"#;
    let o = replay_text(
        "farmers",
        record(moves, r#"{"preset": "second-edition", "farmers": false}"#).as_bytes(),
    );
    assert_rejected(&o, &["turn 1 (Ann)", "no farmers"]);
}

#[test]
fn a_follower_may_not_stand_on_a_garden() {
    let moves = r#"{"tile": "Ug", "at": [0, 1], "rotation": 90, "meeple": {"feature": "garden"}}"#;
    let o = replay_text(
        "garden",
        record(moves, r#"{"preset": "second-edition", "abbot": true}"#).as_bytes(),
    );
    assert_rejected(&o, &["turn 1 (Ann)", "only an abbot may stand on a garden"]);
}

#[test]
fn a_player_out_of_turn_is_rejected() {
    let moves = r#"{"player": 1, "tile": "B", "at": [0, 1], "rotation": 0}"#;
    let o = replay_text("turn", record(moves, r#"{"preset": "second-edition"}"#).as_bytes());
    assert_rejected(&o, &["turn 1 (Ann)", "the record says Bob moves, but it is Ann's turn"]);
}

#[test]
fn an_unknown_rules_field_is_rejected() {
    let o = replay_text(
        "rules",
        record("", r#"{"preset": "second-edition", "dragons": true}"#).as_bytes(),
    );
    assert_rejected(&o, &["dragons"]);
}

#[test]
fn generate_plays_a_legal_game_with_every_expansion() {
    let o = run(&[
        "generate",
        "--seed",
        "5",
        "--players",
        "4",
        "--river",
        "--abbot",
        "--policy",
        "random",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = replay_text("generated", &o.stdout);
    assert!(again.status.success(), "{}", stderr(&again));
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(
        text.contains("river-A") || text.contains("river-"),
        "River tiles come first"
    );
}

/// `generate` refuses what `replay` would refuse, and never ignores a flag: New World is "for
/// 2-5 players" and played without The River and The Abbot, the course rules are "for two to
/// five players", and the Card Game has no River, Abbot or rulebook preset.
#[test]
fn generate_refuses_what_replay_would_refuse() {
    let refused = [
        (&["--game", "new-world", "--players", "6"][..], "2 to 5 players"),
        (&["--game", "new-world", "--players", "1"], "2 to 5 players"),
        (&["--preset", "course", "--players", "6"], "two to five players"),
        (
            &["--game", "new-world", "--river", "--abbot"],
            "New World is played without The River and The Abbot",
        ),
        (&["--game", "card-game", "--river"], "--river is for the tile games"),
        (
            &["--game", "card-game", "--abbot", "--preset", "course"],
            "--abbot and --preset are for the tile games",
        ),
    ];
    for (args, says) in refused {
        let o = run(&[&["generate"], args].concat());
        assert_rejected(&o, &[says]);
        assert!(o.stdout.is_empty(), "{args:?}: nothing is written");
    }
    for players in ["2", "5"] {
        let o = run(&["generate", "--game", "new-world", "--players", players]);
        assert!(o.status.success(), "{players} players: {}", stderr(&o));
        assert!(replay_text("nw-players", &o.stdout).status.success());
    }
}

#[test]
fn a_reader_that_stops_early_does_not_make_it_panic() {
    use std::io::Read;
    // The JSON of the demo is larger than a pipe's buffer, so the writer meets the closed pipe.
    let mut child = bin()
        .args(["replay", "--json", demo().to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?} {err}", out.status);
}

use crate::common;

/// Runs `replay` on `bytes`, failing the test if it has not finished after a generous minute:
/// a hostile record must be refused, never hang the program.
fn replay_guarded(name: &str, bytes: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let (path, out, err) = (dir.path().join("game"), dir.path().join("out"), dir.path().join("err"));
    std::fs::write(&path, bytes).unwrap();
    let mut child = bin()
        .args(["replay", path.to_str().unwrap()])
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            panic!("replay of {name} did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    }
}

#[test]
fn hostile_records_are_refused_cleanly() {
    for h in common::hostile::records() {
        let o = replay_guarded(h.name, &h.bytes);
        assert_eq!(o.status.code(), Some(1), "{}: {}", h.name, stderr(&o));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{}: {err}", h.name);
        assert!(
            err.contains(h.says),
            "{}: the error should say {:?}: {err}",
            h.name,
            h.says
        );
        assert!(err.len() < 2000, "{}: the error is {} bytes long", h.name, err.len());
    }
}

#[test]
fn a_line_of_five_hundred_custom_tiles_replays() {
    let o = replay_guarded("the long line", &common::hostile::long_line());
    assert!(o.status.success(), "{}", stderr(&o));
    let table = String::from_utf8(o.stdout).unwrap();
    assert!(table.contains(" 500  "), "turn 500 is in the table");
}

/// Rule switches are typed: an unknown value is refused wherever the record comes from, never
/// ignored.
#[test]
fn unknown_rule_values_are_refused_from_every_source() {
    let native = record("", r#"{"preset": "second-edition", "river_turns": "sideways"}"#);
    let o = replay_text("bad-rule", native.as_bytes());
    assert_rejected(&o, &["unknown variant `sideways`", "no-same-way-twice"]);
    // Our own .jcz saves carry the record's rules along; a bad one there is refused too.
    let jcz = r#"{"appVersion": "5.10.0", "setup": {"sets": {"basic:1": 1}, "elements": {}},
        "players": [{"name": "Ann", "slot": 0}], "replay": [],
        "carcassonne-replay": {"rules": {"preset": "classic-2000", "two_tile_city": "half"}}}"#;
    let o = replay_text("bad-jcz-rule", jcz.as_bytes());
    assert_rejected(&o, &["carcassonne-replay: ", "unknown variant `half`"]);
    let o = replay_text(
        "bad-edition",
        record("", r#"{"preset": "course", "edition": 3}"#).as_bytes(),
    );
    assert_rejected(&o, &["the tile edition is 1 or 2, not 3"]);
}

/// `match` plays A against B with the seats rotated and reports the win rate with its interval.
#[test]
fn a_match_reports_the_win_rate_with_its_interval() {
    let out = run(&["match", "--a", "greedy", "--b", "random", "--games", "5", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["games"], 6, "5 games round up to 3 tile orders × 2 seats");
    let rate = r["a_win_rate"].as_f64().unwrap();
    let (lo, hi) = (
        r["a_win_rate_95"][0].as_f64().unwrap(),
        r["a_win_rate_95"][1].as_f64().unwrap(),
    );
    assert!(
        lo <= rate && rate <= hi && (0.0..=1.0).contains(&lo) && hi <= 1.0,
        "{r}"
    );
    assert_eq!(r["a_wins"].as_f64().unwrap(), rate * 6.0);
    let table = run(&["match", "--a", "flat:1", "--b", "greedy", "--games", "2"]);
    assert!(table.status.success(), "{}", stderr(&table));
    assert!(String::from_utf8_lossy(&table.stdout).contains("A = flat:1, B = greedy: 2 games of 2 players"));
    let bad = run(&["match", "--a", "clever", "--b", "greedy"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("unknown policy \"clever\"; use random, greedy, flat, flat:K"),
        "{}",
        stderr(&bad)
    );
}

/// `--b build:PATH` asks another build of the program for B's moves, move by move, through its
/// `analyse --turn N --json` (here this very build: the tile games ranked by the heuristic
/// alone, the Card Game on a few samples): in all three games B plays the analysis's moves,
/// which beat random play. A build that cannot answer stops the match, naming the move and why.
#[test]
fn a_match_asks_another_build_for_b_s_moves() {
    let b = format!("build:{}", env!("CARGO_BIN_EXE_carcassonne-replay"));
    for (game, args) in [
        ("carcassonne", "--playouts 0"),
        ("new-world", "--playouts 0"),
        ("card-game", "--playouts 8"),
    ] {
        let out = run(&[
            "match", "--game", game, "--a", "random", "--b", &b, "--b-args", args, "--games", "2", "--json",
        ]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["games"], 2, "{game}");
        assert_eq!(r["b"], format!("{b} ({args})"), "{game}");
        assert!(r["a_mean_margin"].as_f64().unwrap() < 0.0, "{game}: {r}");
    }
    let out = run(&["match", "--a", "random", "--b", "build:/no/such/build", "--games", "2"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("move 2, the other build: /no/such/build: No such file"),
        "{}",
        stderr(&out)
    );
}

/// `train` plays a few games, writes weights the search can load (the features named in order)
/// and prints its fit on the held-out games; New World and the Card Game train their own
/// features, and a game with no learned evaluation is refused.
#[test]
fn train_writes_weights_and_prints_the_held_out_fit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("weights.json");
    let out = run(&["train", "--games", "5", "--seed", "3", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("held-out R² of the final margin"));
    let w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(w["features"][0], "score_if_ended");
    assert_eq!(
        w["weights"].as_array().unwrap().len(),
        w["features"].as_array().unwrap().len()
    );
    assert_eq!(
        (w["fit"]["games"].as_u64(), w["fit"]["policy"].as_str()),
        (Some(5), Some("weighed"))
    );
    let new_world = run(&["train", "--game", "new-world", "--games", "5", "--seed", "3"]);
    assert!(new_world.status.success(), "{}", stderr(&new_world));
    let w: serde_json::Value = serde_json::from_slice(&new_world.stdout).unwrap();
    assert_eq!(w["game"], "new-world");
    assert!(
        w["features"].as_array().unwrap().contains(&"trappers_x_share".into()),
        "{w}"
    );
    let cards = run(&["train", "--game", "card-game", "--games", "5", "--policy", "sampled"]);
    assert!(cards.status.success(), "{}", stderr(&cards));
    let w: serde_json::Value = serde_json::from_slice(&cards.stdout).unwrap();
    assert_eq!(
        (w["game"].as_str(), w["fit"]["policy"].as_str()),
        (Some("card-game"), Some("sampled"))
    );
    assert!(
        w["features"]
            .as_array()
            .unwrap()
            .contains(&"herd_growth_x_share".into()),
        "{w}"
    );
    let labelled = run(&["train", "--games", "5", "--seed", "3", "--label", "search:20"]);
    assert!(labelled.status.success(), "{}", stderr(&labelled));
    assert!(
        stderr(&labelled).contains("held-out R² of the label (search:20)"),
        "{}",
        stderr(&labelled)
    );
    let w: serde_json::Value = serde_json::from_slice(&labelled.stdout).unwrap();
    assert_eq!(w["fit"]["label"], "search:20");
    let bad = run(&["train", "--game", "card-game", "--games", "5", "--label", "search:20"]);
    assert!(
        !bad.status.success() && stderr(&bad).contains("final margin only"),
        "{}",
        stderr(&bad)
    );
    let bad = run(&["train", "--game", "chess", "--games", "5"]);
    assert!(
        !bad.status.success() && stderr(&bad).contains("has no learned evaluation"),
        "{}",
        stderr(&bad)
    );
}

/// `calibrate` fits the win chances on games of any `match` policy, in every game.
#[test]
fn calibrate_plays_its_games_with_the_policy_asked_for() {
    let args = |game| {
        [
            "calibrate",
            "--game",
            game,
            "--games",
            "2",
            "--every",
            "8",
            "--playouts",
            "2",
        ]
    };
    for game in ["new-world", "card-game"] {
        let out = run(&[&args(game)[..], &["--policy", "greedy", "--json"]].concat());
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (doc["game"].as_str(), doc["policy"].as_str()),
            (Some(game), Some("greedy"))
        );
        assert!(doc["samples"].as_u64().unwrap() >= 10, "{doc}");
    }
    let unknown = run(&[&args("new-world")[..], &["--policy", "clever"]].concat());
    assert!(
        stderr(&unknown).contains("unknown policy \"clever\""),
        "{}",
        stderr(&unknown)
    );
}

/// `calibrate --completion` counts how often the open features of the games played were
/// completed, by cell, as `analysis/completion_rates.json` holds them, with the command that
/// made them; it needs a policy, and a game with features.
#[test]
fn calibrate_completion_counts_the_features_completed_by_cell() {
    let args = ["calibrate", "--completion", "--games", "2", "--seed", "3"];
    let out = run(&[&args[..], &["--policy", "greedy"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["made_by"],
        "calibrate --completion --game carcassonne --policy greedy --games 2 --players 2 --seed 3"
    );
    let cells = doc["cells"].as_array().unwrap();
    let count = |member: &str| -> u64 { cells.iter().map(|c| c[1][member].as_u64().unwrap()).sum() };
    assert!(count("features") > 100 && count("completed") > 0, "{doc}");
    assert!(
        count("completed") < count("features"),
        "not every feature was completed"
    );
    let no_policy = run(&args);
    assert!(stderr(&no_policy).contains("needs --policy"), "{}", stderr(&no_policy));
    let cards = run(&[&args[..], &["--policy", "greedy", "--game", "card-game"]].concat());
    assert!(stderr(&cards).contains("no features to complete"), "{}", stderr(&cards));
}

/// `calibrate --completion --records` counts the features of games already played (an
/// operator's own), once per turn each was open, and the Card Game is refused by name.
#[test]
fn calibrate_completion_counts_the_features_of_given_records() {
    let demo = demo();
    let out = run(&["calibrate", "--completion", "--records", demo.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["games"], 1);
    assert!(
        doc["made_by"].as_str().unwrap().ends_with("demo-second-edition.json"),
        "{doc}"
    );
    let cells = doc["cells"].as_array().unwrap();
    let count = |member: &str| -> u64 { cells.iter().map(|c| c[1][member].as_u64().unwrap()).sum() };
    assert!(
        count("features") > 100 && (1..count("features")).contains(&count("completed")),
        "{doc}"
    );
    let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-card-game.json");
    let refused = run(&["calibrate", "--completion", "--records", cards.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("no features to complete"),
        "{}",
        stderr(&refused)
    );
    let alone = run(&["calibrate", "--records", demo.to_str().unwrap()]);
    assert!(!alone.status.success(), "--records counts completions only");
}

fn new_world_demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-new-world.json")
}

/// `render -o -` writes the picture to standard output, and creates no file named `-`.
#[test]
fn render_to_a_dash_writes_to_standard_output() {
    let dir = std::env::temp_dir().join(format!("cr-cli-dash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let demo = demo();
    for (args, magic) in [
        (&["-o", "-"][..], &b"\x89PNG"[..]),
        (&["-o", "-", "--svg"], b"<svg"),
        (&["-o", "-", "--gif", "--size", "16"], b"GIF89a"),
    ] {
        let o = bin()
            .current_dir(&dir)
            .args([&["render", demo.to_str().unwrap()][..], args].concat())
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.starts_with(magic), "{args:?}: the picture on stdout");
    }
    assert!(!dir.join("-").exists(), "no file named -");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--size` out of range is refused, saying the range, never clamped in silence.
#[test]
fn render_refuses_a_size_out_of_range_and_says_the_range() {
    let demo = demo();
    let demo = demo.to_str().unwrap();
    for (args, says) in [
        (
            &["--size", "300"][..],
            "--size 300 is out of range: a picture has 16 to 256 pixels per tile",
        ),
        (
            &["--size", "8", "--svg"],
            "--size 8 is out of range: a picture has 16 to 256 pixels per tile",
        ),
        (
            &["--size", "100", "--gif"],
            "--size 100 is out of range: a GIF has 16 to 96 pixels per tile",
        ),
    ] {
        let o = run(&[&["render", demo, "-o", "-"][..], args].concat());
        assert_rejected(&o, &[says]);
        assert!(o.stdout.is_empty());
    }
}

/// JCloisterZone plays the tile game only: a New World game or a Card Game is not exported to
/// `.jcz`, and the error says why instead of blaming a tile.
#[test]
fn export_to_jcz_says_jcloisterzone_has_no_new_world_nor_card_game() {
    let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-card-game.json");
    for (file, game) in [(new_world_demo(), "New World"), (cards, "Card Game")] {
        let o = run(&["export", file.to_str().unwrap(), "--to", "jcz"]);
        assert_rejected(&o, &[&format!("JCloisterZone has no {game}, only the tile game")]);
        assert!(!stderr(&o).contains("tile our-"), "no tile is blamed: {}", stderr(&o));
    }
}

/// The table's columns line up however long the tile names (New World's are).
#[test]
fn replay_aligns_its_columns_for_long_tile_names() {
    let o = run(&["replay", new_world_demo().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines = text.lines().skip(1);
    let header = lines.next().unwrap();
    assert!(header.contains("settler"), "New World says settler: {header}");
    let end = |word: &str| header.find(word).unwrap() + word.len();
    let (position, rot) = (end("position"), end("rot"));
    let rows: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
    assert!(rows.len() > 50);
    for row in rows.iter().filter(|r| !r.contains("discarded")) {
        let chars: Vec<char> = row.chars().collect();
        assert_eq!(chars[position - 1], ')', "position column: {row}");
        assert!(
            chars[rot - 1].is_ascii_digit() && chars[rot] == ' ',
            "rotation column: {row}"
        );
    }
}

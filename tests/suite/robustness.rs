//! No input makes the program panic: thousands of corrupted records, each either replays or
//! is rejected with an error.
//!
//! In detail: corrupted native records, BGA logs and course notation, and bit-flipped and
//! truncated bytes: each replays (and exports) or is rejected, none panics.

use carcassonne_replay::engine::Rng;
use carcassonne_replay::{record, replay};
use serde_json::{Value, json};
use std::path::Path;

fn demo() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Replays bytes; returns whether they were accepted. Panics only if the library does.
fn accepts(bytes: &[u8]) -> bool {
    match record::parse(bytes) {
        Ok((r, _)) => replay::replay(&r, None).is_ok(),
        Err(_) => false,
    }
}

fn mutate(doc: &mut Value, rng: &mut Rng) {
    let moves = doc["moves"].as_array_mut().unwrap();
    let i = rng.below(moves.len());
    let pick = |rng: &mut Rng, options: &[Value]| options[rng.below(options.len())].clone();
    let m = &mut moves[i];
    match rng.below(9) {
        0 => m["at"] = json!([rng.below(9) as i64 - 4, rng.below(9) as i64 - 4]),
        1 => {
            m["rotation"] = pick(
                rng,
                &[json!(0), json!(90), json!(45), json!(-90), json!(720), json!("x")],
            )
        }
        2 => m["tile"] = pick(rng, &[json!("C"), json!("river-A"), json!("Zz"), json!(7), json!("Eg")]),
        3 => {
            m["meeple"] = json!({
                "feature": pick(rng, &[json!("city"), json!("road"), json!("field"), json!("cloister"), json!("garden"), json!("river")]),
                "at": pick(rng, &[json!("N"), json!("E"), json!("S.w"), json!("center"), json!("Q")]),
                "abbot": rng.below(4) == 0,
            })
        }
        4 => {
            moves.remove(i);
        }
        5 => m["recall_abbot"] = json!(true),
        6 => {
            let t = m["tile"].clone();
            *m = json!({"discard": t});
        }
        7 => m["player"] = json!(rng.below(5)),
        _ => {
            let other = moves[rng.below(moves.len())].clone();
            moves.insert(i, other);
        }
    }
}

#[test]
fn corrupted_native_records_never_panic() {
    let original = demo();
    let mut rng = Rng::new(2024);
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..600 {
        let mut doc = original.clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut doc, &mut rng);
        }
        if accepts(serde_json::to_string(&doc).unwrap().as_bytes()) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    println!("corrupted records: {accepted} still legal, {rejected} rejected");
    assert!(rejected > 300, "most corruptions are illegal and must be caught");
}

#[test]
fn truncated_and_bit_flipped_bytes_never_panic() {
    let bytes = serde_json::to_vec(&demo()).unwrap();
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let mut b = bytes.clone();
        b.truncate(rng.below(b.len() + 1));
        for _ in 0..rng.below(4) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
        }
        accepts(&b);
    }
}

/// Everything a web request may do with a parsed record: replay it, check it against the
/// source's scores, export it. None of it may panic.
fn use_fully(bytes: &[u8]) -> bool {
    let Ok((r, _)) = record::parse(bytes) else {
        return false;
    };
    let _ = carcassonne_replay::export::jcz::to_value(&r);
    let Ok(replayed) = replay::replay(&r, None) else {
        return false;
    };
    let _ = replay::recorded_scores(&r, &replayed);
    let _ = carcassonne_replay::export::csv::scoring_csv(&r, &replayed);
    true
}

fn bga_log() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bga/strings.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Sets one argument of one event of a BGA log to an odd value, or drops or repeats an event.
fn mutate_bga(doc: &mut Value, rng: &mut Rng) {
    let packets = doc["data"]["data"].as_array_mut().unwrap();
    let p = rng.below(packets.len());
    let events = packets[p]["data"].as_array_mut().unwrap();
    if events.is_empty() {
        return;
    }
    let i = rng.below(events.len());
    let odd = [
        json!(null),
        json!(-1),
        json!("0"),
        json!("4"),
        json!("99999999999999999999"),
        json!(i64::MAX),
        json!(2.5),
        json!([]),
        json!({}),
        json!("草原"),
    ];
    match rng.below(5) {
        0 => {
            events.remove(i);
        }
        1 => {
            let e = events[i].clone();
            events.insert(i, e);
        }
        _ => {
            let Some(args) = events[i]["args"].as_object_mut() else {
                return;
            };
            let keys: Vec<String> = args.keys().cloned().collect();
            if let Some(k) = keys.get(rng.below(keys.len().max(1))) {
                args.insert(k.clone(), odd[rng.below(odd.len())].clone());
            }
        }
    }
}

#[test]
fn corrupted_bga_logs_never_panic() {
    let original = bga_log();
    let mut rng = Rng::new(99);
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..300 {
        let mut doc = original.clone();
        for _ in 0..=rng.below(3) {
            mutate_bga(&mut doc, &mut rng);
        }
        if use_fully(doc.to_string().as_bytes()) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    println!("corrupted BGA logs: {accepted} replayed, {rejected} rejected");
    let text = serde_json::to_vec(&original).unwrap();
    for _ in 0..100 {
        let mut b = text.clone();
        b.truncate(rng.below(b.len() + 1));
        if !b.is_empty() {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        use_fully(&b);
    }
}

#[test]
fn corrupted_course_notation_never_panics() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/course-example.txt");
    let original = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    let words = [
        "CRFR50",
        "9",
        "-3",
        "top",
        "left 7",
        "center",
        "discard",
        "end",
        "players:",
        "x",
        "rules: course",
    ];
    let mut rng = Rng::new(5);
    let mut accepted = 0;
    for _ in 0..300 {
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for _ in 0..=rng.below(3) {
            let i = rng.below(edited.len());
            match rng.below(3) {
                0 => {
                    edited.remove(i);
                }
                1 => edited.insert(i, words[rng.below(words.len())].to_string()),
                _ => {
                    let mut parts: Vec<String> = edited[i].split(' ').map(String::from).collect();
                    let j = rng.below(parts.len());
                    parts[j] = words[rng.below(words.len())].to_string();
                    edited[i] = parts.join(" ");
                }
            }
        }
        accepted += usize::from(use_fully(edited.join("\n").as_bytes()));
    }
    println!("corrupted course records: {accepted} replayed");
}

#[test]
fn exports_of_corrupted_native_records_never_panic() {
    let original = demo();
    let mut rng = Rng::new(31);
    for _ in 0..100 {
        let mut doc = original.clone();
        mutate(&mut doc, &mut rng);
        use_fully(serde_json::to_string(&doc).unwrap().as_bytes());
    }
}

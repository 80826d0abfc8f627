//! No input makes the program panic: thousands of corrupted records, each either replays or
//! is rejected with an error.

use carcassonne_replay::engine::playout::Rng;
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

//! The Card Game's records: generated games replay, are written and read again to the same
//! scores with every card accounted for, and broken records are refused naming the round, the
//! turn, the player and the rule.
//!
//! In detail:
//! - Card Game records: generated games of every player count under both bots replay, are
//!   written and read again to the same scores, and account for all 130 cards
//! - a coloured card face up in another row, a second follower, a hand not emptied and a card
//!   the deck no longer holds are refused naming the round, turn and player
//! - `replay`, `generate` and `analyse --turn` on the command line
//! - records (stated Animal Joker herds included) and the reference's example match
//!   `static/card-game.schema.json`
//! - a stated Animal Joker herd moves the joker, and a herd the player lacks or a joker that
//!   joins nothing is refused naming whose
//! - the tile path alone refuses Card Game records saying what reads them
//! - an action's words (as reports write them) name that action and no other
//! - the table picture and its preview (unit tests in `src/render/cards.rs`: rows, followers,
//!   face-down backs, revealed by the end, the hands, 1200×630 with the final scores city sets
//!   included)
//! - a face-down card the record did not see is named as its round ends, and scores as if
//!   seen; while its round is under way the replay's document and table name no card (the
//!   record's readings of it: unit tests in `src/record/cards.rs`)
//! - city sets in closed form against an exhaustive search over every chest
//!   (`src/engine/cards/rules.rs`)

use carcassonne_replay::engine::Policy;
use carcassonne_replay::engine::cards::{Card, CardEvent, CardGame, CardMove, Colour};
use carcassonne_replay::record::Record;
use carcassonne_replay::record::cards;
use carcassonne_replay::record::{AnyRecord, parse_any};
use carcassonne_replay::replay::cards::replay;
use carcassonne_replay::selfplay::card_game;

fn reread(r: &Record<CardGame>) -> Record<CardGame> {
    match parse_any(cards::to_value(r).to_string().as_bytes()).unwrap() {
        AnyRecord::Cards(c) => c,
        AnyRecord::Tiles(..) => panic!("a Card Game record reads as one"),
    }
}

fn cards_in(events: &[CardEvent]) -> usize {
    events
        .iter()
        .map(|e| match e {
            CardEvent::Took { cards, .. } | CardEvent::Discarded { cards } => cards.len(),
            _ => 0,
        })
        .sum()
}

#[test]
fn generated_games_replay_reread_and_account_for_every_card() {
    for (players, policy, seed) in [
        (2, Policy::Random, 1),
        (3, Policy::Greedy, 2),
        (4, Policy::Random, 3),
        (5, Policy::Greedy, 4),
    ] {
        let record = card_game(players, policy, seed).unwrap();
        let first = replay(&record).unwrap();
        assert!(first.finished, "{players} players: the last round is scored");
        let again = replay(&reread(&record)).unwrap();
        assert_eq!(again.final_scores, first.final_scores);
        let per_turn =
            |r: &carcassonne_replay::replay::Replay<_>| r.turns.iter().map(|t| t.scores.clone()).collect::<Vec<_>>();
        assert_eq!(per_turn(&again), per_turn(&first));
        let events: Vec<CardEvent> = first.turns.iter().flat_map(|t| t.events.clone()).collect();
        assert_eq!(
            cards_in(&events),
            130,
            "{players} players: every card taken or left at the end"
        );
        let categories: u32 = first.breakdown.iter().map(|b| b.play.total() + b.end.total()).sum();
        assert_eq!(categories as i32, first.final_scores.iter().sum::<i32>());
    }
}

/// A two-player record whose first round is changed by `edit`, and the error it must give.
fn refused(edit: impl FnOnce(&mut Record<CardGame>), wanted: &[&str]) {
    let mut record = card_game(2, Policy::Greedy, 9).unwrap();
    edit(&mut record);
    let e = replay(&record).map(|_| ()).unwrap_err().describe(&record);
    for w in wanted {
        assert!(e.contains(w), "{e:?} should contain {w:?}");
    }
}

fn first_play(r: &Record<CardGame>, from: usize, coloured: bool) -> usize {
    (from..r.moves.len())
        .find(|&i| matches!(r.moves[i].mv, CardMove::Play { card, .. } if card.colour().is_some() == coloured))
        .unwrap()
}

#[test]
fn a_coloured_card_face_up_in_another_colours_row_is_refused() {
    refused(
        |r| {
            // The round's second card: the first goes face down, anywhere.
            let face_down = first_play(r, 0, true).min(first_play(r, 0, false));
            let i = first_play(r, face_down + 1, true);
            if let CardMove::Play { card, .. } = r.moves[i].mv {
                let other = Colour::ALL.into_iter().find(|&c| Some(c) != card.colour()).unwrap();
                r.moves[i].mv = CardMove::Play { card, row: other };
            }
        },
        &[
            "round 1, turn",
            "Bot",
            "goes in the",
            "only the round's first card, face down, and jokers go anywhere",
        ],
    );
}

#[test]
fn a_second_follower_in_one_round_is_refused() {
    refused(
        |r| {
            let follower = (0..r.moves.len())
                .find(|&i| matches!(r.moves[i].mv, CardMove::Follower { .. }))
                .unwrap();
            let player = r.moves[follower].player;
            // The same player's next action in the round becomes a second follower.
            let again = (follower + 1..r.moves.len())
                .find(|&i| r.moves[i].player == player)
                .unwrap();
            r.moves[again].mv = CardMove::Follower { row: Colour::City };
        },
        &["round 1", "follower is already placed this round"],
    );
}

/// Replays an edited record; the error's words.
fn refusal(r: &Record<CardGame>) -> String {
    replay(r).map(|_| ()).unwrap_err().describe(r)
}

#[test]
fn a_hand_that_is_not_emptied_is_refused_at_the_card_too_many() {
    let mut r = card_game(2, Policy::Greedy, 9).unwrap();
    // Bot 1's follower becomes one more card: 7 cards in a hand of 6.
    let follower = (0..r.moves.len())
        .find(|&i| r.moves[i].player == Some(0) && matches!(r.moves[i].mv, CardMove::Follower { .. }))
        .unwrap();
    r.moves[follower].mv = CardMove::Play {
        card: Card::Person {
            colour: Colour::Road,
            value: 1,
        },
        row: Colour::Road,
    };
    // The fault is the move that plays Bot 1's 7th card of the round.
    let seventh = (0..14)
        .filter(|&i| r.moves[i].player == Some(0) && matches!(r.moves[i].mv, CardMove::Play { .. }))
        .nth(6)
        .unwrap();
    let e = refusal(&r);
    let at = format!("round 1, turn {0} (move {0}, Bot 1): the hand is empty", seventh + 1);
    assert!(e.contains(&at), "{e:?} should contain {at:?}");
}

#[test]
fn a_card_the_deck_does_not_hold_is_refused_at_the_move_that_plays_it() {
    let mut r = card_game(2, Policy::Greedy, 9).unwrap();
    // Two Dragons in the first round: the deck has one.
    let first = first_play(&r, 0, true);
    let second = first_play(&r, first + 1, true);
    for i in [first, second] {
        if let CardMove::Play { row, .. } = r.moves[i].mv {
            r.moves[i].mv = CardMove::Play {
                card: Card::Dragon,
                row,
            };
        }
    }
    let who = r.players[usize::from(r.moves[second].player.unwrap())].name.clone();
    let e = refusal(&r);
    let at = format!(
        "round 1, turn {0} (move {0}, {who}): plays dragon, but the deck holds no more",
        second + 1
    );
    assert!(e.contains(&at), "{e:?} should contain {at:?}");
}

#[test]
fn the_command_line_replays_and_generates_card_games() {
    let exe = env!("CARGO_BIN_EXE_carcassonne-replay");
    let out = std::process::Command::new(exe)
        .args(["generate", "--game", "card-game", "--players", "3", "--seed", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.json");
    std::fs::write(&path, &out.stdout).unwrap();
    let table = std::process::Command::new(exe)
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        table.status.success() && text.contains("winner: ") && text.contains("city sets"),
        "{text}"
    );
    let json = std::process::Command::new(exe)
        .args(["replay", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["game"], "card-game");
    assert_eq!(doc["players"].as_array().unwrap().len(), 3);
    assert_eq!(
        doc["turns"].as_array().unwrap().len(),
        3 * 6 * 8,
        "8 rounds of 5 cards and a follower each"
    );
    assert!(doc["final_scores"].is_array() && doc["breakdown"][0]["end"]["city sets"].is_number());
}

/// Generated records match `static/card-game.schema.json`, and so does the reference's example
/// (`static/docs/card-game.md`).
#[test]
fn records_match_the_card_game_schema() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("static/card-game.schema.json")).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for seed in 1..4 {
        let doc = cards::to_value(&card_game(2 + seed as u8, Policy::Greedy, seed).unwrap());
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
    let mut stating = card_game(2, Policy::Greedy, 1).unwrap();
    stating.moves[11].joker_herds = vec![(0, Colour::Farm), (1, Colour::City)];
    let doc = cards::to_value(&stating);
    assert!(
        v.iter_errors(&doc).next().is_none(),
        "stated joker herds match the schema"
    );
    assert_eq!(reread(&stating), stating, "and read back");
    let section = std::fs::read_to_string(root.join("static/docs/card-game.md")).unwrap();
    let start = section.find("```json\n").expect("with an example record") + "```json\n".len();
    let text = &section[start..start + section[start..].find("```").unwrap()];
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    assert!(
        v.iter_errors(&doc).next().is_none(),
        "the reference's example matches the schema"
    );
    let AnyRecord::Cards(record) = parse_any(text.as_bytes()).unwrap() else {
        panic!("the example is a Card Game record")
    };
    let r = replay(&record).unwrap();
    assert_eq!(r.turns.len(), 4, "the example's first actions replay");
}

/// A Card Game record given to the tile path alone (`record::parse`) is refused with a
/// message that says what reads it.
#[test]
fn the_tile_path_refuses_card_game_records_clearly() {
    let doc = cards::to_value(&card_game(2, Policy::Random, 1).unwrap()).to_string();
    let e = carcassonne_replay::record::parse(doc.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a Card Game record is not a tile game's; `record::parse_any` reads it"),
        "{e}"
    );
}

/// `analyse --turn` on a Card Game: every legal action once, the played one marked, each with
/// a value and its uncertainty.
#[test]
fn a_card_game_turn_is_analysed_from_the_command_line() {
    let exe = env!("CARGO_BIN_EXE_carcassonne-replay");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.json");
    std::fs::write(
        &path,
        cards::to_value(&card_game(3, Policy::Greedy, 6).unwrap()).to_string(),
    )
    .unwrap();
    let out = std::process::Command::new(exe)
        .args(["analyse", "--json", "--turn", "20", "--playouts", "8"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let alts = doc["alternatives"].as_array().unwrap();
    assert!(alts.len() > 1);
    let played = doc["played"].as_u64().expect("the played move is an alternative") as usize;
    assert!(played < alts.len());
    let values: Vec<f64> = alts.iter().map(|a| a["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first");
    assert!(alts.iter().all(|a| a["stderr"].as_f64().unwrap() >= 0.0));
}

/// A whole Card Game's analysis states each turn's chance of winning after the action played,
/// the chance its pages show, so anyone can score the chances against how games ended.
#[test]
fn a_card_game_analysis_states_the_movers_chance_after_each_action() {
    use carcassonne_replay::analysis::cards::analyse_game;
    let record = card_game(2, Policy::Greedy, 3).unwrap();
    let report = analyse_game(&record, 4, &carcassonne_replay::analysis::quiet).unwrap();
    let chances = report.chances(None);
    assert_eq!(chances.len(), report.turns.len(), "every action played has a chance");
    for (c, t) in chances.iter().zip(&report.turns) {
        let stated = t.facts.win_chance.expect("a chance per turn");
        assert!(
            (stated - c.chance.after).abs() <= 0.0005,
            "turn {}: {stated} against {:?}",
            t.turn,
            c.chance
        );
    }
    assert!(
        report
            .turns
            .iter()
            .any(|t| t.facts.win_chance != report.turns[0].facts.win_chance)
    );
}

/// A round scoring where `player` takes an Animal Joker that joins a herd while they hold
/// animals of another kind too: (move index, player, the herd it joined, another herd held).
fn joker_joining(record: &Record<CardGame>) -> Option<(usize, u8, Colour, Colour)> {
    let r = replay(record).unwrap();
    let mut herds = vec![[0u8; 4]; record.players.len()];
    for (i, t) in r.turns.iter().enumerate() {
        let before = herds.clone();
        for e in &t.events {
            if let CardEvent::Scored {
                player,
                why: carcassonne_replay::engine::cards::Because::Herd { kind, size },
                ..
            } = e
            {
                herds[*player as usize][kind.index()] = *size;
            }
        }
        for e in &t.events {
            let CardEvent::Took { player, cards, .. } = e else {
                continue;
            };
            let p = *player as usize;
            let grew = Colour::ALL.into_iter().find(|k| {
                let animals = cards.iter().filter(|c| **c == Card::Animal(*k)).count() as u8;
                herds[p][k.index()] > before[p][k.index()] + animals
            });
            let other = Colour::ALL
                .into_iter()
                .find(|k| Some(*k) != grew && before[p][k.index()] > 0);
            if let (Some(joined), Some(other)) = (grew, other)
                && cards.contains(&Card::AnimalJoker)
            {
                return Some((i, *player, joined, other));
            }
        }
    }
    None
}

#[test]
fn a_record_may_state_the_herd_an_animal_joker_joins() {
    // "As soon as he gains any animal cards, he must assign the Animal Joker."
    let (record, (at, player, joined, other)) = (0..200)
        .find_map(|seed| {
            let r = card_game(4, Policy::Greedy, seed).unwrap();
            joker_joining(&r).map(|found| (r, found))
        })
        .expect("some generated game has an Animal Joker join one of two herds");
    let default = replay(&record).unwrap();
    let stated = |herd: Colour| {
        let mut r = record.clone();
        r.moves[at].joker_herds = vec![(player, herd)];
        reread(&r)
    };
    // Stating the herd our default picks changes nothing; stating another moves the joker.
    let same = replay(&stated(joined)).unwrap();
    assert_eq!(same.final_scores, default.final_scores);
    let moved = replay(&stated(other)).unwrap();
    let herd = |r: &carcassonne_replay::replay::Replay<CardGame>, k: Colour| {
        r.game.players()[player as usize].herds[k.index()]
    };
    assert_eq!(herd(&moved, other), herd(&default, other) + 1);
    assert_eq!(herd(&moved, joined), herd(&default, joined) - 1);
    // A herd the player lacks, or a joker that is not there, is refused naming whose it is.
    let lacking = Colour::ALL
        .into_iter()
        .find(|k| herd(&default, *k) == 0)
        .expect("a herd the player lacks");
    let name = &record.players[player as usize].name;
    let lacks = stated(lacking);
    let e = replay(&lacks).unwrap_err().describe(&lacks);
    assert!(
        e.contains(&format!(
            "{name}'s Animal Joker: it cannot join a {} herd",
            lacking.word()
        )),
        "{e}"
    );
    let mut early = record.clone();
    early.moves[0].joker_herds = vec![(player, joined)];
    let e = replay(&early).unwrap_err().describe(&early);
    assert!(
        e.contains("round 1, turn 1") && e.contains("none of theirs joins a herd here"),
        "{e}"
    );
}

/// Every action a game offers, at every turn of a generated game, is named by its words and
/// by no other action's: a report's words find their action without the position (the pages
/// link an analysis's actions on the table so).
#[test]
fn an_actions_words_name_it() {
    use carcassonne_replay::replay::cards::{action_named, move_text, position_at};
    let record = carcassonne_replay::selfplay::card_game(4, carcassonne_replay::selfplay::Policy::Greedy, 3).unwrap();
    let mut offered = 0;
    for index in 0..record.moves.len() {
        let game = position_at(&record, index).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            assert_eq!(action_named(&move_text(&mv)), Some(mv));
            offered += 1;
        }
    }
    assert!(offered > record.moves.len(), "{offered} actions offered");
    assert_eq!(action_named("red 3 → the moon"), None);
}

fn demo_card_game() -> serde_json::Value {
    let path = env!("CARGO_MANIFEST_DIR").to_string() + "/static/games/demo-card-game.json";
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn read_cards(v: &serde_json::Value) -> Record<CardGame> {
    match parse_any(v.to_string().as_bytes()).unwrap() {
        AnyRecord::Cards(c) => c,
        AnyRecord::Tiles(..) => panic!("a Card Game record reads as one"),
    }
}

/// "Cards which were placed face down are now turned over": the demo's first card (move 2,
/// the red building) recorded unseen and named by the move that ends round 1 (move 18, of 3
/// players × 6 actions) scores as the demo does.
#[test]
fn a_face_down_card_named_as_its_round_ends_scores_as_if_seen() {
    let seen = demo_card_game();
    let mut later = seen.clone();
    later["moves"][1]["play"] = serde_json::json!("face down");
    later["moves"][17]["face_down"] = serde_json::json!("red building");
    let (a, b) = (
        replay(&read_cards(&later)).unwrap(),
        replay(&read_cards(&seen)).unwrap(),
    );
    assert_eq!(a.final_scores, b.final_scores);
    let scores =
        |r: &carcassonne_replay::replay::Replay<CardGame>| r.turns.iter().map(|t| t.scores.clone()).collect::<Vec<_>>();
    assert_eq!(scores(&a), scores(&b));
}

/// While its round is under way, nothing the replay writes names the card nobody saw.
#[test]
fn a_face_down_card_not_seen_is_named_nowhere_while_its_round_is_under_way() {
    let mut v = demo_card_game();
    v["moves"][1]["play"] = serde_json::json!("face down");
    v["moves"].as_array_mut().unwrap().truncate(6);
    let r = read_cards(&v);
    let played = replay(&r).unwrap();
    let doc = serde_json::to_value(carcassonne_replay::replay::cards::to_json(&r, &played)).unwrap();
    let turn = &doc["turns"][1];
    assert_eq!(
        turn["move"],
        serde_json::json!({"action": "play", "row": "road"}),
        "{turn}"
    );
    assert!(!turn.to_string().contains("card"), "{turn}");
    let table = carcassonne_replay::replay::cards::table(&r, &played);
    assert!(table.contains("face down → road row"), "{table}");
}

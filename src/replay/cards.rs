//! A Card Game record through the engine: one turn per action, each round dealt from the
//! hands its actions show, the breakdown by category, and the JSON and table forms.

use super::{Breakdown, Replay, Turn};
use crate::engine::Position;
use crate::engine::cards::{CardCategory, CardEvent, CardGame, CardIllegal, CardMove, CardSetupError};
use crate::record::cards::CardRecord;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Why a Card Game record does not replay: the round, the turn in it, the player and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardReplayError {
    #[error("setup: {0}")]
    Setup(#[from] CardSetupError),
    #[error("round {round}, turn {turn} (move {index}, {player}): {reason}")]
    Illegal {
        round: u8,
        turn: usize,
        index: usize,
        player: String,
        reason: String,
    },
}

/// Replays a Card Game record. Final scoring runs when the last round is over.
pub fn replay(record: &CardRecord) -> Result<Replay<CardGame>, CardReplayError> {
    replay_upto(record, None, Deal::Ahead)
}

/// The position before move `index` (0-based), its round dealt: the hands are the record's,
/// read from the whole round.
pub fn position_at(record: &CardRecord, index: usize) -> Result<CardGame, CardReplayError> {
    Ok(replay_upto(record, Some(index), Deal::Ahead)?.game)
}

/// The first `n` moves, and the table as they left it: a round they end is scored, and the
/// next one not dealt yet. This is the table of turn `n`'s page and picture: dealing ahead
/// would show hands before any move of their round, while one of them still holds the card
/// that goes face down (`render::cards`).
pub fn upto(record: &CardRecord, n: usize) -> Result<Replay<CardGame>, CardReplayError> {
    replay_upto(record, Some(n), Deal::WithTheNextMove)
}

/// When a round due is dealt, where a replay stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Deal {
    /// Before the replay stops: the position is ready for its next move.
    Ahead,
    /// Only when the next move is played.
    WithTheNextMove,
}

fn replay_upto(record: &CardRecord, upto: Option<usize>, deal: Deal) -> Result<Replay<CardGame>, CardReplayError> {
    let mut game = CardGame::new(record.setup())?;
    let mut events = Vec::new();
    let mut turns = Vec::with_capacity(record.moves.len());
    let mut round_start = 0;
    let mut i = 0;
    while i < record.moves.len() {
        let illegal = |game: &CardGame, round_start: usize, reason: String| CardReplayError::Illegal {
            round: game.round() + 1,
            turn: i - round_start + 1,
            index: i + 1,
            player: record.players[game.current_player() as usize].name.clone(),
            reason,
        };
        if deal == Deal::WithTheNextMove && upto == Some(i) {
            break;
        }
        if game.deal_due() {
            round_start = i;
            let hands = record.hands_from(&game, i).map_err(|f| CardReplayError::Illegal {
                round: game.round() + 1,
                turn: f.offset + 1,
                index: i + f.offset + 1,
                player: record.players[f.player as usize].name.clone(),
                reason: f.problem.to_string(),
            })?;
            game.deal(hands, &mut events)
                .map_err(|e| illegal(&game, round_start, e.to_string()))?;
            continue;
        }
        if upto == Some(i) {
            break;
        }
        let m = &record.moves[i];
        let player = game.current_player();
        if let Some(named) = m.player.filter(|&p| p != player) {
            let name = &record.players[named as usize].name;
            return Err(illegal(
                &game,
                round_start,
                format!("the record names {name}, but it is not their turn"),
            ));
        }
        if game.is_over() {
            return Err(illegal(
                &game,
                round_start,
                "the game is over: the last round has been scored".into(),
            ));
        }
        game.play_stating(&m.mv, &m.joker_herds, &mut events)
            .map_err(|e| illegal(&game, round_start, reason(record, &e)))?;
        turns.push(Turn {
            turn: i as u32 + 1,
            player,
            mv: m.mv,
            events: std::mem::take(&mut events),
            scores: Position::scores(&game),
            supply: Position::supply(&game),
        });
        i += 1;
    }
    let finished = upto.is_none() && game.is_over();
    let mut final_events = Vec::new();
    if finished {
        game.finish(&mut final_events);
    }
    let breakdown = breakdown(&game, turns.iter().flat_map(|t| &t.events).chain(&final_events));
    Ok(Replay {
        final_scores: Position::scores(&game),
        turns,
        final_events,
        finished,
        breakdown,
        game,
    })
}

/// A rule broken, in words; an Animal Joker's herd names whose joker it is.
fn reason(record: &CardRecord, e: &CardIllegal) -> String {
    match e {
        CardIllegal::NoSuchHerd { player, .. } | CardIllegal::NoJokerToAssign { player, .. } => {
            format!("{}'s Animal Joker: {e}", record.players[*player as usize].name)
        }
        other => other.to_string(),
    }
}

/// Points by category: round scoring in `play`, the city sets in `end`.
fn breakdown<'a>(game: &CardGame, events: impl Iterator<Item = &'a CardEvent>) -> Vec<Breakdown<CardCategory>> {
    let mut out = vec![Breakdown::new(game.categories()); game.players().len()];
    for e in events {
        if let CardEvent::Scored {
            player,
            category,
            points,
            ..
        } = e
        {
            let b = &mut out[*player as usize];
            let part = if *category == CardCategory::CitySets {
                &mut b.end
            } else {
                &mut b.play
            };
            part.add(*category, *points);
        }
    }
    out
}

/// The round a turn opens (1-based), if it opens one.
pub fn opens_round(t: &Turn<CardGame>) -> Option<u8> {
    t.events.iter().find_map(|e| match e {
        CardEvent::Dealt { round, .. } => Some(round + 1),
        _ => None,
    })
}

/// The round each turn belongs to (1-based), in turn order.
pub fn rounds(turns: &[Turn<CardGame>]) -> Vec<u8> {
    let mut round = 1;
    turns
        .iter()
        .map(|t| {
            round = opens_round(t).unwrap_or(round);
            round
        })
        .collect()
}

/// A move as the API and the store write it.
pub fn move_json(mv: &CardMove) -> Value {
    match mv {
        CardMove::Play { card, row } => json!({"action": "play", "card": card.to_string(), "row": row.word()}),
        CardMove::Follower { row } => json!({"action": "follower", "row": row.word()}),
        CardMove::WrongRow { keep } => json!({"action": "wrong_row", "keep": keep}),
    }
}

/// An event as the API and the store write it.
pub fn event_json(e: &CardEvent) -> Value {
    match e {
        CardEvent::Dealt { round, dealer } => json!({"type": "dealt", "round": round + 1, "dealer": dealer}),
        CardEvent::Played {
            player,
            card,
            row,
            face_down,
        } => {
            json!({"type": "played", "player": player, "card": card.to_string(), "row": row.word(), "face_down": face_down})
        }
        CardEvent::FollowerPlaced { player, row } => {
            json!({"type": "follower_placed", "player": player, "row": row.word()})
        }
        CardEvent::Took { player, row, cards } => {
            let cards: Vec<String> = cards.iter().map(ToString::to_string).collect();
            json!({"type": "took", "player": player, "row": row.word(), "cards": cards})
        }
        CardEvent::Scored {
            player,
            category,
            points,
            why,
        } => {
            json!({"type": "scored", "players": [player], "category": category.word(), "points": points, "explanation": why.to_string()})
        }
        CardEvent::ChoiceDue { player, card } => {
            json!({"type": "choice_due", "player": player, "card": card.to_string()})
        }
        CardEvent::Discarded { cards } => {
            let cards: Vec<String> = cards.iter().map(ToString::to_string).collect();
            json!({"type": "discarded", "cards": cards})
        }
    }
}

/// The `replay --json` document of a Card Game: the same top level as the tile game's.
pub fn to_json(record: &CardRecord, r: &Replay<CardGame>) -> Value {
    let turns: Vec<Value> = r
        .turns
        .iter()
        .map(|t| {
            json!({
                "turn": t.turn,
                "player": t.player,
                "move": move_json(&t.mv),
                "scores": t.scores,
                "hands": t.supply.iter().map(|s| s.hand).collect::<Vec<_>>(),
                "events": t.events.iter().map(event_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "game": "card-game",
        "players": record.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
        "turns": turns,
        "finished": r.finished,
        "final_events": r.final_events.iter().map(event_json).collect::<Vec<_>>(),
        "final_scores": r.final_scores,
        "winners": r.game.winners(),
        "breakdown": r.breakdown.iter().map(super::json::breakdown).collect::<Vec<_>>(),
    })
}

/// A move in brief: "red 3 → road row".
pub fn move_text(mv: &CardMove) -> String {
    match *mv {
        CardMove::Play { card, row } => format!("{card} → {} row", row.word()),
        CardMove::Follower { row } => format!("follower → {} row", row.word()),
        CardMove::WrongRow { keep: true } => "keeps the wrongly placed card".into(),
        CardMove::WrongRow { keep: false } => "turns the card in for 10".into(),
    }
}

/// The `replay` table of a Card Game: one row per action, the round scoring under it, the end.
pub fn table(record: &CardRecord, r: &Replay<CardGame>) -> String {
    let name = |p: u8| record.players[p as usize].name.as_str();
    let mut out = String::new();
    writeln!(out, "{:>4}  {:<12} {:<28} scores", "turn", "player", "action").unwrap();
    for t in &r.turns {
        let action = move_text(&t.mv);
        let scores: Vec<String> = t.scores.iter().map(i32::to_string).collect();
        writeln!(
            out,
            "{:>4}  {:<12} {:<28} {}",
            t.turn,
            name(t.player),
            action,
            scores.join(" ")
        )
        .unwrap();
        for e in &t.events {
            if let CardEvent::Scored {
                player, points, why, ..
            } = e
            {
                writeln!(out, "        {} +{points}: {why}", name(*player)).unwrap();
            }
        }
    }
    writeln!(out, "\nFinal scoring").unwrap();
    for e in &r.final_events {
        if let CardEvent::Scored {
            player, points, why, ..
        } = e
        {
            writeln!(out, "  {} +{points}: {why}", name(*player)).unwrap();
        }
    }
    writeln!(out).unwrap();
    for (p, b) in r.breakdown.iter().enumerate() {
        let both = b.both();
        let parts: Vec<String> = both.iter().map(|(c, v)| format!("{} {v}", c.word())).collect();
        writeln!(
            out,
            "{:<12} {:>4}  ({})",
            name(p as u8),
            r.final_scores[p],
            parts.join(", ")
        )
        .unwrap();
    }
    let winners: Vec<&str> = r.game.winners().into_iter().map(name).collect();
    writeln!(out, "winner: {}", winners.join(" and ")).unwrap();
    out
}

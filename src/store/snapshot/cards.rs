//! The Card Game's notation in a snapshot row: the action and every event, as `replay --json`
//! writes them (`replay::cards`), the round scoring's explanations included.

use super::{Notation, Snapshot};
use crate::engine::cards::CardGame;
use crate::record::Record;
use crate::replay::Turn;
use crate::replay::cards::{EventJson, MoveJson, hide_face_down};

impl Notation for Record<CardGame> {
    type Move = MoveJson;
    type Event = EventJson;

    fn scoring(e: &EventJson) -> Option<(&[u8], &str, u32)> {
        match e {
            EventJson::Scored {
                players,
                category,
                points,
                ..
            } => Some((players, category, *points)),
            _ => None,
        }
    }

    fn tile(_: &MoveJson) -> Option<&str> {
        None
    }
}

/// A replayed turn of `record` as the store keeps it: its supply per player is the hand size
/// and whether the follower is still to place, and it holds no features. A card the record
/// has not seen yet is not named.
pub fn snapshot(record: &Record<CardGame>, t: &Turn<CardGame>) -> Snapshot<Record<CardGame>> {
    let (mut mv, mut events) = ((&t.mv).into(), t.events.iter().map(EventJson::from).collect::<Vec<_>>());
    if record.unseen(t.turn as usize - 1) {
        hide_face_down(&mut mv, &mut events);
    }
    Snapshot {
        turn: t.turn,
        player: t.player,
        mv,
        events,
        scores: t.scores.clone(),
        supply: t.supply.iter().map(|&s| s.into()).collect(),
        ownership: Vec::new(),
    }
}

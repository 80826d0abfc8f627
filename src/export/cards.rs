//! The Card Game written out: its record, and its scoring as CSV. JCloisterZone has no Card
//! Game.

use super::csv::{defuse, row};
use super::{Export, ExportError};
use crate::engine::GameKind;
use crate::engine::cards::{CardEvent, CardGame};
use crate::record::Record;
use crate::record::cards;
use crate::replay::{self, Replay};

impl Export for Record<CardGame> {
    fn native_json(&self) -> String {
        serde_json::to_string_pretty(&cards::to_value(self)).expect("JSON values serialise")
    }

    fn jcz(&self) -> Result<String, ExportError> {
        Err(ExportError::GameNotInJcz(GameKind::CardGame))
    }

    fn scoring_csv(&self) -> Result<String, ExportError> {
        let replayed = replay::cards::replay(self).map_err(|e| ExportError::Replay(e.describe(self)))?;
        Ok(scoring_csv(self, &replayed))
    }
}

/// The header row of [`scoring_csv`].
const HEADER: [&str; 6] = ["turn", "round", "player", "category", "points", "explanation"];

/// Every scoring of a replayed Card Game, in order: each round's (with its turn and round)
/// and the city sets at the end (turn and round left empty).
fn scoring_csv(record: &Record<CardGame>, replay: &Replay<CardGame>) -> String {
    let mut out = row(HEADER.map(String::from));
    let rounds = crate::replay::cards::rounds(&replay.turns);
    let during = (replay.turns.iter().zip(rounds))
        .flat_map(|(t, round)| t.events.iter().map(move |e| (Some((t.turn, round)), e)));
    let end = replay.final_events.iter().map(|e| (None, e));
    for (at, e) in during.chain(end) {
        if let CardEvent::Scored {
            player,
            category,
            points,
            why,
        } = e
        {
            let name = record.players.get(*player as usize).map_or("?", |p| p.name.as_str());
            out += &row([
                at.map(|(t, _)| t.to_string()).unwrap_or_default(),
                at.map(|(_, r)| r.to_string()).unwrap_or_default(),
                defuse(name),
                category.word().into(),
                points.to_string(),
                why.to_string(),
            ]);
        }
    }
    out
}

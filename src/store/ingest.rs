//! From uploaded bytes to stored rows: parse, replay, hash, and write in one transaction.

use super::{GameId, Store, StoreError, TurnRow};
use crate::engine::Event;
use crate::record::{self, Format, GameRecord, RecordError, native};
use crate::replay::{self, Ownership, Replay, ReplayError, json};

/// A parsed and replayed upload, ready to store.
pub struct Ingested {
    /// From the SHA-256 of `canonical`.
    pub id: GameId,
    pub record: GameRecord,
    /// The record as compact native JSON: what is stored and hashed.
    pub canonical: String,
    pub format: Format,
    pub replay: Replay,
    pub ownership: Vec<Ownership>,
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Record(#[from] RecordError),
    /// An illegal move or setup, in words with the record's names.
    #[error("{detail}")]
    Illegal {
        detail: String,
        /// Where and why, for an illegal move: turn, player, move, rule.
        turn: Option<(u32, String, String, String)>,
    },
    /// The log's own running scores disagree with our replay: a parser bug or a rules
    /// difference, never silently accepted.
    #[error("{0}")]
    Mismatch(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The canonical form of a record and its id. Uploading a `.jcz` and its native export gives
/// the same id, because both have the same canonical form.
pub fn canonical_id(record: &GameRecord) -> (String, GameId) {
    let canonical = native::to_value(record).to_string();
    let id = GameId::of(&canonical);
    (canonical, id)
}

/// Parses and replays an upload without storing it.
pub fn prepare(bytes: &[u8]) -> Result<Ingested, IngestError> {
    let (record, format) = record::parse(bytes)?;
    let (replay, ownership) = replay::replay_with_ownership(&record).map_err(|e| illegal(&record, e))?;
    replay::verify::recorded_scores(&record, &replay).map_err(IngestError::Mismatch)?;
    let (canonical, id) = canonical_id(&record);
    Ok(Ingested {
        id,
        record,
        canonical,
        format,
        replay,
        ownership,
    })
}

/// An illegal record put in words: the service's edge, where the names are at hand.
fn illegal(record: &GameRecord, e: ReplayError) -> IngestError {
    let turn = match &e {
        ReplayError::Illegal(t) => Some((
            t.turn,
            t.player_name(record).to_string(),
            t.move_text(record),
            t.reason(record),
        )),
        ReplayError::Setup(_) => None,
    };
    IngestError::Illegal {
        detail: e.describe(record),
        turn,
    }
}

/// Parses, replays and stores an upload. Returns the game id and whether it was new.
pub fn ingest(store: &Store, bytes: &[u8]) -> Result<(Ingested, bool), IngestError> {
    let g = prepare(bytes)?;
    let created = store.insert(&g)?;
    Ok((g, created))
}

/// The snapshot rows of a prepared game. Placements and deployments are the row's move, so
/// `events` keeps the rest: discards, scores with their breakdowns, returns.
pub(super) fn snapshot_rows(g: &Ingested) -> Vec<TurnRow> {
    let cat = &g.record.catalog;
    let players = g.record.players.len();
    g.replay
        .turns
        .iter()
        .zip(&g.ownership)
        .map(|(t, owned)| {
            let events: Vec<_> = t
                .events
                .iter()
                .filter(|e| !matches!(e, Event::TilePlaced { .. } | Event::MeepleDeployed { .. }))
                .map(|e| stored_event(json::event(cat, e, players)))
                .collect();
            let supply: Vec<[u8; 2]> = (t.supply.iter())
                .map(|s| [s.followers, u8::from(s.abbot_home)])
                .collect();
            TurnRow {
                turn: t.turn,
                player: t.player,
                mv: serde_json::to_string(&json::StoredMove::of(cat, t)).unwrap_or_default(),
                events: serde_json::Value::from(events).to_string(),
                scores: serde_json::to_string(&t.scores).unwrap_or_default(),
                supply: serde_json::to_string(&supply).unwrap_or_default(),
                ownership: serde_json::to_string(owned).unwrap_or_default(),
            }
        })
        .collect()
}

/// An event as stored: without what the rest of the row or a replay gives back (the
/// explanation text and its terms, and the phase, which is always "play" for a turn).
fn stored_event(mut e: serde_json::Value) -> serde_json::Value {
    if let Some(obj) = e.as_object_mut() {
        obj.remove("explanation");
        obj.remove("terms");
        obj.remove("phase");
    }
    e
}

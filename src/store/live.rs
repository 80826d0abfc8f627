//! Games recorded at the table, a move at a time (`POST /api/games/live`): stored from their
//! first move on, live until their last. Each move recorded or taken back replays the whole
//! record again and writes it in place of the one before (`Backend::write_live`), so that a
//! live game is at every moment what an upload of its record would be, and the pages, the API
//! and the analysis read it like any other game. Its id is drawn at random, not from its
//! record, which changes.

use super::ingest::{IngestError, Ingested, prepare_any};
use super::{GameId, GameRow, NewGame, OwnerToken, Store, StoreError, owner, players};
use crate::record::{Format, RecordError};
use serde_json::{Map, Value};

/// Where a game recorded at the table came from, as the store's `source_format` says it (an
/// upload's says its format).
pub const SOURCE: &str = "the table";

/// Starts a game recorded at the table, from its start ([`LiveRecord::start`]: no moves yet).
/// It gets an id of its own at random, and is owned by a fresh token.
pub fn start_live(store: &Store, start: &LiveRecord, listed: bool) -> Result<(Ingested, OwnerToken), IngestError> {
    let ingested = replayed(start)?;
    let id = GameId::from_bytes(owner::random_bytes::<8>().map_err(StoreError::from)?);
    let token = OwnerToken::new().map_err(StoreError::from)?;
    let new = NewGame {
        listed,
        owner: Some(token.hash()),
    };
    let row = GameRow {
        id,
        live: !ingested.finished,
        source_format: SOURCE.into(),
        ..GameRow::of(&ingested, new)
    };
    store.write_game(&row, &ingested.snapshots.rows(), &[], &[])?;
    Ok((Ingested { id, ..ingested }, token))
}

/// Stores `record`, a live game's whole record after a move was recorded or taken back, in
/// place of `was`'s, if no other move came first: `None` then. The game stays live until it is
/// over; then its seats are written, and it is a game like any other.
pub fn record_live(store: &Store, was: &GameRow, record: &LiveRecord) -> Result<Option<Ingested>, IngestError> {
    let g = replayed(record)?;
    let row = GameRow {
        record: g.canonical.clone(),
        turns: g.snapshots.len() as u32,
        finished: g.finished,
        final_scores: g.final_scores.clone(),
        live: !g.finished,
        ..was.clone()
    };
    let seats = match g.finished {
        true => players::game_seats(&row, &g.snapshots, &g.bga_ids),
        false => Vec::new(),
    };
    let written = store.write_live(&row, &was.record, &g.snapshots.rows(), &seats)?;
    Ok(written.then_some(g))
}

/// A live record replayed, as it would be stored.
pub fn replayed(record: &LiveRecord) -> Result<Ingested, IngestError> {
    Ok(prepare_any(record.to_string().as_bytes())?.ingested)
}

/// A live game's record as native JSON: what it started with, and its moves so far, each as an
/// entry of a native record's `moves`.
#[derive(Clone, Debug)]
pub struct LiveRecord {
    start: Map<String, Value>,
    moves: Vec<Value>,
}

impl LiveRecord {
    /// A stored record (its canonical native JSON).
    pub fn of(row: &GameRow) -> Result<LiveRecord, StoreError> {
        let corrupt = |why: &str| StoreError::Corrupt(format!("game {}'s record {why}", row.id));
        let Ok(Value::Object(mut start)) = serde_json::from_str(&row.record) else {
            return Err(corrupt("is not a JSON object"));
        };
        let Some(Value::Array(moves)) = start.remove("moves") else {
            return Err(corrupt("has no moves"));
        };
        Ok(LiveRecord { start, moves })
    }

    /// The start of a live game, as `POST /api/games/live` sends it: a native record's members
    /// but its moves (a player's `color` may be spelled so). Its format is native JSON.
    pub fn start(mut start: Map<String, Value>) -> Result<LiveRecord, RecordError> {
        let refused = |why: &str| RecordError::invalid(Format::Native, why);
        if start.contains_key("moves") {
            return Err(refused(
                "a live game starts with no moves: they are recorded one by one",
            ));
        }
        start
            .entry("format")
            .or_insert_with(|| crate::record::native::FORMAT.into());
        if let Some(Value::Array(players)) = start.get_mut("players") {
            for p in players.iter_mut().filter_map(Value::as_object_mut) {
                if let Some(colour) = p.remove("color") {
                    p.entry("colour").or_insert(colour);
                }
            }
        }
        Ok(LiveRecord {
            start,
            moves: Vec::new(),
        })
    }

    /// Moves recorded so far, discards included.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The record with `mv` played after its moves.
    pub fn with(&self, mv: Value) -> LiveRecord {
        let mut next = self.clone();
        next.moves.push(mv);
        next
    }

    /// The record without its last move (the same record when it has none).
    pub fn without_last(&self) -> LiveRecord {
        let mut next = self.clone();
        next.moves.pop();
        next
    }
}

/// The record as native JSON.
impl std::fmt::Display for LiveRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut whole = self.start.clone();
        whole.insert("moves".into(), Value::Array(self.moves.clone()));
        write!(f, "{}", Value::Object(whole))
    }
}

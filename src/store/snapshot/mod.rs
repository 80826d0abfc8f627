//! A turn as the store keeps it, typed: [`Snapshot`], the move in its game's notation, what
//! else happened, and every player's score, supply and features held after it. Ingest writes
//! snapshots; the API and the player rows read them back as the same types, parsed once, at
//! the store's edge ([`AnySnapshots::read`]). In the database a snapshot is a row of JSON
//! columns ([`TurnRow`]), the text releases have written since the store held more than one
//! game; rows of older releases read too (`tiles.rs`).
//!
//! Each game names its notation ([`Notation`]) beside this file: `tiles.rs` for Carcassonne
//! and New World, `cards.rs` for the Card Game.

pub(crate) mod cards;
pub(crate) mod tiles;

pub use tiles::StoredEvent;

use super::TurnRow;
use super::supply::StoredSupply;
use crate::engine::GameKind;
use crate::engine::cards::CardGame;
use crate::record::GameRecord;
use crate::record::Record;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A game's words in a snapshot row: its move and its events.
pub trait Notation {
    type Move: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    type Event: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;

    /// A scoring event's players, what scored (a feature, or a Card Game category) and its
    /// points; `None` for any other event.
    fn scoring(e: &Self::Event) -> Option<(&[u8], &str, u32)>;

    /// The tile a move placed, in games that place tiles.
    fn tile(mv: &Self::Move) -> Option<&str>;
}

/// One turn of a stored game, as `N`'s notation writes it.
#[derive(Clone, Debug)]
pub struct Snapshot<N: Notation> {
    /// From 1.
    pub turn: u32,
    pub player: u8,
    pub mv: N::Move,
    /// What happened besides the move.
    pub events: Vec<N::Event>,
    /// Every player's score after the turn.
    pub scores: Vec<i32>,
    pub supply: Vec<StoredSupply>,
    /// Per player, features held by category (`Ownership`); none in the Card Game, where a
    /// player holds nothing on the table.
    pub ownership: Vec<Vec<u16>>,
}

/// A snapshot row whose JSON is not what its game writes: a corrupt row.
#[derive(Debug, thiserror::Error)]
#[error("turn {turn}'s stored {column} does not read: {source}")]
pub struct SnapshotError {
    pub turn: u32,
    pub column: &'static str,
    pub source: serde_json::Error,
}

impl<N: Notation> Snapshot<N> {
    /// The row the database keeps.
    pub fn row(&self) -> TurnRow {
        TurnRow {
            turn: self.turn,
            player: self.player,
            mv: json(&self.mv),
            events: json(&self.events),
            scores: json(&self.scores),
            supply: json(&self.supply),
            ownership: json(&self.ownership),
        }
    }

    /// A stored row read back.
    pub fn read(row: &TurnRow) -> Result<Snapshot<N>, SnapshotError> {
        fn column<T: DeserializeOwned>(turn: u32, column: &'static str, text: &str) -> Result<T, SnapshotError> {
            serde_json::from_str(text).map_err(|source| SnapshotError { turn, column, source })
        }
        let turn = row.turn;
        Ok(Snapshot {
            turn,
            player: row.player,
            mv: column(turn, "move", &row.mv)?,
            events: column(turn, "events", &row.events)?,
            scores: column(turn, "scores", &row.scores)?,
            supply: column(turn, "supply", &row.supply)?,
            ownership: column(turn, "ownership", &row.ownership)?,
        })
    }

    /// What the turn's scorings gave: for whom, what scored and how many points.
    pub fn scorings(&self) -> impl Iterator<Item = (&[u8], &str, u32)> {
        self.events.iter().filter_map(N::scoring)
    }
}

/// A column's text.
fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("snapshots serialise")
}

/// Every snapshot of a stored game, whichever game it is: the one place the store tells the
/// games' notations apart.
#[derive(Clone, Debug)]
pub enum AnySnapshots {
    /// Carcassonne and New World.
    Tiles(Vec<Snapshot<GameRecord>>),
    Cards(Vec<Snapshot<Record<CardGame>>>),
}

impl AnySnapshots {
    /// A game of `kind`'s rows, read back.
    pub fn read(kind: GameKind, rows: &[TurnRow]) -> Result<AnySnapshots, SnapshotError> {
        fn all<N: Notation>(rows: &[TurnRow]) -> Result<Vec<Snapshot<N>>, SnapshotError> {
            rows.iter().map(Snapshot::read).collect()
        }
        Ok(match kind {
            GameKind::CardGame => AnySnapshots::Cards(all(rows)?),
            GameKind::Carcassonne | GameKind::NewWorld => AnySnapshots::Tiles(all(rows)?),
        })
    }

    /// The rows the database keeps.
    pub fn rows(&self) -> Vec<TurnRow> {
        match self {
            AnySnapshots::Tiles(s) => s.iter().map(Snapshot::row).collect(),
            AnySnapshots::Cards(s) => s.iter().map(Snapshot::row).collect(),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            AnySnapshots::Tiles(s) => s.len(),
            AnySnapshots::Cards(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(events: &str) -> TurnRow {
        TurnRow {
            turn: 7,
            player: 1,
            mv: r#"["D", 0, 1, 90, null]"#.into(),
            events: events.into(),
            scores: "[4, 6]".into(),
            supply: "[[7, 1], [6, 1]]".into(),
            ownership: "[[0, 1, 0, 0, 0], [1, 0, 0, 0, 0]]".into(),
        }
    }

    /// A row reads back as what was written, and one whose JSON is not its game's says which
    /// turn and which column: a corrupt database is named, not served half.
    #[test]
    fn a_row_reads_back_typed_and_a_corrupt_one_names_its_turn_and_column() {
        let rows = [row("[]")];
        let AnySnapshots::Tiles(read) = AnySnapshots::read(GameKind::Carcassonne, &rows).unwrap() else {
            panic!("a tile game's rows read as the tile game's");
        };
        assert_eq!((read[0].mv.0.as_str(), read[0].scores.as_slice()), ("D", &[4, 6][..]));
        assert_eq!(read[0].supply[1], StoredSupply { held: 6, home: true });
        let again = read[0].row();
        assert_eq!(
            (again.mv, again.events, again.supply),
            (r#"["D",0,1,90,null]"#.into(), "[]".into(), "[[7,1],[6,1]]".into())
        );

        let broken = [row(r#"[{"type": "scored", "points": 3}]"#)];
        let e = AnySnapshots::read(GameKind::Carcassonne, &broken).unwrap_err();
        assert_eq!((e.turn, e.column), (7, "events"));
        assert!(e.to_string().starts_with("turn 7's stored events does not read"), "{e}");
        // A Card Game's rows are read in its own notation: a tile move is not an action.
        assert_eq!(
            AnySnapshots::read(GameKind::CardGame, &rows).unwrap_err().column,
            "move"
        );
    }
}

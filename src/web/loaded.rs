//! A stored game parsed as its own game's type ([`Loaded`]): [`annotated`] is the one place the
//! web tells the games apart. What the pages make of it is [`super::game`]'s.

use crate::engine::GameKind;
use crate::export::Export;
use crate::record::cards::CardRecord;
use crate::record::{Annotation, AnyRecord, GameRecord, RecordError};
use crate::render::Drawable;
use crate::replay::Replays;
use crate::store::{GameRow, Storable};
use crate::web::view::GameWords;
use std::sync::Arc;

/// A stored game: its row, and its record parsed as its game's type (`GameRecord`,
/// `CardRecord`).
#[derive(Clone)]
pub struct Stored<R> {
    pub row: GameRow,
    pub record: R,
}

/// What every page reads of a stored game, whatever the game, written once for all of them:
/// its row, and its record's kind, drawing, exports and comments, which the records give
/// through the traits of the layers that draw (`Drawable`), export (`Export`) and store them
/// (`Storable`), and its words (`GameWords`). The pages' own hooks per game are `web::game::GamePages`.
pub trait StoredGame: Send + Sync {
    fn row(&self) -> &GameRow;

    fn kind(&self) -> GameKind;

    /// The record, to draw.
    fn drawable(&self) -> &dyn Drawable;

    /// The record, to write out, with its annotations.
    fn exports(&self) -> &dyn Export;

    /// The owner's comments on the game's turns, by turn (`annotated`).
    fn annotations(&self) -> &[Annotation];

    /// The rules as the list of games says them (`GameWords::listed_rules`).
    fn listed_rules(&self) -> String;
}

impl<R: Storable + Drawable + Export + GameWords + Send + Sync> StoredGame for Stored<R> {
    fn row(&self) -> &GameRow {
        &self.row
    }

    fn kind(&self) -> GameKind {
        self.record.kind()
    }

    fn drawable(&self) -> &dyn Drawable {
        &self.record
    }

    fn exports(&self) -> &dyn Export {
        &self.record
    }

    fn annotations(&self) -> &[Annotation] {
        Storable::annotations(&self.record)
    }

    fn listed_rules(&self) -> String {
        self.record.listed_rules()
    }
}

/// Why a stored game does not replay under this release's rules, in the record's words
/// (naming the turn, the player and the rule).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// A stored game as its own game's type: what the pages of every game take
/// (`Loaded::pages`), and what only the tile games have (a board, placements to weigh,
/// puzzles) take.
#[derive(Clone)]
pub enum Loaded {
    Tiles(Arc<Stored<GameRecord>>),
    Cards(Arc<Stored<CardRecord>>),
}

impl Loaded {
    /// Whether the record replays under this release's rules: a game an earlier release
    /// stored may hold a move this one refuses. The reason, naming the turn, if not.
    pub fn replays(&self) -> Result<(), Refused> {
        match self {
            Loaded::Tiles(g) => replays(&g.record),
            Loaded::Cards(g) => replays(&g.record),
        }
    }
}

fn replays<R: Replays>(record: &R) -> Result<(), Refused> {
    (record.replay().map(|_| ())).map_err(|e| Refused(record.refusal(&e)))
}

/// A stored game, its record parsed as its own game's type, without its annotations.
pub fn read(row: GameRow) -> Result<Loaded, RecordError> {
    annotated(row, Vec::new())
}

/// A stored game, its record parsed as its own game's type, with its annotations (the store
/// keeps them apart from the record, which never changes).
pub fn annotated(row: GameRow, annotations: Vec<Annotation>) -> Result<Loaded, RecordError> {
    let mut parsed = crate::record::parse_any(row.record.as_bytes())?;
    crate::record::dispatch!(&mut parsed, record => record.annotations = annotations);
    Ok(match parsed {
        AnyRecord::Tiles(record, _) => Loaded::Tiles(Arc::new(Stored { row, record })),
        AnyRecord::Cards(record) => Loaded::Cards(Arc::new(Stored { row, record })),
    })
}

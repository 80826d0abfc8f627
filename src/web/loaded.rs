//! A stored game parsed as its own game's type ([`Loaded`]): [`annotated`] is the one place the
//! web tells the games apart. What the pages make of it is [`super::game`]'s.

use crate::engine::GameKind;
use crate::engine::cards::CardGame;
use crate::export::Export;
use crate::record::Record;
use crate::record::{Annotation, AnyRecord, GameRecord};
use crate::render::Drawable;
use crate::replay::{Kept, Positions, Reached, Replay, Replays};
use crate::store::{GameRow, Storable};
use crate::web::problem::Problem;
use crate::web::view::GameWords;
use std::sync::Arc;

/// A stored game: its row, its record parsed as its game's type (`GameRecord`, `Record<CardGame>`),
/// and the record replayed to its end, once, as the game was loaded, with every turn's
/// position kept: the pages of a turn read them and never replay.
pub struct Stored<R: Replays> {
    pub row: GameRow,
    pub record: R,
    /// The whole game, replayed: what the end page, the API and the Card Game's pages read.
    pub full: Replay<R::Position>,
    /// Every turn's position, kept by that replay: what a turn's page, picture, explore line
    /// and alternatives start from (`after`, `before`).
    pub positions: Positions<R::Position>,
}

impl<R: Replays> Stored<R> {
    /// The game after turn `n` (0: the start), as its turn page and picture show it.
    pub fn after(&self, n: u32) -> Option<Reached<'_, R::Position>> {
        self.full.after(&self.positions, n)
    }

    /// The position turn `n` is played from; turn `turns + 1` is the one the record's next
    /// move would be played from.
    pub fn before(&self, n: u32) -> Result<&R::Position, Problem> {
        (self.positions.before(n)).ok_or_else(|| Problem::not_found(format!("there is no turn {n}")))
    }
}

impl<R: GameWords> Stored<R> {
    /// Player `p`'s name, or nothing for a seat the record lacks.
    pub fn player_name(&self, p: u8) -> String {
        (self.record.players().get(usize::from(p))).map_or_else(String::new, |p| p.name.clone())
    }
}

/// What every page reads of a stored game, whatever the game, written once for all of them:
/// its row, and its record's kind, drawing, exports and comments, which the records give
/// through the traits of the layers that draw (`Drawable`), export (`Export`) and store them
/// (`Storable`), and its words (`GameWords`). The pages' own hooks per game are `web::game::GamePages`.
pub trait StoredGame: Send + Sync {
    fn row(&self) -> &GameRow;

    fn kind(&self) -> GameKind;

    /// The game, to draw: its record with its kept positions, so any turn is drawn with no
    /// replay.
    fn drawable(&self) -> Box<dyn Drawable + '_>;

    /// The record, to write out, with its annotations.
    fn exports(&self) -> &dyn Export;

    /// The owner's comments on the game's turns, by turn (`annotated`).
    fn annotations(&self) -> &[Annotation];

    /// The rules as the list of games says them (`GameWords::listed_rules`).
    fn listed_rules(&self) -> String;
}

impl<R: Storable + Export + GameWords> StoredGame for Stored<R>
where
    Stored<R>: Send + Sync,
    for<'a> Kept<'a, R>: Drawable,
{
    fn row(&self) -> &GameRow {
        &self.row
    }

    fn kind(&self) -> GameKind {
        self.record.kind()
    }

    fn drawable(&self) -> Box<dyn Drawable + '_> {
        Box::new(Kept {
            record: &self.record,
            full: &self.full,
            positions: &self.positions,
        })
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

/// Why a stored game cannot be shown: an earlier release stored a record this release refuses
/// (it does not parse, or does not replay under this release's rules), in the record's words
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
    Cards(Arc<Stored<Record<CardGame>>>),
}

/// The rules of a stored game as the list of games says them (`GameWords::listed_rules`),
/// read from its record alone.
pub fn listed_rules(row: &GameRow) -> Option<String> {
    let parsed = crate::record::parse_any(row.record.as_bytes()).ok()?;
    Some(crate::record::dispatch!(&parsed, record => record.listed_rules()))
}

/// A stored game, its record parsed as its own game's type and replayed, with its annotations
/// (the store keeps them apart from the record, which never changes).
pub fn annotated(row: GameRow, annotations: Vec<Annotation>) -> Result<Loaded, Refused> {
    let mut parsed = crate::record::parse_any(row.record.as_bytes()).map_err(|e| Refused(e.to_string()))?;
    crate::record::dispatch!(&mut parsed, record => record.annotations = annotations);
    Ok(match parsed {
        AnyRecord::Tiles(record, _) => Loaded::Tiles(replayed(row, record)?),
        AnyRecord::Cards(record) => Loaded::Cards(replayed(row, record)?),
    })
}

fn replayed<R: Replays>(row: GameRow, record: R) -> Result<Arc<Stored<R>>, Refused> {
    let (full, positions) = record.replay_keeping().map_err(|e| Refused(record.refusal(&e)))?;
    Ok(Arc::new(Stored {
        row,
        record,
        full,
        positions,
    }))
}

//! Records written out for other programs, from a replay: JCloisterZone saves (`jcz`) and the
//! scoring events as CSV (`csv`), and the native record itself (`record::native`).
//!
//! [`Export`] is what every game writes; each game implements it (the tile games here, the
//! Card Game in `cards`), and says why it is not written in a format it has no place in.

mod cards;
pub mod csv;
pub mod jcz;

use crate::engine::GameKind;
use crate::record::{GameRecord, native};
use crate::replay;

/// Why a game is not written out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// JCloisterZone plays the tile game only.
    #[error("JCloisterZone does not play {}", .0.title())]
    GameNotInJcz(GameKind),
    /// JCloisterZone has no tile like one of the record's own, named.
    #[error("JCloisterZone has no tile like the record's own tile {0}")]
    TileNotInJcz(String),
    /// The record does not replay: why, in words with the record's names.
    #[error("{0}")]
    Replay(String),
    /// A replayed move has no JCloisterZone message (the replay and the writer disagree).
    #[error("the move cannot be written as .jcz: {0}")]
    Unwritable(&'static str),
}

/// A game written out for other programs; one implementation per game.
pub trait Export {
    /// The record as native JSON, indented.
    fn native_json(&self) -> String;

    /// The game as a JCloisterZone 5.x save.
    fn jcz(&self) -> Result<String, ExportError>;

    /// Every scoring of the game, replayed, as CSV.
    fn scoring_csv(&self) -> Result<String, ExportError>;
}

impl Export for GameRecord {
    /// One move a line, as people read and diff it.
    fn native_json(&self) -> String {
        native::to_pretty_string(self)
    }

    fn jcz(&self) -> Result<String, ExportError> {
        if let Some(why) = jcz::unsupported(self) {
            return Err(why);
        }
        jcz::to_string(self)
    }

    fn scoring_csv(&self) -> Result<String, ExportError> {
        let replayed = replay::replay(self, None).map_err(|e| ExportError::Replay(e.describe(self)))?;
        Ok(csv::scoring_csv(self, &replayed))
    }
}

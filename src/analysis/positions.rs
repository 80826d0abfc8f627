//! The positions of a record's turns: the walk every whole-game analysis and its budget
//! take, and the position before one turn.

use super::options::AnalysisError;
use crate::engine::{Game, Move};
use crate::record::{GameRecord, Played, Walk};

/// The position before turn `turn` (1-based; discards before it applied) and the move played
/// then. Reads the record up to that turn only.
pub fn position_before(record: &GameRecord, turn: u32) -> Result<(Game, Move), AnalysisError> {
    let mut found = None;
    walk(record, |before, played, n| {
        if n == turn {
            found = Some((before.clone(), *played));
        }
        Ok(n < turn)
    })?;
    found.ok_or(AnalysisError::NoSuchTurn {
        turn,
        turns: record.turns(),
    })
}

/// Steps through the record, calling `visit` with the position before each placed tile
/// (discards before it applied), the move played and its turn, while `visit` says to go on.
pub(crate) fn walk(
    record: &GameRecord,
    mut visit: impl FnMut(&Game, &Move, u32) -> Result<bool, AnalysisError>,
) -> Result<(), AnalysisError> {
    let mut walk = Walk::new(record)?;
    while walk.peek().is_some() {
        // The move is played before it is analysed, so an illegal record is an error.
        let before = walk.game().clone();
        let step = walk.step().expect("a move is next")?;
        if let Played::Place(mv) = step.played
            && !visit(&before, &mv, step.turn)?
        {
            return Ok(());
        }
    }
    Ok(())
}

//! New World's east coast and its two surveyors, as a part of the tile game ([`Part`]):
//! - setup: the game starts on the coast's start spaces, and no square east of the land joins
//!   the board;
//! - placement check: no tile on or east of the coast;
//! - scoring: the start spaces count as land around a farm, the mover orders the features
//!   a tile completes, each scored settler earns a bonus per surveyor in its column, and after
//!   each scored feature a surveyor moves west and the settlers it leaves behind go home.
//!
//! Columns are board `x`. The coast's start spaces stand in column [`COAST_X`]; land tiles go
//! west of it, so the first tiles go in the column next to the coast, and the surveyors
//! start on the coast.

use super::board::Board;
use super::error::IllegalMove;
use super::events::{Event, Term, Unit};
use super::features::SegId;
use super::game::{Game, StartSquare};
use super::geometry::Pos;
use super::parts::{Opening, Part};
use super::rules::{Completion, completion};
use super::tileset::TileCatalog;

/// The column of the coast's start spaces. No tile may go in it or east of it.
pub const COAST_X: i32 = 1;
/// The coast has ten start spaces, at `y` 0 to 9.
pub const START_SPACES: i32 = 10;
/// Points per surveyor in the column of a scored settler.
pub const SURVEYOR_BONUS: u32 = 4;

/// The squares a first tile may take: next to a start space. Reading: a start space presents
/// no edge, so any tile may touch it. A town or trail that runs into the coast has a gap
/// there ("completely surrounded by a town wall", "both ends connect to a crossing, a town
/// segment, or a farm") and never completes. A farm beside the coast counts the start spaces
/// as land (`Game::surrounding`): the rulebook's example B2 scores a farm with both surveyors
/// in the first column, which only this reading allows. Nothing else east of the land counts:
/// the squares of the coast's column north and south of the start spaces, and everything
/// east of it, never hold a tile ("completely surrounded by land tiles").
pub fn start_squares() -> Vec<StartSquare> {
    (0..START_SPACES)
        .map(|y| StartSquare {
            pos: Pos::new(COAST_X - 1, y),
            presents: Vec::new(),
        })
        .collect()
}

/// Whether a tile may stand at `pos`: west of the coast; north and south are unbounded.
pub fn on_land(pos: Pos) -> bool {
    pos.x < COAST_X
}

/// Whether `pos` is one of the coast's start spaces: column [`COAST_X`], rows 0 to 9.
pub fn is_start_space(pos: Pos) -> bool {
    pos.x == COAST_X && (0..START_SPACES).contains(&pos.y)
}

/// The two surveyors' columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surveyors {
    columns: [i32; 2],
}

impl Default for Surveyors {
    fn default() -> Self {
        Surveyors { columns: [COAST_X; 2] }
    }
}

impl Surveyors {
    pub fn columns(&self) -> [i32; 2] {
        self.columns
    }

    /// How many surveyors stand in column `x`.
    pub fn in_column(&self, x: i32) -> u32 {
        self.columns.iter().filter(|&&c| c == x).count() as u32
    }

    /// The eastern-most surveyor's column: standing settlers east of it have fallen behind.
    pub fn east(&self) -> i32 {
        self.columns[0].max(self.columns[1])
    }

    /// Moves one surveyor a column west after a scored feature, and says from which column
    /// to which. The eastern-most moves when they stand apart; when both stand in
    /// `westmost`, the western-most column with tiles, neither moves.
    pub fn advance(&mut self, westmost: i32) -> Option<(i32, i32)> {
        let east = if self.columns[0] >= self.columns[1] { 0 } else { 1 };
        let from = self.columns[east];
        if self.columns[0] == self.columns[1] && from <= westmost {
            return None;
        }
        self.columns[east] = from - 1;
        Some((from, from - 1))
    }
}

impl Part for Surveyors {
    /// The game starts on the start spaces when the setup names no start, and the board
    /// never grows east of the land.
    fn setup(&self, _catalog: &TileCatalog, opening: &mut Opening, board: &mut Board) {
        board.close_east_of(COAST_X - 1);
        if opening.has_no_start() {
            opening.start_squares = start_squares();
        }
    }

    #[inline]
    fn check_square(&self, pos: Pos) -> Result<(), IllegalMove> {
        if on_land(pos) {
            Ok(())
        } else {
            Err(IllegalMove::EastOfCoast { pos })
        }
    }

    #[inline]
    fn is_start_space(&self, pos: Pos) -> bool {
        is_start_space(pos)
    }

    /// The order matters in New World. By default the mover scores their own features first,
    /// as a player choosing the order would, and farms before towns and trails, as in the
    /// rulebook's example B2. A record may state the order
    /// ([`Game::choose_score_order`]); the features it names come first.
    fn order_scoring(&self, game: &Game, completed: &mut [SegId]) {
        let features = &game.features;
        let mover = game.current_player() as usize;
        let chosen: Vec<Option<SegId>> = game.score_order.iter().map(|r| game.feature_at(r)).collect();
        completed.sort_by_key(|&s| {
            let root = features.root(s);
            let named = chosen.iter().position(|&c| c == Some(root)).unwrap_or(chosen.len());
            let others = features.count_meeples(s)[mover] == 0;
            (named, others, completion(features.kind(s)) != Completion::Surrounded)
        });
    }

    /// Each scoring player gets 4 points per surveyor standing in the column of one of their
    /// settlers on the feature.
    fn bonus(&self, game: &Game, s: SegId, player: u8) -> Option<Term> {
        let features = &game.features;
        let mut columns: Vec<i32> = features
            .members(s)
            .filter(|&m| features.meeple_on(m).is_some_and(|mp| mp.player == player))
            .map(|m| game.board.tiles()[features.tile_of(m) as usize].pos.x)
            .collect();
        columns.sort_unstable();
        columns.dedup();
        let count: u32 = columns.into_iter().map(|x| self.in_column(x)).sum();
        (count > 0).then_some(Term {
            count,
            unit: Unit::Surveyor,
            rate: SURVEYOR_BONUS,
        })
    }

    /// A surveyor moves west, and every standing settler east of the eastern-most surveyor
    /// is left behind (see [`Surveyors::left_behind`]).
    fn after_scored(&mut self, board: &Board, events: &mut Vec<Event>) -> bool {
        let westmost = board.extent().map_or(0, |(lo, _)| lo.x);
        if let Some((from, to)) = self.advance(westmost) {
            events.push(Event::SurveyorMoved { from, to });
        }
        true
    }

    /// Reading: the rulebook removes the settlers of "the surveyor-vacated column" and east of
    /// it (example B2), and says a settler placed east of the surveyors "will be removed
    /// immediately after the next scoring!"; both are the settlers east of the eastern-most
    /// surveyor after the surveyors' step that follows each scoring, whether or not one could
    /// move. Two surveyors leaving one column one at a time send its settlers home only when
    /// the second leaves (example B2). Trappers lie on their plains until the end.
    fn left_behind(&self, pos: Pos) -> bool {
        pos.x > self.east()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surveyors_take_turns_and_the_eastern_most_moves_first() {
        let mut s = Surveyors::default();
        // Both on the coast: one steps onto the first column, the coast keeps the other.
        assert_eq!(s.advance(-3), Some((COAST_X, 0)));
        assert_eq!(s.columns(), [0, COAST_X]);
        assert_eq!(s.east(), COAST_X);
        // Now they stand apart: the eastern-most must follow, leaving the coast empty.
        assert_eq!(s.advance(-3), Some((COAST_X, 0)));
        assert_eq!(s.columns(), [0, 0]);
        assert_eq!(s.advance(-3), Some((0, -1)));
        assert_eq!(s.east(), 0);
        assert_eq!(s.advance(-3), Some((0, -1)));
        assert_eq!(s.columns(), [-1, -1]);
    }

    #[test]
    fn surveyors_in_the_western_most_column_with_tiles_stay() {
        let mut s = Surveyors { columns: [-2, -2] };
        assert_eq!(s.advance(-2), None);
        assert_eq!(s.columns(), [-2, -2]);
        // One column apart, the eastern one always has somewhere to go.
        let mut s = Surveyors { columns: [-2, -1] };
        assert_eq!(s.advance(-2), Some((-1, -2)));
        assert_eq!(s.columns(), [-2, -2]);
    }

    #[test]
    fn only_the_ten_start_spaces_of_the_coast_column_are_start_spaces() {
        assert!(is_start_space(Pos::new(COAST_X, 0)));
        assert!(is_start_space(Pos::new(COAST_X, 9)));
        assert!(!is_start_space(Pos::new(COAST_X, -1)));
        assert!(!is_start_space(Pos::new(COAST_X, 10)));
        assert!(!is_start_space(Pos::new(COAST_X + 1, 4)));
        assert!(!is_start_space(Pos::new(0, 4)));
    }
}

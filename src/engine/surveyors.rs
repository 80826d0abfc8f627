//! New World's east coast and its two surveyors: a part of the tile game with two hooks, the
//! placement check (no tile east of the coast) and the step after each scored feature.
//!
//! Columns are board `x`. The coast's start spaces stand in column [`COAST_X`]; land tiles go
//! west of it, so the first tiles go in the column next to the coast, and the surveyors
//! start on the coast.

use super::game::StartSquare;
use super::geometry::Pos;

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

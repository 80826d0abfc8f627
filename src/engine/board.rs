//! The grid of placed tiles and the frontier of empty squares next to them.
//!
//! Each frontier square carries the edges its placed neighbours demand, packed like
//! `Oriented::edges`, so a placement check is one mask comparison. Squares are found through a
//! flat array over the board's bounding box, or a hash map when that box would be mostly empty.
//! So the board's memory follows the tiles placed, never its extent: a line of 500 tiles is as
//! cheap as a clump of 500. Records cannot reach further than their tile count from the start
//! anyway (`record`'s limits), and the engine refuses any square past `Pos::MAX_COORD`.

use super::geometry::{Pos, Rotation, Side};
use super::tileset::TileKindId;
use std::collections::HashMap;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    pub kind: TileKindId,
    pub pos: Pos,
    pub rotation: Rotation,
    /// Packed edges in board orientation.
    pub edges: u8,
    /// Index of this tile's first segment in `Features`.
    pub first_segment: u32,
}

/// An empty square next to the placed tiles, and what its neighbours demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontierSquare {
    pub pos: Pos,
    /// Required edge bits, meaningful where `care` is set.
    pub required: u8,
    /// Two bits set per side that has a neighbour.
    pub care: u8,
}

impl FrontierSquare {
    pub fn accepts(&self, edges: u8) -> bool {
        edges & self.care == self.required
    }
}

const EMPTY: u32 = 0;
const PLACED: u32 = 1 << 31;

/// Squares on each side of the origin the first grid covers: a whole base game usually fits.
const START_RADIUS: i32 = 12;
/// A dense grid may hold this many cells per square in use, or this many in all, whichever is
/// more; beyond that the board goes sparse.
const DENSE_CELLS_PER_SQUARE: usize = 32;
const DENSE_CELLS_MIN: usize = 128 * 128;

/// The placed tiles and the frontier, found by square.
///
/// Each square's cell holds `PLACED | tile index`, `frontier index + 1`, or `EMPTY`. A flat
/// array over the bounding box is fastest, and a real game's board is compact. A board
/// stretched thin (a staircase of a thousand custom tiles) would make that array huge, so past
/// a size proportional to the squares in use the cells move into a hash map: memory follows
/// the tiles placed, never the board's extent.
#[derive(Debug)]
pub struct Board {
    /// The dense grid covers `lo` to `lo + (width − 1, height − 1)`; it is empty once sparse.
    lo: Pos,
    width: u32,
    height: u32,
    cells: Vec<u32>,
    /// Every cell, once the board has gone sparse.
    sparse: Option<HashMap<Pos, u32>>,
    tiles: Vec<PlacedTile>,
    frontier: Vec<FrontierSquare>,
    /// No square east of this column joins the frontier (New World's coast).
    east_limit: i32,
}

/// Written out for `clone_from`, which the derive leaves as a fresh copy: the bots copy a game
/// into one they keep, reusing its allocations.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            cells: self.cells.clone(),
            sparse: self.sparse.clone(),
            tiles: self.tiles.clone(),
            frontier: self.frontier.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Board) {
        let Board {
            lo,
            width,
            height,
            cells,
            sparse,
            tiles,
            frontier,
            east_limit,
        } = source;
        (self.lo, self.width, self.height, self.east_limit) = (*lo, *width, *height, *east_limit);
        self.cells.clone_from(cells);
        self.sparse.clone_from(sparse);
        self.tiles.clone_from(tiles);
        self.frontier.clone_from(frontier);
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        let side = (2 * START_RADIUS + 1) as u32;
        Board {
            lo: Pos::new(-START_RADIUS, -START_RADIUS),
            width: side,
            height: side,
            cells: vec![EMPTY; (side * side) as usize],
            sparse: None,
            tiles: Vec::with_capacity(96),
            frontier: Vec::with_capacity(64),
            east_limit: i32::MAX,
        }
    }

    /// The square `p`'s slot in the dense grid. Wrapping arithmetic keeps any `i32` safe.
    #[inline]
    fn slot(&self, p: Pos) -> Option<usize> {
        let dx = p.x.wrapping_sub(self.lo.x) as u32;
        let dy = p.y.wrapping_sub(self.lo.y) as u32;
        (dx < self.width && dy < self.height).then(|| dy as usize * self.width as usize + dx as usize)
    }

    #[inline]
    fn cell(&self, p: Pos) -> u32 {
        match self.slot(p) {
            Some(i) => self.cells[i],
            None => self.cell_beyond_grid(p),
        }
    }

    /// Kept out of line so that the grid look-up, which every placement makes many times,
    /// stays small enough to inline.
    #[cold]
    #[inline(never)]
    fn cell_beyond_grid(&self, p: Pos) -> u32 {
        self.sparse
            .as_ref()
            .and_then(|map| map.get(&p).copied())
            .unwrap_or(EMPTY)
    }

    /// Writes a cell; the square must have room (`ensure_room`). The grid write is inlined
    /// into every placement; the map write is the rare case.
    #[inline]
    fn set(&mut self, p: Pos, value: u32) {
        match self.slot(p) {
            Some(i) => self.cells[i] = value,
            None => self.set_beyond_grid(p, value),
        }
    }

    #[cold]
    #[inline(never)]
    fn set_beyond_grid(&mut self, p: Pos, value: u32) {
        self.sparse
            .as_mut()
            .unwrap_or_else(|| unreachable!("room was made for {p}"))
            .insert(p, value);
    }

    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    pub fn frontier(&self) -> &[FrontierSquare] {
        &self.frontier
    }

    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        let c = self.cell(p);
        (c & PLACED != 0).then(|| &self.tiles[(c & !PLACED) as usize])
    }

    pub fn tile_index_at(&self, p: Pos) -> Option<usize> {
        let c = self.cell(p);
        (c & PLACED != 0).then_some((c & !PLACED) as usize)
    }

    pub fn is_empty_at(&self, p: Pos) -> bool {
        self.tile_at(p).is_none()
    }

    /// The frontier entry for an empty square, if a placed tile touches it.
    pub fn frontier_at(&self, p: Pos) -> Option<&FrontierSquare> {
        let c = self.cell(p);
        (c != EMPTY && c & PLACED == 0).then(|| &self.frontier[c as usize - 1])
    }

    /// How many of the eight squares around `p` hold tiles.
    pub fn neighbours_around(&self, p: Pos) -> u32 {
        p.ring().filter(|q| self.tile_at(*q).is_some()).count() as u32
    }

    /// Puts a tile down. The caller has checked legality.
    pub fn place(&mut self, tile: PlacedTile) {
        self.ensure_room(tile.pos);
        let c = self.cell(tile.pos);
        if c != EMPTY {
            self.remove_frontier(c as usize - 1);
        }
        self.set(tile.pos, PLACED | self.tiles.len() as u32);
        self.tiles.push(tile);
        for side in Side::ALL {
            let q = tile.pos.step(side);
            if q.x <= self.east_limit && self.tile_at(q).is_none() {
                let edge = (tile.edges >> (2 * side.index())) & 3;
                self.demand(q, side.opposite(), edge);
            }
        }
    }

    /// Keeps every square east of column `x` out of the frontier: no tile may go there.
    pub fn close_east_of(&mut self, x: i32) {
        self.east_limit = x;
    }

    /// Opens the empty square `pos` to a tile that touches no placed tile: a start square (New
    /// World's coast). Each `(side, edge)` it presents is demanded as a placed neighbour's
    /// edge would be; a square presenting nothing takes any tile.
    pub fn open_square(&mut self, pos: Pos, presents: &[(Side, u8)]) {
        self.frontier_square(pos);
        for &(side, edge) in presents {
            self.demand(pos, side, edge);
        }
    }

    /// The frontier square at `q`, made if it is not one yet. Inlined into `demand`, which
    /// every placement calls four times.
    #[inline]
    fn frontier_square(&mut self, q: Pos) -> &mut FrontierSquare {
        self.ensure_room(q);
        let mut c = self.cell(q);
        if c == EMPTY {
            self.frontier.push(FrontierSquare {
                pos: q,
                required: 0,
                care: 0,
            });
            c = self.frontier.len() as u32;
            self.set(q, c);
        }
        &mut self.frontier[c as usize - 1]
    }

    fn demand(&mut self, q: Pos, side: Side, edge: u8) {
        let f = self.frontier_square(q);
        let shift = 2 * side.index();
        f.required |= edge << shift;
        f.care |= 3 << shift;
    }

    fn remove_frontier(&mut self, i: usize) {
        self.frontier.swap_remove(i);
        if let Some(moved) = self.frontier.get(i).map(|f| f.pos) {
            self.set(moved, i as u32 + 1);
        }
    }

    /// Makes room for square `p`: a dense grid grows to twice the size it needs, so growth is
    /// rare, or goes sparse when that would be too large for the squares in use.
    fn ensure_room(&mut self, p: Pos) {
        if self.sparse.is_some() || self.slot(p).is_some() {
            return;
        }
        let (lo, width, height) = (self.lo, self.width, self.height);
        let hi = (
            i64::from(lo.x) + i64::from(width) - 1,
            i64::from(lo.y) + i64::from(height) - 1,
        );
        let (x0, x1) = grow(i64::from(lo.x), hi.0, i64::from(p.x));
        let (y0, y1) = grow(i64::from(lo.y), hi.1, i64::from(p.y));
        let (w, h) = ((x1 - x0 + 1) as u64, (y1 - y0 + 1) as u64);
        let in_use = self.tiles.len() + self.frontier.len() + 1;
        let budget = (in_use * DENSE_CELLS_PER_SQUARE).max(DENSE_CELLS_MIN) as u64;
        let fits_i32 = i32::try_from(x0).is_ok() && i32::try_from(y0).is_ok();
        if w.saturating_mul(h) <= budget && fits_i32 {
            self.lo = Pos::new(x0 as i32, y0 as i32);
            (self.width, self.height) = (w as u32, h as u32);
            self.cells = vec![EMPTY; (w * h) as usize];
        } else {
            (self.width, self.height) = (0, 0);
            self.cells = Vec::new();
            self.sparse = Some(HashMap::with_capacity(in_use * 2));
        }
        self.refill();
    }

    /// Writes every tile and frontier square into freshly made cells.
    fn refill(&mut self) {
        for i in 0..self.tiles.len() {
            self.set(self.tiles[i].pos, PLACED | i as u32);
        }
        for i in 0..self.frontier.len() {
            self.set(self.frontier[i].pos, i as u32 + 1);
        }
    }

    /// The smallest rectangle holding every tile: (min, max) corners.
    pub fn extent(&self) -> Option<(Pos, Pos)> {
        let first = self.tiles.first()?.pos;
        Some(self.tiles.iter().fold((first, first), |(lo, hi), t| {
            (
                Pos::new(lo.x.min(t.pos.x), lo.y.min(t.pos.y)),
                Pos::new(hi.x.max(t.pos.x), hi.y.max(t.pos.y)),
            )
        }))
    }
}

/// A range `lo..=hi` stretched to take in `p`, doubling the side it grows on.
fn grow(lo: i64, hi: i64, p: i64) -> (i64, i64) {
    let span = hi - lo + 1;
    if p < lo {
        (lo.min(p) - span, hi)
    } else if p > hi {
        (lo, hi.max(p) + span)
    } else {
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rotation;

    fn tile(x: i32, y: i32, i: u32) -> PlacedTile {
        PlacedTile {
            kind: TileKindId(0),
            pos: Pos::new(x, y),
            rotation: Rotation::new(0),
            edges: 0,
            first_segment: i,
        }
    }

    /// Cells a board holds, however it holds them.
    fn cells(b: &Board) -> usize {
        b.sparse.as_ref().map_or(b.cells.len(), HashMap::len)
    }

    #[test]
    fn memory_follows_the_squares_in_use_not_the_extent() {
        let mut line = Board::new();
        for x in 0..5000 {
            line.place(tile(x, 0, x as u32));
        }
        let in_use = line.tiles().len() + line.frontier().len();
        assert!(
            cells(&line) <= in_use * DENSE_CELLS_PER_SQUARE,
            "{} cells",
            cells(&line)
        );
        assert_eq!(line.tile_at(Pos::new(4321, 0)).map(|t| t.first_segment), Some(4321));
        assert!(line.frontier_at(Pos::new(5000, 0)).is_some());
        assert!(line.frontier_at(Pos::new(77, 1)).is_some());
        assert!(line.tile_at(Pos::new(77, 1)).is_none());

        // A staircase spans a square of 3000 × 3000: nine million cells as a grid.
        let mut stairs = Board::new();
        for i in 0..3000 {
            stairs.place(tile(i, i, 2 * i as u32));
            stairs.place(tile(i + 1, i, 2 * i as u32 + 1));
        }
        assert!(stairs.sparse.is_some());
        assert_eq!(
            stairs.tile_at(Pos::new(2001, 2000)).map(|t| t.first_segment),
            Some(4001)
        );
        assert!(stairs.frontier_at(Pos::new(0, 1)).is_some());
    }

    #[test]
    fn a_compact_board_stays_dense() {
        let mut b = Board::new();
        for i in 0..100 {
            b.place(tile(i % 10 - 30, i / 10, i as u32));
        }
        assert!(b.sparse.is_none());
        assert_eq!(b.tile_at(Pos::new(-21, 9)).map(|t| t.first_segment), Some(99));
    }

    #[test]
    fn squares_at_the_ends_of_i32_neither_panic_nor_allocate() {
        let b = Board::new();
        for p in [
            Pos::new(i32::MAX, 0),
            Pos::new(i32::MIN, i32::MIN),
            Pos::new(0, i32::MAX),
        ] {
            assert!(b.tile_at(p).is_none());
            assert!(b.frontier_at(p).is_none());
        }
        let mut b = Board::new();
        b.place(tile(2_000_000, 0, 0));
        assert!(b.sparse.is_some());
    }
}

//! The grid of placed tiles and the frontier of empty squares next to them.
//!
//! Each frontier square carries the edges its placed neighbours demand, packed like
//! `Oriented::edges`, so a placement check is one mask comparison. The grid is a flat array
//! around the origin that doubles when a tile lands outside it.

use super::geometry::{Pos, Rotation, Side};
use super::tileset::TileKindId;

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

#[derive(Clone, Debug)]
pub struct Board {
    radius: i32,
    /// `PLACED | tile index`, `frontier index + 1`, or `EMPTY`.
    cells: Vec<u32>,
    tiles: Vec<PlacedTile>,
    frontier: Vec<FrontierSquare>,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        let radius = 12;
        Board {
            radius,
            cells: vec![EMPTY; Self::area(radius)],
            tiles: Vec::with_capacity(96),
            frontier: Vec::with_capacity(64),
        }
    }

    fn area(radius: i32) -> usize {
        let w = (2 * radius + 1) as usize;
        w * w
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let r = self.radius;
        if p.x.abs() > r || p.y.abs() > r {
            return None;
        }
        let w = 2 * r + 1;
        Some(((p.y + r) * w + (p.x + r)) as usize)
    }

    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    pub fn frontier(&self) -> &[FrontierSquare] {
        &self.frontier
    }

    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        let c = self.cells[self.index(p)?];
        (c & PLACED != 0).then(|| &self.tiles[(c & !PLACED) as usize])
    }

    pub fn tile_index_at(&self, p: Pos) -> Option<usize> {
        let c = self.cells[self.index(p)?];
        (c & PLACED != 0).then_some((c & !PLACED) as usize)
    }

    pub fn is_empty_at(&self, p: Pos) -> bool {
        self.tile_at(p).is_none()
    }

    /// The frontier entry for an empty square, if a placed tile touches it.
    pub fn frontier_at(&self, p: Pos) -> Option<&FrontierSquare> {
        let c = self.cells[self.index(p)?];
        (c != EMPTY && c & PLACED == 0).then(|| &self.frontier[c as usize - 1])
    }

    /// How many of the eight squares around `p` hold tiles.
    pub fn neighbours_around(&self, p: Pos) -> u32 {
        p.ring().filter(|q| self.tile_at(*q).is_some()).count() as u32
    }

    /// Puts a tile down. The caller has checked legality.
    pub fn place(&mut self, tile: PlacedTile) {
        self.ensure_room(tile.pos);
        let idx = self.index(tile.pos).expect("room was made");
        if self.cells[idx] != EMPTY {
            self.remove_frontier(self.cells[idx] as usize - 1);
        }
        self.cells[idx] = PLACED | self.tiles.len() as u32;
        self.tiles.push(tile);
        for side in Side::ALL {
            let q = tile.pos.step(side);
            if self.tile_at(q).is_none() {
                let edge = (tile.edges >> (2 * side.index())) & 3;
                self.demand(q, side.opposite(), edge);
            }
        }
    }

    fn demand(&mut self, q: Pos, side: Side, edge: u8) {
        self.ensure_room(q);
        let idx = self.index(q).expect("room was made");
        if self.cells[idx] == EMPTY {
            self.frontier.push(FrontierSquare {
                pos: q,
                required: 0,
                care: 0,
            });
            self.cells[idx] = self.frontier.len() as u32;
        }
        let f = &mut self.frontier[self.cells[idx] as usize - 1];
        let shift = 2 * side.index();
        f.required |= edge << shift;
        f.care |= 3 << shift;
    }

    fn remove_frontier(&mut self, i: usize) {
        self.frontier.swap_remove(i);
        if let Some(moved) = self.frontier.get(i) {
            let idx = self.index(moved.pos).expect("frontier squares are on the grid");
            self.cells[idx] = i as u32 + 1;
        }
    }

    fn ensure_room(&mut self, p: Pos) {
        if self.index(p).is_some() {
            return;
        }
        let mut radius = self.radius;
        while p.x.abs() > radius || p.y.abs() > radius {
            radius *= 2;
        }
        self.radius = radius;
        self.cells = vec![EMPTY; Self::area(radius)];
        for (i, t) in self.tiles.iter().enumerate() {
            let idx = self.index(t.pos).expect("grown grid holds every tile");
            self.cells[idx] = PLACED | i as u32;
        }
        for (i, f) in self.frontier.iter().enumerate() {
            let idx = self.index(f.pos).expect("grown grid holds the frontier");
            self.cells[idx] = i as u32 + 1;
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

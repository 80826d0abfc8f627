//! Board geometry: positions, sides, half-edges and rotation.
//!
//! Conventions, used everywhere in the crate: x grows east, y grows south, the start tile sits at
//! (0,0). Rotation counts clockwise quarter turns. Sides are numbered N=0, E=1, S=2, W=3, and the
//! eight half-edges clockwise from the north-west corner: N.w=0, N.e=1, E.n=2, E.s=3, S.e=4,
//! S.w=5, W.s=6, W.n=7.

use std::fmt;

/// A square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };
    /// No square lies further from the origin than this on either axis. Records are bounded
    /// far tighter (by their tile count); this keeps the engine's own arithmetic in range
    /// whatever a caller builds.
    pub const MAX_COORD: i32 = 1 << 20;

    /// Whether the square is on the playable board: within `MAX_COORD` on both axes.
    pub const fn in_bounds(self) -> bool {
        self.x.unsigned_abs() <= Self::MAX_COORD as u32 && self.y.unsigned_abs() <= Self::MAX_COORD as u32
    }

    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring square across `side`.
    pub const fn step(self, side: Side) -> Pos {
        // Wrapping: a square past `i32`'s end is never on the board, and must not panic.
        match side {
            Side::N => Pos::new(self.x, self.y.wrapping_sub(1)),
            Side::E => Pos::new(self.x.wrapping_add(1), self.y),
            Side::S => Pos::new(self.x, self.y.wrapping_add(1)),
            Side::W => Pos::new(self.x.wrapping_sub(1), self.y),
        }
    }

    /// The eight squares around this one (a cloister's surroundings).
    pub fn ring(self) -> impl Iterator<Item = Pos> {
        const D: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];
        D.into_iter()
            .map(move |(dx, dy)| Pos::new(self.x.wrapping_add(dx), self.y.wrapping_add(dy)))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// One side of a square tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    pub const fn from_index(i: u8) -> Side {
        match i & 3 {
            0 => Side::N,
            1 => Side::E,
            2 => Side::S,
            _ => Side::W,
        }
    }

    pub const fn index(self) -> u8 {
        self as u8
    }

    pub const fn opposite(self) -> Side {
        Side::from_index(self as u8 + 2)
    }

    pub const fn rotate(self, r: Rotation) -> Side {
        Side::from_index(self as u8 + r.0)
    }

    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::E => "E",
            Side::S => "S",
            Side::W => "W",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        Some(match s {
            "N" => Side::N,
            "E" => Side::E,
            "S" => Side::S,
            "W" => Side::W,
            _ => return None,
        })
    }

    /// The two half-edges of this side, in clockwise order.
    pub const fn halves(self) -> [HalfEdge; 2] {
        [HalfEdge(self as u8 * 2), HalfEdge(self as u8 * 2 + 1)]
    }

    pub const fn word(self) -> &'static str {
        match self {
            Side::N => "north",
            Side::E => "east",
            Side::S => "south",
            Side::W => "west",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Half of a side: the field slots. Index 0..8 clockwise from the north-west corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfEdge(u8);

impl HalfEdge {
    const NAMES: [&'static str; 8] = ["N.w", "N.e", "E.n", "E.s", "S.e", "S.w", "W.s", "W.n"];

    pub const fn from_index(i: u8) -> HalfEdge {
        HalfEdge(i & 7)
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn side(self) -> Side {
        Side::from_index(self.0 / 2)
    }

    pub const fn bit(self) -> u8 {
        1 << self.0
    }

    /// The half-edge it touches on the neighbouring tile: the same corner letter on the
    /// opposite side (N.w meets S.w, E.s meets W.s). In index terms that is `i ^ 5`.
    pub const fn facing(self) -> HalfEdge {
        HalfEdge(self.0 ^ 5)
    }

    pub const fn rotate(self, r: Rotation) -> HalfEdge {
        HalfEdge((self.0 + 2 * r.0) & 7)
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }

    pub fn parse(s: &str) -> Option<HalfEdge> {
        Self::NAMES.iter().position(|n| *n == s).map(|i| HalfEdge(i as u8))
    }

    pub fn all() -> impl Iterator<Item = HalfEdge> {
        (0..8).map(HalfEdge)
    }
}

impl fmt::Display for HalfEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Clockwise quarter turns, 0..=3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    pub const fn new(quarter_turns: u8) -> Rotation {
        Rotation(quarter_turns & 3)
    }

    /// Degrees clockwise, which must be a multiple of 90.
    pub fn from_degrees(deg: i64) -> Option<Rotation> {
        (deg % 90 == 0).then(|| Rotation((deg.rem_euclid(360) / 90) as u8))
    }

    pub const fn quarter_turns(self) -> u8 {
        self.0
    }

    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }

    pub const fn plus(self, other: Rotation) -> Rotation {
        Rotation((self.0 + other.0) & 3)
    }

    pub const fn minus(self, other: Rotation) -> Rotation {
        Rotation((self.0 + 4 - other.0) & 3)
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.degrees())
    }
}

/// Rotate a 4-bit side mask clockwise.
pub const fn rotate_sides(mask: u8, r: Rotation) -> u8 {
    let m = mask as u16 & 0xf;
    (((m << r.0) | (m >> (4 - r.0))) & 0xf) as u8
}

/// Rotate an 8-bit half-edge mask clockwise.
pub const fn rotate_halves(mask: u8, r: Rotation) -> u8 {
    mask.rotate_left(2 * r.0 as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_half_edges_keep_their_corner_letter() {
        let pairs = [("N.w", "S.w"), ("N.e", "S.e"), ("E.n", "W.n"), ("E.s", "W.s")];
        for (a, b) in pairs {
            let a = HalfEdge::parse(a).unwrap();
            let b = HalfEdge::parse(b).unwrap();
            assert_eq!(a.facing(), b);
            assert_eq!(b.facing(), a);
            assert_eq!(a.side().opposite(), b.side());
        }
    }

    #[test]
    fn a_quarter_turn_moves_north_to_east() {
        let r = Rotation::new(1);
        assert_eq!(Side::N.rotate(r), Side::E);
        assert_eq!(Side::W.rotate(r), Side::N);
        assert_eq!(HalfEdge::parse("N.w").unwrap().rotate(r).name(), "E.n");
        assert_eq!(HalfEdge::parse("W.n").unwrap().rotate(r).name(), "N.e");
        assert_eq!(rotate_sides(Side::W.bit(), r), Side::N.bit());
        assert_eq!(rotate_halves(HalfEdge::parse("W.n").unwrap().bit(), r), 0b10);
    }
}

//! A tile kind: four edges plus the segments drawn on it, with every rotation precomputed so
//! that placement checks and feature joins are table look-ups.

use super::geometry::{HalfEdge, Rotation, Side, rotate_halves, rotate_sides};
use std::fmt;

/// Segments on one tile are indexed by `u8`; fixed arrays keep the hot path allocation-free.
pub const MAX_SEGMENTS: usize = 12;
/// Marks "no segment here" in the side and half-edge look-up tables.
pub const NO_SEGMENT: u8 = u8::MAX;

/// What an edge shows. Two tiles may touch only where their facing edges are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    Field = 0,
    City = 1,
    Road = 2,
    River = 3,
}

impl Edge {
    pub fn word(self) -> &'static str {
        match self {
            Edge::Field => "field",
            Edge::City => "city",
            Edge::Road => "road",
            Edge::River => "river",
        }
    }

    pub(super) fn from_bits(b: u8) -> Edge {
        match b & 3 {
            0 => Edge::Field,
            1 => Edge::City,
            2 => Edge::Road,
            _ => Edge::River,
        }
    }
}

/// The kinds of feature a segment can belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    City,
    Road,
    Field,
    River,
    Cloister,
    Garden,
    /// New World: a town (its marks are flags).
    Town,
    /// New World: a trail (its marks are trading posts).
    Trail,
    /// New World: plains, on half-edges like a field (its marks are animals).
    Plains,
    /// New World: a farm in the middle of its tile, complete when surrounded.
    Farm,
    /// New World: a crossing, where trails end. Nobody stands on it and it never scores.
    Crossing,
}

impl FeatureKind {
    pub fn word(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Field => "field",
            FeatureKind::River => "river",
            FeatureKind::Cloister => "cloister",
            FeatureKind::Garden => "garden",
            FeatureKind::Town => "town",
            FeatureKind::Trail => "trail",
            FeatureKind::Plains => "plains",
            FeatureKind::Farm => "farm",
            FeatureKind::Crossing => "crossing",
        }
    }

    pub fn parse(s: &str) -> Option<FeatureKind> {
        Some(match s {
            "city" => FeatureKind::City,
            "road" => FeatureKind::Road,
            "field" => FeatureKind::Field,
            "river" => FeatureKind::River,
            "cloister" | "monastery" => FeatureKind::Cloister,
            "garden" => FeatureKind::Garden,
            "town" => FeatureKind::Town,
            "trail" => FeatureKind::Trail,
            "plains" => FeatureKind::Plains,
            "farm" => FeatureKind::Farm,
            "crossing" => FeatureKind::Crossing,
            _ => return None,
        })
    }

    /// Cities, roads, rivers, towns and trails occupy whole sides; fields and plains occupy
    /// half-edges; cloisters, gardens, farms and crossings sit in the middle of the tile.
    pub fn occupies_sides(self) -> bool {
        matches!(
            self,
            FeatureKind::City | FeatureKind::Road | FeatureKind::River | FeatureKind::Town | FeatureKind::Trail
        )
    }

    pub fn occupies_halves(self) -> bool {
        matches!(self, FeatureKind::Field | FeatureKind::Plains)
    }

    pub fn is_inner(self) -> bool {
        matches!(
            self,
            FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm | FeatureKind::Crossing
        )
    }

    /// The edge a segment of this kind shows. New World's towns and trails meet each other
    /// as cities and roads do; the two games never share a board.
    pub fn edge(self) -> Edge {
        match self {
            FeatureKind::City | FeatureKind::Town => Edge::City,
            FeatureKind::Road | FeatureKind::Trail => Edge::Road,
            FeatureKind::River => Edge::River,
            _ => Edge::Field,
        }
    }
}

impl fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// One segment in the tile's canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Side mask (bit per `Side`) for cities, roads and rivers.
    pub sides: u8,
    /// Half-edge mask for fields.
    pub halves: u8,
    /// How many of its feature kind's mark it carries (`FeatureRule::mark`): a city's
    /// shields, a town's flags, a trail's trading posts, the animals on plains.
    pub marks: u8,
    /// For a field: the city segments of this tile that it borders, as a mask of segment indices.
    pub cities: u16,
}

/// Where on a tile a segment is, in board orientation: the way records address meeples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    Side(Side),
    Half(HalfEdge),
    Center,
}

impl Location {
    pub fn parse(s: &str) -> Option<Location> {
        if s == "center" || s == "C" {
            return Some(Location::Center);
        }
        Side::parse(s)
            .map(Location::Side)
            .or_else(|| HalfEdge::parse(s).map(Location::Half))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Side(s) => write!(f, "{s}"),
            Location::Half(h) => write!(f, "{h}"),
            Location::Center => f.write_str("center"),
        }
    }
}

/// A tile kind in one rotation: everything placement and joining need.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// Two bits per side, `Edge` values, side N in the low bits.
    pub edges: u8,
    /// The city/road/river segment on each side.
    pub side_segment: [u8; 4],
    /// The field segment on each half-edge.
    pub half_segment: [u8; 8],
    pub sides: [u8; MAX_SEGMENTS],
    pub halves: [u8; MAX_SEGMENTS],
}

impl Oriented {
    pub fn edge(&self, side: Side) -> Edge {
        Edge::from_bits(self.edges >> (2 * side.index()))
    }
}

/// A tile kind: its name, its segments and its four orientations.
#[derive(Clone, Debug)]
pub struct TileKind {
    pub name: String,
    pub segments: Vec<Segment>,
    pub orientations: [Oriented; 4],
    /// `distinct[r]` is false when rotation `r` gives the same board as a smaller rotation.
    pub distinct: [bool; 4],
    /// The distinct rotations with their packed edges, for the placement loop.
    pub unique: Vec<(Rotation, u8)>,
}

/// Why a tile definition cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileDefError {
    #[error("tile {0}: more than {MAX_SEGMENTS} segments")]
    TooManySegments(String),
    #[error("tile {name}: the {side} side is claimed by two segments")]
    SideTwice { name: String, side: Side },
    #[error("tile {name}: half-edge {half} is claimed by two fields")]
    HalfTwice { name: String, half: HalfEdge },
    #[error("tile {name}: half-edge {half} is on a city or town side and cannot be a field or plains")]
    FieldOnCity { name: String, half: HalfEdge },
    #[error(
        "tile {name}: half-edge {half} belongs to no segment; every half-edge off a city or town side is part of a field or plains"
    )]
    HalfUnclaimed { name: String, half: HalfEdge },
    #[error("tile {name}: segment {field} borders segment {city}, which is not a city on this tile")]
    NotACity { name: String, field: usize, city: usize },
    #[error("tile {name}: segment `{part}`: {why}")]
    Segment {
        name: String,
        part: String,
        why: SegmentError,
    },
    #[error("tile name {0} is already defined")]
    NameTaken(String),
    #[error("tile {0}: a catalogue holds at most {max} kinds", max = u16::MAX)]
    CatalogueFull(String),
}

/// Why one segment of a tile spec (`city NE shield`) does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SegmentError {
    #[error("unknown feature `{0}`")]
    UnknownFeature(String),
    #[error("`{0}` is not a segment index")]
    NotAnIndex(String),
    #[error("segment index {0} is out of range")]
    IndexOutOfRange(u32),
    #[error("`{0}` is not a half-edge such as N.w")]
    NotAHalfEdge(String),
    #[error("`{0}` is not a set of sides such as NE")]
    NotSides(String),
    #[error("unexpected `{0}`")]
    Unexpected(String),
    #[error("names no side")]
    NoSide,
    #[error("names no half-edge")]
    NoHalfEdge,
}

impl TileKind {
    /// Builds a kind from canonical segments, checking that they describe a possible tile.
    pub fn new(name: &str, segments: Vec<Segment>) -> Result<TileKind, TileDefError> {
        if segments.len() > MAX_SEGMENTS {
            return Err(TileDefError::TooManySegments(name.to_string()));
        }
        Self::check(name, &segments)?;
        let orientations = Rotation::ALL.map(|r| orient(&segments, r));
        let signatures = Rotation::ALL.map(|r| signature(&segments, r));
        let distinct = [0, 1, 2, 3].map(|r| !signatures[..r].contains(&signatures[r]));
        let unique = Rotation::ALL
            .into_iter()
            .filter(|r| distinct[r.quarter_turns() as usize])
            .map(|r| (r, orientations[r.quarter_turns() as usize].edges))
            .collect();
        Ok(TileKind {
            name: name.to_string(),
            segments,
            orientations,
            distinct,
            unique,
        })
    }

    fn check(name: &str, segments: &[Segment]) -> Result<(), TileDefError> {
        let mut sides = 0u8;
        let mut halves = 0u8;
        let mut city_sides = 0u8;
        for s in segments {
            if let Some(side) = Side::ALL.into_iter().find(|side| s.sides & sides & side.bit() != 0) {
                return Err(TileDefError::SideTwice {
                    name: name.into(),
                    side,
                });
            }
            if let Some(half) = HalfEdge::all().find(|h| s.halves & halves & h.bit() != 0) {
                return Err(TileDefError::HalfTwice {
                    name: name.into(),
                    half,
                });
            }
            sides |= s.sides;
            halves |= s.halves;
            if s.kind.edge() == Edge::City {
                city_sides |= s.sides;
            }
        }
        if let Some(half) = HalfEdge::all().find(|h| halves & h.bit() != 0 && city_sides & h.side().bit() != 0) {
            return Err(TileDefError::FieldOnCity {
                name: name.into(),
                half,
            });
        }
        // The engine joins every half-edge to the one facing it, so a half-edge that names no
        // segment would leave a neighbour's field, and a meeple on it, joined to nothing.
        if let Some(half) = HalfEdge::all().find(|h| (halves | expand_sides(city_sides)) & h.bit() == 0) {
            return Err(TileDefError::HalfUnclaimed {
                name: name.into(),
                half,
            });
        }
        for (i, s) in segments.iter().enumerate() {
            let bad = (0..16)
                .find(|&c| s.cities & (1 << c) != 0 && segments.get(c).is_none_or(|t| t.kind != FeatureKind::City));
            if let Some(city) = bad {
                return Err(TileDefError::NotACity {
                    name: name.into(),
                    field: i,
                    city,
                });
            }
        }
        Ok(())
    }

    pub fn oriented(&self, r: Rotation) -> &Oriented {
        &self.orientations[r.quarter_turns() as usize]
    }

    pub fn has(&self, kind: FeatureKind) -> bool {
        self.segments.iter().any(|s| s.kind == kind)
    }

    /// The segment at a board-oriented location, for a tile placed with rotation `r`.
    pub fn segment_at(&self, r: Rotation, kind: FeatureKind, at: Option<Location>) -> Option<u8> {
        let o = self.oriented(r);
        let found = match at {
            Some(Location::Side(side)) if kind.occupies_sides() => o.side_segment[side.index() as usize],
            Some(Location::Half(h)) if kind.occupies_halves() => o.half_segment[h.index() as usize],
            Some(Location::Center) | None if kind.is_inner() => self
                .segments
                .iter()
                .position(|s| s.kind == kind)
                .map_or(NO_SEGMENT, |i| i as u8),
            _ => NO_SEGMENT,
        };
        (found != NO_SEGMENT && self.segments[found as usize].kind == kind).then_some(found)
    }

    /// A board-oriented location that names segment `seg` when placed with rotation `r`.
    pub fn location_of(&self, r: Rotation, seg: u8) -> Location {
        let o = self.oriented(r);
        let s = &self.segments[seg as usize];
        if s.kind.is_inner() {
            Location::Center
        } else if s.kind.occupies_halves() {
            Location::Half(HalfEdge::from_index(o.halves[seg as usize].trailing_zeros() as u8))
        } else {
            Location::Side(Side::from_index(o.sides[seg as usize].trailing_zeros() as u8))
        }
    }

    pub fn edges_text(&self) -> String {
        let o = self.oriented(Rotation::new(0));
        Side::ALL.map(|s| o.edge(s).word()).join(" ")
    }
}

/// The half-edges of a set of sides.
fn expand_sides(sides: u8) -> u8 {
    Side::ALL
        .into_iter()
        .filter(|s| sides & s.bit() != 0)
        .flat_map(Side::halves)
        .fold(0, |m, h| m | h.bit())
}

fn orient(segments: &[Segment], r: Rotation) -> Oriented {
    let mut o = Oriented {
        edges: 0,
        side_segment: [NO_SEGMENT; 4],
        half_segment: [NO_SEGMENT; 8],
        sides: [0; MAX_SEGMENTS],
        halves: [0; MAX_SEGMENTS],
    };
    for (i, s) in segments.iter().enumerate() {
        let sides = rotate_sides(s.sides, r);
        let halves = rotate_halves(s.halves, r);
        o.sides[i] = sides;
        o.halves[i] = halves;
        let edge = s.kind.edge();
        for side in Side::ALL {
            if sides & side.bit() != 0 {
                o.side_segment[side.index() as usize] = i as u8;
                o.edges |= (edge as u8) << (2 * side.index());
            }
        }
        for h in HalfEdge::all() {
            if halves & h.bit() != 0 {
                o.half_segment[h.index() as usize] = i as u8;
            }
        }
    }
    o
}

/// What the tile looks like on the board in rotation `r`, independent of segment order.
fn signature(segments: &[Segment], r: Rotation) -> Vec<(FeatureKind, u8, u8, u8, u8)> {
    let mut sig: Vec<_> = segments
        .iter()
        .map(|s| {
            let city_sides = segments
                .iter()
                .enumerate()
                .filter(|(c, _)| s.cities & (1 << c) != 0)
                .fold(0, |m, (_, c)| m | c.sides);
            (
                s.kind,
                rotate_sides(s.sides, r),
                rotate_halves(s.halves, r),
                s.marks,
                rotate_sides(city_sides, r),
            )
        })
        .collect();
    sig.sort_by_key(|&(k, a, b, c, d)| (k, a, b, c, d));
    sig
}

//! The River, as a part of the tile game ([`Part`]). The core (board, features, scoring) knows
//! nothing of it; `Game` asks it at fixed points of a turn:
//! - setup: its tiles join the pack, its spring is the start, a spring among the start tiles
//!   opens the river, and the base start tile goes back to the box;
//! - draw: River tiles come first, and the river's end (the lake) last of them;
//! - placement: a River tile goes only at the river's open end, without a forbidden bend;
//! - after placement: the open end moves on.
//!
//! It is in every game of the tile game: River tiles a record brings of its own follow the
//! same rules, with or without the expansion's.

use super::board::Board;
use super::error::IllegalMove;
use super::game::{Placement, SetupError, StartTile};
use super::geometry::{Pos, Rotation, Side};
use super::parts::{Opening, Part, Squares};
use super::rules::{RiverTurns, Rules};
use super::tile::{FeatureKind, TileKind};
use super::tileset::{self, Edition, TileCatalog, TileKindId, is_river_tile};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bend {
    Left,
    Right,
}

impl Bend {
    fn word(self) -> &'static str {
        match self {
            Bend::Left => "left",
            Bend::Right => "right",
        }
    }
}

/// A spring or a lake: a River tile whose river touches one side only.
pub fn is_river_end(kind: &TileKind) -> bool {
    kind.segments
        .iter()
        .any(|s| s.kind == FeatureKind::River && s.sides.count_ones() == 1)
}

/// The River part: the expansion's rules, its tiles still in the pack, and the river's course.
#[derive(Clone, Debug)]
pub struct River {
    /// Whether The River is played: its printed tiles are in the pack and its spring starts.
    expansion: bool,
    edition: Edition,
    turns: RiverTurns,
    /// Whether the base start tile stays in the pack (JCloisterZone) or goes back to the box.
    keeps_start_tile: bool,
    /// The empty square the river flows into, and the side of that square it enters by.
    end: Option<(Pos, Side)>,
    /// The last bend, however many straights ago.
    last_bend: Option<Bend>,
    /// The bend of the River tile placed just before, if it was a bend.
    previous_tile_bend: Option<Bend>,
    /// River tiles still in the pack.
    left: u32,
    /// Per tile kind: is it a River tile, and is it a river end (spring or lake)? Shared, as
    /// the catalog is, so that a copy of the game does not copy it.
    kinds: Arc<[(bool, bool)]>,
}

impl River {
    pub fn new(catalog: &TileCatalog, rules: &Rules) -> River {
        River {
            expansion: rules.river,
            edition: rules.edition,
            turns: rules.river_turns,
            keeps_start_tile: rules.river_keeps_start_tile,
            end: None,
            last_bend: None,
            previous_tile_bend: None,
            left: 0,
            kinds: catalog
                .ids()
                .map(|id| {
                    let k = catalog.get(id);
                    (is_river_tile(k), is_river_end(k))
                })
                .collect(),
        }
    }

    fn is_river(&self, tile: TileKindId) -> bool {
        self.kinds[tile.0 as usize].0
    }

    /// River tiles still to draw.
    pub fn left(&self) -> u32 {
        self.left
    }

    /// The square where the next River tile must go, if anywhere.
    pub fn end(&self) -> Option<Pos> {
        self.end.map(|(p, _)| p)
    }
}

fn river_sides(kind: &TileKind, p: Placement) -> u8 {
    let o = kind.oriented(p.rotation);
    kind.segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == FeatureKind::River)
        .fold(0, |m, (i, _)| m | o.sides[i])
}

impl River {
    /// The bend a River tile would make, or `None` for a straight or the lake.
    fn bend(&self, kind: &TileKind, p: Placement) -> Result<(Option<Side>, Option<Bend>), IllegalMove> {
        let Some((end, entry)) = self.end else {
            return Err(IllegalMove::RiverNotContinued { end: p.pos });
        };
        let sides = river_sides(kind, p);
        if p.pos != end || sides & entry.bit() == 0 {
            return Err(IllegalMove::RiverNotContinued { end });
        }
        let rest = sides & !entry.bit();
        if rest == 0 {
            return Ok((None, None));
        }
        let exit = Side::from_index(rest.trailing_zeros() as u8);
        let flowing = entry.opposite();
        let bend = if exit == flowing {
            None
        } else if exit == Side::from_index(flowing.index() + 1) {
            Some(Bend::Right)
        } else {
            Some(Bend::Left)
        };
        Ok((Some(exit), bend))
    }

    /// Whether a River tile at `p` continues the river without a bend its rules forbid.
    fn continues(&self, kind: &TileKind, p: Placement, board: &Board) -> Result<(), IllegalMove> {
        let (exit, bend) = self.bend(kind, p)?;
        if self.turns == RiverTurns::RoomAhead
            && let Some(exit) = exit
        {
            let next = p.pos.step(exit);
            let after = next.step(exit);
            let left = Side::from_index(exit.index() + 3);
            let right = Side::from_index(exit.index() + 1);
            let reserved = [
                next.step(left),
                next.step(right),
                after,
                after.step(left),
                after.step(right),
            ];
            if let Some(&blocked) = reserved.iter().find(|q| board.tile_at(**q).is_some()) {
                return Err(IllegalMove::RiverNoRoom { blocked });
            }
        }
        let Some(b) = bend else { return Ok(()) };
        match self.turns {
            RiverTurns::NoSameWayTwice if self.last_bend == Some(b) => {
                Err(IllegalMove::RiverTurnsTwice { dir: b.word() })
            }
            RiverTurns::NoImmediateUTurn if self.previous_tile_bend == Some(b) => {
                Err(IllegalMove::RiverUTurn { dir: b.word() })
            }
            _ => Ok(()),
        }
    }
}

impl Part for River {
    /// With the expansion, its printed tiles join the pack and its spring is the start.
    fn setup(&self, catalog: &TileCatalog, opening: &mut Opening, _board: &mut Board) {
        if !self.expansion {
            return;
        }
        opening.counts.extend(tileset::river_counts(catalog, self.edition));
        if opening.has_no_start() {
            opening.start.push(StartTile {
                tile: catalog.by_name(tileset::SPRING).expect("the spring is built in"),
                placement: Placement {
                    pos: Pos::ORIGIN,
                    rotation: Rotation::new(0),
                },
            });
        }
    }

    fn added(&mut self, tile: TileKindId, n: u8) {
        if self.is_river(tile) {
            self.left += u32::from(n);
        }
    }

    /// A start tile with a spring opens the river.
    fn start_placed(&mut self, kind: &TileKind, p: Placement) {
        let sides = river_sides(kind, p);
        if sides.count_ones() == 1 {
            let side = Side::from_index(sides.trailing_zeros() as u8);
            self.end = Some((p.pos.step(side), side.opposite()));
        }
    }

    /// With the expansion, a spring must have opened the river while River tiles wait in the
    /// pack, and the rulebook returns the base start tile to the box, since the spring
    /// replaces it.
    fn finish_setup(&self, catalog: &TileCatalog) -> Result<Option<TileKindId>, SetupError> {
        if !self.expansion {
            return Ok(None);
        }
        if self.end.is_none() && self.left > 0 {
            return Err(SetupError::NoSpring);
        }
        Ok(catalog.by_name(tileset::START_TILE).filter(|_| !self.keeps_start_tile))
    }

    fn taken(&mut self, tile: TileKindId) {
        if self.is_river(tile) {
            self.left -= 1;
        }
    }

    #[inline]
    fn may_draw(&self, tile: TileKindId) -> bool {
        let (is_river, is_end) = self.kinds[tile.0 as usize];
        self.left == 0 || (is_river && (!is_end || self.left == 1))
    }

    fn check_draw(&self, tile: TileKindId, name: &str) -> Result<(), IllegalMove> {
        if self.may_draw(tile) {
            return Ok(());
        }
        if !self.is_river(tile) {
            return Err(IllegalMove::RiverFirst {
                tile: name.to_string(),
                left: self.left,
            });
        }
        Err(IllegalMove::RiverEndTooEarly {
            tile: name.to_string(),
            left: self.left - 1,
        })
    }

    /// A River tile goes only at the river's open end.
    #[inline]
    fn squares(&self, tile: TileKindId) -> Squares {
        match (self.is_river(tile), self.end()) {
            (false, _) => Squares::Frontier,
            (true, Some(end)) => Squares::Only(end),
            (true, None) => Squares::Nowhere,
        }
    }

    fn check_placement(
        &self,
        tile: TileKindId,
        kind: &TileKind,
        p: Placement,
        board: &Board,
    ) -> Result<(), IllegalMove> {
        if !self.is_river(tile) {
            return Ok(());
        }
        self.continues(kind, p, board)
    }

    /// The open end moves past a River tile that was just placed.
    fn placed(&mut self, kind: &TileKind, p: Placement) {
        if !kind.has(FeatureKind::River) {
            return;
        }
        let Ok((exit, bend)) = self.bend(kind, p) else {
            return;
        };
        self.end = exit.map(|side| (p.pos.step(side), side.opposite()));
        self.previous_tile_bend = bend;
        if bend.is_some() {
            self.last_bend = bend;
        }
    }
}

//! What happens in a turn, as data: the replay, the store and the pages read these.

use super::category::TileCategory;
use super::features::{Counts, Figure, Players};
use super::geometry::{Pos, Rotation};
use super::tile::{FeatureKind, Location};
use super::tileset::TileKindId;
use std::fmt;

/// When points were scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// During the game: a completed feature, or an abbot taken back.
    Play,
    /// Final scoring after the last tile.
    End,
}

/// Why a feature paid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Completed,
    /// Incomplete at the end of the game.
    Incomplete,
    /// The owner took the abbot back; it scores like an incomplete cloister.
    AbbotRecalled,
    /// Farmers supplying completed cities.
    Farm,
}

/// What a score counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Tiles of the feature (a cloister: the cloister and its neighbours).
    Tile,
    /// Segments of the feature (New World's incomplete towns and trails).
    Segment,
    /// Shields (coats of arms) in a city.
    Shield,
    /// Completed cities a farm supplies.
    City,
    /// New World: flags in a town.
    Flag,
    /// New World: trading posts on a trail.
    TradingPost,
    /// New World: animals on plains.
    Animal,
    /// New World: surveyors in the column of the scored settler, 4 points each.
    Surveyor,
}

impl Unit {
    /// The unit's name, singular and plural.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            Unit::Tile => ("tile", "tiles"),
            Unit::Shield => ("shield", "shields"),
            Unit::City => ("completed city", "completed cities"),
            Unit::Segment => ("segment", "segments"),
            Unit::Flag => ("flag", "flags"),
            Unit::TradingPost => ("trading post", "trading posts"),
            Unit::Animal => ("animal", "animals"),
            Unit::Surveyor => ("surveyor", "surveyors"),
        }
    }
}

/// One term of a score: `count` units at `rate` points each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub count: u32,
    pub unit: Unit,
    pub rate: u32,
}

impl Term {
    pub fn points(&self) -> u32 {
        self.count * self.rate
    }
}

/// The terms of one score, in order; at most [`Terms::CAPACITY`] (fixed, so scores stay `Copy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    len: u8,
    items: [Option<Term>; Terms::CAPACITY],
}

impl Terms {
    /// Tiles or segments, marks, and New World's surveyor bonus.
    pub const CAPACITY: usize = 3;

    pub fn push(&mut self, t: Term) {
        self.items[self.len as usize] = Some(t);
        self.len += 1;
    }

    pub fn iter(&self) -> impl Iterator<Item = &Term> {
        self.items.iter().flatten()
    }

    /// How many units of a kind the score counts (0 when it counts none).
    pub fn count(&self, unit: Unit) -> u32 {
        self.iter().filter(|t| t.unit == unit).map(|t| t.count).sum()
    }

    pub fn points(&self) -> u32 {
        self.iter().map(Term::points).sum()
    }
}

/// Notes on how a score was reached, beyond its terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Note {
    /// A completed two-tile city scored at the reduced rate (classic 2000, course).
    TwoTileCity,
}

/// One feature paying points, with the terms that explain them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub feature: FeatureKind,
    pub reason: Reason,
    pub phase: Phase,
    /// Every player who scores; more than one means a tie, and each scores in full.
    pub players: Players,
    /// The sum of the terms.
    pub points: u32,
    /// Meeples each player had in the feature (fields: in the fields that counted).
    pub meeples: Counts,
    pub terms: Terms,
    pub note: Option<Note>,
    /// One place in the feature, for pointing at it.
    pub pos: Pos,
    pub location: Location,
}

impl Score {
    /// Its points by category of a breakdown (`Game::categories`): its feature's, with New
    /// World's surveyor bonus apart. (The river and crossings never score, so every score
    /// has a feature category.)
    pub fn by_category(&self) -> impl Iterator<Item = (TileCategory, u32)> {
        let bonus = self
            .terms
            .iter()
            .filter(|t| t.unit == Unit::Surveyor)
            .map(Term::points)
            .sum::<u32>();
        let feature = TileCategory::of(self.feature).map(|c| (c, self.points - bonus));
        feature
            .into_iter()
            .chain((bonus > 0).then_some((TileCategory::Surveyor, bonus)))
    }
}

/// Something that happened on a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    TilePlaced {
        player: u8,
        tile: TileKindId,
        pos: Pos,
        rotation: Rotation,
    },
    TileDiscarded {
        player: u8,
        tile: TileKindId,
    },
    MeepleDeployed {
        player: u8,
        figure: Figure,
        feature: FeatureKind,
        pos: Pos,
        location: Location,
    },
    Scored(Score),
    MeepleReturned {
        player: u8,
        figure: Figure,
        /// The kind of feature it stood on (what New World calls it: a robber on a trail).
        feature: FeatureKind,
        pos: Pos,
        location: Location,
        /// New World: it went home because it stood east of the surveyors, not because its
        /// feature scored.
        left_behind: bool,
    },
    /// New World: after a scored feature a surveyor moved one column west (`to` is
    /// `from - 1`). The settlers the surveyors leave behind follow as `MeepleReturned`
    /// events with `left_behind`.
    SurveyorMoved {
        from: i32,
        to: i32,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Completed => "completed",
            Reason::Incomplete => "incomplete",
            Reason::AbbotRecalled => "abbot recalled",
            Reason::Farm => "farm",
        })
    }
}

//! What happens in a turn, as data: the replay, the store and the pages read these.

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

/// One feature paying points, with the numbers that explain it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub feature: FeatureKind,
    pub reason: Reason,
    pub phase: Phase,
    /// Every player who scores; more than one means a tie, and each scores in full.
    pub players: Players,
    pub points: u32,
    /// Meeples each player had in the feature (fields: in the fields that counted).
    pub meeples: Counts,
    /// Distinct tiles in the feature (cloisters: the cloister and its neighbours).
    pub tiles: u32,
    pub shields: u32,
    /// Completed cities a farm supplies (1 per event under per-city farm scoring).
    pub cities: u32,
    /// Points per tile, shield or city that applied.
    pub per_tile: u32,
    pub per_shield: u32,
    pub per_city: u32,
    /// A completed two-tile city scored at the reduced rate.
    pub reduced_two_tile: bool,
    /// One place in the feature, for pointing at it.
    pub pos: Pos,
    pub location: Location,
}

impl Score {
    /// The arithmetic behind the points, e.g. "city of 4 tiles × 2 + 1 shield × 2".
    pub fn explanation(&self) -> String {
        let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        match (self.feature, self.reason) {
            (FeatureKind::Field, _) => {
                let cities = if self.cities == 1 {
                    "1 completed city".to_string()
                } else {
                    format!("{} completed cities", self.cities)
                };
                format!("farm supplying {cities} × {}", self.per_city)
            }
            (FeatureKind::Cloister | FeatureKind::Garden, _) => {
                format!(
                    "{} and its neighbours: {} × 1",
                    self.feature,
                    plural(self.tiles, "tile")
                )
            }
            (kind, _) => {
                let mut s = format!("{kind} of {} × {}", plural(self.tiles, "tile"), self.per_tile);
                if self.shields > 0 {
                    s += &format!(" + {} × {}", plural(self.shields, "shield"), self.per_shield);
                }
                if self.reduced_two_tile {
                    s += " (two-tile city)";
                }
                s
            }
        }
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
        pos: Pos,
        location: Location,
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

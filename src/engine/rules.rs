//! Rules are values: a preset per rulebook, and switches a record may override.

use super::events::Unit;
use super::features::MAX_PLAYERS;
use super::position::GameKind;
use super::tile::FeatureKind;
use super::tileset::Edition;
use std::fmt;
use std::ops::RangeInclusive;

/// What a completed city of exactly two tiles scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoTileCity {
    /// 2 per tile + 2 per shield, like any completed city (2nd edition: 4 points).
    Full,
    /// Like an incomplete city: 1 per tile + 1 per shield (classic 2000: "two points (not
    /// four)"; with a shield it scores 3, as JCloisterZone's tiny-city rule does).
    Reduced,
}

/// How farmers score at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FarmScoring {
    /// Each field on its own: its majority scores `points` per completed city it borders
    /// (2nd edition and the 2000 alternate rule: 3).
    PerField { points: u8 },
    /// Each completed city on its own: the majority of farmers over all fields bordering it
    /// scores `points` (classic 2000 original rule and the course: 4).
    PerCity { points: u8 },
}

/// Which river bends are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RiverTurns {
    /// 2nd edition: a bend may not turn the same way as the previous bend, straights between
    /// them notwithstanding ("cannot turn twice in the same direction").
    NoSameWayTwice,
    /// 1st-edition River: only an immediate U-turn (two adjacent bends turning the same way).
    NoImmediateUTurn,
    /// No restriction beyond continuing the river.
    Any,
    /// JCloisterZone's rule: no turn restriction, but the square past the open end must have
    /// empty squares on both sides, and the square after it and its two sides must be empty
    /// too, so the river can always go on.
    RoomAhead,
}

/// The rulebooks we support, each a named set of switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    SecondEdition,
    Classic2000,
    Classic2000Alternate,
    Course,
    /// New World: towns, trails, plains and farms from the record's own tiles, the east coast
    /// and the surveyors.
    NewWorld,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::SecondEdition,
        Preset::Classic2000,
        Preset::Classic2000Alternate,
        Preset::Course,
        Preset::NewWorld,
    ];

    /// Whether these are New World's rules (the coast, surveyors, no base tiles).
    pub fn is_new_world(self) -> bool {
        self == Preset::NewWorld
    }

    /// The game this rulebook is for.
    pub fn kind(self) -> GameKind {
        if self.is_new_world() {
            GameKind::NewWorld
        } else {
            GameKind::Carcassonne
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Preset::SecondEdition => "second-edition",
            Preset::Classic2000 => "classic-2000",
            Preset::Classic2000Alternate => "classic-2000-alternate",
            Preset::Course => "course",
            Preset::NewWorld => "new-world",
        }
    }

    pub fn parse(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == s)
    }

    /// How many players the rulebook is for, and its words where it says so. New World is "for
    /// 2-5 players" and the course rules "for two to five players"; the tile game's other
    /// presets take what JCloisterZone and Board Game Arena play, 1 to 6.
    pub fn players(self) -> (RangeInclusive<u8>, Option<&'static str>) {
        match self {
            Preset::NewWorld => (2..=5, Some("A clever tile-laying game for 2-5 players")),
            Preset::Course => (2..=5, Some("Carcassonne is a tile-laying game for two to five players")),
            Preset::SecondEdition | Preset::Classic2000 | Preset::Classic2000Alternate => (1..=MAX_PLAYERS as u8, None),
        }
    }

    pub fn rules(self) -> Rules {
        let classic = Rules {
            preset: self,
            edition: Edition::First,
            two_tile_city: TwoTileCity::Reduced,
            farm_scoring: FarmScoring::PerCity { points: 4 },
            farmers: true,
            river: false,
            river_turns: RiverTurns::NoImmediateUTurn,
            river_keeps_start_tile: false,
            abbot: false,
            followers: 7,
        };
        match self {
            Preset::SecondEdition => Rules {
                edition: Edition::Second,
                two_tile_city: TwoTileCity::Full,
                farm_scoring: FarmScoring::PerField { points: 3 },
                river_turns: RiverTurns::NoSameWayTwice,
                ..classic
            },
            Preset::Classic2000 | Preset::Course => classic,
            Preset::Classic2000Alternate => Rules {
                farm_scoring: FarmScoring::PerField { points: 3 },
                ..classic
            },
            // Five settlers in supply; the sixth is the score marker.
            Preset::NewWorld => Rules {
                farmers: false,
                followers: 5,
                ..classic
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every switch the engine reads. Start from `Preset::rules` and override.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub preset: Preset,
    /// Which printing of the tiles: the 2nd edition has gardens.
    pub edition: Edition,
    pub two_tile_city: TwoTileCity,
    pub farm_scoring: FarmScoring,
    /// Whether meeples may go on fields at all.
    pub farmers: bool,
    pub river: bool,
    pub river_turns: RiverTurns,
    /// With The River the rulebook returns the base start tile to the box; JCloisterZone
    /// keeps all four D tiles in the pack.
    pub river_keeps_start_tile: bool,
    pub abbot: bool,
    /// Followers per player (the abbot is extra).
    pub followers: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Preset::SecondEdition.rules()
    }
}

/// When a feature is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// When none of its edges is left open: roads and cities.
    ClosedEdges,
    /// When the eight squares around its tile all hold tiles: cloisters and gardens.
    Surrounded,
    /// Never during play: fields (their farmers score at the end) and the river.
    Never,
}

/// Points per tile, per segment and per mark of a feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    pub per_tile: u32,
    /// New World's incomplete towns and trails count segments, not tiles: a tile with two
    /// segments of one town counts twice.
    pub per_segment: u32,
    pub per_mark: u32,
}

impl Rates {
    const fn new(per_tile: u32, per_segment: u32, per_mark: u32) -> Rates {
        Rates {
            per_tile,
            per_segment,
            per_mark,
        }
    }
}

/// How one kind of feature completes and scores under a set of rules. The tile engine reads
/// these instead of telling roads from cities; New World's towns, trails, farms and plains
/// become more rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureRule {
    pub completes: Completion,
    /// What its segments' marks are (a city's shields), counted in its score.
    pub mark: Option<Unit>,
    /// What it scores when completed during play.
    pub complete: Rates,
    /// A completed feature of exactly this many tiles scores these rates instead (the classic
    /// two-tile city), with a note saying so.
    pub small: Option<(u32, Rates)>,
    /// What it scores incomplete at the end, or when its abbot is taken back. `None`: it does
    /// not score as a feature (a field's farmers score through `FarmScoring`).
    pub incomplete: Option<Rates>,
    /// Whether its meeples go home when it scores during play.
    pub returns_meeples: bool,
}

/// How `kind` completes: the `completes` column of the feature table, on its own because
/// scoring asks it of every segment around every placed tile.
#[inline]
pub fn completion(kind: FeatureKind) -> Completion {
    match kind {
        FeatureKind::Road | FeatureKind::City | FeatureKind::Town | FeatureKind::Trail => Completion::ClosedEdges,
        FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm => Completion::Surrounded,
        FeatureKind::Field | FeatureKind::River | FeatureKind::Plains | FeatureKind::Crossing => Completion::Never,
    }
}

impl Rules {
    /// The row of the feature table for `kind`.
    pub fn feature(&self, kind: FeatureKind) -> FeatureRule {
        let one = Rates::new(1, 0, 1);
        let scoring = |complete| FeatureRule {
            completes: completion(kind),
            mark: None,
            complete,
            small: None,
            incomplete: Some(one),
            returns_meeples: true,
        };
        match kind {
            FeatureKind::Road => scoring(one),
            FeatureKind::City => FeatureRule {
                mark: Some(Unit::Shield),
                small: (self.two_tile_city == TwoTileCity::Reduced).then_some((2, one)),
                ..scoring(Rates::new(2, 0, 2))
            },
            // A farm scores like a cloister: 9 surrounded, and 1 plus its neighbours at the end.
            FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm => scoring(one),
            // "one point for each trail or town segment. Flags are worth 1 point each." The
            // main text is silent on trading posts of incomplete trails; the summary sheet
            // keeps them at 2.
            FeatureKind::Town => FeatureRule {
                mark: Some(Unit::Flag),
                incomplete: Some(Rates::new(0, 1, 1)),
                ..scoring(Rates::new(2, 0, 2))
            },
            FeatureKind::Trail => FeatureRule {
                mark: Some(Unit::TradingPost),
                incomplete: Some(Rates::new(0, 1, 2)),
                ..scoring(Rates::new(1, 0, 2))
            },
            // Trappers score their plains' animals at the end and never go home.
            FeatureKind::Plains => FeatureRule {
                mark: Some(Unit::Animal),
                incomplete: Some(Rates::new(0, 0, 1)),
                returns_meeples: false,
                ..scoring(Rates::default())
            },
            FeatureKind::Field | FeatureKind::River | FeatureKind::Crossing => FeatureRule {
                incomplete: None,
                ..scoring(Rates::default())
            },
        }
    }
}

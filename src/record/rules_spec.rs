//! Rules as a record states them: a preset name plus overrides of single switches.

use crate::engine::{Edition, FarmScoring, Preset, RiverTurns, Rules, TwoTileCity};
use serde::{Deserialize, Serialize};

/// Overrides of single switches; `None` keeps the preset's value. Each is typed, so an
/// unknown value is refused where the record is read, whatever its format.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<TileEdition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farmers: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbot: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_tile_city: Option<TwoTileCityRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farm_scoring: Option<FarmMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farm_points: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river_turns: Option<RiverTurnRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river_keeps_start_tile: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub followers: Option<Followers>,
}

/// A number in the rules out of its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesNumberError {
    #[error("the tile edition is 1 or 2, not {0}")]
    Edition(u8),
    #[error("followers must be 1 to 20, not {0}")]
    Followers(u8),
}

/// Tile edition: `1` (no gardens) or `2` (gardens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct TileEdition(pub Edition);

impl TryFrom<u8> for TileEdition {
    type Error = RulesNumberError;
    fn try_from(n: u8) -> Result<TileEdition, RulesNumberError> {
        match n {
            1 => Ok(TileEdition(Edition::First)),
            2 => Ok(TileEdition(Edition::Second)),
            _ => Err(RulesNumberError::Edition(n)),
        }
    }
}

impl From<TileEdition> for u8 {
    fn from(e: TileEdition) -> u8 {
        match e.0 {
            Edition::First => 1,
            Edition::Second => 2,
        }
    }
}

/// Followers per player: 1 to 20.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Followers(u8);

impl TryFrom<u8> for Followers {
    type Error = RulesNumberError;
    fn try_from(n: u8) -> Result<Followers, RulesNumberError> {
        if (1..=20).contains(&n) {
            Ok(Followers(n))
        } else {
            Err(RulesNumberError::Followers(n))
        }
    }
}

impl From<Followers> for u8 {
    fn from(f: Followers) -> u8 {
        f.0
    }
}

/// What a completed two-tile city scores, as records name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TwoTileCityRule {
    Full,
    Reduced,
}

impl From<TwoTileCityRule> for TwoTileCity {
    fn from(r: TwoTileCityRule) -> TwoTileCity {
        match r {
            TwoTileCityRule::Full => TwoTileCity::Full,
            TwoTileCityRule::Reduced => TwoTileCity::Reduced,
        }
    }
}

/// How farms score, as records name it; the points come from `farm_points` or the rulebook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FarmMethod {
    PerField,
    PerCity,
}

/// Which river bends are forbidden, as records name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RiverTurnRule {
    #[serde(rename = "no-same-way-twice")]
    NoSameWayTwice,
    #[serde(rename = "no-u-turn")]
    NoUTurn,
    #[serde(rename = "any")]
    Any,
    #[serde(rename = "room-ahead")]
    RoomAhead,
}

impl From<RiverTurnRule> for RiverTurns {
    fn from(r: RiverTurnRule) -> RiverTurns {
        match r {
            RiverTurnRule::NoSameWayTwice => RiverTurns::NoSameWayTwice,
            RiverTurnRule::NoUTurn => RiverTurns::NoImmediateUTurn,
            RiverTurnRule::Any => RiverTurns::Any,
            RiverTurnRule::RoomAhead => RiverTurns::RoomAhead,
        }
    }
}

/// A preset and overrides: what a record says about its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesSpec {
    pub preset: Preset,
    pub overrides: Overrides,
}

impl RulesSpec {
    pub fn new(preset: Preset) -> RulesSpec {
        RulesSpec {
            preset,
            overrides: Overrides::default(),
        }
    }

    /// The engine's rules: the preset with every override applied.
    pub fn resolve(&self) -> Rules {
        let mut r = self.preset.rules();
        let o = &self.overrides;
        r.edition = o.edition.map_or(r.edition, |e| e.0);
        r.farmers = o.farmers.unwrap_or(r.farmers);
        r.river = o.river.unwrap_or(r.river);
        r.abbot = o.abbot.unwrap_or(r.abbot);
        r.river_keeps_start_tile = o.river_keeps_start_tile.unwrap_or(r.river_keeps_start_tile);
        r.followers = o.followers.map_or(r.followers, u8::from);
        r.two_tile_city = o.two_tile_city.map_or(r.two_tile_city, TwoTileCity::from);
        r.river_turns = o.river_turns.map_or(r.river_turns, RiverTurns::from);
        let (method, points) = match r.farm_scoring {
            FarmScoring::PerField { points } => (FarmMethod::PerField, points),
            FarmScoring::PerCity { points } => (FarmMethod::PerCity, points),
        };
        let wanted = o.farm_scoring.unwrap_or(method);
        // A changed method brings its own rulebook value unless points are given too.
        let default = match wanted {
            _ if wanted == method => points,
            FarmMethod::PerField => 3,
            FarmMethod::PerCity => 4,
        };
        let points = o.farm_points.unwrap_or(default);
        r.farm_scoring = match wanted {
            FarmMethod::PerField => FarmScoring::PerField { points },
            FarmMethod::PerCity => FarmScoring::PerCity { points },
        };
        r
    }

    /// Whether the rulebook is played with these expansions: New World has neither The River
    /// nor The Abbot. Records and `generate` refuse what it refuses.
    pub fn check_expansions(&self) -> Result<(), &'static str> {
        let rules = self.resolve();
        if rules.preset.is_new_world() && (rules.river || rules.abbot) {
            return Err("New World is played without The River and The Abbot");
        }
        Ok(())
    }

    /// The same game under another rulebook: the preset's scoring and legality switches, but
    /// the record's components (tile edition, River, Abbot, farmers, supply) are kept, since the
    /// moves were made with them.
    pub fn with_preset(&self, preset: Preset) -> RulesSpec {
        let current = self.resolve();
        RulesSpec {
            preset,
            overrides: Overrides {
                edition: Some(TileEdition(current.edition)),
                farmers: Some(current.farmers),
                river: Some(current.river),
                abbot: Some(current.abbot),
                river_keeps_start_tile: Some(current.river_keeps_start_tile),
                followers: self.overrides.followers,
                ..Overrides::default()
            },
        }
    }
}

/// The rules in words, for people: the rulebook and the expansions, then any switch that
/// differs from the rulebook ("2nd edition rules with The River and The Abbot").
pub fn label(rules: &Rules) -> String {
    let book = match rules.preset {
        Preset::SecondEdition => "2nd edition rules",
        Preset::Classic2000 => "classic 2000 rules",
        Preset::Classic2000Alternate => "classic 2000 rules (alternate farm scoring)",
        Preset::Course => "CMSC 22001 course rules",
        Preset::NewWorld => "New World rules",
    };
    let expansions: Vec<&str> = [(rules.river, "The River"), (rules.abbot, "The Abbot")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    let mut out = book.to_string();
    if !expansions.is_empty() {
        out += &format!(" with {}", expansions.join(" and "));
    }
    let preset = rules.preset.rules();
    let mut notes = Vec::new();
    if rules.edition != preset.edition {
        notes.push(match rules.edition {
            Edition::First => "1st-edition tiles",
            Edition::Second => "2nd-edition tiles with gardens",
        });
    }
    if !rules.farmers && preset.farmers {
        notes.push("no farmers");
    }
    for note in notes {
        out += &format!(", {note}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_change_single_switches() {
        let spec = RulesSpec {
            preset: Preset::SecondEdition,
            overrides: Overrides {
                two_tile_city: Some(TwoTileCityRule::Reduced),
                farm_scoring: Some(FarmMethod::PerCity),
                farmers: Some(false),
                ..Overrides::default()
            },
        };
        let r = spec.resolve();
        assert_eq!(r.two_tile_city, TwoTileCity::Reduced);
        assert_eq!(r.farm_scoring, FarmScoring::PerCity { points: 4 });
        assert!(!r.farmers);
        assert_eq!(r.edition, Edition::Second, "untouched switches keep the preset");
    }

    #[test]
    fn the_label_names_the_rulebook_and_the_expansions() {
        let mut spec = RulesSpec::new(Preset::SecondEdition);
        spec.overrides.river = Some(true);
        spec.overrides.abbot = Some(true);
        assert_eq!(label(&spec.resolve()), "2nd edition rules with The River and The Abbot");
        spec.overrides.edition = Some(TileEdition(Edition::First));
        spec.overrides.farmers = Some(false);
        spec.overrides.river = None;
        assert_eq!(
            label(&spec.resolve()),
            "2nd edition rules with The Abbot, 1st-edition tiles, no farmers"
        );
        assert_eq!(label(&Preset::Course.rules()), "CMSC 22001 course rules");
    }

    #[test]
    fn another_preset_keeps_the_games_components() {
        let spec = RulesSpec {
            preset: Preset::SecondEdition,
            overrides: Overrides {
                river: Some(true),
                abbot: Some(true),
                ..Overrides::default()
            },
        };
        let classic = spec.with_preset(Preset::Classic2000).resolve();
        assert!(classic.river && classic.abbot);
        assert_eq!(classic.edition, Edition::Second);
        assert_eq!(classic.two_tile_city, TwoTileCity::Reduced);
        assert_eq!(classic.farm_scoring, FarmScoring::PerCity { points: 4 });
    }
}

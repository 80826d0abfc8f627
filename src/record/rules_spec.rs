//! Rules as a record states them: a preset name plus overrides of single switches.

use crate::engine::{Edition, FarmScoring, Preset, RiverTurns, Rules, TwoTileCity};
use serde::{Deserialize, Serialize};

/// Overrides of single switches; `None` keeps the preset's value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    /// Tile edition: 1 (no gardens) or 2 (gardens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farmers: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbot: Option<bool>,
    /// `full` or `reduced`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_tile_city: Option<String>,
    /// `per-field` or `per-city`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farm_scoring: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub farm_points: Option<u8>,
    /// `no-same-way-twice`, `no-u-turn`, `any` or `room-ahead`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river_turns: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river_keeps_start_tile: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub followers: Option<u8>,
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

    /// Checks the override values; call once when a record is parsed.
    pub fn validate(&self) -> Result<(), String> {
        let o = &self.overrides;
        if let Some(e) = o.edition
            && !(1..=2).contains(&e)
        {
            return Err(format!("rules.edition is 1 or 2, not {e}"));
        }
        if let Some(f) = o.followers
            && !(1..=20).contains(&f)
        {
            return Err(format!("rules.followers must be 1 to 20, not {f}"));
        }
        parse_two_tile(o.two_tile_city.as_deref())?;
        parse_farm(o.farm_scoring.as_deref())?;
        parse_turns(o.river_turns.as_deref())?;
        Ok(())
    }

    /// The engine's rules: the preset with every override applied.
    pub fn resolve(&self) -> Rules {
        let mut r = self.preset.rules();
        let o = &self.overrides;
        if let Some(e) = o.edition {
            r.edition = if e == 1 { Edition::First } else { Edition::Second };
        }
        r.farmers = o.farmers.unwrap_or(r.farmers);
        r.river = o.river.unwrap_or(r.river);
        r.abbot = o.abbot.unwrap_or(r.abbot);
        r.river_keeps_start_tile = o.river_keeps_start_tile.unwrap_or(r.river_keeps_start_tile);
        r.followers = o.followers.unwrap_or(r.followers);
        if let Ok(Some(t)) = parse_two_tile(o.two_tile_city.as_deref()) {
            r.two_tile_city = t;
        }
        let (per_field, points) = match r.farm_scoring {
            FarmScoring::PerField { points } => (true, points),
            FarmScoring::PerCity { points } => (false, points),
        };
        let wanted = parse_farm(o.farm_scoring.as_deref())
            .ok()
            .flatten()
            .unwrap_or(per_field);
        // A changed method brings its own rulebook value unless points are given too.
        let default = if wanted == per_field {
            points
        } else if wanted {
            3
        } else {
            4
        };
        let points = o.farm_points.unwrap_or(default);
        r.farm_scoring = if wanted {
            FarmScoring::PerField { points }
        } else {
            FarmScoring::PerCity { points }
        };
        if let Ok(Some(t)) = parse_turns(o.river_turns.as_deref()) {
            r.river_turns = t;
        }
        r
    }

    /// The same game under another rulebook: the preset's scoring and legality switches, but
    /// the record's components (tile edition, River, Abbot, farmers, supply) are kept, since the
    /// moves were made with them.
    pub fn with_preset(&self, preset: Preset) -> RulesSpec {
        let o = &self.overrides;
        let current = self.resolve();
        RulesSpec {
            preset,
            overrides: Overrides {
                edition: Some(if current.edition == Edition::First { 1 } else { 2 }),
                farmers: Some(current.farmers),
                river: Some(current.river),
                abbot: Some(current.abbot),
                river_keeps_start_tile: Some(current.river_keeps_start_tile),
                followers: o.followers,
                ..Overrides::default()
            },
        }
    }
}

fn parse_two_tile(s: Option<&str>) -> Result<Option<TwoTileCity>, String> {
    Ok(match s {
        None => None,
        Some("full") => Some(TwoTileCity::Full),
        Some("reduced") => Some(TwoTileCity::Reduced),
        Some(o) => {
            return Err(format!("rules.two_tile_city is \"full\" or \"reduced\", not {o:?}"));
        }
    })
}

/// `Some(true)` for per-field scoring, `Some(false)` for per-city.
fn parse_farm(s: Option<&str>) -> Result<Option<bool>, String> {
    Ok(match s {
        None => None,
        Some("per-field") => Some(true),
        Some("per-city") => Some(false),
        Some(o) => {
            return Err(format!(
                "rules.farm_scoring is \"per-field\" or \"per-city\", not {o:?}"
            ));
        }
    })
}

fn parse_turns(s: Option<&str>) -> Result<Option<RiverTurns>, String> {
    Ok(match s {
        None => None,
        Some("no-same-way-twice") => Some(RiverTurns::NoSameWayTwice),
        Some("no-u-turn") => Some(RiverTurns::NoImmediateUTurn),
        Some("any") => Some(RiverTurns::Any),
        Some("room-ahead") => Some(RiverTurns::RoomAhead),
        Some(o) => {
            return Err(format!(
                "rules.river_turns is \"no-same-way-twice\", \"no-u-turn\", \"any\" or \"room-ahead\", not {o:?}"
            ));
        }
    })
}

/// The rules in words, for people: the rulebook and the expansions, then any switch that
/// differs from the rulebook ("2nd edition rules with The River and The Abbot").
pub fn label(rules: &Rules) -> String {
    let book = match rules.preset {
        Preset::SecondEdition => "2nd edition rules",
        Preset::Classic2000 => "classic 2000 rules",
        Preset::Classic2000Alternate => "classic 2000 rules (alternate farm scoring)",
        Preset::Course => "CMSC 22001 course rules",
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
    if !rules.farmers {
        notes.push("no farmers");
    }
    for note in notes {
        out += &format!(", {note}");
    }
    out
}

pub fn two_tile_name(t: TwoTileCity) -> &'static str {
    match t {
        TwoTileCity::Full => "full",
        TwoTileCity::Reduced => "reduced",
    }
}

pub fn river_turns_name(t: RiverTurns) -> &'static str {
    match t {
        RiverTurns::NoSameWayTwice => "no-same-way-twice",
        RiverTurns::NoImmediateUTurn => "no-u-turn",
        RiverTurns::Any => "any",
        RiverTurns::RoomAhead => "room-ahead",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_change_single_switches() {
        let spec = RulesSpec {
            preset: Preset::SecondEdition,
            overrides: Overrides {
                two_tile_city: Some("reduced".into()),
                farm_scoring: Some("per-city".into()),
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
        spec.overrides.edition = Some(1);
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

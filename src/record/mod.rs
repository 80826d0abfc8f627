//! Game records: every outside format parses into one canonical [`GameRecord`], and exports
//! are written from it. A `GameRecord` that exists is well-formed (tiles resolved, locations
//! parsed); whether its moves are legal is the engine's business.

pub mod generate;
pub mod jcz;
pub mod native;
pub mod rules_spec;

use crate::engine::{FeatureKind, Figure, Location, Placement, Rules, StartTile, TileCatalog, TileKindId};
use std::sync::Arc;

pub use rules_spec::RulesSpec;

/// Largest record we read: far above any real game (a 72-turn `.jcz` is about 40 KB).
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    pub name: String,
}

/// A tile kind a record defines itself, in the segment spec language of `engine::tileset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomTile {
    pub name: String,
    pub count: u8,
    pub segments: String,
}

/// The meeple step as a record states it: which feature, addressed by a place on the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedAction {
    Pass,
    Deploy {
        feature: FeatureKind,
        at: Location,
        figure: Figure,
    },
    RecallAbbot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedMove {
    Place {
        /// The player the record names, checked against turn order when present.
        player: Option<u8>,
        tile: TileKindId,
        placement: Placement,
        action: RecordedAction,
    },
    /// A drawn tile with no legal placement, set aside; the same player draws again.
    Discard { player: Option<u8>, tile: TileKindId },
}

impl RecordedMove {
    pub fn tile(&self) -> TileKindId {
        match self {
            RecordedMove::Place { tile, .. } | RecordedMove::Discard { tile, .. } => *tile,
        }
    }
}

/// The canonical game record.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub players: Vec<PlayerInfo>,
    pub rules: RulesSpec,
    pub custom_tiles: Vec<CustomTile>,
    /// The built-in tiles plus `custom_tiles`.
    pub catalog: Arc<TileCatalog>,
    /// Empty means the rules' default start.
    pub start: Vec<StartTile>,
    pub moves: Vec<RecordedMove>,
    /// Whether final scoring runs after the last move. `None`: when the pack is empty.
    pub final_scoring: Option<bool>,
}

impl GameRecord {
    pub fn resolved_rules(&self) -> Rules {
        self.rules.resolve()
    }

    pub fn custom_pack(&self) -> Vec<(TileKindId, u8)> {
        self.custom_tiles
            .iter()
            .filter_map(|t| self.catalog.by_name(&t.name).map(|id| (id, t.count)))
            .collect()
    }
}

/// The formats we read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Native,
    Jcz,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Native => "carcassonne-replay JSON",
            Format::Jcz => "JCloisterZone .jcz",
        }
    }
}

/// Why bytes are not a game record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("the record is {size} bytes; the limit is {MAX_RECORD_BYTES} bytes")]
    TooLarge { size: usize },
    #[error("the record is empty")]
    Empty,
    #[error("the record is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the record is not UTF-8 text")]
    NotText,
    #[error(
        "unrecognised record: expected carcassonne-replay JSON (with \"format\": \"carcassonne-replay/1\") or a JCloisterZone .jcz save"
    )]
    Unrecognised,
    #[error("{format}: {message}")]
    Invalid { format: &'static str, message: String },
}

impl RecordError {
    pub fn invalid(format: Format, message: impl Into<String>) -> RecordError {
        RecordError::Invalid {
            format: format.name(),
            message: message.into(),
        }
    }
}

/// Detects the format from the content (never the file name) and parses it.
pub fn parse(bytes: &[u8]) -> Result<(GameRecord, Format), RecordError> {
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooLarge { size: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| RecordError::NotText)?;
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return Err(RecordError::Empty);
    }
    let value: serde_json::Value = serde_json::from_str(text)?;
    let format = detect(&value).ok_or(RecordError::Unrecognised)?;
    let record = match format {
        Format::Native => native::from_value(value)?,
        Format::Jcz => jcz::from_value(value)?,
    };
    Ok((record, format))
}

fn detect(v: &serde_json::Value) -> Option<Format> {
    let obj = v.as_object()?;
    if obj
        .get("format")
        .and_then(|f| f.as_str())
        .is_some_and(|f| f.starts_with("carcassonne-replay/"))
    {
        return Some(Format::Native);
    }
    if obj.contains_key("setup") && (obj.contains_key("replay") || obj.contains_key("appVersion")) {
        return Some(Format::Jcz);
    }
    None
}

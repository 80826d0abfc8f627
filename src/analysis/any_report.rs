//! A whole game's analysis, whichever game it is: what the analysis queue runs and hands on,
//! the store keeps as JSON, and player statistics read. The one place where the analysis of
//! a stored game tells the games apart.

use super::cards;
use super::report::StoredAnalysis;
use super::win_chance::TurnChance;
use super::{AnalysisError, AnalysisOptions, Progress};
use crate::engine::GameKind;
use crate::record::AnyRecord;
use crate::replay::cards::Refusal;
use serde::Serialize;

/// A finished whole-game analysis. Serialised, it is its game's own report, as stored before
/// this type existed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyReport {
    /// Carcassonne and New World.
    Tiles(StoredAnalysis),
    Cards(cards::Report),
}

/// Why a whole game was not analysed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnyAnalysisError {
    #[error(transparent)]
    Tiles(#[from] AnalysisError),
    #[error(transparent)]
    Cards(#[from] AnalysisError<Refusal>),
}

impl AnyReport {
    /// A stored analysis of a game of `kind`, read back.
    pub fn parse(kind: GameKind, json: &str) -> serde_json::Result<AnyReport> {
        Ok(match kind {
            GameKind::CardGame => AnyReport::Cards(serde_json::from_str(json)?),
            GameKind::Carcassonne | GameKind::NewWorld => AnyReport::Tiles(serde_json::from_str(json)?),
        })
    }

    /// The report as the store keeps it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("reports serialise")
    }

    /// The chances of the judged turns up to `upto` (every one with `None`).
    pub fn chances(&self, upto: Option<u32>) -> Vec<TurnChance> {
        match self {
            AnyReport::Tiles(report) => report.chances(upto),
            AnyReport::Cards(report) => report.chances(upto),
        }
    }

    /// A tile game's analysis.
    pub fn tiles(&self) -> Option<&StoredAnalysis> {
        match self {
            AnyReport::Tiles(stored) => Some(stored),
            AnyReport::Cards(_) => None,
        }
    }

    /// A Card Game's analysis.
    pub fn cards(&self) -> Option<&cards::Report> {
        match self {
            AnyReport::Cards(report) => Some(report),
            AnyReport::Tiles(_) => None,
        }
    }
}

/// Analyses every turn of `record` as `options` say, telling `progress` as it goes. The Card
/// Game takes the playouts asked of a tile game's alternatives as its samples per action, at
/// most its own default: an action is cheaper to weigh, and has far fewer alternatives than a
/// tile.
pub fn analyse_any(
    record: &AnyRecord,
    options: &AnalysisOptions,
    progress: Progress,
) -> Result<AnyReport, AnyAnalysisError> {
    Ok(match record {
        AnyRecord::Tiles(record, _) => {
            AnyReport::Tiles(StoredAnalysis::of(&super::analyse_game(record, options, progress)?))
        }
        AnyRecord::Cards(record) => {
            let samples = (options.playouts_per_alternative)
                .map_or(cards::DEFAULT_SAMPLES, |k| k.clamp(1, cards::DEFAULT_SAMPLES));
            AnyReport::Cards(cards::analyse_game(record, samples, progress)?)
        }
    })
}

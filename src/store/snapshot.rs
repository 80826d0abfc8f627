//! The JSON columns of a tile game's snapshot row, as types: what `ingest` writes, and what the
//! API reads back. (A Card Game row keeps `replay::cards`' move and events as they are.)

use crate::engine::TileCatalog;
use crate::replay::TurnSnapshot;
use crate::replay::json::{self, MeepleReturned, MeepleStep, Square, SurveyorMoved, TileDiscarded, TileMove};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A tile-game move as a snapshot stores it: `[tile, x, y, rotation, meeple step or null]`,
/// the order of the columns the store had before it held other games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove(pub String, pub i32, pub i32, pub u16, pub Option<MeepleStep>);

impl StoredMove {
    pub fn of(cat: &TileCatalog, t: &TurnSnapshot) -> StoredMove {
        let TileMove {
            tile,
            position: Square([x, y]),
            rotation,
            meeple,
        } = TileMove::of(cat, t);
        StoredMove(tile, x, y, rotation, meeple)
    }
}

impl From<StoredMove> for TileMove {
    fn from(StoredMove(tile, x, y, rotation, meeple): StoredMove) -> TileMove {
        TileMove {
            tile,
            position: Square([x, y]),
            rotation,
            meeple,
        }
    }
}

/// An event as a snapshot stores it: the placement and the deployment are the row's move, so
/// only the rest is kept.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StoredEvent {
    TileDiscarded(TileDiscarded),
    Scored(StoredScore),
    MeepleReturned(MeepleReturned),
    SurveyorMoved(SurveyorMoved),
}

impl StoredEvent {
    /// `None` for what the row's move says.
    pub fn of(e: json::Event) -> Option<StoredEvent> {
        Some(match e {
            json::Event::TilePlaced { .. } | json::Event::MeepleDeployed { .. } => return None,
            json::Event::TileDiscarded(d) => StoredEvent::TileDiscarded(d),
            json::Event::Scored(s) => StoredEvent::Scored(s.into()),
            json::Event::MeepleReturned(m) => StoredEvent::MeepleReturned(m),
            json::Event::SurveyorMoved(m) => StoredEvent::SurveyorMoved(m),
        })
    }
}

/// A score as a snapshot stores it: without what a replay gives back (the explanation and its
/// terms, and the phase, always `play` in a turn). Rows of earlier releases may hold the
/// members in another order.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StoredScore {
    pub feature: &'static str,
    pub reason: String,
    pub location: String,
    pub players: Vec<u8>,
    pub points: u32,
    pub meeples: Vec<u8>,
    pub tiles: u32,
    pub shields: u32,
    pub cities: u32,
    pub position: Square,
}

impl From<json::Score> for StoredScore {
    fn from(s: json::Score) -> StoredScore {
        StoredScore {
            feature: s.feature,
            reason: s.reason,
            location: s.location,
            players: s.players,
            points: s.points,
            meeples: s.meeples,
            tiles: s.tiles,
            shields: s.shields,
            cities: s.cities,
            position: s.position,
        }
    }
}

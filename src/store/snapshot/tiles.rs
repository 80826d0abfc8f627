//! A tile game's notation in a snapshot row (Carcassonne and New World): the move as
//! `[tile, x, y, rotation, meeple step]`, and the events besides it.

use super::{Notation, Snapshot};
use crate::engine::TileCatalog;
use crate::record::GameRecord;
use crate::replay::TurnSnapshot;
use crate::replay::json::{self, MeepleReturned, MeepleStep, Square, SurveyorMoved, TileDiscarded, TileMove};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

impl Notation for GameRecord {
    type Move = StoredMove;
    type Event = StoredEvent;

    fn scoring(e: &StoredEvent) -> Option<(&[u8], &str, u32)> {
        match e {
            StoredEvent::Scored(s) => Some((&s.players, &s.feature, s.points)),
            _ => None,
        }
    }

    fn tile(mv: &StoredMove) -> Option<&str> {
        Some(&mv.0)
    }
}

/// A replayed turn as the store keeps it, with the features each player held after it.
pub fn snapshot(cat: &TileCatalog, t: &TurnSnapshot, owned: &[[u16; 5]]) -> Snapshot<GameRecord> {
    let players = t.scores.len();
    Snapshot {
        turn: t.turn,
        player: t.player,
        mv: StoredMove::of(cat, t),
        events: (t.events.iter())
            .filter_map(|e| StoredEvent::of(json::Event::of(cat, e, players)))
            .collect(),
        scores: t.scores.clone(),
        supply: t.supply.iter().map(|&s| s.into()).collect(),
        ownership: owned.iter().map(|o| o.to_vec()).collect(),
    }
}

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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StoredEvent {
    TileDiscarded(TileDiscarded),
    Scored(StoredScore),
    MeepleReturned(StoredReturn),
    SurveyorMoved(SurveyorMoved),
}

impl StoredEvent {
    /// `None` for what the row's move says.
    pub fn of(e: json::Event) -> Option<StoredEvent> {
        Some(match e {
            json::Event::TilePlaced { .. } | json::Event::MeepleDeployed { .. } => return None,
            json::Event::TileDiscarded(d) => StoredEvent::TileDiscarded(d),
            json::Event::Scored(s) => StoredEvent::Scored(s.into()),
            json::Event::MeepleReturned(m) => StoredEvent::MeepleReturned(m.into()),
            json::Event::SurveyorMoved(m) => StoredEvent::SurveyorMoved(m),
        })
    }
}

/// A score as a snapshot stores it: without what a replay gives back (the explanation and its
/// terms, and the phase, always `play` in a turn). Rows of earlier releases may hold the
/// members in another order; they read in this one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StoredScore {
    pub feature: String,
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
            feature: s.feature.into(),
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

/// A meeple back in its player's supply, as a snapshot stores it. Rows written before the
/// store held New World lack the feature it stood on and whether it was left behind; they
/// read without them, and the API gives them as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StoredReturn {
    pub player: u8,
    pub figure: String,
    /// The kind of feature it stood on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    pub position: Square,
    pub location: String,
    /// New World: it went home because it stood east of the surveyors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_behind: Option<bool>,
}

impl From<MeepleReturned> for StoredReturn {
    fn from(m: MeepleReturned) -> StoredReturn {
        StoredReturn {
            player: m.player,
            figure: m.figure.into(),
            feature: Some(m.feature.into()),
            position: m.position,
            location: m.location,
            left_behind: Some(m.left_behind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row written before the store held New World: its score's members in another order,
    /// and a returned meeple without its feature or whether it was left behind. It reads, and
    /// is given back with what it holds and nothing made up.
    #[test]
    fn events_of_an_earlier_release_read_as_they_were_stored() {
        let stored = r#"[{"type":"scored","feature":"road","reason":"completed","position":[1,0],"players":[1],"points":3,"meeples":[0,1],"tiles":3,"shields":0,"cities":0,"location":"E"},{"type":"meeple_returned","player":1,"figure":"follower","position":[1,0],"location":"E"}]"#;
        let events: Vec<StoredEvent> = serde_json::from_str(stored).unwrap();
        let [StoredEvent::Scored(score), StoredEvent::MeepleReturned(returned)] = &events[..] else {
            panic!("a score and a return: {events:?}");
        };
        assert_eq!(
            (score.feature.as_str(), score.points, score.position),
            ("road", 3, Square([1, 0]))
        );
        assert_eq!((returned.feature.as_deref(), returned.left_behind), (None, None));
        let again = serde_json::to_value(&events).unwrap();
        let keys: Vec<&str> = again[1].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["type", "player", "figure", "position", "location"]);
        assert_eq!(serde_json::from_value::<Vec<StoredEvent>>(again).unwrap(), events);
    }
}

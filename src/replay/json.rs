//! The JSON form of a replay: the contract of `replay --json`, which other tools read.

use super::{Breakdown, Categories, Replay, TurnSnapshot, words};
use crate::engine::{Action, Category, Event, Phase, Pos, Score, TileCatalog, Unit};
use crate::record::GameRecord;
use serde_json::{Value, json};

fn pos(p: Pos) -> Value {
    json!([p.x, p.y])
}

fn phase(p: Phase) -> &'static str {
    match p {
        Phase::Play => "play",
        Phase::End => "end",
    }
}

fn unit(u: Unit) -> &'static str {
    match u {
        Unit::Tile => "tile",
        Unit::Shield => "shield",
        Unit::City => "city",
        Unit::Segment => "segment",
        Unit::Flag => "flag",
        Unit::TradingPost => "trading-post",
        Unit::Animal => "animal",
        Unit::Surveyor => "surveyor",
    }
}

/// `players` is the game's player count, which sizes the per-player arrays.
pub fn score(s: &Score, players: usize) -> Value {
    json!({
        "type": "scored",
        "feature": s.feature.word(),
        "reason": s.reason.to_string(),
        "phase": phase(s.phase),
        "players": s.players.iter().collect::<Vec<_>>(),
        "points": s.points,
        "meeples": &s.meeples[..players],
        "tiles": s.terms.count(Unit::Tile),
        "shields": s.terms.count(Unit::Shield),
        "cities": s.terms.count(Unit::City),
        "terms": s.terms.iter().map(|t| json!({"count": t.count, "unit": unit(t.unit), "rate": t.rate})).collect::<Vec<_>>(),
        "explanation": words::explanation(s),
        "position": pos(s.pos),
        "location": s.location.to_string(),
    })
}

pub fn event(cat: &TileCatalog, e: &Event, players: usize) -> Value {
    match e {
        Event::TilePlaced {
            player,
            tile,
            pos: p,
            rotation,
        } => {
            json!({"type": "tile_placed", "player": player, "tile": cat.name(*tile), "position": pos(*p), "rotation": rotation.degrees()})
        }
        Event::TileDiscarded { player, tile } => {
            json!({"type": "tile_discarded", "player": player, "tile": cat.name(*tile)})
        }
        Event::MeepleDeployed {
            player,
            figure,
            feature,
            pos: p,
            location,
        } => {
            json!({"type": "meeple_deployed", "player": player, "figure": figure.word(), "feature": feature.word(), "position": pos(*p), "location": location.to_string()})
        }
        Event::Scored(s) => score(s, players),
        Event::MeepleReturned {
            player,
            figure,
            feature,
            pos: p,
            location,
            left_behind,
        } => {
            json!({"type": "meeple_returned", "player": player, "figure": figure.word(), "feature": feature.word(), "position": pos(*p), "location": location.to_string(), "left_behind": left_behind})
        }
        Event::SurveyorMoved { from, to } => json!({"type": "surveyor_moved", "from": from, "to": to}),
    }
}

/// The meeple step of a turn: `null`, a deployment, or an abbot recall.
pub fn action(cat: &TileCatalog, t: &TurnSnapshot) -> Value {
    match t.mv.action {
        Action::Pass => Value::Null,
        Action::RecallAbbot => json!({"action": "recall_abbot"}),
        Action::Deploy { segment, figure } => {
            let kind = cat.get(t.mv.tile);
            json!({
                "action": "deploy",
                "figure": figure.word(),
                "feature": kind.segments[segment as usize].kind.word(),
                "location": kind.location_of(t.mv.placement.rotation, segment).to_string(),
            })
        }
    }
}

/// A tile-game move as a snapshot stores it: `[tile, x, y, rotation, meeple step or null]`,
/// the order of the columns the store had before it held other games.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct StoredMove(pub String, pub i32, pub i32, pub u16, pub Value);

impl StoredMove {
    pub fn of(cat: &TileCatalog, t: &TurnSnapshot) -> StoredMove {
        let p = t.mv.placement;
        StoredMove(
            cat.name(t.mv.tile).into(),
            p.pos.x,
            p.pos.y,
            p.rotation.degrees(),
            action(cat, t),
        )
    }

    /// The move's fields as `replay --json` names them in a turn.
    pub fn fields(self) -> [(&'static str, Value); 4] {
        let StoredMove(tile, x, y, rotation, meeple) = self;
        [
            ("tile", tile.into()),
            ("position", json!([x, y])),
            ("rotation", rotation.into()),
            ("meeple", meeple),
        ]
    }
}

/// A turn as JSON, in the one field order `replay --json` and the API use: the turn, who
/// moved, the move's fields, then `rest`.
pub fn turn_object<'k>(
    turn: u32,
    player: u8,
    mv: StoredMove,
    rest: impl IntoIterator<Item = (&'k str, Value)>,
) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("turn".into(), turn.into());
    out.insert("player".into(), player.into());
    let fields = mv.fields().into_iter().chain(rest);
    out.extend(fields.map(|(key, value)| (key.to_string(), value)));
    Value::Object(out)
}

pub fn turn(cat: &TileCatalog, t: &TurnSnapshot) -> Value {
    turn_object(
        t.turn,
        t.player,
        StoredMove::of(cat, t),
        [
            ("scores", json!(t.scores)),
            (
                "followers",
                json!(t.supply.iter().map(|s| s.followers).collect::<Vec<_>>()),
            ),
            (
                "events",
                json!(
                    t.events
                        .iter()
                        .map(|e| event(cat, e, t.scores.len()))
                        .collect::<Vec<_>>()
                ),
            ),
        ],
    )
}

fn categories<C: Category>(c: &Categories<C>) -> Value {
    let mut out: serde_json::Map<String, Value> = c.iter().map(|(c, p)| (c.word().to_string(), json!(p))).collect();
    out.insert("total".into(), json!(c.total()));
    Value::Object(out)
}

pub fn breakdown<C: Category>(b: &Breakdown<C>) -> Value {
    json!({"play": categories(&b.play), "end": categories(&b.end), "total": b.play.total() + b.end.total()})
}

/// The whole replay as one JSON document.
pub fn replay(record: &GameRecord, r: &Replay) -> Value {
    let cat = &record.catalog;
    json!({
        "players": record.players.iter().map(|p| json!({"name": p.name})).collect::<Vec<_>>(),
        "rules": r.rules().preset.name(),
        "turns": r.turns.iter().map(|t| turn(cat, t)).collect::<Vec<_>>(),
        "finished": r.finished,
        "final_events": r.final_events.iter().map(|e| event(cat, e, record.players.len())).collect::<Vec<_>>(),
        "final_scores": r.final_scores,
        "breakdown": r.breakdown.iter().map(breakdown).collect::<Vec<_>>(),
    })
}

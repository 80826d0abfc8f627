//! The JSON form of an analysis: the contract of `analyse --json`, which the pages and other
//! tools read. Numbers that are estimates are rounded to 3 decimals.

use super::{
    Alternative, FeatureEffect, GameAnalysis, HEURISTIC_FORMULA, PlayerSummary, Spot, TurnAnalysis, ValueBasis,
};
use crate::engine::Pos;
use crate::record::RecordedAction;
use serde_json::{Value, json};

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn pos(p: Pos) -> Value {
    json!([p.x, p.y])
}

fn basis(b: ValueBasis) -> &'static str {
    match b {
        ValueBasis::Playouts => "expected final margin over the playouts",
        ValueBasis::Heuristic => "heuristic",
    }
}

/// `{"type": "pass"}`, `{"type": "deploy", "feature", "location", "figure"}` or
/// `{"type": "recall_abbot"}`.
pub fn action(a: &RecordedAction) -> Value {
    match a {
        RecordedAction::Pass => json!({"type": "pass"}),
        RecordedAction::RecallAbbot => json!({"type": "recall_abbot"}),
        RecordedAction::Deploy { feature, at, figure } => json!({
            "type": "deploy",
            "feature": feature.word(),
            "location": at.to_string(),
            "figure": figure.word(),
        }),
    }
}

fn spot(s: &Spot) -> Value {
    json!({"position": pos(s.pos), "fits": s.fits})
}

fn feature(f: &FeatureEffect) -> Value {
    json!({
        "kind": f.kind.word(),
        "tiles": f.tiles,
        "shields": f.shields,
        "joined": f.joined,
        "closed": f.closed,
        "meeples": f.meeples,
        "owners": f.owners,
        "at_stake": f.at_stake,
        "completion": f.completion.map(round),
        "open_spots": f.open_spots.iter().map(|s| json!({"position": pos(s.pos), "fits": s.fits, "closes": s.closes})).collect::<Vec<_>>(),
    })
}

fn alternative(a: &Alternative) -> Value {
    let e = &a.evaluation;
    let h = &e.heuristic;
    json!({
        "position": pos(a.placement.pos),
        "rotation": a.placement.rotation.degrees(),
        "action": action(&a.meeple),
        "immediate": e.immediate,
        "if_ended_change": e.if_ended_change,
        "meeples_committed": e.meeples_committed,
        "features": e.features.iter().map(feature).collect::<Vec<_>>(),
        "heuristic": {
            "value": round(h.value()),
            "margin": round(h.margin),
            "outlook": round(h.outlook),
            "meeple_cost": round(h.meeple_cost),
        },
        "playouts": a.playouts.map(|p| json!({
            "count": p.count,
            "mean_margin": round(p.mean_margin),
            "std_error": round(p.std_error),
        })),
        "value": round(a.value),
        "rank": a.rank,
    })
}

pub fn turn(t: &TurnAnalysis) -> Value {
    json!({
        "turn": t.turn,
        "player": t.player,
        "tile": t.tile_name,
        "tiles_left": t.tiles_left,
        "placements_count": t.placements_count,
        "moves_count": t.moves_count,
        "value": basis(t.value_basis),
        "heuristic_formula": HEURISTIC_FORMULA,
        "scores_before": t.scores_before,
        "if_ended_before": t.if_ended_before,
        "played": t.played,
        "played_rank": t.played_rank(),
        "points_lost": t.points_lost().map(round),
        "alternatives": t.alternatives.iter().map(alternative).collect::<Vec<_>>(),
        "open_spots": t.spots.iter().map(spot).collect::<Vec<_>>(),
        "dead_spots": t.dead_spots().map(pos).collect::<Vec<_>>(),
    })
}

/// One turn of a whole-game analysis: the played move against the best.
fn turn_summary(t: &TurnAnalysis) -> Value {
    let brief = |a: Option<&Alternative>| {
        a.map(|a| {
            json!({
                "position": pos(a.placement.pos),
                "rotation": a.placement.rotation.degrees(),
                "action": action(&a.meeple),
                "value": round(a.value),
            })
        })
    };
    json!({
        "turn": t.turn,
        "player": t.player,
        "tile": t.tile_name,
        "placements_count": t.placements_count,
        "moves_count": t.moves_count,
        "played": t.played,
        "played_rank": t.played_rank(),
        "points_lost": t.points_lost().map(round),
        "played_move": brief(t.played_alternative()),
        "best_move": brief(t.best()),
    })
}

fn player(p: &PlayerSummary) -> Value {
    json!({
        "turns": p.turns,
        "best_moves": p.best_moves,
        "points_lost": round(p.points_lost),
        "average_points_lost": round(p.average_points_lost),
    })
}

pub fn game(g: &GameAnalysis) -> Value {
    json!({
        "value": basis(g.value_basis),
        "heuristic_formula": HEURISTIC_FORMULA,
        "turns": g.turns.iter().map(turn_summary).collect::<Vec<_>>(),
        "players": g.players.iter().map(player).collect::<Vec<_>>(),
    })
}

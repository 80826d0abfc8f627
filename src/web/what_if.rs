//! A turn's alternatives as the pages read them: the engine's listing, the stored whole-game
//! analysis when it is done, else the heuristic alone.
//!
//! Alternative `k` is the k-th legal move in the engine's listing order (placements, then
//! actions), so `/g/{id}/t/{n}/alt/{k}` names the same move whatever the ranking.

use crate::analysis::report::{AlternativeReport, TurnReport};
use crate::analysis::{self, AnalysisError, AnalysisOptions};
use crate::engine::{Game, Move, TileKindId};
use crate::record::recorded;
use crate::record::{GameRecord, RecordedMove, ReplayError, TileStep};
use crate::replay::{Replay, turn_instead};
use crate::store::{AnalysisStatus, GameId};
use crate::web::AppState;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use serde::de::DeserializeOwned;

/// Every legal move of turn `n` in listing order, as records state them.
pub fn listing(g: &Stored<GameRecord>, n: u32) -> Result<Vec<RecordedMove>, Problem> {
    let (before, played) = position_before(g, n)?;
    Ok(listed_moves(before, played.tile))
}

/// The position turn `n` was played from (kept as the game was loaded), and its move.
fn position_before(g: &Stored<GameRecord>, n: u32) -> Result<(&Game, &Move), Problem> {
    let turn = |n: u32| {
        Some((
            g.positions.before(n)?,
            &g.full.turns.get((n as usize).checked_sub(1)?)?.mv,
        ))
    };
    turn(n).ok_or_else(|| {
        let missing = AnalysisError::<ReplayError>::NoSuchTurn {
            turn: n,
            turns: g.record.turns(),
        };
        Problem::not_found(missing.to_string())
    })
}

fn listed_moves(before: &Game, tile: TileKindId) -> Vec<RecordedMove> {
    let (_, moves) = analysis::alternatives::enumerate(before, tile);
    moves.iter().map(|mv: &Move| recorded(before, mv)).collect()
}

/// Whether an alternative of the analysis is this listed move.
pub fn is_listed(a: &AlternativeReport, m: &RecordedMove) -> bool {
    match m {
        RecordedMove::Place { placement, action, .. } => {
            a.position == [placement.pos.x, placement.pos.y]
                && a.rotation == placement.rotation.degrees()
                && a.action.matches(action)
        }
        RecordedMove::Discard { .. } => false,
    }
}

/// The record with turn `n`'s move replaced by `mv`, cut after it.
pub fn with_alternative(record: &GameRecord, n: u32, mv: RecordedMove) -> GameRecord {
    let mut out = record.clone();
    let cut = record.placing(n).unwrap_or(record.moves.len());
    out.moves.truncate(cut);
    out.moves.push(mv);
    out.setup.final_scoring = Some(false);
    out
}

/// The game had turn `n` been the listed move `mv`, to that turn: what replaying the record
/// cut there with `mv` ([`with_alternative`]) gives, played from the kept position after turn
/// `n - 1` (nothing is replayed).
pub fn turned_instead(g: &Stored<GameRecord>, n: u32, mv: RecordedMove) -> Result<Replay, Problem> {
    let RecordedMove::Place {
        tile,
        placement,
        action,
        ..
    } = mv
    else {
        return Err(Problem::internal("a listed move places its tile"));
    };
    let step = TileStep {
        tile: Some(tile),
        placement,
        action,
    };
    let start = (n.checked_sub(1).and_then(|before| g.after(before)))
        .ok_or_else(|| Problem::not_found(format!("there is no turn {n}")))?;
    turn_instead(&g.record, start, n, &step).map_err(Problem::internal)
}

/// A game's analysis status, and the analysis when it is done: a `StoredAnalysis` for the
/// tile games, a `cards::Report` for the Card Game.
pub fn stored_analysis<T: DeserializeOwned>(
    state: &AppState,
    id: &GameId,
) -> Result<Option<(AnalysisStatus, Option<T>)>, Problem> {
    let Some((status, json)) = state.store.analysis(id)? else {
        return Ok(None);
    };
    let result = json
        .map(|j| serde_json::from_str::<T>(&j))
        .transpose()
        .map_err(Problem::internal)?;
    Ok(Some((status, result)))
}

/// Turn `n`'s analysis and the engine's listing of its moves.
pub struct TurnAlternatives {
    pub report: TurnReport,
    /// Whether the report comes from the finished whole-game analysis (else the heuristic).
    pub full: bool,
    pub listed: Vec<RecordedMove>,
}

/// Turn `n`'s alternatives from one walk of the record to it: the stored whole-game analysis's
/// turn when it is done, else the heuristic alone (fast), and the listing.
pub fn turn_alternatives(state: &AppState, g: &Stored<GameRecord>, n: u32) -> Result<TurnAlternatives, Problem> {
    let (before, played) = position_before(g, n)?;
    let listed = listed_moves(before, played.tile);
    let finished = state.finished_analysis(&g.row.id, g.row.kind)?;
    if let Some(report) = (finished.as_ref().and_then(|a| a.tiles())).and_then(|a| a.turn(n).cloned()) {
        return Ok(TurnAlternatives {
            report,
            full: true,
            listed,
        });
    }
    let quick = AnalysisOptions {
        playouts_per_alternative: Some(0),
        ..AnalysisOptions::default()
    };
    let t = analysis::analyse_position(before, played.tile, Some(played), n, &quick)
        .map_err(|e| Problem::not_found(e.to_string()))?;
    Ok(TurnAlternatives {
        report: t.report(),
        full: false,
        listed,
    })
}

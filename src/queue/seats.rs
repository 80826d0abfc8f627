//! What a finished analysis says of each seat (accuracy, inaccuracies, mistakes and blunders,
//! mistakes by kind of move, the seat's own puzzles), kept in the store's player rows so that
//! player pages read it by query: written when an analysis finishes, and in the background at
//! start for analyses finished before.

use crate::analysis::AnyReport;
use crate::analysis::puzzles;
use crate::analysis::report::{ActionReport, AlternativeReport, StoredAnalysis};
use crate::analysis::win_chance::{self, MoveClass};
use crate::engine::{FeatureKind, Figure, GameKind};
use crate::replay::words;
use crate::store::{GameId, GameRow, SeatAnalysis, SeatPuzzle, Store, StoreError};

/// The seats of a game as its analysis judged them.
pub fn of(row: &GameRow, report: &AnyReport) -> Vec<SeatAnalysis> {
    let chances = report.chances(None);
    let (kinds, puzzles): (Vec<String>, _) = match report {
        AnyReport::Cards(_) => (vec!["card play".to_string(); chances.len()], Vec::new()),
        AnyReport::Tiles(stored) => {
            let kinds = (chances.iter())
                .map(|c| {
                    let t = stored.turn(c.turn);
                    let played = t.and_then(|t| t.alternatives.get(t.played?));
                    played.map_or_else(|| "tile only".to_string(), |a| move_kind(row.kind, a))
                })
                .collect();
            (kinds, seat_puzzles(stored))
        }
    };
    let figures = win_chance::accuracies(&chances, row.players.len());
    let mut seats: Vec<SeatAnalysis> = (figures.into_iter().enumerate())
        .map(|(seat, a)| SeatAnalysis {
            seat: seat as u8,
            moves: a.moves,
            accuracy: a.accuracy,
            inaccuracies: a.inaccuracies,
            mistakes: a.mistakes,
            blunders: a.blunders,
            by_kind: Default::default(),
            puzzles: Vec::new(),
        })
        .collect();
    for (player, puzzle) in puzzles {
        if let Some(seat) = seats.get_mut(usize::from(player)) {
            seat.puzzles.push(puzzle);
        }
    }
    for (c, kind) in chances.iter().zip(kinds) {
        if let Some(seat) = seats.get_mut(usize::from(c.player))
            && c.chance.class >= MoveClass::Mistake
        {
            *seat.by_kind.entry(kind).or_default() += 1;
        }
    }
    seats
}

/// The analysis's puzzles, each with its mover and whether they played the best placement.
fn seat_puzzles(stored: &StoredAnalysis) -> Vec<(u8, SeatPuzzle)> {
    (stored.turns.iter())
        .filter_map(|t| {
            let p = puzzles::puzzle(t)?;
            let found = puzzles::found_in_play(t, &p)?;
            Some((
                p.player,
                SeatPuzzle {
                    turn: p.turn,
                    found,
                    lead: p.lead,
                },
            ))
        })
        .collect()
}

/// A tile move's kind: where its figure went (`meeple on a field` is a farm claim; New World
/// names its settler by the feature, `trapper in the plains`), else the feature it completed or
/// extended, else `tile only`.
fn move_kind(game: GameKind, a: &AlternativeReport) -> String {
    match &a.action {
        ActionReport::Deploy { feature, .. } if game == GameKind::NewWorld => match FeatureKind::parse(feature) {
            Some(kind) => format!("{} {}", words::figure_on(Figure::Follower, kind), words::place(kind)),
            None => format!("settler on the {feature}"),
        },
        ActionReport::Deploy { feature, figure, .. } => format!("{figure} on a {feature}"),
        ActionReport::RecallAbbot => "abbot recalled".to_string(),
        ActionReport::Pass => match a.features.iter().find(|f| f.closed) {
            Some(f) => format!("{} completed", f.kind),
            None => match a.features.iter().find(|f| !f.owners.is_empty()) {
                Some(f) => format!("{} extended", f.kind),
                None => "tile only".to_string(),
            },
        },
    }
}

/// Notes a finished analysis's seats; a failure is logged (the player pages then lack this
/// game's accuracy until the next start fills it).
pub fn note(store: &Store, id: &GameId, report: &AnyReport) {
    match store.game(id) {
        Ok(Some(row)) => write(store, &row, report),
        Ok(None) => tracing::warn!(game = %id, "no player analysis rows: the game is gone"),
        Err(e) => tracing::warn!(game = %id, "no player analysis rows: {e}"),
    }
}

fn write(store: &Store, row: &GameRow, report: &AnyReport) {
    if let Err(e) = store.write_seat_analyses(&row.id, &of(row, report)) {
        tracing::warn!(game = %row.id, "no player analysis rows: {e}");
    }
}

/// Gives analyses finished before the player rows their seats' rows, game by game, once: the
/// walk finds no game once every finished analysis has them, and goes on where a stopped start
/// left off. `filled_some` is told after each batch (the players' statistics kept are then stale).
/// How many games it filled.
pub fn fill(store: &Store, filled_some: &dyn Fn()) -> Result<u64, StoreError> {
    let (mut after, mut filled) = (0, 0);
    loop {
        let batch = store.analysed_without_seats(after, 200)?;
        let Some(&(last, _)) = batch.last() else {
            return Ok(filled);
        };
        for (_, id) in batch {
            if let Some((_, Some(json))) = store.analysis(&id)?
                && let Some(row) = store.game(&id)?
            {
                match AnyReport::parse(row.kind, &json) {
                    Ok(report) => write(store, &row, &report),
                    Err(e) => tracing::warn!(game = %id, "no player analysis rows: its analysis does not read: {e}"),
                }
                filled += 1;
            }
        }
        filled_some();
        after = last;
    }
}

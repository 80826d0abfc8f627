//! The engine on demand, for the explore board: the best moves of any position and the mover's
//! chance of winning, within a time budget.
//!
//! It runs the turn analysis (`analyse_position`, the Card Game's in `analysis::cards`) with
//! few samples a move, then twice as many while the budget allows the next round; each round
//! starts afresh and the last finished one is the answer. The heuristic alone answers first,
//! so a position too big for one sampled round still gets the heuristic's ranking, marked as
//! such. The answer says how many samples it rests on and each value's standard error.

use super::cards::{self as card_analysis, PLAYOUTS};
use super::win_chance::Scale;
use super::{AnalysisError, AnalysisOptions, Sampler, analyse_position};
use crate::engine::cards::{CardGame, CardMove};
use crate::engine::{Game, Move, TileKindId};
use std::time::{Duration, Instant};

/// How long the engine may think about one position, by default.
pub const ENGINE_BUDGET: Duration = Duration::from_millis(250);
/// Moves the engine names, best first.
pub const TOP: usize = 3;
/// Samples a move of the first sampled round; each further round doubles them.
const FIRST_SAMPLES: u32 = 4;
/// Samples a move at most: past this, more time changes little.
const MOST_SAMPLES: u32 = 256;
/// The seed of every round, so the same position and samples give the same answer.
const SEED: u64 = 0x0e8_1023;

/// A move the engine rates, and its value: the mover's expected final margin over the best
/// opponent, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated<M> {
    pub mv: M,
    pub value: f64,
    /// The value's standard error over its samples; `None` for the heuristic alone.
    pub std_error: Option<f64>,
}

/// What the engine says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Opinion<M> {
    /// The best moves, best first, at most [`TOP`].
    pub best: Vec<Rated<M>>,
    /// Legal moves weighed.
    pub moves: usize,
    /// Samples each move had; 0: the heuristic alone.
    pub samples: u32,
    /// The mover's chance of winning if they play the best move, with the range that two
    /// standard errors of its value give.
    pub win_chance: Option<WinChance>,
    /// How long the engine thought.
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinChance {
    pub chance: f64,
    pub low: f64,
    pub high: f64,
}

impl WinChance {
    fn of(scale: Scale, value: f64, std_error: f64, left: u32) -> WinChance {
        WinChance {
            chance: scale.chance(value, left),
            low: scale.chance(value - 2.0 * std_error, left),
            high: scale.chance(value + 2.0 * std_error, left),
        }
    }
}

/// Runs `round(samples)` for the heuristic (0), then [`FIRST_SAMPLES`] doubling, while the next
/// round (two and a half times the last one, as samples double) still fits the budget. A round
/// answers with the samples it used.
fn rounds<M>(budget: Duration, mut round: impl FnMut(u32) -> Option<Opinion<M>>) -> Option<Opinion<M>> {
    let start = Instant::now();
    let mut answer: Option<Opinion<M>> = None;
    let mut samples = 0;
    loop {
        let began = Instant::now();
        let Some(mut opinion) = round(samples) else { break };
        let took = began.elapsed();
        opinion.elapsed = start.elapsed();
        let used = opinion.samples;
        answer = Some(opinion);
        let next = if used == 0 { FIRST_SAMPLES } else { used * 2 };
        // The heuristic's time says little of a sampled round's: a sample plays several tiles.
        // Twice the samples take up to two and a half times as long (threads, caches), as
        // measured by `bench`'s 40 positions.
        let expected = if used == 0 {
            took * HEURISTIC_TO_FIRST
        } else {
            took * 5 / 2
        };
        if next > MOST_SAMPLES || start.elapsed() + expected > budget {
            break;
        }
        samples = next;
    }
    answer
}

/// How many times the heuristic's time the first sampled round takes, at most, as measured.
const HEURISTIC_TO_FIRST: u32 = 40;

/// The engine on drawing `tile` on `before` (nothing drawn yet), as turn `turn`.
pub fn tile_opinion(
    before: &Game,
    tile: TileKindId,
    turn: u32,
    budget: Duration,
) -> Result<Opinion<Move>, AnalysisError> {
    let mut error = None;
    let answer = rounds(budget, |samples| {
        let opts = AnalysisOptions {
            playouts_per_alternative: Some(samples),
            max_playouts_per_turn: 0,
            seed: SEED,
            sampler: Sampler::Horizon,
            ..AnalysisOptions::default()
        };
        let t = analyse_position(before, tile, None, turn, &opts)
            .map_err(|e| error = Some(e))
            .ok()?;
        let mut best: Vec<_> = t.alternatives.iter().collect();
        best.sort_by_key(|a| a.rank);
        let best: Vec<Rated<Move>> = (best.into_iter().take(TOP))
            .map(|a| Rated {
                mv: Move {
                    tile,
                    placement: a.placement,
                    action: a.action,
                },
                value: a.value,
                std_error: a.playouts.map(|p| p.std_error),
            })
            .collect();
        let scale = Scale::current(before.kind());
        Some(Opinion {
            win_chance: (best.first())
                .filter(|_| samples > 0)
                .map(|b| WinChance::of(scale, b.value, b.std_error.unwrap_or(0.0), t.facts.tiles_left)),
            best,
            moves: t.facts.moves_count,
            samples,
            elapsed: Duration::ZERO,
        })
    });
    match (answer, error) {
        (Some(a), _) => Ok(a),
        (None, Some(e)) => Err(e),
        (None, None) => unreachable!("the first round answers or fails"),
    }
}

/// The engine on the Card Game's move due in `game` (its round dealt), as turn `turn`. Its
/// samples read only what the mover sees. There is no heuristic round: the first samples are.
pub fn card_opinion(game: &CardGame, turn: u32, budget: Duration) -> Opinion<CardMove> {
    let answer = rounds(budget, |samples| {
        let samples = samples.max(FIRST_SAMPLES);
        let t = card_analysis::analyse_position(game, turn, None, (samples, PLAYOUTS), SEED);
        let best: Vec<Rated<CardMove>> = (t.alternatives.iter().take(TOP))
            .map(|a| Rated {
                mv: a.mv,
                value: a.value,
                std_error: Some(a.stderr),
            })
            .collect();
        Some(Opinion {
            win_chance: (best.first()).map(|b| {
                WinChance::of(
                    Scale::current(crate::engine::GameKind::CardGame),
                    b.value,
                    b.std_error.unwrap_or(0.0),
                    turns_left(game),
                )
            }),
            best,
            moves: t.alternatives.len(),
            samples,
            elapsed: Duration::ZERO,
        })
    });
    answer.expect("every round answers")
}

/// Actions still to come after the one due: every card in hand, every follower not placed, and
/// the rounds not dealt (the scale counts turns still to come, `win_chance`).
fn turns_left(game: &CardGame) -> u32 {
    let players = game.players().len() as u32;
    let this_round: u32 = (game.players().iter())
        .map(|p| p.hand.len() as u32 + u32::from(!p.follower_placed))
        .sum();
    let later = u32::from(game.rounds().saturating_sub(game.round() + 1)) * players * (u32::from(game.hand_size()) + 1);
    (this_round + later).saturating_sub(1)
}

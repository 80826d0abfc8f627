//! A tile game's turn analysed: every legal move of the drawn tile ([`Alternative`]), valued
//! and judged ([`TurnAnalysis`]), and a whole game's turns with each player's summary
//! ([`GameAnalysis`]).

use super::budget;
use super::completion::{Spot, position_spots};
use super::evaluate::{self, Baseline, Evaluation, Scratch};
use super::options::{AnalysisError, AnalysisOptions, Progress};
use super::positions::{position_before, walk};
use super::sampled::{Seeds, Tally};
use super::verdict::Recheck;
use super::{alternatives, weighing};
use crate::engine::{Action, Game, GameKind, Move, Placement, Pos, TileKindId};
use crate::record::recorded;
use crate::record::{GameRecord, RecordedAction, RecordedMove};
use std::ops::ControlFlow;

/// What `value` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueBasis {
    /// The mover's expected final score minus the best opponent's, over the playouts.
    Playouts,
    /// `HEURISTIC_FORMULA` (no playouts ran).
    Heuristic,
}

/// The playouts of one alternative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutSummary {
    pub count: u32,
    /// Mean final margin: the mover's score minus the best opponent's.
    pub mean_margin: f64,
    pub std_error: f64,
}

impl PlayoutSummary {
    pub(crate) fn of(t: &Tally) -> PlayoutSummary {
        PlayoutSummary {
            count: t.count,
            mean_margin: t.mean(),
            std_error: t.std_error(),
        }
    }
}

/// One legal move for the drawn tile and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub placement: Placement,
    pub action: Action,
    /// The meeple step as records address it (feature, location, figure).
    pub meeple: RecordedAction,
    pub evaluation: Evaluation,
    pub playouts: Option<PlayoutSummary>,
    /// What the ranking sorts by, in points (see `TurnAnalysis::value_basis`).
    pub value: f64,
    /// 1 is best; equal values share a rank, and so do the moves the fresh futures could not
    /// tell from the best (`verdict`).
    pub rank: u32,
    /// Whether `value` and `playouts` come from the fresh futures of the verdict, rather than
    /// from the playouts that ranked the moves.
    pub rechecked: bool,
}

/// Every alternative of one turn, best first, and the verdict on the move played, in any game:
/// `A` is the game's alternative, `F` what else the game says of the turn (the tile games'
/// [`TileTurn`]; nothing in the Card Game).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis<A = Alternative, F = TileTurn> {
    /// 1-based count of turns (the tile games: of placed tiles).
    pub turn: u32,
    pub player: u8,
    pub alternatives: Vec<A>,
    /// Index in `alternatives` of the move played, when the turn came from a record.
    pub played: Option<usize>,
    /// Index in `alternatives` of the move the analysis would play (`weighing::Judgement::chosen`):
    /// the first listed unless the move played, weighed again for its verdict, came out above
    /// it.
    pub chosen: usize,
    /// The played move against the best, weighed again on fresh futures (with playouts only).
    pub recheck: Option<Recheck>,
    pub facts: F,
}

/// What a tile-game turn's analysis says besides its alternatives.
#[derive(Clone, Debug, PartialEq)]
pub struct TileTurn {
    pub tile: TileKindId,
    pub tile_name: String,
    /// Tiles in the pack besides the drawn one.
    pub tiles_left: u32,
    /// Distinct placements of the drawn tile.
    pub placements_count: usize,
    /// Placements × meeple steps: the length of `alternatives`.
    pub moves_count: usize,
    pub value_basis: ValueBasis,
    pub scores_before: Vec<i32>,
    /// Every player's score if the game had ended before this turn.
    pub if_ended_before: Vec<i32>,
    /// The board after the move played: each empty square next to it and how many tiles left
    /// in the pack fit it (`fits == 0`: a dead spot).
    pub spots: Vec<Spot>,
}

impl<A, F> TurnAnalysis<A, F> {
    pub fn played_alternative(&self) -> Option<&A> {
        self.alternatives.get(self.played?)
    }

    pub fn best(&self) -> Option<&A> {
        self.alternatives.first()
    }
}

impl TurnAnalysis {
    pub fn played_rank(&self) -> Option<u32> {
        self.played_alternative().map(|a| a.rank)
    }

    /// What the move played lost against the best: rechecked on fresh futures when playouts
    /// ran (0 within the noise), else the heuristic's best value minus the played move's.
    pub fn points_lost(&self) -> Option<f64> {
        if let Some(r) = self.recheck {
            return Some(r.points_lost);
        }
        Some(self.best()?.value - self.played_alternative()?.value)
    }

    pub fn dead_spots(&self) -> impl Iterator<Item = Pos> + '_ {
        self.facts.spots.iter().filter(|s| s.fits == 0).map(|s| s.pos)
    }
}

/// One player's moves over a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// Turns analysed where the player's move was found among the alternatives.
    pub turns: u32,
    /// Turns where the move played ranked first.
    pub best_moves: u32,
    pub points_lost: f64,
    pub average_points_lost: f64,
}

/// Every turn of a game, and each player's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub kind: GameKind,
    pub value_basis: ValueBasis,
    /// Set when the game was too long for the playouts asked, and ran with fewer.
    pub shallower: Option<budget::Shallower>,
    pub turns: Vec<TurnAnalysis>,
    pub players: Vec<PlayerSummary>,
}

/// Analyses turn `turn` (1-based) of a record: every alternative for its drawn tile on the
/// position before it. Reads the record up to that turn only. Slow with playouts: about
/// `moves_count × playouts_per_alternative` playouts.
pub fn analyse_turn(record: &GameRecord, turn: u32, opts: &AnalysisOptions) -> Result<TurnAnalysis, AnalysisError> {
    let turns = record.turns();
    if turn == 0 || turn > turns {
        return Err(AnalysisError::NoSuchTurn { turn, turns });
    }
    let (before, played) = position_before(record, turn)?;
    analyse_position(&before, played.tile, Some(&played), turn, opts)
}

/// Analyses every turn of a record. `progress(done, total)` is called on this thread after each
/// turn. The slow call: a whole game at the default options takes tens of seconds.
pub fn analyse_game(
    record: &GameRecord,
    opts: &AnalysisOptions,
    progress: Progress,
) -> Result<GameAnalysis, AnalysisError> {
    let opts = &opts.for_game(record.setup.game);
    let plan = budget::plan(&budget::sizes(record)?, opts)?;
    let opts = &plan.options(opts);
    let total = record.turns();
    let mut turns = Vec::with_capacity(total as usize);
    if progress(0, total).is_break() {
        return Err(AnalysisError::Stopped(0));
    }
    walk(record, |before, played, n| {
        turns.push(analyse_position(before, played.tile, Some(played), n, opts)?);
        match progress(n, total) {
            ControlFlow::Continue(()) => Ok(true),
            ControlFlow::Break(()) => Err(AnalysisError::Stopped(n)),
        }
    })?;
    Ok(GameAnalysis {
        kind: record.setup.game,
        value_basis: value_basis(opts),
        shallower: plan.shallower(),
        players: summaries(
            record.players.len(),
            (turns.iter()).filter_map(|t| Some((t.player, t.played_rank()? == 1, t.points_lost()?))),
        ),
        turns,
    })
}

/// Analyses drawing `tile` on `before`, for any position (`turn` names it in the result and
/// seeds the playouts). `played` marks the move made, if any. A tile the rules do not let be
/// drawn now (`Game::check_draw`) is an error; one with no legal placement has no alternatives.
pub fn analyse_position(
    before: &Game,
    tile: TileKindId,
    played: Option<&Move>,
    turn: u32,
    opts: &AnalysisOptions,
) -> Result<TurnAnalysis, AnalysisError> {
    before.check_draw(tile).map_err(|e| AnalysisError::Illegal {
        turn,
        reason: e.to_string(),
    })?;
    let opts = &opts.for_game(before.kind());
    let (placements_count, moves) = alternatives::enumerate(before, tile);
    let mut scratch = Scratch::default();
    let base = Baseline::new(before, &mut scratch);
    let mut evaluations: Vec<Option<Evaluation>> = (moves.iter())
        .map(|mv| Some(evaluate::evaluate(before, &base, mv, &mut scratch)))
        .collect();
    let mut alternative_at = |i: usize, tally| {
        let evaluation = evaluations[i].take().expect("each alternative is listed once");
        alternative(before, &moves[i], evaluation, tally)
    };
    let played_index = played.and_then(|p| alternatives::find_played(before, &moves, p));
    let per_move = opts.playouts_for(moves.len());
    let (alts, played_new, chosen, recheck) = if per_move == 0 {
        let mut alts: Vec<Alternative> = (0..moves.len()).map(|i| alternative_at(i, None)).collect();
        let order = rank_by_heuristic(&mut alts);
        (alts, played_index.map(|i| order[i]), 0, None)
    } else {
        let how = weighing::Weighing {
            per_move,
            prune: opts.prune,
            playout: &opts.future(),
            seeds: Seeds::Mixed { seed: opts.seed, turn },
            threads: opts.threads,
        };
        let judged = weighing::weigh(before, &moves, played_index, &how);
        let alts = (judged.listed.iter())
            .map(|l| Alternative {
                rank: l.rank,
                rechecked: l.rechecked,
                ..alternative_at(l.index, Some(l.tally))
            })
            .collect();
        (alts, judged.played, judged.chosen, judged.recheck)
    };
    Ok(TurnAnalysis {
        turn,
        player: before.current_player(),
        played: played_new,
        chosen,
        recheck,
        alternatives: alts,
        facts: TileTurn {
            tile,
            tile_name: before.catalog().name(tile).to_string(),
            tiles_left: before.pack_left().saturating_sub(1),
            placements_count,
            moves_count: moves.len(),
            value_basis: value_basis(opts),
            scores_before: before.scores(),
            if_ended_before: base.if_ended().to_vec(),
            spots: played_index.map_or_else(Vec::new, |i| spots_after(before, &moves[i])),
        },
    })
}

fn value_basis(opts: &AnalysisOptions) -> ValueBasis {
    if opts.playouts_per_alternative != Some(0) {
        ValueBasis::Playouts
    } else {
        ValueBasis::Heuristic
    }
}

/// An alternative valued by its playouts' `tally` when they ran, else by its heuristic; its
/// rank is the caller's to set.
fn alternative(before: &Game, mv: &Move, evaluation: Evaluation, tally: Option<Tally>) -> Alternative {
    let playouts = tally.map(|t| PlayoutSummary::of(&t));
    let value = playouts.map_or(evaluation.heuristic.value(), |p| p.mean_margin);
    let meeple = match recorded(before, mv) {
        RecordedMove::Place { action, .. } => action,
        RecordedMove::Discard { .. } => RecordedAction::Pass,
    };
    Alternative {
        placement: mv.placement,
        action: mv.action,
        meeple,
        evaluation,
        playouts,
        value,
        rank: 0,
        rechecked: false,
    }
}

/// Sorts alternatives valued by their heuristic best first (ties keep the engine's listing
/// order) and sets ranks, equal values sharing one. Returns where each alternative went:
/// `order[old index] = new index`.
fn rank_by_heuristic(alts: &mut Vec<Alternative>) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..alts.len()).collect();
    idx.sort_by(|&a, &b| alts[b].value.total_cmp(&alts[a].value).then(a.cmp(&b)));
    let mut order = vec![0; alts.len()];
    for (new, &old) in idx.iter().enumerate() {
        order[old] = new;
    }
    let mut sorted: Vec<Alternative> = idx.iter().map(|&i| alts[i].clone()).collect();
    let mut previous: Option<(f64, u32)> = None;
    for (i, a) in sorted.iter_mut().enumerate() {
        a.rank = match previous {
            Some((value, rank)) if value == a.value => rank,
            _ => i as u32 + 1,
        };
        previous = Some((a.value, a.rank));
    }
    *alts = sorted;
    order
}

fn spots_after(before: &Game, mv: &Move) -> Vec<Spot> {
    let mut after = before.clone();
    after.play_listed(mv, &mut Vec::new());
    position_spots(&after)
}

/// Each of `players` players' summary of the turns judged: the player, whether the move they
/// played was the best (within the noise), and the points it lost.
pub(crate) fn summaries(players: usize, judged: impl IntoIterator<Item = (u8, bool, f64)>) -> Vec<PlayerSummary> {
    let mut out = vec![PlayerSummary::default(); players];
    for (player, best, lost) in judged {
        let Some(s) = out.get_mut(player as usize) else {
            continue;
        };
        s.turns += 1;
        s.best_moves += u32::from(best);
        s.points_lost += lost;
    }
    for s in &mut out {
        s.average_points_lost = s.points_lost / f64::from(s.turns.max(1));
    }
    out
}

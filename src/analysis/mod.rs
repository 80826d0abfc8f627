//! What-if analysis: every legal move of a turn, valued on sampled futures and judged, in every
//! game.
//!
//! **One path.** Every game's analysis is `weighing` over the game's `sampled::Sampled`:
//! the legal moves ranked on sampled futures, then the chosen move, its rivals and the move
//! played weighed again on fresh futures into a `verdict::Verdict`, whose values the list
//! shows; and the search (`weighing::search`, what bots play), the same ranking under a time
//! or sample budget. A game supplies only what one future of a move is worth to its mover: the
//! tile games (this module, `playout`) the pack shuffled and played out, the Card Game
//! ([`cards`]) the cards the mover cannot see dealt at random and played out greedy.
//!
//! Around it each game builds its own report. A tile turn, on the position before it:
//! 1. `alternatives` lists every legal move for the drawn tile (distinct placements × meeple
//!    steps), the same counts as the perft fixtures;
//! 2. `evaluate` plays each on a copy: points scored now, the change in every player's score
//!    if the game ended now, the features touched, the meeples committed, and a transparent
//!    heuristic ([`HEURISTIC_FORMULA`]) that uses `completion`'s chances for open features;
//! 3. `weighing::weigh` values and judges them by playouts; with none, they are ranked by
//!    the heuristic. The played move's rank and the points it lost against the best follow.
//!
//! A Card Game turn adds to each action what a follower secures and what it scores at once.
//!
//! Nothing reads the record beyond the analysed turn: the future comes from `Game::pack`.
//! Results are deterministic for a seed, whatever the number of threads.
//!
//! From a caller's side: [`analyse_turn`] reads the record up to that turn only;
//! [`analyse_game`] judges every turn, reporting progress as `(done, total)`;
//! [`analyse_position`] takes any position and drawn tile; [`position_spots`] and
//! [`dead_spots`] give a position's open squares and the fit counts the turn page shows. The
//! results are written, stored and read back as [`report`]'s types.

pub(crate) mod alternatives;
mod any_report;
pub(crate) mod arena;
pub(crate) mod board_features;
pub mod budget;
pub mod cards;
pub(crate) mod completion;
mod endgame;
mod evaluate;
mod halving;
mod on_demand;
pub(crate) mod playout;
pub mod puzzles;
pub mod report;
mod sampled;
pub(crate) mod search;
mod verdict;
mod weighing;
pub mod win_chance;

pub use crate::engine::bots::Policy;
pub use any_report::{AnyAnalysisError, AnyReport, analyse_any};
pub use board_features::{BoardFeature, Never, Outlook, board_features};
pub use completion::{Chances, OpenSpot, Spot, chance_any, dead_spots, draws_for, feature_outlook, position_spots};
pub use evaluate::{Evaluation, FeatureEffect, HEURISTIC_FORMULA, HeuristicParts, heuristic_formula};
pub use on_demand::{ENGINE_BUDGET, Opinion, Rated, WinChance, card_opinion, tile_opinion};

use crate::engine::{Action, Game, GameKind, Move, Placement, Pos, TileKindId};
use crate::record::recorded;
use crate::record::{GameRecord, Played, RecordedAction, RecordedMove, ReplayError, Walk};
use evaluate::{Baseline, Scratch};
use playout::{Future, Tally};
use sampled::Seeds;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The analysis's version, stored with what it made so that a page can say which made it and
/// offer to run the newer one. 2: the points lost are measured on fresh futures, apart from
/// the playouts that chose the best move, and the list shows those values (`verdict`). 3: in
/// the base game the playouts stop at the search's horizon, valued by the learned evaluation
/// ([`Sampler::Horizon`]). 4: so do New World's, by its own learned evaluation. 5: the Card
/// Game's samples stop at the end of the round, valued by its learned evaluation
/// ([`cards::CardFuture::Horizon`]). 6: no follower is offered on a feature the placed tile
/// joins to an occupied one through its other segments (earlier versions could list, and
/// recommend, such an illegal move). 7: with two tiles or fewer left after a move, its
/// samples play them exactly, every reply tried ([`endgame`]), not by the weighed bot.
pub const VERSION: u32 = 7;

/// Playouts to the end per alternative by default: under ±1 point of standard error on the
/// expected margin (less on the differences between alternatives, which share their draw
/// orders).
pub const DEFAULT_PLAYOUTS: u32 = 128;
/// Samples to the horizon per alternative by default. One costs what about two playouts to
/// the end do (weighed bots and the learned evaluation, against mostly random players), and a
/// whole 72-tile game then takes 2 to 6 s on two cores (`bench`: 2.1–2.9 s; a real game of
/// 71 moves, `analyse`: 4.8–5.6 s).
pub const DEFAULT_HORIZON_SAMPLES: u32 = 40;
/// Playouts per turn at most by default: a turn with more alternatives gives each fewer. This
/// bounds a whole game whatever its branching (with playouts to the end, 10 to 20 s for a
/// 72-tile game on the two-core build machine), against a budget of 60 s ([`budget`]).
pub const DEFAULT_MAX_PLAYOUTS_PER_TURN: u32 = 12_800;
/// Share of playouts played by the greedy policy by default; the rest are random.
pub const DEFAULT_GREEDY_SHARE: f64 = 0.25;

/// How much work the analysis does. The same options give the same results.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisOptions {
    /// Samples (playouts) per alternative; 0 ranks by the heuristic alone; `None`, the
    /// sampler's default ([`Sampler::default_samples`]).
    pub playouts_per_alternative: Option<u32>,
    /// Caps the playouts of a turn (alternatives × playouts each); 0: no cap. A capped turn
    /// still gives every alternative at least one playout.
    pub max_playouts_per_turn: u32,
    /// Share of playouts (0 to 1) where everyone plays the greedy policy; the rest play
    /// randomly. Greedy playouts are more realistic and about 20 times slower.
    pub greedy_share: f64,
    pub seed: u64,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
    /// Successive halving (`halving::Schedule::Rounds`); off, every alternative gets every
    /// playout, as the analysis did before (`match`'s `flat-uniform`).
    pub prune: bool,
    /// What one playout is: a few tiles to the search's horizon, or the game to its end.
    pub sampler: Sampler,
}

/// How one playout values a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sampler {
    /// The game played to its end (`playout::playout`) by random players, a share of them
    /// greedy (`AnalysisOptions::greedy_share`): the value is the final margin.
    ToTheEnd,
    /// The default: a few tiles per player played by the weighed bot, as the search's samples
    /// are (`search`); the value is the final margin the game's learned evaluation expects
    /// there. It judges better: on ten real base games between strong players its points lost
    /// a move are 0.40 of greedy bots', against 0.96 to the end (`bench judge`,
    /// `static/docs/analysis.md`), and it plays better at equal time, in both tile games
    /// (`match --a horizon --b flat`).
    #[default]
    Horizon,
}

impl Sampler {
    /// Samples per alternative by default.
    pub fn default_samples(self) -> u32 {
        match self {
            Sampler::Horizon => DEFAULT_HORIZON_SAMPLES,
            Sampler::ToTheEnd => DEFAULT_PLAYOUTS,
        }
    }
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            playouts_per_alternative: None,
            max_playouts_per_turn: DEFAULT_MAX_PLAYOUTS_PER_TURN,
            greedy_share: DEFAULT_GREEDY_SHARE,
            seed: 0,
            threads: 0,
            prune: true,
            sampler: Sampler::Horizon,
        }
    }
}

impl AnalysisOptions {
    /// Samples per alternative, before the per-turn cap.
    pub fn per_alternative(&self) -> u32 {
        (self.playouts_per_alternative).unwrap_or_else(|| self.sampler.default_samples())
    }

    /// Playouts for each of `alternatives`, after the per-turn cap.
    pub fn playouts_for(&self, alternatives: usize) -> u32 {
        let k = self.per_alternative();
        let cap = self.max_playouts_per_turn as usize;
        if k == 0 || cap == 0 || alternatives == 0 {
            return k;
        }
        k.min((cap / alternatives).max(1) as u32)
    }

    /// How each playout plays its future out.
    pub(crate) fn future(&self) -> Future {
        match self.sampler {
            Sampler::ToTheEnd => Future::ToTheEnd {
                greedy_share: match self.greedy_share.is_nan() {
                    true => 0.0,
                    false => self.greedy_share.clamp(0.0, 1.0),
                },
            },
            Sampler::Horizon => Future::Horizon(search::HorizonEval::default()),
        }
    }
}

/// Why a record cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("there is no turn {turn}: the record places {}", crate::replay::words::count(*.turns, "tile", "tiles"))]
    NoSuchTurn { turn: u32, turns: u32 },
    /// A move or draw the rules refuse (only for positions built by hand: a record's moves
    /// are checked by its replay first).
    #[error("turn {turn}: {reason}")]
    Illegal { turn: u32, reason: String },
    /// Over what one game's analysis may cost ([`budget`]), even at its fewest playouts.
    #[error(
        "the game is too long to analyse: even at {} playouts a turn, its {turns} turns and {moves} moves would play {} million tiles in playouts, each weighed by the places a drawn tile has on its board; a game's analysis plays at most {} million (a 72-tile game, about 15)",
        budget::MIN_PLAYOUTS_PER_TURN,
        tile_steps / 1_000_000,
        budget::GAME_TILE_STEPS / 1_000_000
    )]
    TooLong { turns: u32, moves: usize, tile_steps: u64 },
    /// Its progress said to stop ([`Progress`]) after this many turns.
    #[error("the analysis was stopped after turn {0}")]
    Stopped(u32),
}

/// Told `(turns done, turns)` after each turn of a whole game's analysis, on the thread that
/// runs it; `Break` stops the analysis there (a queue's worker told to stop, or its job taken
/// over).
pub type Progress<'a> = &'a dyn Fn(u32, u32) -> ControlFlow<()>;

/// A [`Progress`] that tells nobody and never stops.
pub fn quiet(_: u32, _: u32) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

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

/// Every alternative of one turn, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    /// 1-based count of placed tiles.
    pub turn: u32,
    pub player: u8,
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
    pub alternatives: Vec<Alternative>,
    /// Index in `alternatives` of the move played, when the turn came from a record.
    pub played: Option<usize>,
    /// Index in `alternatives` of the move the analysis would play (`weighing::Judgement::chosen`):
    /// the first listed unless the move played, weighed again for its verdict, came out above
    /// it.
    pub chosen: usize,
    /// The board after the move played: each empty square next to it and how many tiles left
    /// in the pack fit it (`fits == 0`: a dead spot).
    pub spots: Vec<Spot>,
    /// The played move against the best, weighed again on fresh futures (with playouts only).
    pub recheck: Option<Recheck>,
}

/// The move played against the best, both weighed again on the same fresh futures
/// (`verdict`): the values the list shows, so the loss is never more than the gap it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recheck {
    /// The chosen move's fresh mean less the played move's (the verdict's anchor: the chosen
    /// move, unless a rival beat it beyond the noise), and its standard error.
    pub difference: f64,
    pub std_error: f64,
    /// `difference` when it is beyond the noise (more than twice its standard error), else 0.
    pub points_lost: f64,
    /// Whether the fresh futures could not separate the top moves (`verdict::Verdict::too_close`).
    pub too_close: bool,
}

impl Recheck {
    /// The played move's standing in a verdict; `None` when it was not weighed again.
    pub(crate) fn of(verdict: &verdict::Verdict, played: usize) -> Option<Recheck> {
        let w = verdict.of(played)?;
        Some(Recheck {
            difference: w.behind,
            std_error: w.behind_std_error,
            points_lost: w.points_lost(),
            too_close: verdict.too_close(),
        })
    }
}

/// Keeps the fresh futures apart from the ones that chose the best move.
pub(crate) const RECHECK_SALT: u64 = 0x7265_6368_6563_6b21;

impl TurnAnalysis {
    pub fn played_alternative(&self) -> Option<&Alternative> {
        self.alternatives.get(self.played?)
    }

    pub fn played_rank(&self) -> Option<u32> {
        self.played_alternative().map(|a| a.rank)
    }

    pub fn best(&self) -> Option<&Alternative> {
        self.alternatives.first()
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
        self.spots.iter().filter(|s| s.fits == 0).map(|s| s.pos)
    }

    /// The contract of `analyse FILE --turn N --json`.
    pub fn report(&self) -> report::TurnReport {
        report::TurnReport::from(self)
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

impl GameAnalysis {
    /// The contract of `analyse FILE --json`: per turn the played move's rank and points
    /// lost, and per player the average (the alternatives are in each turn's own report).
    pub fn report(&self) -> report::GameReport {
        report::GameReport::from(self)
    }
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

/// The position before turn `turn` (1-based; discards before it applied) and the move played
/// then. Reads the record up to that turn only.
pub fn position_before(record: &GameRecord, turn: u32) -> Result<(Game, Move), AnalysisError> {
    let mut found = None;
    walk(record, |before, played, n| {
        if n == turn {
            found = Some((before.clone(), *played));
        }
        Ok(n < turn)
    })?;
    found.ok_or(AnalysisError::NoSuchTurn {
        turn,
        turns: record.turns(),
    })
}

/// Analyses every turn of a record. `progress(done, total)` is called on this thread after each
/// turn. The slow call: a whole game at the default options takes tens of seconds.
pub fn analyse_game(
    record: &GameRecord,
    opts: &AnalysisOptions,
    progress: Progress,
) -> Result<GameAnalysis, AnalysisError> {
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
        kind: record.game,
        value_basis: value_basis(opts),
        shallower: plan.shallower(),
        players: summaries(
            record.players.len(),
            (turns.iter()).filter_map(|t| Some((t.player, t.played_rank()? == 1, t.points_lost()?))),
        ),
        turns,
    })
}

/// Steps through the record, calling `visit` with the position before each placed tile
/// (discards before it applied), the move played and its turn, while `visit` says to go on.
fn walk(
    record: &GameRecord,
    mut visit: impl FnMut(&Game, &Move, u32) -> Result<bool, AnalysisError>,
) -> Result<(), AnalysisError> {
    let mut walk = Walk::new(record)?;
    while walk.peek().is_some() {
        // The move is played before it is analysed, so an illegal record is an error.
        let before = walk.game().clone();
        let step = walk.step().expect("a move is next")?;
        if let Played::Place(mv) = step.played
            && !visit(&before, &mv, step.turn)?
        {
            return Ok(());
        }
    }
    Ok(())
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
        tile,
        tile_name: before.catalog().name(tile).to_string(),
        tiles_left: before.pack_left().saturating_sub(1),
        placements_count,
        moves_count: moves.len(),
        value_basis: value_basis(opts),
        scores_before: before.scores(),
        if_ended_before: base.if_ended().to_vec(),
        played: played_new,
        chosen,
        spots: played_index.map_or_else(Vec::new, |i| spots_after(before, &moves[i])),
        recheck,
        alternatives: alts,
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

/// `job(i)` for every `i < n`, spread over `threads` threads; results in index order.
pub(crate) fn run_parallel<T: Send>(n: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 || n <= 1 {
        return (0..n).map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(n))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return done;
                        }
                        done.push((i, job(i)));
                    }
                })
            })
            .collect();
        for w in workers {
            let done = w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (i, r) in done {
                slots[i] = Some(r);
            }
        }
    });
    slots
        .into_iter()
        .map(|s| s.expect("the workers ran every index"))
        .collect()
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

//! What an analysis is asked and what stops it: its version, options and defaults, how a
//! playout values a move ([`Sampler`]), why a record cannot be analysed ([`AnalysisError`]),
//! and the progress a whole game's analysis tells ([`Progress`]).

use super::playout::Future;
use super::search;
use crate::engine::GameKind;
use crate::record::ReplayError;
use std::ops::ControlFlow;

/// The analysis's version, stored with what it made so that a page can say which made it and
/// offer to run the newer one. 2: the points lost are measured on fresh futures, apart from
/// the playouts that chose the best move, and the list shows those values (`verdict`). 3: in
/// the base game the playouts stop at the search's horizon, valued by the learned evaluation
/// ([`Sampler::Horizon`]). 4: so do New World's, by its own learned evaluation. 5: the Card
/// Game's samples stop at the end of the round, valued by its learned evaluation
/// (`cards::Future::Horizon`). 6: no follower is offered on a feature the placed tile
/// joins to an occupied one through its other segments (earlier versions could list, and
/// recommend, such an illegal move). 7: with two tiles or fewer left after a move, its
/// samples play them exactly, every reply tried (`endgame.rs`), not by the weighed bot. 8: the
/// base game's learned evaluation is fitted on the search's own values of positions
/// (`train --label search:400`, two rounds) rather than on games' final margins. 9: the list
/// is in the order of the values it shows, and a move the ranking valued above every fresh
/// value is weighed again too; "too close to call" only where the move played lost nothing;
/// the heuristic reads completion chances calibrated on played games (`completion_rates`). 10:
/// so does the base game's learned evaluation, refitted on them (`train --label search:400
/// --seed 5`); New World's completion chances are calibrated on its own games. 11: in the base
/// game's samples the other players reply with the greedy bot, the mover with the weighed one.
/// 12: the mover plays the greedy bot there too. 13: New World takes 60 samples an alternative
/// ([`DEFAULT_NEW_WORLD_HORIZON_SAMPLES`]). 14: the Card Game's samples play the round with
/// the patient bot, whose follower waits for a row worth 32, not 12. 15: New World's samples
/// are played by the thrifty bot, which counts a figure deployed 3 points against its move.
/// 16: the base game's samples are played by the field-shy bot, and its learned weights are
/// refitted on the values of version 15's search. 17: the base game's learned weights are
/// refitted twice more, each round on the values of the search with the round before's
/// weights (version 16's, then the first refit's).
pub const VERSION: u32 = 17;

/// Playouts to the end per alternative by default: under ±1 point of standard error on the
/// expected margin (less on the differences between alternatives, which share their draw
/// orders).
pub const DEFAULT_PLAYOUTS: u32 = 128;
/// Samples to the horizon per alternative by default in the base game. A whole 72-tile game
/// then takes about 2 s on two cores (BGA game-a, version 12); more samples do not play
/// better there (`/docs/analysis`, "Strength: `match`").
pub const DEFAULT_HORIZON_SAMPLES: u32 = 40;
/// The same in New World, where more samples play better: against the analysis of version 5,
/// 60 won 59% of 300 games where 40 won 50.5% of the first 100, in about the time a move
/// version 5 takes (`match --game new-world --a horizon:60 --b build:PATH`, seeds 500, 700
/// and 900).
pub const DEFAULT_NEW_WORLD_HORIZON_SAMPLES: u32 = 60;
/// Playouts per turn at most by default: a turn with more alternatives gives each fewer. This
/// bounds a whole game whatever its branching (with playouts to the end, 10 to 20 s for a
/// 72-tile game on the two-core build machine), against a budget of 60 s (`budget.rs`).
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
    /// The default: a few tiles per player played by the search's bots, as its samples are
    /// (`search::sample_after`); the value is the final margin the game's learned evaluation expects
    /// there. It judges better: on ten real base games between strong players its points lost
    /// a move are about half of greedy bots' (0.51 with version 8's weights, 0.43 with version
    /// 7's), against 0.96 to the end (`bench judge`, `static/docs/analysis.md`), and it plays
    /// better at equal time, in both tile games (`match --a horizon --b flat`).
    #[default]
    Horizon,
}

impl Sampler {
    /// Samples per alternative by default in a game of `kind`.
    pub fn default_samples(self, kind: GameKind) -> u32 {
        match (self, kind) {
            (Sampler::Horizon, GameKind::NewWorld) => DEFAULT_NEW_WORLD_HORIZON_SAMPLES,
            (Sampler::Horizon, _) => DEFAULT_HORIZON_SAMPLES,
            (Sampler::ToTheEnd, _) => DEFAULT_PLAYOUTS,
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
    /// The options with the samples per alternative a game of `kind` takes by default, where
    /// none were asked: what the analysis of a game or a position starts from.
    pub fn for_game(&self, kind: GameKind) -> AnalysisOptions {
        AnalysisOptions {
            playouts_per_alternative: Some(self.per_alternative_in(kind)),
            ..self.clone()
        }
    }

    /// Samples per alternative in a game of `kind`, before the per-turn cap.
    pub fn per_alternative_in(&self, kind: GameKind) -> u32 {
        (self.playouts_per_alternative).unwrap_or_else(|| self.sampler.default_samples(kind))
    }

    /// Samples per alternative, before the per-turn cap, once [`AnalysisOptions::for_game`]
    /// has named them (else the base game's default).
    pub fn per_alternative(&self) -> u32 {
        self.per_alternative_in(GameKind::Carcassonne)
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

/// Why a record cannot be analysed: `E` is why its game's records do not replay (a tile
/// game's [`ReplayError`], the Card Game's `cards::Refusal`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError<E = ReplayError> {
    #[error(transparent)]
    Replay(#[from] E),
    #[error("there is no turn {turn}: the record has {}", crate::replay::words::count(*.turns, "turn", "turns"))]
    NoSuchTurn { turn: u32, turns: u32 },
    /// A tile game's move or draw the rules refuse (only for positions built by hand: a
    /// record's moves are checked by its replay first).
    #[error("turn {turn}: {reason}")]
    Illegal { turn: u32, reason: String },
    /// A tile game over what one game's analysis may cost (`budget.rs`), even at its fewest playouts
    /// (`min_playouts` a turn); `limit` is the most tile-steps a game may ask.
    #[error(
        "the game is too long to analyse: even at {min_playouts} playouts a turn, its {turns} turns and {moves} moves would play {} million tiles in playouts, each weighed by the places a drawn tile has on its board; a game's analysis plays at most {} million (a 72-tile game, about 15)",
        tile_steps / 1_000_000,
        limit / 1_000_000
    )]
    TooLong {
        turns: u32,
        moves: usize,
        tile_steps: u64,
        min_playouts: u32,
        limit: u64,
    },
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

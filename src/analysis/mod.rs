//! What-if analysis: every legal move of a turn, valued on sampled futures and judged, in every
//! game.
//!
//! **One path.** Every game's analysis is `weighing` over the game's `sampled::Sampled`: the
//! legal moves ranked on sampled futures, then the chosen move, its rivals and the move played
//! weighed again on fresh futures into a `verdict::Verdict`, whose values the list shows; and
//! the search (`weighing::search`, what bots play), the same ranking under a time or sample
//! budget. A game supplies only what one future of a move is worth to its mover: the tile games
//! (`playout`) the pack shuffled and played out, the Card Game ([`cards`]) the cards the mover
//! cannot see dealt at random and played out greedy.
//!
//! Around it each game builds its own report. A tile turn (`turn.rs`), on the position before
//! it: `alternatives` lists every legal move for the drawn tile (the perft fixtures' counts);
//! `evaluate` plays each on a copy (points now, the change if the game ended now, the features
//! touched, the meeples committed, and the heuristic [`HEURISTIC_FORMULA`] over `completion`'s
//! chances, calibrated on played games by [`completion_rates`]); `weighing::weigh` values and judges them by playouts, or with none ranks them by
//! the heuristic. A Card Game turn adds what a follower secures and what it scores at once.
//!
//! Nothing reads the record beyond the analysed turn: the future comes from `Game::pack`.
//! Results are deterministic for a seed, whatever the number of threads.
//!
//! From a caller's side: [`analyse_turn`], [`analyse_game`] (progress as `(done, total)`),
//! [`analyse_position`], and [`position_spots`] and [`dead_spots`] for the turn page; results
//! are written and read back as [`report`]'s types. This file only declares the modules:
//! `options.rs` (what is asked, the version and errors), `positions.rs` (a record's turns),
//! and `parallel.rs` and `sampled.rs` (threads, seeds and tallies) sit below the rest.

pub(crate) mod alternatives;
mod any_report;
pub(crate) mod arena;
pub(crate) mod board_features;
pub mod budget;
pub mod cards;
pub(crate) mod completion;
pub(crate) mod completion_rates;
mod contradictions;
mod endgame;
mod evaluate;
mod forecasts;
mod halving;
mod on_demand;
mod options;
mod parallel;
pub(crate) mod playout;
mod positions;
pub mod puzzles;
pub mod report;
mod sampled;
pub(crate) mod search;
mod turn;
mod verdict;
mod weighing;
pub mod win_chance;

pub use crate::engine::bots::Policy;
pub use any_report::{AnyAnalysisError, AnyReport, analyse_any};
pub use board_features::{BoardFeature, Never, Outlook, board_features};
pub use completion::{Chances, OpenSpot, Spot, chance_any, dead_spots, draws_for, feature_outlook, position_spots};
pub use completion_rates::{KindGroup, shipped_share};
pub use contradictions::{Contradictions, of as contradictions};
pub use evaluate::{Evaluation, FeatureEffect, HEURISTIC_FORMULA, HeuristicParts, heuristic_formula};
pub use forecasts::{Forecast, completion_forecasts};
pub use on_demand::{ENGINE_BUDGET, Opinion, Rated, WinChance, card_opinion, tile_opinion};
pub use options::{
    AnalysisError, AnalysisOptions, DEFAULT_GREEDY_SHARE, DEFAULT_HORIZON_SAMPLES, DEFAULT_MAX_PLAYOUTS_PER_TURN,
    DEFAULT_PLAYOUTS, Progress, Sampler, VERSION, quiet,
};
pub(crate) use parallel::run_parallel;
pub use positions::position_before;
pub use turn::{
    Alternative, GameAnalysis, PlayerSummary, PlayoutSummary, TileTurn, TurnAnalysis, ValueBasis, analyse_game,
    analyse_position, analyse_turn,
};
pub use verdict::Recheck;

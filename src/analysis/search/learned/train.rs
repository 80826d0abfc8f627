//! `train`: self-play games labelled with their final margins, and the ridge fit of the
//! learned evaluation on them, judged on games it never saw.
//!
//! Each game is seeded by the run's seed and its index, so a run is reproducible and does not
//! depend on the number of threads. A position is taken every few tiles, before the move, for
//! the player to move; in the Card Game, every player's between every two rounds. With `--policy search-samples:N` the games are played by the search
//! with the shipped weights, `N` samples a move (a count, not a time, so that the run is
//! reproducible): a round's search makes the next round's data.

use super::features::{FeatureSet, Featured};
use super::{Model, WeightsFile, fit};
use crate::analysis::cards;
use crate::analysis::halving::{Budget, SearchOptions};
use crate::analysis::playout::search_with;
use crate::analysis::search::{HorizonEval, fitted_margin};
use crate::analysis::weighing;
use crate::engine::bots::{self, Policy, Rng, Scratch, margin, shuffled_bag};
use crate::engine::cards::bots as card_bots;
use crate::engine::{Game, Move, Preset, TileKindId};
use crate::record::RulesSpec;
use crate::selfplay::{SelfPlayError, fresh_game};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Who plays the training games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainPolicy {
    /// The weighed bot, the one the search's samples play (the Card Game's: the greedy bot).
    Weighed,
    /// The sampled bot: greedy, but a random move now and then (one in four in the Card
    /// Game), so that games between equals differ.
    Sampled,
    /// The search with the shipped weights, this many samples a move.
    Search { samples: u32 },
}

/// A training policy's name that names none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainPolicyError {
    #[error("search-samples:{0}: give the samples per move, a number from 1")]
    Samples(String),
    #[error("unknown policy {0:?}; use weighed, sampled or search-samples:N")]
    Unknown(String),
}

impl std::str::FromStr for TrainPolicy {
    type Err = TrainPolicyError;

    fn from_str(s: &str) -> Result<TrainPolicy, TrainPolicyError> {
        match s.split_once(':') {
            None if s == "weighed" => Ok(TrainPolicy::Weighed),
            None if s == "sampled" => Ok(TrainPolicy::Sampled),
            Some(("search-samples", n)) => match n.parse() {
                Ok(samples) if samples > 0 => Ok(TrainPolicy::Search { samples }),
                _ => Err(TrainPolicyError::Samples(n.to_string())),
            },
            _ => Err(TrainPolicyError::Unknown(s.to_string())),
        }
    }
}

impl std::fmt::Display for TrainPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainPolicy::Weighed => f.write_str("weighed"),
            TrainPolicy::Sampled => f.write_str("sampled"),
            TrainPolicy::Search { samples } => write!(f, "search-samples:{samples}"),
        }
    }
}

/// What a training run plays.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// The game, by its features.
    pub set: FeatureSet,
    pub games: u32,
    pub seed: u64,
    pub policy: TrainPolicy,
    /// A position every this many tiles.
    pub every: u32,
    /// Games played at once; 0 uses every core.
    pub threads: usize,
}

/// The ridge's strength, relative to the features' scale: small, the data are plenty.
const LAMBDA: f64 = 1e-4;

/// Every fifth game is held out of the fit to judge it.
fn held_out(game: u32) -> bool {
    game % 5 == 4
}

/// How the weights were made and how well they predict the held-out games' final margins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitReport {
    pub games: u32,
    pub positions: usize,
    pub held_out_positions: usize,
    pub seed: u64,
    pub policy: String,
    pub every: u32,
    /// R² of the learned model on the held-out games.
    pub r2_held_out: f64,
    /// The same of the three fitted worths it replaces (`search::worth`); the Card Game had
    /// no evaluation before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r2_worth_held_out: Option<f64>,
    /// The same of the margin if the game ended there, alone.
    pub r2_ended_held_out: f64,
    /// Wall time of the run.
    pub seconds: f64,
}

/// One position: its game, the features of the mover and of the best opponent (the other
/// player with the highest score if the game ended there), the worths' prediction (tile games
/// only), and the final margin.
struct Sample {
    game: u32,
    x: Vec<f64>,
    worth: Option<f64>,
    y: f64,
}

/// Plays the games, fits the model and judges it. `progress(done, games)` after each game.
pub fn train(s: &TrainSettings, progress: &(dyn Fn(u32, u32) + Sync)) -> Result<WeightsFile, SelfPlayError> {
    let start_time = Instant::now();
    let samples = match s.set {
        FeatureSet::TileGame => play_tile_games(Preset::SecondEdition, s, progress)?,
        FeatureSet::NewWorld => play_tile_games(Preset::NewWorld, s, progress)?,
        FeatureSet::CardGame => play_games(s, progress, |g| play_card_game(s, g)),
    };
    let (train, test): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|x| !held_out(x.game));
    let model = fit_model(s.set, &train);
    let r2 = |predict: &dyn Fn(&Sample) -> f64| fit::r_squared(test.iter().map(|x| (predict(x), x.y)));
    let fit = FitReport {
        games: s.games,
        positions: samples.len(),
        held_out_positions: test.len(),
        seed: s.seed,
        policy: s.policy.to_string(),
        every: s.every,
        r2_held_out: r2(&|x| model.value(&x.x)),
        r2_worth_held_out: (test.iter().all(|x| x.worth.is_some())).then(|| r2(&|x| x.worth.unwrap_or(0.0))),
        r2_ended_held_out: r2(&|x| x.x[0]),
        seconds: start_time.elapsed().as_secs_f64(),
    };
    Ok(WeightsFile {
        game: s.set.game_name().into(),
        features: s.set.names().iter().map(|&n| n.into()).collect(),
        weights: model.weights,
        fit,
    })
}

/// The ridge fit of what the score if the game ended leaves unexplained: its weight stays 1.
fn fit_model(set: FeatureSet, rows: &[&Sample]) -> Model {
    let rows: Vec<(Vec<f64>, f64)> = (rows.iter()).map(|s| (s.x[1..].to_vec(), s.y - s.x[0])).collect();
    let rest = fit::ridge(&rows, set.names().len() - 1, LAMBDA);
    Model {
        set,
        weights: std::iter::once(1.0).chain(rest).collect(),
    }
}

/// Every tile game's positions, two players under `preset`.
fn play_tile_games(
    preset: Preset,
    s: &TrainSettings,
    progress: &(dyn Fn(u32, u32) + Sync),
) -> Result<Vec<Sample>, SelfPlayError> {
    let (start, ..) = fresh_game(&RulesSpec::new(preset), 2)?;
    Ok(play_games(s, progress, |g| play_tile_game(&start, s, g)))
}

/// Every game's positions (`play` plays game `g`), in game order, the games shared between
/// threads.
fn play_games(
    s: &TrainSettings,
    progress: &(dyn Fn(u32, u32) + Sync),
    play: impl Fn(u32) -> Vec<Sample> + Sync,
) -> Vec<Sample> {
    let threads = match s.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    } as u32;
    let done = AtomicU32::new(0);
    let mut samples: Vec<Sample> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (done, play) = (&done, &play);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for g in (t..s.games).step_by(threads as usize) {
                        out.extend(play(g));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, s.games);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a training game panicked"))
            .collect()
    });
    samples.sort_by_key(|x| x.game);
    samples
}

/// The seed of game `g`.
fn game_seed(s: &TrainSettings, g: u32) -> u64 {
    s.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(g))
}

/// One tile game `g`, its positions labelled with the final margin.
fn play_tile_game(start: &Game, s: &TrainSettings, g: u32) -> Vec<Sample> {
    let seed = game_seed(s, g);
    let mut rng = Rng::new(seed);
    let (mut scratch, mut events) = (Scratch::default(), Vec::new());
    let mut game = start.clone();
    let mut taken = Vec::new();
    for (k, tile) in shuffled_bag(&game, &mut rng).into_iter().enumerate() {
        if k as u32 % s.every.max(1) == 1 {
            let mover = game.current_player();
            taken.push((mover, pair(&game, mover), Some(fitted_margin(&game, mover))));
        }
        let mv = choose(&game, tile, s.policy, (seed, k as u64), &mut rng, &mut scratch);
        events.clear();
        match mv {
            Some(mv) => game.play_listed(&mv, &mut events),
            None => game
                .discard(tile, &mut events)
                .expect("a tile that fits nowhere is discarded"),
        }
    }
    game.finish(&mut events);
    labelled(g, taken, &game.scores())
}

/// The positions `taken` in game `g`, each labelled with its mover's final margin.
fn labelled(g: u32, taken: Vec<(u8, Vec<f64>, Option<f64>)>, scores: &[i32]) -> Vec<Sample> {
    (taken.into_iter())
        .map(|(mover, x, worth)| Sample {
            game: g,
            x,
            worth,
            y: f64::from(margin(scores.iter().copied(), mover)),
        })
        .collect()
}

/// One Card Game `g` of two players: every player's position between every two rounds (where
/// the search's samples stop), labelled with the final margin. Every action is played by the
/// greedy bot (`weighed`, the bot the search's samples play), the sampled bot or the search.
fn play_card_game(s: &TrainSettings, g: u32) -> Vec<Sample> {
    let seed = game_seed(s, g);
    let mut rng = Rng::new(seed);
    let new = card_bots::new_game(2, &mut rng).expect("two players can play");
    let (mut game, mut deck) = (new.game, new.deck.into_iter());
    let (mut moves, mut events, mut taken) = (Vec::new(), Vec::new(), Vec::new());
    let mut turn = 0u64;
    while !game.is_over() {
        if game.deal_due() {
            for p in 0..game.players().len() as u8 {
                taken.push((p, pair(&game, p), None));
            }
            let hands = card_bots::next_hands(&game, &mut deck);
            game.deal(hands, &mut events)
                .expect("the deck deals what nobody has seen");
            continue;
        }
        turn += 1;
        let mv = match s.policy {
            TrainPolicy::Weighed => card_bots::choose(&game, Policy::Greedy, &mut rng, &mut moves),
            TrainPolicy::Sampled => card_bots::choose(&game, Policy::Sampled, &mut rng, &mut moves),
            TrainPolicy::Search { samples } => {
                game.legal_moves(&mut moves);
                let opts = SearchOptions {
                    budget: Budget::Samples(samples),
                    seed: seed ^ turn,
                    threads: 1,
                };
                weighing::search(&game, &moves, &opts, &cards::PLAYOUTS).and_then(|r| r.best())
            }
        };
        let mv = mv.expect("a move is due");
        game.play(&mv, &mut events).expect("listed moves are legal");
        events.clear();
    }
    game.finish(&mut events);
    let scores: Vec<i32> = game.players().iter().map(|p| p.score).collect();
    labelled(g, taken, &scores)
}

/// The move `policy` makes with `tile`; `turn` (the game's seed and the tile's index) seeds a
/// search.
fn choose(
    game: &Game,
    tile: TileKindId,
    policy: TrainPolicy,
    (seed, turn): (u64, u64),
    rng: &mut Rng,
    scratch: &mut Scratch,
) -> Option<Move> {
    match policy {
        TrainPolicy::Weighed => bots::choose(game, tile, Policy::Weighed, rng, scratch),
        TrainPolicy::Sampled => bots::choose(game, tile, Policy::Sampled, rng, scratch),
        TrainPolicy::Search { samples } => {
            let opts = SearchOptions {
                budget: Budget::Samples(samples),
                seed: seed ^ turn,
                threads: 1,
            };
            search_with(game, tile, &opts, HorizonEval::Learned).and_then(|r| r.best())
        }
    }
}

/// The mover's features less the best opponent's (the highest score if the game ended now).
fn pair(game: &impl Featured, mover: u8) -> Vec<f64> {
    let f = game.features();
    let best_other = (0..f.len())
        .filter(|&p| p != usize::from(mover))
        .max_by(|&a, &b| f[a][0].total_cmp(&f[b][0]))
        .expect("two players or more");
    (f[usize::from(mover)].iter().zip(&f[best_other]))
        .map(|(m, o)| m - o)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few games of each tile game train a model whose weights file loads back, and that
    /// judges itself on the held-out games.
    #[test]
    fn a_small_training_run_writes_weights_that_load() {
        for set in FeatureSet::ALL {
            let settings = TrainSettings {
                set,
                games: 5,
                seed: 7,
                policy: TrainPolicy::Weighed,
                every: 3,
                threads: 2,
            };
            let file = train(&settings, &|_, _| ()).unwrap();
            assert_eq!((file.fit.games, file.game.as_str()), (5, set.game_name()));
            assert!(file.fit.held_out_positions > 0 && file.fit.positions > file.fit.held_out_positions);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("weights.json");
            std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
            let model = Model::parse(&std::fs::read_to_string(&path).unwrap(), set).unwrap();
            assert_eq!(model.weights, file.weights);
            assert_eq!(model.weights[0], 1.0, "the score if the game ended weighs 1");
            let again = train(&TrainSettings { threads: 1, ..settings }, &|_, _| ()).unwrap();
            assert_eq!(
                again.weights, file.weights,
                "{set:?}: the same seed, the same weights, on any number of threads"
            );
        }
    }

    #[test]
    fn policies_read_as_the_command_line_writes_them() {
        for name in ["weighed", "sampled", "search-samples:80"] {
            assert_eq!(name.parse::<TrainPolicy>().unwrap().to_string(), name);
        }
        for bad in ["search-samples:0", "search:20", "greedy"] {
            assert!(bad.parse::<TrainPolicy>().is_err(), "{bad}");
        }
    }
}

//! `train`: self-play games labelled with their final margins, and the ridge fit of the
//! learned evaluation on them, judged on games it never saw.
//!
//! Each game is seeded by the run's seed and its index, so a run is reproducible and does not
//! depend on the number of threads. A position is taken every few tiles, before the move, for
//! the player to move; in the Card Game, every player's between every two rounds. With `--policy search-samples:N` the games are played by the search
//! with the shipped weights, `N` samples a move (a count, not a time, so that the run is
//! reproducible): a round's search makes the next round's data.

use super::features::{FeatureSet, Featured, pack_share};
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
    /// The weighed bot (the Card Game's: the greedy bot): the best of a few sampled moves by
    /// what they score now and would if the game ended.
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

/// What a training position is labelled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TrainLabel {
    /// The mover's final margin in the game played: most of it is the draws still to come.
    #[default]
    Final,
    /// The search's own value of the position (tile games only): the search with the shipped
    /// weights, this many samples, over the tile the mover drew, valued by its best move's
    /// mean. Little of it is draw noise: what the search makes of the position a few tiles on.
    Search { samples: u32 },
}

/// A label's name that names none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainLabelError {
    #[error("search:{0}: give the search's samples, a number from 1")]
    Samples(String),
    #[error("unknown label {0:?}; use final or search:N")]
    Unknown(String),
}

impl std::str::FromStr for TrainLabel {
    type Err = TrainLabelError;

    fn from_str(s: &str) -> Result<TrainLabel, TrainLabelError> {
        match s.split_once(':') {
            None if s == "final" => Ok(TrainLabel::Final),
            Some(("search", n)) => match n.parse() {
                Ok(samples) if samples > 0 => Ok(TrainLabel::Search { samples }),
                _ => Err(TrainLabelError::Samples(n.to_string())),
            },
            _ => Err(TrainLabelError::Unknown(s.to_string())),
        }
    }
}

impl std::fmt::Display for TrainLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainLabel::Final => f.write_str("final"),
            TrainLabel::Search { samples } => write!(f, "search:{samples}"),
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
    /// What each position is labelled with (the Card Game: the final margin only).
    pub label: TrainLabel,
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
    /// The positions' label; absent (the final margin) in files made before labels.
    #[serde(default = "final_label", skip_serializing_if = "is_final_label")]
    pub label: String,
    /// R² of the learned model on the held-out games' labels.
    pub r2_held_out: f64,
    /// The same of the three fitted worths it replaces (`search::worth`); the Card Game had
    /// no evaluation before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r2_worth_held_out: Option<f64>,
    /// The same of the margin if the game ended there, alone.
    pub r2_ended_held_out: f64,
    /// Wall time of the run.
    pub seconds: f64,
    /// With another label than the final margin: the learned model's R² of the held-out
    /// games' final margins, to compare with fits on them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r2_final_held_out: Option<f64>,
}

fn final_label() -> String {
    TrainLabel::Final.to_string()
}

fn is_final_label(label: &str) -> bool {
    label == final_label()
}

/// One position: its game, the features of the mover and of the best opponent (the other
/// player with the highest score if the game ended there), the share of the pack left, the
/// worths' prediction (tile games only), its label, and the final margin.
struct Sample {
    game: u32,
    x: Vec<f64>,
    share: f64,
    worth: Option<f64>,
    y: f64,
    final_margin: f64,
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
    let model = fit_model(s.set, &train, s.label != TrainLabel::Final);
    let r2 = |predict: &dyn Fn(&Sample) -> f64| fit::r_squared(test.iter().map(|x| (predict(x), x.y)));
    let r2_final = fit::r_squared(test.iter().map(|x| (model.value(&x.x), x.final_margin)));
    let fit = FitReport {
        games: s.games,
        positions: samples.len(),
        held_out_positions: test.len(),
        seed: s.seed,
        policy: s.policy.to_string(),
        every: s.every,
        label: s.label.to_string(),
        r2_held_out: r2(&|x| model.value(&x.x)),
        r2_worth_held_out: (test.iter().all(|x| x.worth.is_some())).then(|| r2(&|x| x.worth.unwrap_or(0.0))),
        r2_ended_held_out: r2(&|x| x.x[0]),
        seconds: start_time.elapsed().as_secs_f64(),
        r2_final_held_out: (s.label != TrainLabel::Final).then_some(r2_final),
    };
    Ok(WeightsFile {
        game: s.set.game_name().into(),
        features: s.set.names().iter().map(|&n| n.into()).collect(),
        weights: model.weights,
        fit,
    })
}

/// The ridge fit of what the score if the game ended leaves unexplained: its weight stays 1.
/// With `tempo`, two more columns, fitted and then dropped: the search's value of a position
/// counts the move the mover is about to make (a constant, and one that fades with the pack),
/// which no difference of two players' features holds and the horizon, where the same player
/// is always to move, never needs.
fn fit_model(set: FeatureSet, rows: &[&Sample], tempo: bool) -> Model {
    let n = set.names().len() - 1;
    let rows: Vec<(Vec<f64>, f64)> = (rows.iter())
        .map(|s| {
            let mut x = s.x[1..].to_vec();
            if tempo {
                x.extend([1.0, s.share]);
            }
            (x, s.y - s.x[0])
        })
        .collect();
    let extra = if tempo { 2 } else { 0 };
    let rest = fit::ridge(&rows, n + extra, LAMBDA);
    Model {
        set,
        weights: std::iter::once(1.0).chain(rest.into_iter().take(n)).collect(),
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
            let label = match s.label {
                TrainLabel::Final => Some(None),
                TrainLabel::Search { samples } => search_value(&game, tile, samples, (seed, k as u64)).map(Some),
            };
            if let Some(label) = label {
                let x = pair(&game, mover);
                taken.push(Taken {
                    mover,
                    x,
                    share: pack_share(&game),
                    worth: Some(fitted_margin(&game, mover)),
                    label,
                });
            }
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

/// A position taken in a game, before its end: its mover, features, share of the pack left,
/// the worths' prediction, and its label if not the final margin.
struct Taken {
    mover: u8,
    x: Vec<f64>,
    share: f64,
    worth: Option<f64>,
    label: Option<f64>,
}

/// The search's value of `game` with `tile` to place: its best move's mean over `samples`
/// samples (seeded by the game's seed and the tile's index). `None` when the tile fits nowhere.
fn search_value(game: &Game, tile: TileKindId, samples: u32, (seed, turn): (u64, u64)) -> Option<f64> {
    let opts = SearchOptions {
        budget: Budget::Samples(samples),
        // Apart from the seeds of the search that plays the game.
        seed: (seed ^ turn).wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1),
        threads: 1,
    };
    let result = search_with(game, tile, &opts, HorizonEval::Learned)?;
    result.moves.first().map(|(_, tally)| tally.mean())
}

/// The positions `taken` in game `g`, each labelled with its label, else its mover's final
/// margin.
fn labelled(g: u32, taken: Vec<Taken>, scores: &[i32]) -> Vec<Sample> {
    (taken.into_iter())
        .map(|t| {
            let final_margin = f64::from(margin(scores.iter().copied(), t.mover));
            Sample {
                game: g,
                x: t.x,
                share: t.share,
                worth: t.worth,
                y: t.label.unwrap_or(final_margin),
                final_margin,
            }
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
                taken.push(Taken {
                    mover: p,
                    x: pair(&game, p),
                    share: 0.0,
                    worth: None,
                    label: None,
                });
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
                label: TrainLabel::Final,
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
        for name in ["final", "search:400"] {
            assert_eq!(name.parse::<TrainLabel>().unwrap().to_string(), name);
        }
        for bad in ["search:0", "search", "margin"] {
            assert!(bad.parse::<TrainLabel>().is_err(), "{bad}");
        }
    }

    /// Labelled by the search, a run is as reproducible as on final margins, and its labels are
    /// far nearer what the features say than the final margins are.
    #[test]
    fn positions_labelled_by_the_search_fit_reproducibly() {
        let settings = TrainSettings {
            set: FeatureSet::TileGame,
            games: 10,
            seed: 7,
            policy: TrainPolicy::Weighed,
            every: 6,
            label: TrainLabel::Search { samples: 60 },
            threads: 2,
        };
        let file = train(&settings, &|_, _| ()).unwrap();
        assert_eq!(file.fit.label, "search:60");
        let final_r2 = file.fit.r2_final_held_out.expect("judged on the final margins too");
        assert!(file.fit.r2_held_out > final_r2, "{:?}", file.fit);
        let again = train(&TrainSettings { threads: 1, ..settings }, &|_, _| ()).unwrap();
        assert_eq!(again.weights, file.weights, "the same seed, the same weights");
    }
}

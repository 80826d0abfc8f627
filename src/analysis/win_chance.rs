//! The mover's chance of winning, from the analysis's value of a move (its expected final
//! margin: own score minus the best opponent's), and the classes of moves by the chance they
//! lose.
//!
//! **The model.** A margin of `m` points with `t` tiles still to come wins with chance
//! `1 / (1 + e^(−m / s(t)))`, where `s(t) = base + per_step × t` ([`Scale`]): the same lead
//! is safer late in the game, when fewer tiles can overturn it. The Card Game has a scale of
//! its own, `t` counting its turns still to come.
//!
//! **The calibration** ([`fit`], `carcassonne-replay calibrate`): positions of generated games,
//! each valued the way the analysis values a move played, paired with how the game really
//! ended (1 a win, ½ a shared first place, 0 a loss); the scale is the one of highest
//! likelihood over a grid.
//!
//! **The scales are data.** `scales.json` holds the scale each game's new analyses use, with
//! the command that fitted it and how well it predicts; a report stores the scale it was made
//! with, so a refit never changes what a stored analysis says. Reports stored before they kept
//! one read on the scale their version was read with ([`Scale::of_tiles`], the Card Game's by
//! its playouts): those constants are history, and stay in code. How each scale was fitted
//! and checked on held-out and real games is in `/docs/analysis` ("Win chances and move
//! classes").
//!
//! The games are bots', whose play is steadier than people's: a human game's chances swing
//! more than the model says.

use super::sampled::{Tally, playout_seed};
use super::{AnalysisOptions, run_parallel};
use crate::engine::bots::{Scratch, margin};
use crate::engine::{Game, GameKind};
use crate::record::{GameRecord, Played, Walk};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The model's scale for one game: `s(left) = base + per_step × left`, in points, where `left`
/// counts the tiles (the Card Game: the turns) still to come. A report stores the one it was
/// made with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Scale {
    /// `s` at the end of the game.
    pub base: f64,
    /// How much `s` grows per tile or turn still to come.
    pub per_step: f64,
}

/// The tile games' scale, fitted by `calibrate` (see the module doc).
pub const TILE_SCALE: Scale = Scale {
    base: 3.0,
    per_step: 0.19,
};

/// The tile games' scale for analyses whose playouts ran to the end: the base game's before
/// analysis version 3, New World's before version 4 (fitted on greedy bots' games).
pub const TILE_SCALE_TO_THE_END: Scale = Scale {
    base: 1.5,
    per_step: 0.15,
};

/// New World's scale since analysis version 4 (its learned evaluation at the horizon), fitted
/// by `calibrate --game new-world --policy horizon:16` (see the module doc).
pub const NEW_WORLD_SCALE: Scale = Scale {
    base: 5.5,
    per_step: 0.22,
};

/// The Card Game's scale since analysis version 5 (its learned evaluation at the end of the
/// round), fitted by `calibrate --game card-game` (see the module doc).
pub const CARD_SCALE: Scale = Scale {
    base: 7.5,
    per_step: 0.33,
};

/// The Card Game's scale for analyses whose samples the greedy bot played to the end, before
/// version 5.
pub const CARD_SCALE_TO_THE_END: Scale = Scale {
    base: 1.0,
    per_step: 0.97,
};

/// The Card Game's scale for analyses whose samples were played out by random players, as
/// analyses stored before greedy playouts were (fitted on games of random bots).
pub const CARD_SCALE_RANDOM_PLAYOUTS: Scale = Scale {
    base: 11.5,
    per_step: 1.4,
};

/// The scales new analyses use, as `scales.json` holds them, with how each was fitted.
#[derive(Deserialize)]
struct ScalesFile {
    scales: Vec<FittedScale>,
}

#[derive(Deserialize)]
struct FittedScale {
    game: GameKind,
    #[serde(flatten)]
    scale: Scale,
}

static CURRENT: LazyLock<Vec<FittedScale>> = LazyLock::new(|| {
    let file: ScalesFile = serde_json::from_str(include_str!("scales.json")).expect("scales.json reads");
    file.scales
});

impl Scale {
    /// The scale a new analysis of a `game` uses and stores (`scales.json`).
    pub fn current(game: GameKind) -> Scale {
        (CURRENT.iter().find(|f| f.game == game))
            .map(|f| f.scale)
            .expect("scales.json has a scale for every game")
    }

    /// The scale of a tile game's analysis made by analysis `version`: the one fitted on the
    /// values it gives, the learned evaluation's at the horizon (the base game from version 3,
    /// New World from 4), else those of playouts to the end.
    pub fn of_tiles(kind: GameKind, version: u32) -> Scale {
        match kind {
            GameKind::NewWorld if version >= 4 => NEW_WORLD_SCALE,
            GameKind::NewWorld => TILE_SCALE_TO_THE_END,
            _ if version >= 3 => TILE_SCALE,
            _ => TILE_SCALE_TO_THE_END,
        }
    }

    /// The chance (0 to 1) that a mover whose expected final margin is `margin` wins, with
    /// `left` tiles or turns still to come.
    pub fn chance(self, margin: f64, left: u32) -> f64 {
        let scale = self.base + self.per_step * f64::from(left);
        1.0 / (1.0 + (-margin / scale).exp())
    }

    /// The chances of a move played worth `value` (an expected final margin) that lost
    /// `points_lost` against the best, with `left` tiles or turns to come after it.
    pub fn move_chance(self, value: f64, points_lost: f64, left: u32) -> MoveChance {
        let after = self.chance(value, left);
        let points_lost = points_lost.max(0.0);
        let lost = (self.chance(value + points_lost, left) - after).max(0.0);
        MoveChance {
            after,
            lost,
            class: MoveClass::of(lost),
            points_lost,
        }
    }
}

/// A move by the chance of winning it gave away against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    Good,
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

/// Chance of winning lost (0 to 1) from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.20;

impl MoveClass {
    pub fn of(lost: f64) -> MoveClass {
        match lost {
            l if l >= BLUNDER => MoveClass::Blunder,
            l if l >= MISTAKE => MoveClass::Mistake,
            l if l >= INACCURACY => MoveClass::Inaccuracy,
            _ => MoveClass::Good,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// The chess annotation players know: `?!`, `?`, `??`; nothing for a good move.
    pub fn mark(self) -> &'static str {
        match self {
            MoveClass::Good => "",
            MoveClass::Inaccuracy => "?!",
            MoveClass::Mistake => "?",
            MoveClass::Blunder => "??",
        }
    }
}

/// Points lost a move on average that halve a player's accuracy.
pub const ACCURACY_HALVED_BY: f64 = 2.0;

/// A player's accuracy in percent from the points they lost a move on average: 100 when they
/// lost none, halved by every [`ACCURACY_HALVED_BY`] points lost a move. So within a game, the
/// more accurate of two players lost fewer points a move (not so when accuracy was the mean of
/// each move's chance lost: a player whose chances were gone lost no chance, whatever they
/// played).
pub fn accuracy(points_lost_a_move: f64) -> f64 {
    100.0 * (-points_lost_a_move.max(0.0) / ACCURACY_HALVED_BY).exp2()
}

/// What one played move did to its player's chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveChance {
    /// The mover's chance after the move played.
    pub after: f64,
    /// The chance the best move would have given, less `after`: 0 within the noise.
    pub lost: f64,
    pub class: MoveClass,
    /// The points it lost against the best, which `lost` comes from.
    pub points_lost: f64,
}

/// One analysed turn's played move, in chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnChance {
    pub turn: u32,
    pub player: u8,
    pub chance: MoveChance,
}

/// A player's moves over a game: accuracy and how many of each class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerAccuracy {
    pub moves: u32,
    /// In percent, from the points lost a move ([`accuracy`]).
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// Each of `players` players' accuracy over `chances` ([`accuracy`] of their points lost a
/// move), and their moves by class.
pub fn accuracies(chances: &[TurnChance], players: usize) -> Vec<PlayerAccuracy> {
    let mut out = vec![PlayerAccuracy::default(); players];
    let mut lost = vec![0.0; players];
    for c in chances.iter().filter(|c| usize::from(c.player) < players) {
        let a = &mut out[usize::from(c.player)];
        a.moves += 1;
        lost[usize::from(c.player)] += c.chance.points_lost;
        match c.chance.class {
            MoveClass::Good => {}
            MoveClass::Inaccuracy => a.inaccuracies += 1,
            MoveClass::Mistake => a.mistakes += 1,
            MoveClass::Blunder => a.blunders += 1,
        }
    }
    for (a, lost) in out.iter_mut().zip(lost).filter(|(a, _)| a.moves > 0) {
        a.accuracy = accuracy(lost / f64::from(a.moves));
    }
    out
}

// ----- calibration -----

/// One valued position and how its game ended for the mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub margin: f64,
    /// Tiles (the Card Game: turns) still to come.
    pub left: u32,
    /// 1 a win, ½ first place shared, 0 a loss.
    pub outcome: f64,
}

/// A fitted scale and how well it predicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub scale: Scale,
    pub samples: usize,
    /// Mean log loss of the fitted model, of the constants in use, and of always predicting
    /// the share of positions that won (`average`).
    pub log_loss: f64,
    pub in_use_log_loss: f64,
    pub baseline_log_loss: f64,
    /// The mean outcome: ½ with two players, less with more.
    pub average: f64,
    /// Mean squared error of the predicted chances.
    pub brier: f64,
    /// Predictions in tenths: how many fell in each, their mean prediction, the mean outcome.
    pub bins: Vec<(usize, f64, f64)>,
}

/// How a calibration run is set up.
#[derive(Clone, Debug)]
pub struct CalibrationSettings {
    pub games: u32,
    pub players: u8,
    /// Playouts (the Card Game: samples) valuing each position.
    pub playouts: u32,
    /// Every `every`-th move of a game is valued.
    pub every: u32,
    pub seed: u64,
    pub threads: usize,
}

/// Why the games to calibrate on could not be played or valued.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CalibrationError {
    #[error(transparent)]
    SelfPlay(#[from] crate::selfplay::SelfPlayError),
    /// A bot's game that does not replay (a bug), in the record's words.
    #[error("a bot's game does not replay: {0}")]
    Replay(String),
}

/// Values the positions of `s.games` tile games, game `g` played by `play(seed + g)`: the
/// samples to fit.
pub fn samples(
    s: &CalibrationSettings,
    play: &dyn Fn(u64) -> Result<GameRecord, crate::selfplay::SelfPlayError>,
    progress: &dyn Fn(u32, u32),
) -> Result<Vec<Sample>, CalibrationError> {
    let mut out = Vec::new();
    for g in 0..s.games {
        let record = play(s.seed.wrapping_add(u64::from(g)))?;
        let mut walk = Walk::new(&record).map_err(|e| CalibrationError::Replay(e.describe(&record)))?;
        let mut positions: Vec<(Game, u8)> = Vec::new();
        let mut n = 0;
        while walk.peek().is_some() {
            let mover = walk.game().current_player();
            let step =
                (walk.step().expect("a move is next")).map_err(|e| CalibrationError::Replay(e.describe(&record)))?;
            if matches!(step.played, Played::Place(_)) {
                n += 1;
                if n % s.every == 0 {
                    positions.push((walk.game().clone(), mover));
                }
            }
        }
        let mut end = walk.game().clone();
        end.finish(&mut Vec::new());
        let scores: Vec<i32> = end.scores();
        // Valued as the analysis values a move played: its playouts, at its defaults.
        let valuing = AnalysisOptions::default();
        let valued = run_parallel(positions.len(), s.threads, |i| {
            let (after, mover) = &positions[i];
            let mut tally = Tally::default();
            let mut scratch = Scratch::default();
            for j in 0..s.playouts {
                let seed = playout_seed(s.seed ^ u64::from(g), i as u32, j);
                tally.add(valuing.future().value(after, *mover, seed, j, &mut scratch));
            }
            (tally.mean(), after.pack_left(), *mover)
        });
        out.extend(valued.into_iter().map(|(m, left, mover)| Sample {
            margin: m,
            left,
            outcome: outcome(&scores, mover),
        }));
        progress(g + 1, s.games);
    }
    Ok(out)
}

/// 1 when `mover` finished alone on top, ½ when tied for it, 0 otherwise.
pub fn outcome(scores: &[i32], mover: u8) -> f64 {
    match margin(scores.iter().copied(), mover) {
        m if m > 0 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// The scale of highest likelihood over a grid (base 1 to 30 points by ½, per step 0 to 3 by
/// 0.01), with its figures against `in_use`.
pub fn fit(samples: &[Sample], in_use: Scale) -> Calibration {
    let n = samples.len().max(1) as f64;
    let log_loss = |predict: &dyn Fn(&Sample) -> f64| -> f64 {
        (samples.iter())
            .map(|s| {
                let p = predict(s).clamp(1e-9, 1.0 - 1e-9);
                -(s.outcome * p.ln() + (1.0 - s.outcome) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / n
    };
    let loss = |scale: Scale| log_loss(&|s: &Sample| scale.chance(s.margin, s.left));
    let mut best = (f64::INFINITY, in_use);
    for i in 2..=60 {
        for j in 0..=300 {
            let scale = Scale {
                base: f64::from(i) / 2.0,
                per_step: f64::from(j) / 100.0,
            };
            let l = loss(scale);
            if l < best.0 {
                best = (l, scale);
            }
        }
    }
    let (fitted_loss, scale) = best;
    let predict = |s: &Sample| scale.chance(s.margin, s.left);
    let mut bins = vec![(0usize, 0.0, 0.0); 10];
    for s in samples {
        let p = predict(s);
        let b = &mut bins[((p * 10.0) as usize).min(9)];
        b.0 += 1;
        b.1 += p;
        b.2 += s.outcome;
    }
    for b in bins.iter_mut().filter(|b| b.0 > 0) {
        b.1 /= b.0 as f64;
        b.2 /= b.0 as f64;
    }
    // With more than two players a mover wins less than half the time: the fair baseline says
    // the share of wins every time, not ½.
    let average = samples.iter().map(|s| s.outcome).sum::<f64>() / n;
    Calibration {
        scale,
        samples: samples.len(),
        log_loss: fitted_loss,
        in_use_log_loss: loss(in_use),
        average,
        baseline_log_loss: log_loss(&|_| average),
        brier: samples.iter().map(|s| (predict(s) - s.outcome).powi(2)).sum::<f64>() / n,
        bins,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bots::Rng;

    /// The scales new analyses store (`scales.json`) are those analyses of this version were
    /// read with before reports kept theirs: a stored analysis with no scale reads as it did.
    #[test]
    fn the_stored_scales_are_those_this_version_read_with() {
        for kind in [GameKind::Carcassonne, GameKind::NewWorld] {
            assert_eq!(
                Scale::current(kind),
                Scale::of_tiles(kind, crate::analysis::VERSION),
                "{kind:?}"
            );
        }
        assert_eq!(Scale::current(GameKind::CardGame), CARD_SCALE);
    }

    /// With three players a mover wins a third of the time: the baseline to beat predicts a
    /// third, and scores its own log loss, not ln 2.
    #[test]
    fn the_baseline_predicts_the_share_of_wins() {
        let samples: Vec<Sample> = (0..300)
            .map(|i| Sample {
                margin: 0.0,
                left: 10,
                outcome: f64::from(u8::from(i % 3 == 0)),
            })
            .collect();
        let c = fit(&samples, TILE_SCALE);
        assert!((c.average - 1.0 / 3.0).abs() < 1e-9);
        let third: f64 = 1.0 / 3.0;
        let entropy = -(third * third.ln() + (1.0 - third) * (1.0 - third).ln());
        assert!((c.baseline_log_loss - entropy).abs() < 1e-9, "{c:?}");
        assert!(c.baseline_log_loss < std::f64::consts::LN_2);
    }

    /// Each analysis reads on the scale fitted to the values it gives: New World's from
    /// version 4, the base game's learned values from version 3, and playouts to the end before.
    #[test]
    fn every_analysis_reads_on_the_scale_of_its_values() {
        assert_eq!(Scale::of_tiles(GameKind::NewWorld, 4), NEW_WORLD_SCALE);
        assert_eq!(Scale::of_tiles(GameKind::NewWorld, 3), TILE_SCALE_TO_THE_END);
        assert_eq!(Scale::of_tiles(GameKind::Carcassonne, 4), TILE_SCALE);
        assert_eq!(Scale::of_tiles(GameKind::Carcassonne, 3), TILE_SCALE);
        assert_eq!(Scale::of_tiles(GameKind::Carcassonne, 2), TILE_SCALE_TO_THE_END);
        assert!(NEW_WORLD_SCALE.chance(10.0, 20) < TILE_SCALE.chance(10.0, 20));
    }

    #[test]
    fn an_even_game_is_even_and_a_lead_counts_more_late() {
        assert!((TILE_SCALE.chance(0.0, 40) - 0.5).abs() < 1e-12);
        assert!(
            TILE_SCALE.chance(10.0, 5) > TILE_SCALE.chance(10.0, 50),
            "the same lead is safer late"
        );
        assert!(
            (TILE_SCALE.chance(7.0, 20) + TILE_SCALE.chance(-7.0, 20) - 1.0).abs() < 1e-12,
            "two players' chances sum to 1"
        );
        assert!(TILE_SCALE.chance(5.0, 20) < TILE_SCALE.chance(6.0, 20));
    }

    #[test]
    fn moves_are_classed_by_the_chance_they_lose() {
        assert_eq!(
            TILE_SCALE.move_chance(3.0, 0.0, 30).class,
            MoveClass::Good,
            "within the noise: nothing lost"
        );
        assert_eq!(accuracy(0.0), 100.0);
        assert_eq!(accuracy(2.0), 50.0, "halved by two points lost a move");
        let classes: Vec<MoveClass> = [0.01, 0.05, 0.12, 0.35].into_iter().map(MoveClass::of).collect();
        assert_eq!(
            classes,
            [
                MoveClass::Good,
                MoveClass::Inaccuracy,
                MoveClass::Mistake,
                MoveClass::Blunder
            ]
        );
        // The same points lost cost more chance in a close game than in a decided one.
        assert!(TILE_SCALE.move_chance(0.0, 10.0, 10).lost > TILE_SCALE.move_chance(40.0, 10.0, 10).lost);
        assert!(accuracy(1.1) < accuracy(1.0));
    }

    /// Outcomes drawn from a known scale are fitted back to it.
    #[test]
    #[ignore = "a fit over 18,000 scales, too slow for every run: CI runs it (`cargo test -- --ignored`)"]
    fn the_fit_recovers_the_scale_that_made_the_outcomes() {
        let mut rng = Rng::new(7);
        let samples: Vec<Sample> = (0..6000)
            .map(|i| {
                let left = (i % 70) as u32;
                let margin = (rng.next_u64() % 81) as f64 - 40.0;
                let p = Scale {
                    base: 8.0,
                    per_step: 0.4,
                }
                .chance(margin, left);
                let won = (rng.next_u64() % 1_000_000) as f64 / 1e6 < p;
                Sample {
                    margin,
                    left,
                    outcome: f64::from(u8::from(won)),
                }
            })
            .collect();
        let c = fit(&samples, TILE_SCALE);
        assert!((c.average - 0.5).abs() < 0.05);
        let Scale { base, per_step } = c.scale;
        assert!((base - 8.0).abs() <= 2.5 && (per_step - 0.4).abs() <= 0.1, "{c:?}");
        assert!(c.log_loss < c.baseline_log_loss);
        for (count, predicted, observed) in c.bins.iter().filter(|b| b.0 > 200) {
            assert!(
                (predicted - observed).abs() < 0.08,
                "{count} at {predicted}: {observed}"
            );
        }
    }
}

//! The learned evaluation: what the search ([`super`]) values a position at its horizon.
//!
//! A linear model predicts the mover's final margin (their final score less the best
//! opponent's) from the board [`features`] of each player: a player's value is `w · f`, and
//! the mover's margin is their value less the best other player's. The weights `w` are fitted
//! by ridge least squares ([`fit`]) on the final margins of self-play games ([`train`]), on the
//! difference of the mover's and the best opponent's features.
//!
//! **The shipped weights** (`weights/carcassonne.json`, the base game, second edition, two
//! players) are the second round of self-play:
//! 1. `carcassonne-replay train --game carcassonne --games 100000 --seed 1 --policy weighed`:
//!    100,000 games between weighed bots (the bot the search's samples play), a position every
//!    third tile, 2.4 million positions, four games in five to fit and the fifth to judge
//!    (held-out R² 0.637 of the final margin; 112 s on 2 cores). These weights price a farmer
//!    placed with four fifths of the pack left at about 3 points of margin, the supply it
//!    leaves included.
//! 2. With those weights built in, `train --games 1200 --seed 2 --policy search-samples:80`:
//!    1,200 games of the search itself (a fixed count of samples a move, so the games are the
//!    same on any machine), 28,800 positions, 23 minutes on 2 cores. Held out, R² 0.420 (the
//!    search's games are closer and so harder to foretell than the bots'). These weights make
//!    an early farmer dearer (about 5 points there; farmers × share of the pack left: −6.96,
//!    was −2.21), and a follower on a feature that may never be completed (−8.61, was −2.10).
//!
//! The second round is the one that plays better and judges better (measured with `match` and
//! `bench --judge`, figures in `static/docs/analysis.md`): `search:45` against the search with
//! the fitted worths won 63.0% of 100 games on seed 111 with the first round's weights and
//! 75.5% with the second's (70.3% over 200 games with seed 121's), and the experts' points
//! lost a move fell from 0.70 of greedy bots' to 0.40. Most of a final margin is the draws
//! still to come: no evaluation of the position alone explains it; what counts for the search
//! is how it ranks the positions its moves lead to. The completion chances behind two features
//! are estimated spot by spot past the exact sum's reach
//! ([`crate::analysis::completion::quick_completion_chance`]): they run at every sample's
//! horizon.
//!
//! The base game's other rulebooks (classic 2000, course) use the same weights: every feature
//! is scored by the engine under the game's own rules. New World keeps the fitted worths
//! (`super::worth`): its own features and weights are still to be trained.

pub(crate) mod features;
mod fit;
pub(crate) mod train;

use crate::engine::{Game, GameKind};
use features::{N, NAMES, Vector};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A fitted model: one weight per feature, in [`NAMES`] order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub weights: Vector,
}

/// The weights file: the model and how it was made and how well it predicts.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WeightsFile {
    pub game: String,
    pub features: Vec<String>,
    pub weights: Vec<f64>,
    pub fit: train::FitReport,
}

impl Model {
    /// A player's value: `w · f`.
    pub fn value(&self, f: &Vector) -> f64 {
        f.iter().zip(self.weights).map(|(x, w)| x * w).sum()
    }

    /// The mover's predicted final margin in `game`: their value less the best other's.
    pub fn margin(&self, game: &Game, mover: u8) -> f64 {
        let values: Vec<f64> = features::of(game).iter().map(|f| self.value(f)).collect();
        let best_other = (values.iter().enumerate())
            .filter(|&(p, _)| p != usize::from(mover))
            .map(|(_, &v)| v)
            .reduce(f64::max)
            .unwrap_or(0.0);
        values[usize::from(mover)] - best_other
    }

    /// Reads a weights file, checking it names this build's features in order.
    pub fn parse(text: &str) -> Result<Model, String> {
        let file: WeightsFile = serde_json::from_str(text).map_err(|e| format!("weights file: {e}"))?;
        if file.features != NAMES {
            return Err(format!(
                "weights file: its features {:?} are not this build's {NAMES:?}",
                file.features
            ));
        }
        let weights: Vector = (file.weights.as_slice().try_into())
            .map_err(|_| format!("weights file: {} weights for {N} features", file.weights.len()))?;
        Ok(Model { weights })
    }
}

/// The shipped weights for a game of `kind`, if it has any: the base game's (every base-game
/// rulebook), not yet New World's.
pub fn for_game(kind: GameKind) -> Option<&'static Model> {
    (kind == GameKind::Carcassonne).then(carcassonne)
}

/// The shipped weights of the base game, parsed once.
pub fn carcassonne() -> &'static Model {
    static MODEL: LazyLock<Model> =
        LazyLock::new(|| Model::parse(include_str!("weights/carcassonne.json")).expect("the shipped weights parse"));
    &MODEL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_parse_and_name_every_feature() {
        let model = carcassonne();
        assert_eq!(model.weights.len(), NAMES.len());
        assert_eq!(model.weights[0], 1.0, "at the end the value is the final margin");
        let file: WeightsFile = serde_json::from_str(include_str!("weights/carcassonne.json")).unwrap();
        assert!(
            file.fit.r2_held_out > file.fit.r2_worth_held_out,
            "the shipped weights predict games they never saw better than the worths they replaced: {:?}",
            file.fit
        );
    }

    #[test]
    fn a_weights_file_for_other_features_is_refused() {
        let text = r#"{"game":"carcassonne","features":["a"],"weights":[1.0],"fit":{"games":1,"positions":1,"held_out_positions":0,"seed":1,"policy":"weighed","every":3,"r2_held_out":0.0,"r2_worth_held_out":0.0,"r2_ended_held_out":0.0,"seconds":0.0}}"#;
        let err = Model::parse(text).unwrap_err();
        assert!(err.contains("not this build's"), "{err}");
    }
}

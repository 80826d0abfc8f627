//! The learned evaluation: what the search ([`super`]) values a position at its horizon.
//!
//! A linear model predicts the mover's final margin (their final score less the best
//! opponent's) from the board [`features`] of each player: a player's value is `w · f`, and
//! the mover's margin is their value less the best other player's. The weights `w` are fitted
//! by ridge least squares ([`fit`]) on the final margins of self-play games ([`train`]), on the
//! difference of the mover's and the best opponent's features. Each game has its own features
//! ([`features::FeatureSet`]) and its own weights file in `weights/`, which records the command
//! that made it and how well it predicts games the fit never saw.
//!
//! Each game's weights come from two rounds of `train`. New World's and the Card Game's: the
//! first on games between the bots the search's samples play (the Card Game's: sampled bots),
//! the second on games of the search itself with the first round's weights built in
//! (`--policy search-samples:N`), whose positions are those the search meets. Most of a final
//! margin is the draws still to come, which no evaluation of the position explains. The base
//! game's (since analysis version 8) label each position with the search's own value of it
//! (`--label search:N`), a target with little draw noise, each round with the previous one's
//! weights built in. The commands, the fits, what each round gained and what the weights say
//! are in `/docs/analysis` ("Strength: `match`").
//!
//! The base game's other rulebooks (classic 2000, course) use its weights: every feature is
//! scored by the engine under the game's own rules. The Card Game's samples stop at the end of
//! the round under way, where a player is what they hold (`features::card_game`).

pub(crate) mod features;
mod fit;
pub(crate) mod train;

use crate::engine::GameKind;
use features::{FeatureSet, Featured};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A fitted model: the game's feature set, and one weight per feature in its order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub set: FeatureSet,
    pub weights: Vec<f64>,
}

/// Why a weights file is not this build's model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("weights file: {0}")]
    Json(String),
    #[error("weights file: its features ({theirs}) are not this build's ({ours})")]
    Features { theirs: String, ours: String },
    #[error("weights file: {weights} weights for {features} features")]
    Count { weights: usize, features: usize },
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
    pub fn value(&self, f: &[f64]) -> f64 {
        f.iter().zip(&self.weights).map(|(x, w)| x * w).sum()
    }

    /// The mover's predicted final margin in `game`: their value less the best other's.
    pub fn margin(&self, game: &impl Featured, mover: u8) -> f64 {
        debug_assert_eq!(game.feature_set(), self.set, "a model weighs its own game's features");
        let values: Vec<f64> = game.features().iter().map(|f| self.value(f)).collect();
        let best_other = (values.iter().enumerate())
            .filter(|&(p, _)| p != usize::from(mover))
            .map(|(_, &v)| v)
            .reduce(f64::max)
            .unwrap_or(0.0);
        values[usize::from(mover)] - best_other
    }

    /// Reads a weights file for `set`, checking it names the set's features in order.
    pub fn parse(text: &str, set: FeatureSet) -> Result<Model, WeightsError> {
        let file: WeightsFile = serde_json::from_str(text).map_err(|e| WeightsError::Json(e.to_string()))?;
        if file.game != set.game_name() || file.features != set.names() {
            return Err(WeightsError::Features {
                theirs: format!("{}: {:?}", file.game, file.features),
                ours: format!("{}: {:?}", set.game_name(), set.names()),
            });
        }
        if file.weights.len() != set.names().len() {
            return Err(WeightsError::Count {
                weights: file.weights.len(),
                features: set.names().len(),
            });
        }
        Ok(Model {
            set,
            weights: file.weights,
        })
    }
}

/// The shipped weights for a game of `kind`: the base game's (every base-game rulebook), New
/// World's and the Card Game's.
pub fn for_game(kind: GameKind) -> &'static Model {
    static TILE_GAME: LazyLock<Model> =
        LazyLock::new(|| shipped(include_str!("weights/carcassonne.json"), FeatureSet::TileGame));
    static NEW_WORLD: LazyLock<Model> =
        LazyLock::new(|| shipped(include_str!("weights/new-world.json"), FeatureSet::NewWorld));
    static CARD_GAME: LazyLock<Model> =
        LazyLock::new(|| shipped(include_str!("weights/card-game.json"), FeatureSet::CardGame));
    match FeatureSet::of_kind(kind) {
        FeatureSet::TileGame => &TILE_GAME,
        FeatureSet::NewWorld => &NEW_WORLD,
        FeatureSet::CardGame => &CARD_GAME,
    }
}

/// Shipped weights, parsed once: the build's own file, so a failure is a bug.
fn shipped(text: &str, set: FeatureSet) -> Model {
    Model::parse(text, set).expect("the shipped weights parse")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game ships weights for its own features, and each predicts its held-out games
    /// better than what it replaced: the tile games' fitted worths, the Card Game's score if
    /// the game ended.
    #[test]
    fn the_shipped_weights_parse_and_name_every_feature() {
        for (kind, text) in [
            (GameKind::Carcassonne, include_str!("weights/carcassonne.json")),
            (GameKind::NewWorld, include_str!("weights/new-world.json")),
            (GameKind::CardGame, include_str!("weights/card-game.json")),
        ] {
            let model = for_game(kind);
            assert_eq!(model.set, FeatureSet::of_kind(kind));
            assert_eq!(model.weights.len(), model.set.names().len());
            assert_eq!(model.weights[0], 1.0, "at the end the value is the final margin");
            let file: WeightsFile = serde_json::from_str(text).unwrap();
            let before = file.fit.r2_worth_held_out.unwrap_or(file.fit.r2_ended_held_out);
            assert!(
                file.fit.r2_held_out > before,
                "{kind:?}: the shipped weights predict games they never saw better than before: {:?}",
                file.fit
            );
        }
    }

    #[test]
    fn a_weights_file_for_other_features_is_refused() {
        let text = r#"{"game":"carcassonne","features":["a"],"weights":[1.0],"fit":{"games":1,"positions":1,"held_out_positions":0,"seed":1,"policy":"weighed","every":3,"r2_held_out":0.0,"r2_worth_held_out":0.0,"r2_ended_held_out":0.0,"seconds":0.0}}"#;
        let err = Model::parse(text, FeatureSet::TileGame).unwrap_err().to_string();
        assert!(err.contains("not this build's"), "{err}");
        let err = Model::parse(include_str!("weights/carcassonne.json"), FeatureSet::NewWorld)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not this build's"),
            "a game's weights on another game's features: {err}"
        );
    }
}

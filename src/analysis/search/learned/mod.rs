//! The learned evaluation: what the search ([`super`]) values a position at its horizon.
//!
//! A linear model predicts the mover's final margin (their final score less the best
//! opponent's) from the board [`features`] of each player: a player's value is `w · f`, and
//! the mover's margin is their value less the best other player's. The weights `w` are fitted
//! by ridge least squares ([`fit`]) on the final margins of self-play games ([`train`]), on the
//! difference of the mover's and the best opponent's features. Each tile game has its own
//! features ([`features::FeatureSet`]) and its own weights file.
//!
//! **The base game's weights** (`weights/carcassonne.json`, second edition, two players) are
//! the second round of self-play:
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
//! `bench judge`, figures in `static/docs/analysis.md`): `search:45` against the search with
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
//! is scored by the engine under the game's own rules.
//!
//! **New World's weights** (`weights/new-world.json`, two players, the sample tiles `generate`
//! plays) were made the same way, in two rounds:
//! 1. `train --game new-world --games 100000 --seed 1 --policy weighed`: 2 million positions,
//!    40 s, held-out R² 0.577 (the fitted worths 0.541);
//! 2. with those built in, `train --game new-world --games 1000 --seed 2 --policy
//!    search-samples:80`: 20,000 positions, 29 minutes on 2 cores, held-out R² 0.432 (the
//!    fitted worths 0.374).
//!
//! In the second round a settler in supply weighs `18.9 s − 27.4 s²` with `s` the share of
//! the pack left: at most about 3.3 points of margin, a third of the pack from the end, and
//! below zero with more than two thirds left. There the settlers on the board carry the cost
//! of placing one, each by where it stands: a trapper, who never comes home, −9.9 × `s`; a
//! farmer −7.3 × `s`; a settler on a feature that may never complete −9.0 × `s` × its chance of
//! staying out.

//! **The Card Game's weights** (`weights/card-game.json`, two players) are its own, over what a
//! player holds between two rounds (`features::card_game`): its samples stop at the end of the
//! round under way, played there by the greedy bot. Two rounds:
//! 1. `train --game card-game --games 50000 --seed 1 --policy sampled`: games between sampled
//!    bots (greedy, a random action one time in four: between greedy bots the games of a deal
//!    are all alike), every player's position between every two rounds, a million positions in
//!    2 s; held-out R² 0.432, the score if the game ended alone 0.410.
//! 2. With those built in, `train --game card-game --games 1000 --seed 2 --policy
//!    search-samples:600`: 20,000 positions, 132 s on 2 cores; held-out R² 0.484 (0.465).
//!
//! A third round from those (`--seed 3`) fits much the same weights. The pages' analysis
//! valued this way beats the one it replaced, whose samples the greedy bot played to the end
//! of the game, in 194 games of 200 in a quarter of the time (figures in
//! `static/docs/analysis.md`). An Animal Joker waiting for a herd weighs 13 points of margin
//! times the share of the rounds left: it joins the next herd, which scores again as it grows.

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
    pub fn parse(text: &str, set: FeatureSet) -> Result<Model, String> {
        let file: WeightsFile = serde_json::from_str(text).map_err(|e| format!("weights file: {e}"))?;
        if file.game != set.game_name() || file.features != set.names() {
            return Err(format!(
                "weights file: its features ({}: {:?}) are not this build's ({}: {:?})",
                file.game,
                file.features,
                set.game_name(),
                set.names()
            ));
        }
        if file.weights.len() != set.names().len() {
            return Err(format!(
                "weights file: {} weights for {} features",
                file.weights.len(),
                set.names().len()
            ));
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
        let err = Model::parse(text, FeatureSet::TileGame).unwrap_err();
        assert!(err.contains("not this build's"), "{err}");
        let err = Model::parse(include_str!("weights/carcassonne.json"), FeatureSet::NewWorld).unwrap_err();
        assert!(
            err.contains("not this build's"),
            "a game's weights on another game's features: {err}"
        );
    }
}

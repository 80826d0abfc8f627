//! A position's board features, per player: the fixed vector the learned evaluation weighs,
//! one set per game ([`FeatureSet`]).
//!
//! Every number comes from the engine: the score if the game ended now is the engine's final
//! scoring ([`Game::end_scores`]), and an open feature's gain is [`Game::worth`] completed less
//! at the end; nothing here scores a feature itself. What a figure may still bring depends on how much of
//! the game is left, so those counts are multiplied by the share of the pack left (and once
//! more by it, where a count's worth fades faster than the pack). The first feature of every
//! set, the score if the game ended now, weighs 1 in every model: at the end of the game every
//! other feature is zero, and the value is the final margin itself.
//!
//! Features run at every search sample's horizon: one pass over the segments, then one
//! [`Game::worth`] and one completion outlook per occupied open feature (a handful).

pub(crate) mod card_game;
mod new_world;
mod tile_game;

use crate::analysis::completion::quick_completion_chance;
use crate::engine::cards::CardGame;
use crate::engine::features::{Counts, Meeple, Players, majority};
use crate::engine::{Game, GameKind, SegId};

/// Which game's features: each game has its own figures and features, so its own vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureSet {
    /// The base game under every rulebook: roads, cities, cloisters, fields, the abbot.
    TileGame,
    /// New World: trails, towns, farms, plains, and the surveyors that send settlers home.
    NewWorld,
    /// The Card Game between two rounds: scores, chests and herds.
    CardGame,
}

impl FeatureSet {
    pub const ALL: [FeatureSet; 3] = [FeatureSet::TileGame, FeatureSet::NewWorld, FeatureSet::CardGame];

    /// The features of a game of `kind`.
    pub fn of_kind(kind: GameKind) -> FeatureSet {
        match kind {
            GameKind::Carcassonne => FeatureSet::TileGame,
            GameKind::NewWorld => FeatureSet::NewWorld,
            GameKind::CardGame => FeatureSet::CardGame,
        }
    }

    /// The name the weights file and `train --game` use.
    pub fn game_name(self) -> &'static str {
        match self {
            FeatureSet::TileGame => "carcassonne",
            FeatureSet::NewWorld => "new-world",
            FeatureSet::CardGame => "card-game",
        }
    }

    /// The features' names, in vector order (the weights file lists them to be checked).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            FeatureSet::TileGame => &tile_game::NAMES,
            FeatureSet::NewWorld => &new_world::NAMES,
            FeatureSet::CardGame => &card_game::NAMES,
        }
    }
}

/// A position the learned evaluation reads: its game's [`FeatureSet`], and every player's
/// features in seat order, each in the set's [`FeatureSet::names`] order.
pub trait Featured {
    fn feature_set(&self) -> FeatureSet;
    fn features(&self) -> Vec<Vec<f64>>;
}

impl Featured for Game {
    fn feature_set(&self) -> FeatureSet {
        FeatureSet::of_kind(self.kind())
    }

    fn features(&self) -> Vec<Vec<f64>> {
        match self.kind() {
            GameKind::NewWorld => new_world::of(self).into_iter().map(Vec::from).collect(),
            _ => tile_game::of(self).into_iter().map(Vec::from).collect(),
        }
    }
}

impl Featured for CardGame {
    fn feature_set(&self) -> FeatureSet {
        FeatureSet::CardGame
    }

    fn features(&self) -> Vec<Vec<f64>> {
        card_game::of(self).into_iter().map(Vec::from).collect()
    }
}

/// The share of the game's tiles still in the pack.
pub fn pack_share(game: &Game) -> f64 {
    let tiles_in_game = game.pack_left() + game.board().tiles().len() as u32;
    f64::from(game.pack_left()) / f64::from(tiles_in_game.max(1))
}

/// The score each player would have if the game ended now: the engine's final scoring
/// ([`Game::end_scores`]).
fn scores_if_ended(game: &Game) -> Vec<f64> {
    game.end_scores().map(f64::from).collect()
}

/// How many features [`common`] writes.
const COMMON: usize = 5;

/// The features every set starts with, for one player: the score if the game ended now
/// (`end`), and times the share of the pack left; the followers in supply times the share,
/// and times its square; and the share when the supply is empty.
fn common(end: f64, followers: u8, share: f64) -> [f64; COMMON] {
    let supply = f64::from(followers);
    [
        end,
        end * share,
        supply * share,
        supply * share * share,
        if followers == 0 { share } else { 0.0 },
    ]
}

/// Every player's vector, in seat order: the [`common`] features, then `rest` of the player's
/// counts and the share of the pack left (`M` of them, so that `COMMON + M = N`).
fn per_player<C, const M: usize, const N: usize>(
    game: &Game,
    counts: Vec<C>,
    rest: impl Fn(&C, f64) -> [f64; M],
) -> Vec<[f64; N]> {
    const { assert!(COMMON + M == N) };
    let share = pack_share(game);
    (game.players().iter().zip(scores_if_ended(game)).zip(counts))
        .map(|((now, end), c)| {
            let mut f = [0.0; N];
            f[..COMMON].copy_from_slice(&common(end, now.followers, share));
            f[COMMON..].copy_from_slice(&rest(&c, share));
            f
        })
        .collect()
}

/// Every player's counts from the figures on the board: `place` counts one figure where it
/// stands (its segment) and says whether its feature's outlook counts too; then `feature` adds
/// each of those features once, by its root, to its players' counts.
fn count_figures<C: Clone + Default>(
    game: &Game,
    mut place: impl FnMut(&mut C, SegId, Meeple) -> bool,
    feature: impl Fn(&Game, SegId, &mut [C]),
) -> Vec<C> {
    let mut counts = vec![C::default(); game.players().len()];
    let features = game.features();
    let mut roots = Vec::new();
    for s in 0..features.len() as SegId {
        let Some(meeple) = features.meeple_on(s) else {
            continue;
        };
        if place(&mut counts[usize::from(meeple.player)], s, meeple) {
            roots.push(features.root(s));
        }
    }
    roots.sort_unstable();
    roots.dedup();
    for root in roots {
        feature(game, root, &mut counts);
    }
    counts
}

/// An occupied feature that may still be completed: who stands on it, what completing it
/// would add to its owners, and its chance of completion for the first owner's draws
/// ([`quick_completion_chance`]).
struct OpenFeature {
    meeples: Counts,
    owners: Players,
    gain: u32,
    chance: f64,
}

impl OpenFeature {
    /// The feature of `root`, unless it is completed or can never be.
    fn of(game: &Game, root: SegId) -> Option<OpenFeature> {
        let worth = game.worth(root);
        let (false, Some(done)) = (worth.is_complete, worth.completed) else {
            return None;
        };
        let meeples = game.features().count_meeples(root);
        let owners = majority(&meeples);
        let first = owners.iter().next().unwrap_or(0);
        let chance = match game.pack_left() {
            0 => 0.0,
            _ => quick_completion_chance(game, root, first),
        };
        Some(OpenFeature {
            meeples,
            owners,
            gain: done.saturating_sub(worth.at_end.unwrap_or(0)),
            chance,
        })
    }

    /// Player `p`'s followers on it, times the chance it is never completed: they stay out of
    /// the supply.
    fn stuck(&self, p: usize) -> f64 {
        f64::from(self.meeples[p]) * (1.0 - self.chance)
    }

    /// What it adds to `p` if `p` owns it: its gain, and its gain times its chance.
    fn owned_gain(&self, p: usize) -> Option<(u32, f64)> {
        (self.owners.contains(p as u8)).then(|| (self.gain, f64::from(self.gain) * self.chance))
    }
}

//! What one sampled future of a move is worth to its mover: the one thing the analysis asks of
//! a game.
//!
//! **Why a trait.** Every game's analysis is the same algorithm ([`super::weighing`]): rank the
//! legal moves on sampled futures, weigh the chosen one, its rivals and the move played again
//! on fresh futures, and search under a budget by the same ranking. What differs between the
//! games is only what a future is: in the tile games the pack shuffled and played out (to the
//! end by random and greedy players, or to the search's horizon by the search's bots and
//! valued there); in the Card Game the cards the mover cannot see dealt at random, then played
//! out by the patient bot. So a game implements [`Sampled`] once, and the rest is written over it.
//!
//! Future `j` comes from one seed ([`Seeds::of`]) whatever the move, so moves meet the same
//! futures (common random numbers), and a sample depends on nothing else, so a result is the
//! same on any number of threads.

use crate::engine::Position;
use crate::engine::bots::Rng;
use std::ops::Range;

/// A game the analysis can weigh: what a sampled future of a move is worth to its mover.
pub trait Sampled: Position<TurnMove: Send + Sync> + Sync {
    /// How a sample plays its future out: the game's own settings of a sample.
    type Playout: Sync;
    /// Moves weighed again on fresh futures besides the chosen one and the move played: a few
    /// where a turn has tens of moves, all of them where it has a handful.
    const RIVALS: usize;

    /// The values to the player to move of futures `futures` of `mv` played here, in that
    /// order: future `j` drawn from `seeds.of(j)` and nothing else.
    fn sample(&self, mv: &Self::TurnMove, playout: &Self::Playout, seeds: Seeds, futures: Range<u32>) -> Vec<i32>;
}

/// Where the futures of a turn come from: the seed of future `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    /// [`playout_seed`] of a seed, a turn and `j`: the tile analysis's, and every search's
    /// (turn 0).
    Mixed { seed: u64, turn: u32 },
    /// The seed XOR (`j` + 1) × the golden ratio: the Card Game analysis's futures, kept so
    /// that the Card Game analyses already stored stay what this analysis gives.
    Spread(u64),
}

impl Seeds {
    /// The seed of future `j`.
    pub fn of(self, j: u32) -> u64 {
        match self {
            Seeds::Mixed { seed, turn } => playout_seed(seed, turn, j),
            Seeds::Spread(seed) => seed ^ (u64::from(j) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        }
    }

    /// Other futures, apart from these: the ones the verdict weighs on.
    pub fn fresh(self) -> Seeds {
        match self {
            Seeds::Mixed { seed, turn } => Seeds::Mixed {
                seed: seed ^ RECHECK_SALT,
                turn,
            },
            Seeds::Spread(seed) => Seeds::Spread(seed ^ RECHECK_SALT),
        }
    }
}

/// Keeps the fresh futures apart from the ones that chose the best move.
pub(crate) const RECHECK_SALT: u64 = 0x7265_6368_6563_6b21;

/// Summed playout margins, kept as integers so that adding partial sums from several threads
/// in any order gives the same result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub count: u32,
    pub sum: i64,
    pub sum_sq: i64,
}

impl Tally {
    pub fn add(&mut self, margin: i32) {
        self.count += 1;
        self.sum += i64::from(margin);
        self.sum_sq += i64::from(margin) * i64::from(margin);
    }

    /// The tally of `values`.
    pub fn of(values: &[i32]) -> Tally {
        let mut t = Tally::default();
        values.iter().for_each(|&v| t.add(v));
        t
    }

    pub fn merge(&mut self, other: Tally) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        self.sum as f64 / f64::from(self.count)
    }

    /// Standard error of the mean.
    pub fn std_error(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = f64::from(self.count);
        let var = (self.sum_sq as f64 - self.sum as f64 * self.sum as f64 / n) / (n - 1.0);
        (var.max(0.0) / n).sqrt()
    }
}

/// The seed of playout `j` at `turn`: independent of the alternative (common random numbers)
/// and of the thread that runs it.
pub fn playout_seed(seed: u64, turn: u32, j: u32) -> u64 {
    // Each input goes through a full SplitMix step before the next joins: XOR-ing them
    // together would let seeds 1 and 2 produce the same set of playout seeds.
    let mix = |state: u64, input: u64| Rng::new(state ^ input).next_u64();
    mix(mix(mix(0, seed), u64::from(turn)), u64::from(j))
}

//! Monte Carlo playouts: finish the game many times from the position after an alternative,
//! drawing the rest of the pack in a random order, and average the mover's final margin.
//!
//! The future is sampled from `Game::pack` (the tiles not yet drawn, shuffled), never from the
//! record's later moves. Playout `j` of a turn uses the same seed for every alternative of that
//! turn (common random numbers): alternatives meet the same draw orders, so the differences
//! between them are measured with less noise than their absolute values.
//!
//! This is the tile games' [`Sampled`]: what one future of a move is worth, to the end or to
//! the search's horizon ([`Future`]).

use super::endgame;
use super::halving::{self, SearchOptions};
use super::sampled::{Sampled, Seeds};
use super::search::{self, HorizonEval};
use super::verdict;
use super::{alternatives, weighing};
use crate::engine::bots::{self, Policy, Rng, Scratch, margin};
use crate::engine::{Game, Move, TileKindId};
use std::ops::Range;

/// What the search found: every legal move with its samples' values (the mover's value at the
/// horizon, `horizon_value`), the chosen one first.
pub type SearchResult = halving::SearchResult<Move>;

/// Searches `before` with `tile` drawn, its horizon valued by `eval`: the one search
/// ([`weighing::search`]) over the tile's legal moves, each sample a future up to the horizon
/// ([`Future::Horizon`]). `None` when the tile fits nowhere.
pub fn search_with(before: &Game, tile: TileKindId, opts: &SearchOptions, eval: HorizonEval) -> Option<SearchResult> {
    let (_, moves) = alternatives::enumerate(before, tile);
    weighing::search(before, &moves, opts, &Future::Horizon(eval))
}

/// The policy of playout `j`: a `greedy_share` of them play the sampled greedy bot, spread so
/// that every first `n` playouts hold their share (a pruned alternative's few playouts are as
/// realistic as a survivor's many), the rest randomly.
pub fn policy_of(j: u32, greedy_share: f64) -> Policy {
    let greedy_before = |n: u32| (f64::from(n) * greedy_share).floor();
    if greedy_before(j + 1) > greedy_before(j) {
        Policy::Sampled
    } else {
        Policy::Random
    }
}

/// Plays the game out from `after` and returns `mover`'s final score minus the best opponent's.
pub fn playout(after: &Game, mover: u8, seed: u64, policy: Policy, scratch: &mut Scratch) -> i32 {
    let mut game = scratch.spares.copy_of(after);
    bots::play_out(&mut game, policy, &mut Rng::new(seed), scratch);
    let value = margin(game.players().iter().map(|p| p.score), mover);
    scratch.spares.give_back(game);
    value
}

/// How a tile game's sample plays its future out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Future {
    /// The game to its end ([`playout`]), a `greedy_share` (0 to 1) of the samples by the
    /// sampled greedy bot ([`policy_of`]), the rest randomly: the value is the final margin.
    ToTheEnd { greedy_share: f64 },
    /// A few tiles per player by the search's bots, valued at the search's horizon by `eval`
    /// (`search::sample_after`).
    Horizon(HorizonEval),
}

impl Future {
    /// Future `j`, drawn from `seed`, from `after`: `mover`'s value.
    pub(crate) fn value(self, after: &Game, mover: u8, seed: u64, j: u32, scratch: &mut Scratch) -> i32 {
        match self {
            Future::ToTheEnd { greedy_share } => playout(after, mover, seed, policy_of(j, greedy_share), scratch),
            Future::Horizon(eval) => search::sample_after(after, mover, eval, &mut Rng::new(seed), scratch),
        }
    }
}

/// A tile game's future: the pack shuffled, then played as [`Future`] says.
impl Sampled for Game {
    type Playout = Future;
    const RIVALS: usize = verdict::RIVALS;

    fn sample(&self, mv: &Move, future: &Future, seeds: Seeds, futures: Range<u32>) -> Vec<i32> {
        let mut after = self.clone();
        after.play_listed(mv, &mut Vec::new());
        let mut scratch = Scratch::default();
        let mover = self.current_player();
        if after.pack_left() <= endgame::EXACT_TILES {
            return exact_samples(&after, mover, seeds, futures, future, &mut scratch);
        }
        (futures.map(|j| future.value(&after, mover, seeds.of(j), j, &mut scratch))).collect()
    }
}

/// Futures of the last tiles ([`endgame`]): each order drawn is played exactly, once (a few
/// tiles have only a few orders, and one has only one). Where the order is too long for that
/// (two tiles among three players or more), each future is sampled as any other.
fn exact_samples(
    after: &Game,
    mover: u8,
    seeds: Seeds,
    futures: Range<u32>,
    future: &Future,
    scratch: &mut Scratch,
) -> Vec<i32> {
    let mut known: Vec<(Vec<TileKindId>, i32)> = Vec::new();
    let mut value = |j: u32| {
        let seed = seeds.of(j);
        let order = bots::shuffled_bag(after, &mut Rng::new(seed));
        if let Some(&(_, v)) = known.iter().find(|(o, _)| *o == order) {
            return v;
        }
        match endgame::exact_margin(after, mover, &order) {
            Some(v) => {
                known.push((order, v));
                v
            }
            None => future.value(after, mover, seed, j, scratch),
        }
    };
    futures.map(&mut value).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::sampled::{Tally, playout_seed};

    /// Nearby seeds must not share playout seeds (XOR mixing once made seeds 1 and 2 run the
    /// same playouts in another order).
    #[test]
    fn nearby_seeds_run_different_playouts() {
        let set = |seed| {
            let mut v: Vec<u64> = (0..256).map(|j| playout_seed(seed, 7, j)).collect();
            v.sort_unstable();
            v
        };
        for (a, b) in [(0, 1), (1, 2), (2, 3)] {
            let (x, y) = (set(a), set(b));
            assert!(x.iter().all(|s| y.binary_search(s).is_err()), "seeds {a} and {b}");
        }
        assert_ne!(playout_seed(0, 1, 0), playout_seed(0, 0, 1));
    }

    /// Every first n playouts hold the greedy share, rounded down.
    #[test]
    fn greedy_playouts_are_spread_over_every_prefix() {
        for share in [0.0, 0.25, 0.5, 1.0] {
            let mut greedy = 0;
            for j in 0..200 {
                greedy += u32::from(policy_of(j, share) == Policy::Sampled);
                assert_eq!(
                    f64::from(greedy),
                    (f64::from(j + 1) * share).floor(),
                    "share {share}, {j}"
                );
            }
        }
    }

    #[test]
    fn tallies_merge_in_any_order() {
        let (mut a, mut b, mut all) = (Tally::default(), Tally::default(), Tally::default());
        for m in [3, -4, 10] {
            a.add(m);
            all.add(m);
        }
        for m in [0, 7] {
            b.add(m);
            all.add(m);
        }
        let mut ba = b;
        ba.merge(a);
        a.merge(b);
        assert_eq!(a, all);
        assert_eq!(ba, all);
        assert!((all.mean() - 3.2).abs() < 1e-12);
    }
}

//! Monte Carlo playouts: finish the game many times from the position after an alternative,
//! drawing the rest of the pack in a random order, and average the mover's final margin.
//!
//! The future is sampled from `Game::pack` (the tiles not yet drawn, shuffled), never from the
//! record's later moves. Playout `j` of a turn uses the same seed for every alternative of that
//! turn (common random numbers): alternatives meet the same draw orders, so the differences
//! between them are measured with less noise than their absolute values.

use super::evaluate::margin;
use crate::engine::playout::{Rng, play_random, random_placement, shuffled_bag};
use crate::engine::{Action, Event, Figure, Game, Move, Placement, TileKindId};

/// How the players choose moves during a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random legal moves (the engine's `play_random`).
    Random,
    /// The best of a few sampled moves by the margin they gain at once (see `greedy_move`).
    Greedy,
}

/// Sampled placements the greedy policy compares per turn; each is tried without a meeple and
/// with one random deployment. Small, because every candidate costs a copy of the game.
pub const GREEDY_SAMPLE: usize = 3;

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

/// The policy of playout `j` of `count`: the first `greedy_share` of them are greedy.
pub fn policy_of(j: u32, count: u32, greedy_share: f64) -> Policy {
    let greedy = (f64::from(count) * greedy_share).round() as u32;
    if j < greedy { Policy::Greedy } else { Policy::Random }
}

/// Buffers a playout reuses.
#[derive(Default)]
pub struct Scratch {
    events: Vec<Event>,
    placements: Vec<Placement>,
    actions: Vec<Action>,
}

/// Plays the game out from `after` and returns `mover`'s final score minus the best opponent's.
pub fn playout(after: &Game, mover: u8, seed: u64, policy: Policy, scratch: &mut Scratch) -> i32 {
    let mut game = after.clone();
    let mut rng = Rng::new(seed);
    match policy {
        Policy::Random => play_random(&mut game, &mut rng, &mut scratch.events),
        Policy::Greedy => play_greedy(&mut game, &mut rng, scratch),
    }
    final_margin(&game, mover)
}

fn final_margin(game: &Game, mover: u8) -> i32 {
    margin(game.players().iter().map(|p| p.score), mover)
}

/// Like `play_random`, with `greedy_move` choosing each move.
fn play_greedy(game: &mut Game, rng: &mut Rng, scratch: &mut Scratch) {
    for tile in shuffled_bag(game, rng) {
        scratch.events.clear();
        match greedy_move(game, tile, rng, scratch) {
            Some(mv) => game.play_listed(&mv, &mut scratch.events),
            // No placement exists: the rules set the tile aside, which cannot fail here.
            None => {
                let _ = game.discard(tile, &mut scratch.events);
            }
        }
    }
    scratch.events.clear();
    game.finish(&mut scratch.events);
}

/// Samples `GREEDY_SAMPLE` placements; for each, tries no meeple and one random deployment, and
/// keeps the move gaining the most margin now. A deployment that scores nothing yet still wins a
/// tie while the player has more than two followers, or the bot would never place any.
fn greedy_move(game: &Game, tile: TileKindId, rng: &mut Rng, scratch: &mut Scratch) -> Option<Move> {
    let me = game.current_player();
    let before = final_margin(game, me);
    let mut best: Option<(i32, Move)> = None;
    for _ in 0..GREEDY_SAMPLE {
        let placement = random_placement(game, tile, rng, &mut scratch.placements)?;
        game.actions(tile, placement, &mut scratch.actions);
        let deploy = match scratch.actions.len() {
            1 => None,
            n => Some(scratch.actions[1 + rng.below(n - 1)]),
        };
        for action in std::iter::once(Action::Pass).chain(deploy) {
            let mv = Move {
                tile,
                placement,
                action,
            };
            let value = greedy_value(game, &mv, me, before, &mut scratch.events);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, mv));
            }
        }
    }
    best.map(|(_, mv)| mv)
}

/// Twice the margin gained, plus one for a follower deployed while supply lasts.
fn greedy_value(game: &Game, mv: &Move, me: u8, before: i32, events: &mut Vec<Event>) -> i32 {
    let mut after = game.clone();
    events.clear();
    after.play_listed(mv, events);
    let keen = matches!(
        mv.action,
        Action::Deploy {
            figure: Figure::Follower,
            ..
        }
    ) && game.players()[me as usize].followers > 2;
    2 * (final_margin(&after, me) - before) + i32::from(keen)
}

#[cfg(test)]
mod tests {
    use super::*;

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

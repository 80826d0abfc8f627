//! A search for the drawn tile's best move: Monte Carlo tree search over determinizations of
//! the unseen tiles, its first step toward the analysis of issue 12.
//!
//! - **Determinized.** Each iteration shuffles the pack (the tiles not yet drawn; never a
//!   record's later draws) into one possible future and plays it out.
//! - **Budget on the moves that matter.** The root's moves are ordered by the heuristic
//!   ([`super::evaluate`]) and widened progressively: after n iterations the best
//!   `⌈2√(n+1)⌉` are in play, and UCB1 shares the iterations among them.
//! - **Opponents reply.** The player after the mover answers with the greedy move (the most
//!   points now, of every legal move) for the tile the determinization gives them; the rest of
//!   the game is played by random players, or in a quarter of the futures by the sampled
//!   greedy bot, as the flat analysis mixes them.
//! - **Parallel.** Each thread grows its own tree from its own seed (root parallelism); the
//!   visits and margins add up.
//!
//! The move chosen is the most visited. Values are final margins, so farms and the meeples
//! left in supply count as the game's end counts them.

use super::alternatives;
use super::evaluate::{self, Baseline};
use super::playout::{Tally, playout_seed};
use crate::engine::bots::{self, Policy, Rng, Scratch, margin, shuffled_bag};
use crate::engine::{Game, Move, TileKindId};
use std::time::{Duration, Instant};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterations per thread: the same on any machine, for tests.
    Iterations(u32),
    /// Wall time for the whole search.
    Time(Duration),
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    pub budget: Budget,
    pub seed: u64,
    /// Threads; 0 uses every core.
    pub threads: usize,
}

/// What the search found: every root move with its visits and mean final margin, most
/// visited first.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub moves: Vec<(Move, Tally)>,
}

impl SearchResult {
    pub fn best(&self) -> Option<Move> {
        self.moves.first().map(|(mv, _)| *mv)
    }

    pub fn iterations(&self) -> u32 {
        self.moves.iter().map(|(_, t)| t.count).sum()
    }
}

/// UCB1's exploration constant, in points of final margin: about a typical margin's spread.
const EXPLORATION: f64 = 20.0;

/// Searches `before` with `tile` drawn. `None` when the tile fits nowhere.
pub fn search(before: &Game, tile: TileKindId, opts: &SearchOptions) -> Option<SearchResult> {
    let (_, moves) = alternatives::enumerate(before, tile);
    if moves.is_empty() {
        return None;
    }
    let moves = by_heuristic(before, moves);
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let deadline = match opts.budget {
        Budget::Time(t) => Some(Instant::now() + t),
        Budget::Iterations(_) => None,
    };
    let trees: Vec<Vec<Tally>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let moves = &moves;
                s.spawn(move || grow(before, moves, opts, deadline, t as u64))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread"))
            .collect()
    });
    let mut tallies = vec![Tally::default(); moves.len()];
    for tree in trees {
        for (all, t) in tallies.iter_mut().zip(tree) {
            all.merge(t);
        }
    }
    let mut found: Vec<(Move, Tally)> = moves.into_iter().zip(tallies).collect();
    // Most visited first; among equals the better mean, then the heuristic's order.
    found.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(b.1.mean().total_cmp(&a.1.mean())));
    Some(SearchResult { moves: found })
}

/// The moves, best first by the heuristic.
fn by_heuristic(before: &Game, moves: Vec<Move>) -> Vec<Move> {
    let base = Baseline::new(before);
    let mut scratch = Vec::new();
    let mut scored: Vec<(f64, Move)> = moves
        .into_iter()
        .map(|mv| {
            (
                evaluate::evaluate(before, &base, &mv, &mut scratch).heuristic.value(),
                mv,
            )
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|(_, mv)| mv).collect()
}

/// One thread's tree: the root's tallies, by move.
fn grow(before: &Game, moves: &[Move], opts: &SearchOptions, deadline: Option<Instant>, thread: u64) -> Vec<Tally> {
    let mover = before.current_player();
    let mut tallies = vec![Tally::default(); moves.len()];
    let mut scratch = Scratch::default();
    let mut n = 0u32;
    loop {
        let done = match (opts.budget, deadline) {
            (Budget::Iterations(k), _) => n >= k,
            (_, Some(at)) => Instant::now() >= at,
            _ => true,
        };
        if done {
            return tallies;
        }
        let widened = ((2.0 * f64::from(n + 1).sqrt()).ceil() as usize).clamp(1, moves.len());
        let i = select(&tallies[..widened], n);
        let mut rng = Rng::new(playout_seed(opts.seed ^ thread.wrapping_mul(0x9e37_79b9), n, i as u32));
        // As the flat analysis mixes them: a quarter of the futures are played by the sampled
        // greedy bot, more lifelike and about 20 times slower, the rest by random players.
        let rest = if n.is_multiple_of(4) {
            Policy::Sampled
        } else {
            Policy::Random
        };
        tallies[i].add(determinized_playout(
            before,
            &moves[i],
            mover,
            rest,
            &mut rng,
            &mut scratch,
        ));
        n += 1;
    }
}

/// UCB1 over the widened moves: an unvisited one first, in the heuristic's order.
fn select(tallies: &[Tally], n: u32) -> usize {
    if let Some(i) = tallies.iter().position(|t| t.count == 0) {
        return i;
    }
    let ln = f64::from(n.max(1)).ln();
    let ucb = |t: &Tally| t.mean() + EXPLORATION * (ln / f64::from(t.count)).sqrt();
    (0..tallies.len())
        .max_by(|&a, &b| ucb(&tallies[a]).total_cmp(&ucb(&tallies[b])))
        .expect("at least one move is widened")
}

/// Plays `mv`, then one future: the next player's greedy reply, then `rest` to the end.
/// The mover's final margin.
fn determinized_playout(
    before: &Game,
    mv: &Move,
    mover: u8,
    rest: Policy,
    rng: &mut Rng,
    scratch: &mut Scratch,
) -> i32 {
    let mut game = before.clone();
    game.play_listed(mv, &mut Vec::new());
    let bag = shuffled_bag(&game, rng);
    let reply = |k: usize| if k == 0 { Policy::Greedy } else { rest };
    bots::play_bag(&mut game, &bag, reply, rng, scratch);
    margin(game.players().iter().map(|p| p.score), mover)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::record::RulesSpec;
    use crate::record::generate::generate;

    #[test]
    fn the_search_is_repeatable_and_spends_most_on_its_choice() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let (game, played) = super::super::position_before(&record, 21).unwrap();
        let options = SearchOptions {
            budget: Budget::Iterations(300),
            seed: 3,
            threads: 2,
        };
        let a = search(&game, played.tile, &options).unwrap();
        assert_eq!(
            a,
            search(&game, played.tile, &options).unwrap(),
            "the same seed, the same search"
        );
        assert_eq!(a.iterations(), 600, "two threads of 300");
        let top = a.moves[0].1.count;
        assert!(
            a.moves.iter().all(|(_, t)| t.count <= top),
            "the choice is the most visited"
        );
        assert!(
            a.moves.iter().any(|(_, t)| t.count == 0),
            "unpromising moves are never widened"
        );
    }
}

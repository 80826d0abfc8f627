//! A search for the drawn tile's best move: sequential halving over determinizations of the
//! unseen tiles, with short lookahead rollouts evaluated at their horizon.
//!
//! - **Determinized.** Sample `j` shuffles the pack (the tiles not yet drawn; never a record's
//!   later draws) into one possible future. Every move meets the same futures in the same
//!   order (common random numbers), so moves are compared on equal draws.
//! - **Budget on the moves that matter.** Every legal move enters. Each round every survivor
//!   gets the same number of new samples, then the worse half is dropped (sequential halving,
//!   which spends a fixed budget on finding the best move, where UCB1 would spend it on
//!   playing well during the search). Pruning by the heuristic first was tried and measured:
//!   it drops moves the samples would have chosen, and lost far more than it saved.
//! - **Opponents reply.** Each sample plays the next tiles of its future, two per player: every
//!   player, the opponents first, answers their tile with the sampled greedy bot.
//! - **Evaluated at the horizon.** A sample's value is the mover's margin if the game ended
//!   there, with each follower still in supply worth [`MEEPLE_VALUE`] points scaled by the
//!   share of the pack left, as in the heuristic: farms count as the end would count them,
//!   and meeples as a resource. Past the horizon the draws add more noise than signal: a
//!   sample is many times cheaper and less noisy than a playout to the end, so the search
//!   weighs more futures in the same time (measured with `match`; see the README).
//! - **Parallel.** A round's samples are shared between threads; the result does not depend on
//!   their number.
//!
//! The move chosen is the best by mean of the last two.

use super::alternatives;
use super::evaluate::MEEPLE_VALUE;
use super::playout::{Tally, playout_seed};
use super::run_parallel;
use crate::engine::bots::{self, Policy, Rng, Scratch, shuffled_bag};
use crate::engine::{Game, Move, TileKindId};
use std::time::{Duration, Instant};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Samples in all: the same on any machine, for tests.
    Samples(u32),
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

/// What the search found: every legal move with its samples' values (the mover's value at the
/// horizon, [`horizon_value`]), the chosen one first, then by how long they lasted and their
/// means.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub moves: Vec<(Move, Tally)>,
}

impl SearchResult {
    pub fn best(&self) -> Option<Move> {
        self.moves.first().map(|(mv, _)| *mv)
    }

    pub fn samples(&self) -> u32 {
        self.moves.iter().map(|(_, t)| t.count).sum()
    }
}

/// Tiles each sample plays before it is evaluated, per player in the game.
const HORIZON_ROUNDS: usize = 2;
/// Samples each move gets in the first round: enough that the first halving is not a
/// coin toss.
const FIRST_ROUND: u32 = 8;

/// Searches `before` with `tile` drawn. `None` when the tile fits nowhere.
pub fn search(before: &Game, tile: TileKindId, opts: &SearchOptions) -> Option<SearchResult> {
    let (_, moves) = alternatives::enumerate(before, tile);
    if moves.is_empty() {
        return None;
    }
    let start = Instant::now();
    let sampler = Sampler {
        before,
        moves: &moves,
        seed: opts.seed,
        threads: match opts.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        },
        deadline: match opts.budget {
            Budget::Time(t) => Some(start + t),
            Budget::Samples(_) => None,
        },
    };
    let (tallies, survivors) = halve(&sampler, opts.budget, start);
    // The survivors first, by mean; then the rest, by how far they lasted and their means.
    let lasted = |(i, t): &(usize, Tally)| match survivors.contains(i) {
        true => (true, 0),
        false => (false, t.count),
    };
    let mut found: Vec<(usize, Tally)> = tallies.into_iter().enumerate().collect();
    found.sort_by(|a, b| {
        (lasted(b).cmp(&lasted(a)))
            .then(b.1.mean().total_cmp(&a.1.mean()))
            .then(a.0.cmp(&b.0))
    });
    Some(SearchResult {
        moves: found.into_iter().map(|(i, t)| (moves[i], t)).collect(),
    })
}

/// Sequential halving: rounds of samples, each followed by dropping the worse half of the
/// moves, until two are left; they share what is left of the budget. Every move in a round
/// meets the same futures. The tallies of every move, and the survivors.
fn halve(sampler: &Sampler, budget: Budget, start: Instant) -> (Vec<Tally>, Vec<usize>) {
    let mut tallies = vec![Tally::default(); sampler.moves.len()];
    let mut alive: Vec<usize> = (0..sampler.moves.len()).collect();
    let (mut done, mut spent, mut per) = (0u32, 0u32, FIRST_ROUND);
    while per > 0 {
        for (&i, t) in alive.iter().zip(sampler.run(&alive, done..done + per)) {
            tallies[i].merge(t);
        }
        done += per;
        spent += per * alive.len() as u32;
        if sampler.out_of_time() || alive.len() < 2 {
            break;
        }
        alive.sort_by(|&a, &b| tallies[b].mean().total_cmp(&tallies[a].mean()).then(a.cmp(&b)));
        alive.truncate((alive.len() / 2).max(2));
        let left = match (budget, sampler.deadline) {
            (Budget::Samples(total), _) => total.saturating_sub(spent),
            (Budget::Time(_), Some(deadline)) => {
                // Samples the rest of the time holds, at the rate so far.
                let rate = f64::from(spent) / start.elapsed().as_secs_f64().max(1e-6);
                (rate * deadline.saturating_duration_since(Instant::now()).as_secs_f64()) as u32
            }
            (Budget::Time(_), None) => 0,
        };
        // Shared evenly between the halvings still to come.
        let halvings = (alive.len() as f64).log2().ceil().max(1.0) as u32;
        per = left / halvings / alive.len() as u32;
    }
    (tallies, alive)
}

/// Runs samples of moves, in parallel.
struct Sampler<'a> {
    before: &'a Game,
    moves: &'a [Move],
    seed: u64,
    threads: usize,
    deadline: Option<Instant>,
}

/// Samples one work item runs.
const CHUNK: u32 = 4;

impl Sampler<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Samples `range` of each move in `which`; a tally per move of `which`.
    fn run(&self, which: &[usize], range: std::ops::Range<u32>) -> Vec<Tally> {
        let chunks = (range.end - range.start).div_ceil(CHUNK) as usize;
        let partial = run_parallel(which.len() * chunks, self.threads, |job| {
            let mut tally = Tally::default();
            if self.out_of_time() {
                return tally;
            }
            // Chunk-major, so that a deadline cuts every move's samples alike.
            let (chunk, m) = (job / which.len(), job % which.len());
            let mv = &self.moves[which[m]];
            let from = range.start + chunk as u32 * CHUNK;
            let mut scratch = Scratch::default();
            for j in from..(from + CHUNK).min(range.end) {
                let mut rng = Rng::new(playout_seed(self.seed, 0, j));
                tally.add(sample(self.before, mv, &mut rng, &mut scratch));
            }
            tally
        });
        let mut tallies = vec![Tally::default(); which.len()];
        for (job, part) in partial.into_iter().enumerate() {
            tallies[job % which.len()].merge(part);
        }
        tallies
    }
}

/// Plays `mv`, then the next tiles of one future up to the horizon ([`HORIZON_ROUNDS`] per
/// player), everyone playing the sampled greedy bot: the opponents reply as a player would, at a
/// fraction of the greedy bot's cost. The mover's value there, by [`horizon_value`].
fn sample(before: &Game, mv: &Move, rng: &mut Rng, scratch: &mut Scratch) -> i32 {
    let mover = before.current_player();
    let mut game = before.clone();
    game.play_listed(mv, &mut Vec::new());
    let mut bag = shuffled_bag(&game, rng);
    bag.truncate(HORIZON_ROUNDS * game.players().len());
    bots::play_tiles(&mut game, &bag, |_| Policy::Sampled, rng, scratch);
    horizon_value(&game, mover)
}

/// The mover's margin if the game ended now, each player's followers in supply counted at
/// [`MEEPLE_VALUE`] scaled by the share of the pack left; to the nearest point.
fn horizon_value(game: &Game, mover: u8) -> i32 {
    let tiles_in_game = game.pack_left() + game.board().tiles().len() as u32;
    let per_meeple = MEEPLE_VALUE * f64::from(game.pack_left()) / f64::from(tiles_in_game.max(1));
    let mut ended = game.clone();
    ended.finish(&mut Vec::new());
    let value = |p: usize| f64::from(ended.players()[p].score) + per_meeple * f64::from(game.players()[p].followers);
    let best_other = (0..game.players().len())
        .filter(|&p| p != mover as usize)
        .map(value)
        .reduce(f64::max)
        .unwrap_or(0.0);
    (value(mover as usize) - best_other).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::engine::bots::margin;
    use crate::record::RulesSpec;
    use crate::record::generate::generate;

    #[test]
    fn the_search_is_repeatable_and_halves_down_to_its_choice() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let (game, played) = super::super::position_before(&record, 21).unwrap();
        let options = SearchOptions {
            budget: Budget::Samples(600),
            seed: 3,
            threads: 2,
        };
        let a = search(&game, played.tile, &options).unwrap();
        let one_thread = SearchOptions { threads: 1, ..options };
        assert_eq!(
            a,
            search(&game, played.tile, &one_thread).unwrap(),
            "the same seed, the same search, on any number of threads"
        );
        let moves = alternatives::enumerate(&game, played.tile).1.len();
        assert_eq!(a.moves.len(), moves, "every legal move enters");
        assert!(a.samples() <= 600.max(FIRST_ROUND * moves as u32), "{}", a.samples());
        let (first, second) = (a.moves[0].1, a.moves[1].1);
        assert_eq!(first.count, second.count, "the last two meet the same futures");
        assert!(
            a.moves[2..].iter().all(|(_, t)| t.count < first.count),
            "the others were dropped on the way"
        );
        assert!(first.mean() >= second.mean(), "the better of the last two is chosen");
    }

    /// With no tile left to draw the horizon is the end: the value is the final margin. Before
    /// it, followers in supply count: the player with more of them is valued above the margin
    /// the game would end with.
    #[test]
    fn the_horizon_value_is_the_final_margin_at_the_end_and_counts_followers_before() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let replay = crate::replay::replay(&record, None).unwrap();
        let turns = replay.turns.len() as u32;
        let (mut last, mv) = super::super::position_before(&record, turns).unwrap();
        last.play_listed(&mv, &mut Vec::new());
        assert_eq!(last.pack_left(), 0);
        for mover in 0..2 {
            assert_eq!(
                horizon_value(&last, mover),
                margin(replay.final_scores.iter().copied(), mover)
            );
        }
        let mut compared = 0;
        for turn in 2..turns {
            let (game, _) = super::super::position_before(&record, turn).unwrap();
            let supply: Vec<i32> = game.players().iter().map(|p| i32::from(p.followers)).collect();
            if supply[0] == supply[1] {
                continue;
            }
            let mut ended = game.clone();
            ended.finish(&mut Vec::new());
            let if_ended = margin(ended.players().iter().map(|p| p.score), 0);
            let counted = horizon_value(&game, 0) - if_ended;
            assert_eq!(counted.signum(), (supply[0] - supply[1]).signum(), "turn {turn}");
            compared += 1;
        }
        assert!(compared > 5, "{compared}");
    }
}

//! Ranking a turn's moves by rounds of samples, the better moves kept for the next round: the
//! loop under the one analysis and the one search ([`super::weighing`]), whatever the game.
//!
//! Every move enters. Each round every survivor gets the same number of new samples, then the
//! worse ones are dropped, as the [`Schedule`] says:
//! - the search's ([`Schedule::Halving`]) drops the worse half, down to two, who share what is
//!   left of the budget. Sequential halving spends a fixed budget on finding the best move,
//!   where UCB1 would spend it on playing well during the search;
//! - the analysis's ([`Schedule::Rounds`]) values every move: a quarter of its samples for
//!   every move, the rest for the best quarter. Putting the analysis on the search's halving
//!   would change every stored analysis, for a budget it does not have (it gives every move a
//!   fixed number of samples, not a time).
//!
//! Sample `j` of every move is drawn from the same seed (common random numbers), so moves are
//! compared on equal futures.

use super::run_parallel;
use super::sampled::Tally;
use std::ops::Range;
use std::time::{Duration, Instant};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Samples in all: the same on any machine (tests, and training games that must be
    /// reproducible).
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

/// What a search found: every move with its samples' values, the chosen one first, then by how
/// long they lasted and their means.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub moves: Vec<(M, Tally)>,
}

impl<M: Copy> SearchResult<M> {
    /// `moves` in the order [`halve`] ranked their indices.
    pub fn of(moves: &[M], ranked: Vec<(usize, Tally)>) -> SearchResult<M> {
        SearchResult {
            moves: ranked.into_iter().map(|(i, t)| (moves[i], t)).collect(),
        }
    }

    pub fn best(&self) -> Option<M> {
        self.moves.first().map(|(mv, _)| *mv)
    }
}

/// Samples each move gets in the first round: enough that the first halving is not a
/// coin toss.
pub const FIRST_ROUND: u32 = 8;
/// Samples one work item runs for one move: the unit the threads share.
const CHUNK: u32 = 4;
/// Moves that always get every sample of a [`Schedule::Rounds`]: below this many, none is
/// dropped.
pub const SURVIVORS_MIN: usize = 8;

/// How a ranking spends its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// Sequential halving under a budget, down to two: the search's. It spends a budget on
    /// finding the best move.
    Halving(Budget),
    /// `per_move` samples for every move, the analysis's: with `prune` (and more than
    /// [`SURVIVORS_MIN`] moves), a quarter of them for every move first, then the rest for the
    /// best quarter of the moves by that first mean (at least [`SURVIVORS_MIN`]). It values
    /// every move, and spends most on the moves that may be the best.
    Rounds { per_move: u32, prune: bool },
}

/// What a schedule does after a round.
enum Next {
    Stop,
    /// Keep the best `keep` moves, and give each `per` more samples (none: stop there).
    Keep {
        keep: usize,
        per: u32,
    },
}

impl Schedule {
    fn deadline(self, start: Instant) -> Option<Instant> {
        match self {
            Schedule::Halving(Budget::Time(t)) => Some(start + t),
            _ => None,
        }
    }

    /// Samples each of `moves` moves gets first.
    fn first(self, moves: usize) -> u32 {
        match self {
            Schedule::Halving(_) => FIRST_ROUND,
            Schedule::Rounds { per_move, prune } if prune && moves > SURVIVORS_MIN => (per_move / 4).max(1),
            Schedule::Rounds { per_move, .. } => per_move,
        }
    }

    /// After a round: `alive` moves have had `done` samples each, `spent` in all since `start`.
    fn next(self, alive: usize, done: u32, spent: u32, start: Instant) -> Next {
        match self {
            Schedule::Rounds { per_move, .. } if done >= per_move => Next::Stop,
            Schedule::Rounds { per_move, .. } => Next::Keep {
                keep: SURVIVORS_MIN.max(alive / 4),
                per: per_move - done,
            },
            Schedule::Halving(budget) => {
                let keep = (alive / 2).max(2);
                let left = match budget {
                    Budget::Samples(total) => total.saturating_sub(spent),
                    Budget::Time(t) => {
                        // Samples the rest of the time holds, at the rate so far.
                        let rate = f64::from(spent) / start.elapsed().as_secs_f64().max(1e-6);
                        (rate * (start + t).saturating_duration_since(Instant::now()).as_secs_f64()) as u32
                    }
                };
                // Shared evenly between the halvings still to come.
                let halvings = (keep as f64).log2().ceil().max(1.0) as u32;
                Next::Keep {
                    keep,
                    per: left / halvings / keep as u32,
                }
            }
        }
    }
}

/// Threads to run on: `threads`, or every core for 0.
pub fn thread_count(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Ranks `moves` moves by their samples, spent by `schedule`. `samples(m, range)` tallies
/// samples `range` of move `m`; it must depend on nothing else, so that the result is the same
/// on any number of `threads` (0: every core). Every move's index and tally, the survivors
/// first by mean, then the others by how long they lasted and their means.
pub fn halve(
    moves: usize,
    schedule: Schedule,
    threads: usize,
    samples: impl Fn(usize, Range<u32>) -> Tally + Sync,
) -> Vec<(usize, Tally)> {
    let start = Instant::now();
    let runner = Runner {
        threads: thread_count(threads),
        deadline: schedule.deadline(start),
        samples,
    };
    let mut tallies = vec![Tally::default(); moves];
    let mut alive: Vec<usize> = (0..moves).collect();
    let (mut done, mut spent, mut per) = (0u32, 0u32, schedule.first(moves));
    while per > 0 {
        for (&i, t) in alive.iter().zip(runner.run(&alive, done..done + per)) {
            tallies[i].merge(t);
        }
        done += per;
        spent += per * alive.len() as u32;
        if runner.out_of_time() || alive.len() < 2 {
            break;
        }
        let Next::Keep { keep, per: more } = schedule.next(alive.len(), done, spent, start) else {
            break;
        };
        alive.sort_by(|&a, &b| tallies[b].mean().total_cmp(&tallies[a].mean()).then(a.cmp(&b)));
        alive.truncate(keep);
        per = more;
    }
    ranked(tallies, &alive)
}

/// The survivors first, by mean; then the rest, by how far they lasted and their means.
fn ranked(tallies: Vec<Tally>, survivors: &[usize]) -> Vec<(usize, Tally)> {
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
    found
}

/// Runs rounds of samples in parallel.
struct Runner<F> {
    threads: usize,
    deadline: Option<Instant>,
    samples: F,
}

impl<F: Fn(usize, Range<u32>) -> Tally + Sync> Runner<F> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Samples `range` of each move in `which`; a tally per move of `which`.
    fn run(&self, which: &[usize], range: Range<u32>) -> Vec<Tally> {
        let chunks = (range.end - range.start).div_ceil(CHUNK) as usize;
        let partial = run_parallel(which.len() * chunks, self.threads, |job| {
            if self.out_of_time() {
                return Tally::default();
            }
            // Chunk-major, so that a deadline cuts every move's samples alike.
            let (chunk, m) = (job / which.len(), job % which.len());
            let from = range.start + chunk as u32 * CHUNK;
            (self.samples)(which[m], from..(from + CHUNK).min(range.end))
        });
        let mut tallies = vec![Tally::default(); which.len()];
        for (job, part) in partial.into_iter().enumerate() {
            tallies[job % which.len()].merge(part);
        }
        tallies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves whose samples are their index plus noise that every move shares: the halving
    /// keeps the best and gives the last two the most samples, on any number of threads.
    #[test]
    fn halving_keeps_the_best_and_spends_most_on_the_last_two() {
        let noise = |j: u32| (j * 7919 % 13) as i32 - 6;
        let samples = |m: usize, range: Range<u32>| {
            let mut t = Tally::default();
            range.for_each(|j| t.add(m as i32 + noise(j)));
            t
        };
        let budget = Schedule::Halving(Budget::Samples(400));
        let found = halve(10, budget, 2, samples);
        assert_eq!(found, halve(10, budget, 1, samples));
        assert_eq!(found.len(), 10, "every move enters");
        let order: Vec<usize> = found.iter().map(|(m, _)| *m).collect();
        assert_eq!(order[..2], [9, 8], "the best two survive, the best first");
        assert_eq!(found[0].1.count, found[1].1.count, "the last two meet the same samples");
        assert!(found[2..].iter().all(|(_, t)| t.count < found[0].1.count));
        let spent: u32 = found.iter().map(|(_, t)| t.count).sum();
        assert!(spent <= 400, "{spent}");
    }

    /// The analysis's rounds: with pruning, every move gets a quarter of its samples, the best
    /// quarter (at least eight) the rest, and they are listed first; without, every move gets
    /// every sample and the list is by mean alone.
    #[test]
    fn the_analysis_rounds_value_every_move_and_finish_the_best() {
        let samples = |m: usize, range: Range<u32>| {
            let mut t = Tally::default();
            range.for_each(|j| t.add((m % 7) as i32 * 3 + (j % 5) as i32));
            t
        };
        let rounds = |prune| Schedule::Rounds { per_move: 16, prune };
        let pruned = halve(40, rounds(true), 2, samples);
        assert_eq!(pruned, halve(40, rounds(true), 1, samples));
        assert_eq!(pruned.len(), 40, "every move is valued");
        let counts: Vec<u32> = pruned.iter().map(|(_, t)| t.count).collect();
        assert!(
            counts[..10].iter().all(|&c| c == 16),
            "the best quarter gets every sample"
        );
        assert!(
            counts[10..].iter().all(|&c| c == 4),
            "the others keep their first quarter"
        );
        assert!(pruned[..10].iter().all(|(m, _)| m % 7 == 6 || m % 7 == 5), "{pruned:?}");

        let full = halve(40, rounds(false), 2, samples);
        assert!(full.iter().all(|(_, t)| t.count == 16));
        let key = |e: &(usize, Tally)| (-e.1.mean(), e.0);
        assert!(
            full.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "by mean, ties in listing order"
        );
    }
}

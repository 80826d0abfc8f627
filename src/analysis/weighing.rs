//! The one analysis of a turn, for every game ([`Sampled`]): the legal moves ranked on sampled
//! futures, then the chosen one, its rivals and the move played weighed again on fresh
//! futures into a [`verdict::Verdict`]; and the search, the same ranking under a budget.
//!
//! - [`weigh`] is what the pages, the CLI and the API show: every move valued
//!   ([`Schedule::Rounds`]), and the values the list shows measured apart from the samples
//!   that chose the best ([`super::verdict`]).
//! - [`search`] spends a budget of time or samples on finding the best move
//!   ([`Schedule::Halving`]): what a bot plays.
//!
//! A game's own report (the tile game's heuristic and features touched, the Card Game's points
//! scored at once) is built around what these return, by the game's module.

use super::halving::{Schedule, SearchOptions, SearchResult, halve, thread_count};
use super::sampled::Tally;
use super::sampled::{Sampled, Seeds};
use super::verdict;
use super::{Recheck, run_parallel};

/// How [`weigh`] samples a turn.
pub struct Weighing<'a, P: Sampled> {
    /// Samples each move gets, in the ranking and again in the verdict.
    pub per_move: u32,
    /// Whether the ranking gives its later samples to the best moves only
    /// ([`Schedule::Rounds`]).
    pub prune: bool,
    pub playout: &'a P::Playout,
    /// The ranking's futures; the verdict's are [`Seeds::fresh`].
    pub seeds: Seeds,
    /// Threads; 0 uses every core.
    pub threads: usize,
}

/// A turn's moves as the list shows them, and how the move played stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub listed: Vec<Listed>,
    /// Where the move played is in `listed`.
    pub played: Option<usize>,
    /// Where the move the analysis would play is in `listed`: the first listed of the chosen
    /// move and its rivals. The move played, weighed again only because it was played, may be
    /// listed above it; the analysis would not have weighed it again had it not been played.
    pub chosen: usize,
    /// The move played against the best, when it was weighed again.
    pub recheck: Option<Recheck>,
}

/// One move of a [`Judgement`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Listed {
    /// The move's index in the moves weighed.
    pub index: usize,
    /// The samples its value is the mean of.
    pub tally: Tally,
    /// Whether `tally` holds the verdict's fresh futures, rather than the ranking's samples.
    pub rechecked: bool,
    /// 1 for the moves the fresh futures could not tell from the best, else the place listed.
    pub rank: u32,
}

/// Judges `moves` (the legal moves of `pos`, the game's listing order; `played` indexes the
/// move made): ranks them on `how`'s samples, then weighs the chosen one, the game's
/// [`Sampled::RIVALS`] and the move played again on fresh futures. The list puts the moves
/// weighed again first, valued by those futures ([`verdict::Verdict::relist`]).
pub fn weigh<P: Sampled>(pos: &P, moves: &[P::TurnMove], played: Option<usize>, how: &Weighing<P>) -> Judgement {
    let schedule = Schedule::Rounds {
        per_move: how.per_move,
        prune: how.prune,
    };
    let ranked = rank(pos, moves, schedule, how.playout, how.seeds, how.threads);
    let played = played.and_then(|p| ranked.iter().position(|(i, _)| *i == p));
    let which = verdict::to_weigh(ranked.len(), P::RIVALS, played);
    let fresh = run_parallel(which.len(), thread_count(how.threads), |c| {
        let mv = &moves[ranked[which[c]].0];
        pos.sample(mv, how.playout, how.seeds.fresh(), 0..how.per_move)
    });
    let verdict = verdict::judge(&which, &fresh);
    let mut listed: Vec<Listed> = (ranked.into_iter())
        .map(|(index, tally)| Listed {
            index,
            tally,
            rechecked: false,
            rank: 0,
        })
        .collect();
    for w in &verdict.weighed {
        (listed[w.index].tally, listed[w.index].rechecked) = (w.fresh, true);
    }
    let moved = verdict.relist(&mut listed);
    for (i, l) in listed.iter_mut().enumerate() {
        let good = verdict.weighed.get(i).is_some_and(|w| w.is_good());
        l.rank = if good { 1 } else { i as u32 + 1 };
    }
    let chosen = (verdict.weighed.iter()).position(|w| w.index <= P::RIVALS).unwrap_or(0);
    Judgement {
        listed,
        chosen,
        played: played.map(|p| moved[p]),
        recheck: played.and_then(|p| Recheck::of(&verdict, p)),
    }
}

/// The search for the best of `moves` (the legal moves of `pos`) by sequential halving under
/// `opts`' budget, each sample played out by `playout`. `None` when there is no move.
pub fn search<P: Sampled>(
    pos: &P,
    moves: &[P::TurnMove],
    opts: &SearchOptions,
    playout: &P::Playout,
) -> Option<SearchResult<P::TurnMove>> {
    if moves.is_empty() {
        return None;
    }
    let seeds = Seeds::Mixed {
        seed: opts.seed,
        turn: 0,
    };
    let found = rank(pos, moves, Schedule::Halving(opts.budget), playout, seeds, opts.threads);
    Some(SearchResult::of(moves, found))
}

/// `moves` ranked by their samples under `schedule`: each index and tally.
fn rank<P: Sampled>(
    pos: &P,
    moves: &[P::TurnMove],
    schedule: Schedule,
    playout: &P::Playout,
    seeds: Seeds,
    threads: usize,
) -> Vec<(usize, Tally)> {
    halve(moves.len(), schedule, threads, |m, futures| {
        Tally::of(&pos.sample(&moves[m], playout, seeds, futures))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::cards::PLAYOUTS;
    use crate::engine::bots::Policy;

    /// A Card Game turn judged through the one path: the same on one thread and two, every
    /// action listed, the first listed loses nothing, and the played action's loss is no more
    /// than the gap the list shows.
    #[test]
    fn a_card_game_turn_is_judged_the_same_on_any_number_of_threads() {
        let record = crate::selfplay::card_game(2, Policy::Greedy, 3).unwrap();
        let game = crate::replay::cards::position_at(&record, 8).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let played = moves.iter().position(|m| *m == record.moves[8].mv);
        let judged = |threads| {
            let how = Weighing {
                per_move: 16,
                prune: true,
                playout: &PLAYOUTS,
                seeds: Seeds::Spread(5),
                threads,
            };
            weigh(&game, &moves, played, &how)
        };
        let one = judged(1);
        assert_eq!(
            one,
            judged(2),
            "the same seed, the same verdict, on any number of threads"
        );
        assert_eq!(one.listed.len(), moves.len(), "every action is listed");
        assert_eq!(one.listed[0].rank, 1);
        let (played, recheck) = (one.played.unwrap(), one.recheck.unwrap());
        let gap = one.listed[0].tally.mean() - one.listed[played].tally.mean();
        assert!(recheck.points_lost <= gap + 1e-9, "lost {recheck:?}, gap {gap}");
        assert!(
            one.listed.iter().all(|l| l.rechecked),
            "every action of a Card Game turn is weighed again"
        );
    }
}

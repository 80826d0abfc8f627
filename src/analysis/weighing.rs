//! The one analysis of a turn, for every game ([`Sampled`]): the legal moves ranked on sampled
//! futures, then the chosen one, its rivals and the move played weighed again on fresh
//! futures into a [`verdict::Verdict`]; and the search, the same ranking under a budget.
//!
//! - [`weigh`] is what the pages, the CLI and the API show: every move valued
//!   ([`Schedule::Rounds`]), the best ones measured again apart from the samples that chose
//!   them ([`super::verdict`]), and the list in the order of the values it shows.
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
    /// Where the move the analysis would play is in `listed`: the best on the fresh futures of
    /// the chosen move and its rivals. A move weighed again only because it was played, or
    /// because the ranking valued it high, may be listed above it (within the noise, or the
    /// verdict measures losses from it).
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
    /// One more than the moves listed at a higher value: equal values share a rank
    /// ([`verdict::ranks`]).
    pub rank: u32,
}

/// Judges `moves` (the legal moves of `pos`, the game's listing order; `played` indexes the
/// move made): ranks them on `how`'s samples, then weighs the chosen one, the game's
/// [`Sampled::RIVALS`] and the move played again on fresh futures, and any other move the
/// ranking valued above every fresh value, until the best value listed is a fresh one. The
/// list shows every move by its value, best first ([`verdict::ranks`]).
pub fn weigh<P: Sampled>(pos: &P, moves: &[P::TurnMove], played: Option<usize>, how: &Weighing<P>) -> Judgement {
    let schedule = Schedule::Rounds {
        per_move: how.per_move,
        prune: how.prune,
    };
    let ranked = rank(pos, moves, schedule, how.playout, how.seeds, how.threads);
    let played = played.and_then(|p| ranked.iter().position(|(i, _)| *i == p));
    let verdict = judged_again(pos, moves, &ranked, played, how);
    let (listed, moved) = by_value(ranked, &verdict);
    // The best on the fresh futures of the chosen move and its rivals: what the analysis plays.
    let chosen = (verdict.weighed.iter())
        .find(|w| w.index <= P::RIVALS)
        .map_or(0, |w| moved[w.index]);
    Judgement {
        listed,
        chosen,
        played: played.map(|p| moved[p]),
        recheck: played.and_then(|p| Recheck::of(&verdict, p)),
    }
}

/// The verdict on the chosen move of `ranked` (the choosing order), its rivals and the move
/// `played`, weighed again on fresh futures; and on any other move the ranking valued above
/// every fresh mean, which would head the list on a value that leans high: it is weighed again
/// too, until the first move listed is measured as the moves it is compared with.
fn judged_again<P: Sampled>(
    pos: &P,
    moves: &[P::TurnMove],
    ranked: &[(usize, Tally)],
    played: Option<usize>,
    how: &Weighing<P>,
) -> verdict::Verdict {
    let mut which = verdict::to_weigh(ranked.len(), P::RIVALS, played);
    let mut fresh = weigh_again(pos, moves, ranked, &which, how);
    let mut verdict = verdict::judge(&which, &fresh);
    while let Some(top) = verdict.weighed.first().map(|w| w.fresh.mean()) {
        let above: Vec<usize> = (0..ranked.len())
            .filter(|c| !which.contains(c) && ranked[*c].1.mean() > top)
            .collect();
        if above.is_empty() {
            break;
        }
        fresh.extend(weigh_again(pos, moves, ranked, &above, how));
        which.extend(above);
        verdict = verdict::judge(&which, &fresh);
    }
    verdict
}

/// Every move of `ranked` (the choosing order) valued by the verdict's fresh futures where it
/// was weighed again, else by the ranking's samples, best value first and ranked by value
/// ([`verdict::ranks`]); equal values as the verdict lists them, the moves weighed again
/// first. Returns where each went: `moved[index in the choosing order] = place listed`.
fn by_value(ranked: Vec<(usize, Tally)>, verdict: &verdict::Verdict) -> (Vec<Listed>, Vec<usize>) {
    let mut tallies: Vec<(usize, Tally, bool)> = (ranked.into_iter())
        .map(|(index, tally)| (index, tally, false))
        .collect();
    for w in &verdict.weighed {
        tallies[w.index] = (tallies[w.index].0, w.fresh, true);
    }
    let mut order = verdict.listing(tallies.len());
    order.sort_by(|&a, &b| tallies[b].1.mean().total_cmp(&tallies[a].1.mean()));
    let ranks = verdict::ranks(order.iter().map(|&c| tallies[c].1.mean()));
    let mut moved = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        moved[old] = new;
    }
    let listed = (order.iter().zip(ranks))
        .map(|(&c, rank)| {
            let (index, tally, rechecked) = tallies[c];
            Listed {
                index,
                tally,
                rechecked,
                rank,
            }
        })
        .collect();
    (listed, moved)
}

/// The values of the moves at `which` (indices in the choosing order `ranked`) on the fresh
/// futures, every move the same futures.
fn weigh_again<P: Sampled>(
    pos: &P,
    moves: &[P::TurnMove],
    ranked: &[(usize, Tally)],
    which: &[usize],
    how: &Weighing<P>,
) -> Vec<Vec<i32>> {
    run_parallel(which.len(), thread_count(how.threads), |c| {
        let mv = &moves[ranked[which[c]].0];
        pos.sample(mv, how.playout, how.seeds.fresh(), 0..how.per_move)
    })
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

    /// Tile turns of a greedy game, judged on few samples (so the ranking's values are noisy):
    /// the list is in value order and ranked by [`verdict::ranks`], its first move was weighed
    /// again, and a move played that lost points is never too close to call. On some turn a
    /// move the ranking valued above the fresh values is weighed again besides the chosen one,
    /// its rivals and the move played.
    #[test]
    fn a_tile_turn_lists_its_moves_by_value_headed_by_a_fresh_one() {
        use crate::analysis::{AnalysisOptions, analyse_turn};
        use crate::engine::Preset;
        use crate::record::RulesSpec;
        let record = crate::selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 11).unwrap();
        let opts = AnalysisOptions {
            playouts_per_alternative: Some(6),
            threads: 1,
            ..AnalysisOptions::default()
        };
        let mut weighed_beyond = 0;
        for turn in [8, 16, 24, 32, 40] {
            let t = analyse_turn(&record, turn, &opts).unwrap();
            let values: Vec<f64> = t.alternatives.iter().map(|a| a.value).collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "turn {turn}: {values:?}");
            let ranks: Vec<u32> = t.alternatives.iter().map(|a| a.rank).collect();
            assert_eq!(ranks, verdict::ranks(values), "turn {turn}");
            assert!(
                t.alternatives[0].rechecked,
                "turn {turn}: the first listed is a fresh value"
            );
            let recheck = t.recheck.unwrap();
            assert!(
                !recheck.too_close || recheck.points_lost == 0.0,
                "turn {turn}: {recheck:?}"
            );
            let rechecked = t.alternatives.iter().filter(|a| a.rechecked).count();
            weighed_beyond += usize::from(rechecked > verdict::RIVALS + 2);
        }
        assert!(
            weighed_beyond > 0,
            "some turn weighed again a move valued high by the ranking"
        );
    }

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

//! From noisy samples to numbers a reader can check: a turn's best move is chosen on one set of
//! samples, and what the listed moves are worth is measured on another.
//!
//! **Why two sets.** The best of many noisy means leans high: on the samples that chose it, the
//! chosen move was lucky as well as good. Points lost measured against that mean lean high too.
//! Re-weighing the top moves on fresh futures and keeping the best of *those* means rebuilds the
//! same bias. So the move chosen stays the one the choosing samples found, and the fresh
//! samples only measure.
//!
//! **The steps**, for the moves a search ranked (the choosing order):
//! 1. The chosen move, its closest rivals ([`RIVALS`] in a tile turn) and the move played are weighed again on
//!    the same fresh futures (common random numbers: future `j` is the same for each), so their
//!    differences are measured paired.
//! 2. The *anchor* is the chosen move, unless a rival beats it on the fresh futures by more
//!    than the noise ([`NOISE`] standard errors of their paired difference): then the choosing
//!    samples were wrong beyond doubt, and the best such rival is the anchor.
//! 3. A move weighed again is worth its fresh mean. It lost the anchor's fresh mean less its
//!    own when that difference is beyond the noise; within it, the move is *good* and lost 0.
//! 4. A move the choosing samples valued above every fresh mean is weighed again as well
//!    (`weighing::weigh`), so the best value listed is always a fresh one: the anchor, or a
//!    move within the noise of it, which loses 0.
//! 5. The list shows every move by its value, best first, and a move's rank is one more than
//!    the moves valued above it ([`ranks`]). A loss is never more than the gap the list shows
//!    between the first move and the move that lost it (exactly that gap when the anchor is
//!    listed first).
//! 6. When the move played is good and so is another move weighed again, the budget could not
//!    separate them: the turn is *too close to call*. A move that lost points never is.

use super::sampled::Tally;

/// Moves a tile turn weighs again besides the chosen one and the move played
/// (`Sampled::RIVALS`): a tile has tens of moves, and weighing them all again would double the
/// analysis. (The Card Game's few actions are all weighed again, so its whole list shows fresh
/// values.)
pub const RIVALS: usize = 2;
/// Standard errors of a paired difference within which two moves are not told apart.
pub const NOISE: f64 = 2.0;

/// One move weighed again on the fresh futures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighed {
    /// The move's index in the choosing order.
    pub index: usize,
    /// Its values on the fresh futures.
    pub fresh: Tally,
    /// The anchor's fresh mean less this move's, paired future by future, and the standard
    /// error of that difference.
    pub behind: f64,
    pub behind_std_error: f64,
}

impl Weighed {
    /// What the move lost: `behind` when it is beyond the noise, else 0.
    pub fn points_lost(&self) -> f64 {
        if self.behind > NOISE * self.behind_std_error {
            self.behind
        } else {
            0.0
        }
    }

    /// Whether no loss could be told from the noise.
    pub fn is_good(&self) -> bool {
        self.points_lost() == 0.0
    }
}

/// The moves weighed again, in the order the list shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub weighed: Vec<Weighed>,
}

impl Verdict {
    /// The move at `index` of the choosing order, if it was weighed again.
    pub fn of(&self, index: usize) -> Option<&Weighed> {
        self.weighed.iter().find(|w| w.index == index)
    }

    /// Whether two or more moves weighed again are good: the budget could not separate them.
    pub fn too_close(&self) -> bool {
        self.weighed.iter().filter(|w| w.is_good()).count() >= 2
    }

    /// Every index of a choosing order of `len` moves, in the order the list shows them: the
    /// moves weighed again as the verdict orders them, then the rest as they were.
    pub fn listing(&self, len: usize) -> Vec<usize> {
        let mut order: Vec<usize> = self.weighed.iter().map(|w| w.index).collect();
        order.extend((0..len).filter(|i| self.of(*i).is_none()));
        order
    }
}

/// The moves to weigh again, by their index in a choosing order of `len` moves: the chosen one
/// first, its `rivals` next in that order, and the move played.
pub fn to_weigh(len: usize, rivals: usize, played: Option<usize>) -> Vec<usize> {
    let mut which: Vec<usize> = (0..len.min(rivals.saturating_add(1))).collect();
    if let Some(p) = played.filter(|p| *p < len && !which.contains(p)) {
        which.push(p);
    }
    which
}

/// The verdict on the moves `which` (indices in the choosing order, the chosen move first),
/// from their values on the same fresh futures: `fresh[c][j]` is move `which[c]` in future `j`.
pub fn judge(which: &[usize], fresh: &[Vec<i32>]) -> Verdict {
    let paired = |a: usize, b: usize| -> Tally {
        let mut d = Tally::default();
        for (x, y) in fresh[a].iter().zip(&fresh[b]) {
            d.add(x - y);
        }
        d
    };
    let beyond_noise = |d: &Tally| d.mean() > NOISE * d.std_error();
    let means: Vec<f64> = fresh.iter().map(|f| Tally::of(f).mean()).collect();
    // The chosen move, unless a rival beats it beyond the noise: then the best of those.
    let anchor = (1..which.len())
        .filter(|&c| beyond_noise(&paired(c, 0)))
        .max_by(|&a, &b| means[a].total_cmp(&means[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let mut weighed: Vec<Weighed> = (0..which.len())
        .map(|c| {
            let behind = paired(anchor, c);
            Weighed {
                index: which[c],
                fresh: Tally::of(&fresh[c]),
                behind: behind.mean(),
                behind_std_error: behind.std_error(),
            }
        })
        .collect();
    // By fresh mean, ties in the choosing order: the first listed has the largest, so no
    // gap the list shows is negative.
    weighed.sort_by(|a, b| (b.fresh.mean().total_cmp(&a.fresh.mean())).then(a.index.cmp(&b.index)));
    Verdict { weighed }
}

/// The rank of each of `values`: one more than the values above it, so equal values share a
/// rank. Values are compared as the pages and the CLI show them, to a tenth of a point: two
/// moves both shown at 11.4 share a rank, whatever the thousandths the JSON gives. A value is
/// first rounded to the thousandth reports keep, so that the analysis and a page reading its
/// report rank alike.
pub fn ranks(values: impl IntoIterator<Item = f64>) -> Vec<u32> {
    let shown: Vec<f64> = (values.into_iter())
        .map(|v| {
            let kept = (v * 1000.0).round() / 1000.0;
            format!("{kept:.1}").parse().unwrap_or(kept)
        })
        .collect();
    (shown.iter())
        .map(|v| 1 + shown.iter().filter(|w| *w > v).count() as u32)
        .collect()
}

/// The move played against the best, both weighed again on the same fresh futures
/// (`verdict`): the values the list shows, so the loss is never more than the gap it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recheck {
    /// The chosen move's fresh mean less the played move's (the verdict's anchor: the chosen
    /// move, unless a rival beat it beyond the noise), and its standard error.
    pub difference: f64,
    pub std_error: f64,
    /// `difference` when it is beyond the noise (more than twice its standard error), else 0.
    pub points_lost: f64,
    /// Whether the fresh futures could not separate the move played from another good one:
    /// it lost nothing, and neither did another move weighed again (`Verdict::too_close`).
    pub too_close: bool,
}

impl Recheck {
    /// The played move's standing in a verdict; `None` when it was not weighed again.
    pub(crate) fn of(verdict: &Verdict, played: usize) -> Option<Recheck> {
        let w = verdict.of(played)?;
        Some(Recheck {
            difference: w.behind,
            std_error: w.behind_std_error,
            points_lost: w.points_lost(),
            too_close: w.is_good() && verdict.too_close(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fresh values of a move: a base, plus noise every move shares (common random numbers),
    /// plus a little of its own.
    fn future(base: i32, own: u32) -> Vec<i32> {
        (0..64u32)
            .map(|j| base + (j * 7919 % 13) as i32 - 6 + ((j * own) % 3) as i32 - 1)
            .collect()
    }

    /// The invariants a page relies on, whatever the samples say: the first move listed loses
    /// 0, no gap the list shows is negative, and no loss is more than its gap.
    fn assert_honest(v: &Verdict) {
        let first = v.weighed[0];
        assert_eq!(first.points_lost(), 0.0, "the first listed loses nothing");
        for w in &v.weighed {
            let gap = first.fresh.mean() - w.fresh.mean();
            let lost = w.points_lost();
            assert!(
                gap >= 0.0 && lost >= 0.0 && lost <= gap + 1e-9,
                "lost {lost}, gap {gap}"
            );
        }
    }

    #[test]
    fn a_clear_loss_is_the_gap_the_list_shows() {
        // Chosen (index 0) worth 10, rivals 9 and 2, the played move (index 5) worth 4.
        let which = to_weigh(8, RIVALS, Some(5));
        assert_eq!(which, [0, 1, 2, 5]);
        let fresh = [future(10, 1), future(9, 2), future(2, 3), future(4, 4)];
        let v = judge(&which, &fresh);
        assert_honest(&v);
        assert_eq!(v.weighed[0].index, 0, "the chosen move stays first");
        let played = v.of(5).unwrap();
        assert!((played.points_lost() - 6.0).abs() < 0.2, "{played:?}");
        assert_eq!(
            v.listing(8),
            [0, 1, 5, 2, 3, 4, 6, 7],
            "weighed by fresh mean, then the rest"
        );
    }

    #[test]
    fn moves_the_noise_cannot_separate_are_good_and_too_close_to_call() {
        // The rival is worth the same as the chosen move: neither loses, and no order is claimed.
        let which = to_weigh(3, RIVALS, Some(1));
        let fresh = [future(5, 1), future(5, 2), future(-3, 3)];
        let v = judge(&which, &fresh);
        assert_honest(&v);
        assert!(v.of(1).unwrap().is_good());
        assert!(v.too_close());
        assert!(!v.of(2).unwrap().is_good());
    }

    #[test]
    fn a_rival_clearly_better_on_the_fresh_futures_becomes_the_anchor() {
        // The choosing samples were wrong: the rival at index 2 is 5 points better.
        let which = to_weigh(4, RIVALS, Some(0));
        let fresh = [future(5, 1), future(4, 2), future(10, 4)];
        let v = judge(&which, &fresh);
        assert_honest(&v);
        assert_eq!(v.weighed[0].index, 2);
        assert!((v.of(0).unwrap().points_lost() - 5.0).abs() < 0.2);
        assert!(!v.too_close());
    }

    #[test]
    fn a_rival_within_the_noise_may_be_listed_first_and_nothing_is_lost_to_it() {
        // The rival's fresh mean is a little higher, within the noise: it is listed first, both
        // are good, and the played move's loss is measured from the chosen move.
        let noisy = |base: i32, own: u32| -> Vec<i32> {
            (0..64u32)
                .map(|j| base + (j * 7919 % 13) as i32 - 6 + ((j * own * 37) % 23) as i32 - 11)
                .collect()
        };
        let which = to_weigh(3, RIVALS, Some(2));
        let fresh = [noisy(5, 1), noisy(6, 2), noisy(0, 4)];
        let v = judge(&which, &fresh);
        assert_honest(&v);
        assert_eq!(v.weighed[0].index, 1);
        assert!(v.too_close() && v.of(0).unwrap().is_good());
        let lost = v.of(2).unwrap().points_lost();
        assert!(
            (lost - 4.86).abs() < 0.01,
            "from the chosen move, not the first listed: {lost}"
        );
    }

    /// Ranks follow the values a report shows: BGA game-a's turn 49 once listed the move played
    /// fourth at 2.1, above moves valued 8.8. Values shown alike share a rank.
    #[test]
    fn ranks_follow_the_values_shown_and_equal_ones_share_one() {
        assert_eq!(ranks([11.4, 11.4, 10.7, 8.8, 2.1]), [1, 1, 3, 4, 5]);
        assert_eq!(ranks([2.1, 8.8, 11.4]), [3, 2, 1]);
        assert_eq!(ranks([11.416, 11.384, 10.7]), [1, 1, 3], "both shown as 11.4");
    }

    /// "Too close to call" only where the move played lost nothing: on a turn whose best moves
    /// the noise cannot separate, a move played that lost beyond it is a loss, not a tie.
    #[test]
    fn a_move_that_lost_points_is_never_too_close_to_call() {
        let which = to_weigh(4, RIVALS, Some(3));
        let fresh = [future(5, 1), future(5, 2), future(3, 3), future(-3, 4)];
        let v = judge(&which, &fresh);
        assert!(v.too_close(), "the two best are within the noise");
        let played = Recheck::of(&v, 3).unwrap();
        assert!(played.points_lost > 7.0 && !played.too_close, "{played:?}");
        let rival = Recheck::of(&v, 1).unwrap();
        assert!(rival.points_lost == 0.0 && rival.too_close, "{rival:?}");
    }

    #[test]
    fn a_lone_move_is_good_and_not_too_close() {
        let v = judge(&to_weigh(1, RIVALS, Some(0)), &[future(3, 1)]);
        assert_honest(&v);
        assert!(v.of(0).unwrap().is_good());
        assert!(!v.too_close());
        assert_eq!(v.listing(1), [0]);
    }
}

//! What a finished analysis would make the pages say that contradicts itself, counted: the
//! checks of `bench honesty` (issue: analysis a top player would trust). Each check reads the
//! report the pages are drawn from, so a count here is a contradiction a reader can see:
//! - **ranks**: an alternative listed at another rank than its value gives it (one more than
//!   the alternatives valued above it, as pages show values: ties share a rank, and the move
//!   played sits at its own);
//! - **classes**: a move called a mistake or a blunder on a turn the page also calls too close
//!   to call;
//! - **accuracy**: two players of one game whose accuracies order them against their points
//!   lost a move;
//! - **certainties**: a chance of completion of 0% or 100% on an open feature of the move
//!   played, which the page shows with no reason (no spot of it that no tile left fits).
//!
//! Illegal suggestions need the positions, not the report: `bench honesty` checks them itself.

use super::any_report::AnyReport;
use super::report::{Listed, PlayerReport, Report, ReportHead, TurnsLeft};
use super::verdict::ranks;
use super::win_chance::{MoveClass, PlayerAccuracy, TurnChance, accuracies};
use serde::Serialize;
use std::ops::AddAssign;

/// Contradictions by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Contradictions {
    pub ranks: u32,
    pub classes: u32,
    pub accuracy: u32,
    pub certainties: u32,
    pub illegal: u32,
}

impl Contradictions {
    pub fn total(&self) -> u32 {
        self.ranks + self.classes + self.accuracy + self.certainties + self.illegal
    }
}

impl AddAssign for Contradictions {
    fn add_assign(&mut self, o: Contradictions) {
        self.ranks += o.ranks;
        self.classes += o.classes;
        self.accuracy += o.accuracy;
        self.certainties += o.certainties;
        self.illegal += o.illegal;
    }
}

/// The contradictions of a game's analysis, a game of `players` players.
pub fn of(report: &AnyReport, players: usize) -> Contradictions {
    match report {
        AnyReport::Tiles(stored) => {
            let ranks = (stored.turns.iter())
                .map(|t| misranked(&t.alternatives.iter().map(|a| (a.value, a.rank)).collect::<Vec<_>>()))
                .sum();
            let certainties = (stored.turns.iter())
                .filter_map(|t| t.alternatives.get(t.played?))
                .flat_map(|a| &a.features)
                .filter(|f| !f.closed && f.completion.is_some_and(|c| c <= 0.0 || c >= 1.0))
                .filter(|f| !f.open_spots.iter().any(|s| s.fits == 0))
                .count() as u32;
            in_every_game(stored, players, ranks, certainties)
        }
        AnyReport::Cards(cards) => {
            let ranks = (cards.turns.iter())
                .map(|t| {
                    let listed: Vec<(f64, u32)> = (t.alternatives.iter().map(|a| a.value)).zip(t.ranks()).collect();
                    misranked(&listed)
                })
                .sum();
            in_every_game(cards, players, ranks, 0)
        }
    }
}

/// A report's contradictions, with the counts of the checks that read its game's own parts.
fn in_every_game<H: ReportHead, A: Listed, F: TurnsLeft>(
    report: &Report<H, A, F>,
    players: usize,
    ranks: u32,
    certainties: u32,
) -> Contradictions {
    let chances = report.chances(None);
    let too_close: Vec<u32> = report.turns.iter().filter(|t| t.too_close).map(|t| t.turn).collect();
    Contradictions {
        ranks,
        classes: misclassed(&chances, &too_close),
        accuracy: discordant(&accuracies(&chances, players), report.head.players()),
        certainties,
        illegal: 0,
    }
}

/// Alternatives, as `(value, rank shown)`, whose rank is not one more than the number valued
/// above them as the pages show values ([`ranks`]).
fn misranked(listed: &[(f64, u32)]) -> u32 {
    let by_value = ranks(listed.iter().map(|l| l.0));
    (listed.iter().zip(by_value)).filter(|(l, r)| l.1 != *r).count() as u32
}

/// Turns whose move is a mistake or a blunder while the turn is too close to call.
fn misclassed(chances: &[TurnChance], too_close: &[u32]) -> u32 {
    (chances.iter())
        .filter(|c| c.chance.class >= MoveClass::Mistake && too_close.contains(&c.turn))
        .count() as u32
}

/// Pairs of players whom accuracy orders one way and points lost a move the other.
fn discordant(accuracy: &[PlayerAccuracy], lost: &[PlayerReport]) -> u32 {
    let judged: Vec<(f64, f64)> = (accuracy.iter().zip(lost))
        .filter(|(a, l)| a.moves > 0 && l.turns > 0)
        .map(|(a, l)| (a.accuracy, l.average_points_lost))
        .collect();
    let mut pairs = 0;
    for (i, a) in judged.iter().enumerate() {
        for b in &judged[i + 1..] {
            pairs += u32::from((a.0 - b.0) * (a.1 - b.1) > 0.0);
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ties share a rank, and a rank that hides better moves behind it is counted: BGA game-a's
    /// turn 49 listed the played move fourth at 2.1, above moves valued 8.8.
    #[test]
    fn ranks_follow_values_and_ties_share_one() {
        assert_eq!(misranked(&[(9.0, 1), (5.0, 2), (5.0, 2), (1.0, 4)]), 0);
        assert_eq!(misranked(&[(9.0, 1), (5.0, 2), (5.0, 3)]), 1, "a tie split");
        assert_eq!(
            misranked(&[(9.0, 1), (2.1, 4), (8.8, 5)]),
            2,
            "the played move above better ones"
        );
    }

    /// A player more accurate than another who lost more points a move is one contradiction;
    /// agreeing orders, none.
    #[test]
    fn accuracy_agrees_with_points_lost() {
        let acc = |a: f64| PlayerAccuracy {
            moves: 10,
            accuracy: a,
            ..Default::default()
        };
        let lost = |l: f64| PlayerReport {
            turns: 10,
            best_moves: 0,
            points_lost: l * 10.0,
            average_points_lost: l,
        };
        assert_eq!(discordant(&[acc(90.0), acc(70.0)], &[lost(1.0), lost(3.0)]), 0);
        assert_eq!(
            discordant(&[acc(70.0), acc(90.0), acc(80.0)], &[lost(5.9), lost(1.0), lost(2.0)]),
            0
        );
        assert_eq!(discordant(&[acc(95.0), acc(60.0)], &[lost(4.0), lost(1.0)]), 1);
    }
}

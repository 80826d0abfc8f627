//! Puzzles from analysed games: the turns where one placement of the drawn tile is clearly
//! best, to be found again by a reader ("find the best placement").
//!
//! **The rule.** Each placement (square and rotation) is worth its best meeple choice. A turn is
//! a puzzle when its best placement beats the second best by at least [`CLEAR_MARGIN`] points
//! and by at least twice the standard error of that difference (both values from playouts,
//! taken as independent: `2 × √(se₁² + se₂²)`), so the answer is beyond the noise. A turn with
//! one placement, or valued by the heuristic alone, is no puzzle.
//!
//! **Judging an answer.** A reader answers with a placement and its meeple step ([`Answer`]),
//! and may try again until they ask for the solution, so a judgement never names the best
//! placement ([`judge`]). The right placement solves the puzzle with its best meeple step or
//! any step within the noise of it (the same two standard errors): the rule only vouches that
//! the placement is clear, not that one meeple step beats another.
//!
//! **Mistakes to review.** A player's mistakes and blunders ([`mistakes`]; the Card Game's
//! [`card_mistakes`]) ask for any move better than the one played: one as good as the best
//! within the noise mends it ([`mend`], [`card_mend`]), on whatever square.

use super::cards;
use super::report::{ActionReport, AlternativeReport, StoredAnalysis, TurnReport};
use super::win_chance::{MoveClass, TurnChance};

/// Points the best placement must lead the second best by.
pub const CLEAR_MARGIN: f64 = 4.0;

/// A turn with one clearly best placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    pub turn: u32,
    pub player: u8,
    pub tile: String,
    /// The best placement's square and rotation (degrees).
    pub position: [i32; 2],
    pub rotation: u16,
    /// The best meeple step of that placement.
    pub action: ActionReport,
    /// How far it leads the second best placement, in points.
    pub lead: f64,
}

/// A reader's answer: where the tile goes, turned how far, and what the meeple does.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub position: [i32; 2],
    /// Degrees clockwise.
    pub rotation: u16,
    pub action: ActionReport,
}

/// What an answer is worth, without giving the solution away.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// The best placement, with its best meeple step or one within the noise of it.
    Solved,
    /// The best placement, but a meeple step that loses `lost` points against its best one.
    RightPlacement { lost: f64 },
    /// Another placement: the rank of that placement among the `of` placements, and the points
    /// this move is below the best.
    Worse { rank: usize, of: usize, lost: f64 },
    /// No legal move: the tile does not fit there so turned, or the meeple cannot stand there.
    NotLegal,
}

/// One placement and its best alternative.
#[derive(Clone, Copy, Debug)]
pub struct Placement<'r> {
    pub position: [i32; 2],
    pub rotation: u16,
    pub best: &'r AlternativeReport,
}

/// The turn's placements, each with its best meeple choice, best first.
pub fn placements(t: &TurnReport) -> Vec<Placement<'_>> {
    let mut out: Vec<Placement> = Vec::new();
    for a in &t.alternatives {
        match out
            .iter_mut()
            .find(|p| p.position == a.position && p.rotation == a.rotation)
        {
            Some(p) if a.value > p.best.value => p.best = a,
            Some(_) => {}
            None => out.push(Placement {
                position: a.position,
                rotation: a.rotation,
                best: a,
            }),
        }
    }
    out.sort_by(|a, b| b.best.value.total_cmp(&a.best.value));
    out
}

/// The turn as a puzzle, when it is one.
pub fn puzzle(t: &TurnReport) -> Option<Puzzle> {
    let ranked = placements(t);
    let [first, second, ..] = ranked.as_slice() else {
        return None;
    };
    let (a, b) = (first.best.playouts.as_ref()?, second.best.playouts.as_ref()?);
    let lead = first.best.value - second.best.value;
    let noise = 2.0 * (a.std_error.powi(2) + b.std_error.powi(2)).sqrt();
    (lead >= CLEAR_MARGIN && lead >= noise).then(|| Puzzle {
        turn: t.turn,
        player: t.player,
        tile: t.facts.tile.clone(),
        position: first.position,
        rotation: first.rotation,
        action: first.best.action.clone(),
        lead,
    })
}

/// Whether the mover of turn `t` played puzzle `p`'s placement (whatever their meeple step):
/// the puzzle vouches for the placement only. `None` when the turn does not say what was played.
pub fn found_in_play(t: &TurnReport, p: &Puzzle) -> Option<bool> {
    let played = t.alternatives.get(t.played?)?;
    Some(played.position == p.position && played.rotation == p.rotation)
}

/// Whether `a` is worth `b`, within twice the standard error of their difference (exactly,
/// without playouts).
fn within_noise((a, a_error): Valued, (b, b_error): Valued) -> bool {
    let gap = (a - b).abs();
    match (a_error, b_error) {
        (Some(x), Some(y)) => gap <= 2.0 * (x.powi(2) + y.powi(2)).sqrt(),
        _ => gap == 0.0,
    }
}

/// [`within_noise`] of two listed alternatives.
fn alike(a: &AlternativeReport, b: &AlternativeReport) -> bool {
    let valued = |a: &AlternativeReport| (a.value, a.playouts.as_ref().map(|p| p.std_error));
    within_noise(valued(a), valued(b))
}

/// How `answer` does on the puzzle `p` of turn `t`.
pub fn judge(t: &TurnReport, p: &Puzzle, answer: &Answer) -> Judgement {
    let Some(chosen) = t
        .alternatives
        .iter()
        .find(|a| a.position == answer.position && a.rotation == answer.rotation && a.action == answer.action)
    else {
        return Judgement::NotLegal;
    };
    let ranked = placements(t);
    let best = ranked[0].best;
    if (answer.position, answer.rotation) == (p.position, p.rotation) {
        return if alike(chosen, best) {
            Judgement::Solved
        } else {
            Judgement::RightPlacement {
                lost: best.value - chosen.value,
            }
        };
    }
    let rank = ranked
        .iter()
        .position(|c| c.position == answer.position && c.rotation == answer.rotation)
        .map_or(ranked.len(), |i| i + 1);
    Judgement::Worse {
        rank,
        of: ranked.len(),
        lost: best.value - chosen.value,
    }
}

/// Every puzzle of an analysed game, in turn order.
pub fn pick(turns: &[TurnReport]) -> Vec<Puzzle> {
    turns.iter().filter_map(puzzle).collect()
}

/// A move played that lost points, to mend: the reader looks for a better one ("learn from
/// your mistakes"). Any move as good as the best, within the noise, mends it, whatever its
/// placement: unlike a puzzle, a mistake does not vouch that one placement is clear.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    /// The move the analysis values highest, shown when the reader asks.
    pub best: Answer,
    /// What the move played lost against it, in points.
    pub lost: f64,
}

/// What an answer to a [`Mistake`] is worth, without giving the best move away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mend {
    /// As good as the best, within the noise.
    Good,
    /// Better than the move played, but `lost` points below the best.
    Better { lost: f64 },
    /// No better than the move played: `lost` points below the best.
    NoBetter { lost: f64 },
    /// No legal move: the tile does not fit there so turned, or the meeple cannot stand there.
    NotLegal,
}

/// Turn `t`'s move played as a mistake to mend: `None` when it lost nothing, or its values
/// are the heuristic's.
pub fn mistake(t: &TurnReport) -> Option<Mistake> {
    let lost = t.points_lost.filter(|&l| l > 0.0)?;
    let best = t.alternatives.first().filter(|a| a.playouts.is_some())?;
    Some(Mistake {
        best: Answer {
            position: best.position,
            rotation: best.rotation,
            action: best.action.clone(),
        },
        lost,
    })
}

/// A player's moves to review, in turn order: the ones the analysis classes a mistake or a
/// blunder (by the chance of winning they lost, `chances`: its [`StoredAnalysis::chances`]),
/// each with what it lost.
pub fn mistakes(analysis: &StoredAnalysis, chances: &[TurnChance], player: u8) -> Vec<(u32, Mistake)> {
    reviewed(chances, player)
        .filter_map(|turn| Some((turn, mistake(analysis.turn(turn)?)?)))
        .collect()
}

/// The turns of `player` the analysis classes a mistake or a blunder, in turn order: every
/// game's review asks about these.
fn reviewed(chances: &[TurnChance], player: u8) -> impl Iterator<Item = u32> + '_ {
    (chances.iter())
        .filter(move |c| c.player == player && c.chance.class >= MoveClass::Mistake)
        .map(|c| c.turn)
}

/// A Card Game player's actions to review, in turn order (as [`mistakes`]), each with what it
/// lost. The Card Game's values are always sampled.
pub fn card_mistakes(report: &cards::Report, chances: &[TurnChance], player: u8) -> Vec<(u32, f64)> {
    reviewed(chances, player)
        .filter_map(|turn| Some((turn, report.turn(turn)?.points_lost.filter(|&l| l > 0.0)?)))
        .collect()
}

/// How `answer` mends turn `t`'s mistake.
pub fn mend(t: &TurnReport, answer: &Answer) -> Mend {
    let is = |a: &AlternativeReport| {
        a.position == answer.position && a.rotation == answer.rotation && a.action == answer.action
    };
    let Some(i) = t.alternatives.iter().position(is) else {
        return Mend::NotLegal;
    };
    let values: Vec<Valued> = (t.alternatives.iter())
        .map(|a| (a.value, a.playouts.as_ref().map(|p| p.std_error)))
        .collect();
    mend_at(&values, (t.played, t.points_lost), i)
}

/// How the action `words` (`replay::cards::move_text`) mends Card Game turn `t`'s mistake.
pub fn card_mend(t: &cards::TurnReport, words: &str) -> Mend {
    let Some(i) = t.alternatives.iter().position(|a| a.action == words) else {
        return Mend::NotLegal;
    };
    let values: Vec<Valued> = t.alternatives.iter().map(|a| (a.value, Some(a.stderr))).collect();
    mend_at(&values, (t.played, t.points_lost), i)
}

/// An alternative's value, and its standard error where it was sampled.
type Valued = (f64, Option<f64>);

/// How choosing alternative `i` mends a turn whose alternatives, best first, are valued
/// `values`, `played` the one played and `lost` what its verdict says it lost.
fn mend_at(values: &[Valued], (played, lost): (Option<usize>, Option<f64>), i: usize) -> Mend {
    let (Some(&chosen), Some(&best)) = (values.get(i), values.first()) else {
        return Mend::NotLegal;
    };
    let gap = (best.0 - chosen.0).max(0.0);
    // The move played lost what its verdict says, whatever the listing's noise would allow:
    // the verdict weighed it again against the best on the same futures.
    if played == Some(i) {
        return Mend::NoBetter {
            lost: lost.unwrap_or(gap),
        };
    }
    if gap == 0.0 || within_noise(chosen, best) {
        Mend::Good
    } else if played.and_then(|p| values.get(p)).is_some_and(|p| chosen.0 > p.0) {
        Mend::Better { lost: gap }
    } else {
        Mend::NoBetter { lost: gap }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A turn whose alternatives are `(x, rotation, meeple, value, std_error)`.
    fn turn(alts: &[(i32, u16, bool, f64, f64)]) -> TurnReport {
        let alternatives: Vec<serde_json::Value> = alts
            .iter()
            .map(|&(x, rotation, meeple, value, se)| {
                let action = if meeple {
                    serde_json::json!({"type": "deploy", "feature": "city", "location": "N", "figure": "meeple"})
                } else {
                    serde_json::json!({"type": "pass"})
                };
                serde_json::json!({
                    "position": [x, 0], "rotation": rotation, "action": action,
                    "immediate": [0, 0], "if_ended_change": [0, 0], "meeples_committed": 0,
                    "features": [], "heuristic": {"value": 0.0, "margin": 0.0, "outlook": 0.0, "meeple_cost": 0.0},
                    "playouts": {"count": 128, "mean_margin": value, "std_error": se},
                    "value": value, "rank": 1
                })
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "turn": 9, "player": 1, "tile": "D", "tiles_left": 40, "placements_count": 2,
            "moves_count": alts.len(), "value": "playouts", "heuristic_formula": "",
            "scores_before": [0, 0], "if_ended_before": [0, 0], "played": 0, "played_rank": 1,
            "points_lost": 0.0, "alternatives": alternatives, "open_spots": [], "dead_spots": []
        }))
        .expect("a turn report")
    }

    #[test]
    fn a_clear_lead_beyond_the_noise_is_a_puzzle() {
        let p = puzzle(&turn(&[
            (1, 90, true, 12.0, 1.0),
            (2, 0, false, 6.0, 1.0),
            (1, 90, false, 7.0, 1.0),
        ]))
        .expect("a 6-point lead with errors of 1 is clear");
        assert_eq!((p.position, p.rotation, p.lead), ([1, 0], 90, 6.0));
        assert!(matches!(p.action, ActionReport::Deploy { .. }), "the best meeple step");
    }

    /// A player found the puzzle when they played its placement, with any meeple step.
    #[test]
    fn the_placement_played_is_what_finds_a_puzzle() {
        let mut t = turn(&[
            (1, 90, true, 12.0, 1.0),
            (2, 0, false, 6.0, 1.0),
            (1, 90, false, 7.0, 1.0),
        ]);
        let p = puzzle(&t).expect("a puzzle");
        let found = |t: &TurnReport, played| {
            let mut t = t.clone();
            t.played = played;
            found_in_play(&t, &p)
        };
        assert_eq!(found(&t, Some(0)), Some(true));
        assert_eq!(found(&t, Some(2)), Some(true), "the best placement without its meeple");
        assert_eq!(found(&t, Some(1)), Some(false));
        assert_eq!(found(&t, None), None);
        t.played = Some(9);
        assert_eq!(found_in_play(&t, &p), None);
    }

    fn answer(x: i32, rotation: u16, meeple: bool) -> Answer {
        let action = if meeple {
            ActionReport::Deploy {
                feature: "city".into(),
                location: "N".into(),
                figure: "meeple".into(),
            }
        } else {
            ActionReport::Pass
        };
        Answer {
            position: [x, 0],
            rotation,
            action,
        }
    }

    /// The right placement solves the puzzle with a meeple step within the noise of its best,
    /// and not with one clearly worse; other placements get their rank and loss; a move the
    /// turn does not have is not legal. No judgement names the solution.
    #[test]
    fn answers_are_judged_by_placement_then_meeple() {
        let t = turn(&[
            (1, 90, true, 12.0, 1.0),
            (1, 90, false, 10.0, 1.0),
            (2, 0, false, 6.0, 1.0),
            (3, 0, false, 5.0, 1.0),
        ]);
        let p = puzzle(&t).expect("a 6-point lead");
        assert_eq!(judge(&t, &p, &answer(1, 90, true)), Judgement::Solved);
        assert_eq!(
            judge(&t, &p, &answer(1, 90, false)),
            Judgement::Solved,
            "2 points, within 2 × √2 of the best step"
        );
        assert_eq!(
            judge(&t, &p, &answer(3, 0, false)),
            Judgement::Worse {
                rank: 3,
                of: 3,
                lost: 7.0
            }
        );
        assert_eq!(
            judge(&t, &p, &answer(3, 90, false)),
            Judgement::NotLegal,
            "not turned so"
        );
        assert_eq!(
            judge(&t, &p, &answer(2, 0, true)),
            Judgement::NotLegal,
            "no meeple there"
        );

        let sure = turn(&[
            (1, 90, true, 12.0, 0.2),
            (1, 90, false, 10.0, 0.2),
            (2, 0, false, 6.0, 0.2),
        ]);
        let p = puzzle(&sure).unwrap();
        assert_eq!(
            judge(&sure, &p, &answer(1, 90, false)),
            Judgement::RightPlacement { lost: 2.0 },
            "2 points beyond the noise of 0.57"
        );
    }

    #[test]
    fn a_lead_within_the_noise_or_the_margin_is_not() {
        assert_eq!(
            puzzle(&turn(&[(1, 0, true, 12.0, 3.0), (2, 0, false, 6.0, 3.0)])),
            None,
            "noise 8.5"
        );
        assert_eq!(
            puzzle(&turn(&[(1, 0, true, 9.0, 0.1), (2, 0, false, 6.0, 0.1)])),
            None,
            "3 points"
        );
        assert_eq!(puzzle(&turn(&[(1, 0, true, 9.0, 0.1)])), None, "one placement");
    }

    /// Meeple choices of one placement do not compete: the same square and rotation with and
    /// without a meeple is one placement.
    #[test]
    fn meeple_choices_of_one_placement_are_one_answer() {
        let t = turn(&[
            (1, 0, true, 12.0, 0.5),
            (1, 0, false, 4.0, 0.5),
            (2, 0, false, 10.0, 0.5),
        ]);
        assert_eq!(placements(&t).len(), 2);
        assert_eq!(puzzle(&t), None, "12 against the other square's 10");
    }

    /// A move played that lost points is mended by any move as good as the best within the
    /// noise, on any square; a move between the two is better, not good.
    #[test]
    fn a_mistake_is_mended_by_any_move_as_good_as_the_best() {
        let mut t = turn(&[
            (1, 0, true, 12.0, 0.5),
            (2, 90, false, 11.5, 0.5),
            (3, 0, false, 8.0, 0.5),
            (4, 0, false, 5.0, 0.5),
        ]);
        (t.played, t.points_lost) = (Some(3), Some(7.0));
        let m = mistake(&t).expect("7 points lost");
        assert_eq!((m.best, m.lost), (answer(1, 0, true), 7.0));
        assert_eq!(mend(&t, &answer(2, 90, false)), Mend::Good, "0.5 is within 1.4");
        assert_eq!(mend(&t, &answer(3, 0, false)), Mend::Better { lost: 4.0 });
        assert_eq!(mend(&t, &answer(4, 0, false)), Mend::NoBetter { lost: 7.0 });
        // The move played again is no better, even where the listing's errors overlap the best.
        t.alternatives[3].playouts.as_mut().unwrap().std_error = 5.0;
        assert_eq!(mend(&t, &answer(4, 0, false)), Mend::NoBetter { lost: 7.0 });
        assert_eq!(mend(&t, &answer(3, 0, false)), Mend::Better { lost: 4.0 });
        assert_eq!(mend(&t, &answer(1, 90, true)), Mend::NotLegal);
        t.points_lost = Some(0.0);
        assert_eq!(mistake(&t), None, "nothing lost, nothing to mend");
    }
}

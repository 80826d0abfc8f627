//! Puzzles from analysed games: the turns where one placement of the drawn tile is clearly
//! best, to be found again by a reader ("find the best placement").
//!
//! **The rule.** Each placement (square and rotation) is worth its best meeple choice. A turn is
//! a puzzle when its best placement beats the second best by at least [`CLEAR_MARGIN`] points
//! and by at least twice the standard error of that difference (both values from playouts,
//! taken as independent: `2 × √(se₁² + se₂²)`), so the answer is beyond the noise. A turn with
//! one placement, or valued by the heuristic alone, is no puzzle.

use super::report::{AlternativeReport, TurnReport};

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
    /// How far it leads the second best placement, in points.
    pub lead: f64,
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
        tile: t.tile.clone(),
        position: first.position,
        rotation: first.rotation,
        lead,
    })
}

/// Every puzzle of an analysed game, in turn order.
pub fn pick(turns: &[TurnReport]) -> Vec<Puzzle> {
    turns.iter().filter_map(puzzle).collect()
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
}

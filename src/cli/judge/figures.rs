//! The judge's arithmetic: from the turns an analysis reported, a group of games' points lost
//! with their uncertainty, how often the played move is the first listed, whether the reported
//! losses agree with the values listed, and how good the win chances are.
//!
//! - **The interval of the mean points lost** is over games, not moves: the moves of one game
//!   share its position and its players, so they are not independent, and an interval over
//!   moves would be too narrow. The mean is the ratio of all points lost to all moves; its
//!   standard error the cluster (sandwich) estimate with games as clusters,
//!   `√(G/(G−1) · Σ_g (L_g − r·M_g)²) / Σ_g M_g` (`L_g` a game's points lost, `M_g` its moves,
//!   `r` the mean), which for games of equal length is the standard error of the games' means;
//!   the interval is ± Student's t at 95% with `G − 1` degrees of freedom. One game has none.
//! - **Consistency**: a loss larger than the gap the list shows (the best listed value less the
//!   played move's) by more than the reports' rounding, and a move listed first (or level with
//!   it) with a loss above 0.
//! - **Win chances** are scored by log loss, `−(y ln p + (1 − y) ln(1 − p))` with `y` 1 for a
//!   win, ½ for a shared first place and 0 for a loss: always saying ½ scores ln 2 = 0.693
//!   whatever happens. Reports give chances to 3 decimals, so 0 and 1 stand for under 0.0005
//!   and over 0.9995, and are read as those.
//! - **Completion chances** (the tile games: every open feature's chance before every turn,
//!   against whether it was completed by the end) by the Brier score, the mean of
//!   `(p − y)²`, and their reliability by tenths.
//! - **A tenth's miss** (what came of its chances less their mean) has its 95% interval over
//!   games too, the same cluster estimate with each game's misses and chances in that tenth:
//!   one feature is forecast before each of the turns it stays open, so a tenth's thousand
//!   chances may be a few dozen features, and an interval over chances would be far too narrow.

/// What an analysis reported of one turn's move played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    pub phase: Phase,
    pub mover: u8,
    pub points_lost: f64,
    /// The first listed move's value, and the played move's, as the list shows them.
    pub best_listed: f64,
    pub played_listed: f64,
    /// The mover's chance of winning after the move, if the report holds one.
    pub win_chance: Option<f64>,
}

impl Turn {
    fn listed_gap(&self) -> f64 {
        self.best_listed - self.played_listed
    }

    fn listed_first(&self) -> bool {
        self.listed_gap() <= 0.0
    }
}

/// Which part of its game a turn is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Early,
    Middle,
    Late,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Early, Phase::Middle, Phase::Late];
}

/// One judged game: its turns, and each player's result (1 won, ½ shared first, 0 lost) when
/// the game was played to its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub turns: Vec<Turn>,
    pub results: Option<Vec<f64>>,
    /// The completion chances the board showed, each with 1 when its feature was completed
    /// by the end, else 0 (`analysis::completion_forecasts`); none in the Card Game.
    pub completions: Vec<(f64, f64)>,
}

/// Losses and listed gaps are rounded to 3 decimals in reports: a difference within two
/// rounding steps is the rounding's.
const ROUNDING: f64 = 0.001;
/// What the chances are read as at their ends (see the module doc).
const CHANCE_FLOOR: f64 = 0.0005;

/// A group of games, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub moves: usize,
    pub mean_lost: f64,
    /// The 95% interval of `mean_lost`; `None` with fewer than two games.
    pub interval: Option<(f64, f64)>,
    /// Moves played that the analysis lists first (or level with the first).
    pub first_choice: usize,
    /// Turns whose loss exceeds the listed gap, and turns listed first with a loss.
    pub loss_over_gap: usize,
    pub first_with_loss: usize,
    /// Set when some turn of a finished game has a chance.
    pub chances: Option<Chances>,
    /// Set when the board showed some completion chance.
    pub completion: Option<Completion>,
}

/// How well the completion chances predicted which features were completed.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub forecasts: usize,
    pub brier: f64,
    /// The share completed: the Brier score of always saying it is `share × (1 − share)`.
    pub share: f64,
    pub reliability: [Bin; 10],
}

/// How well the chances predicted how the games ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Chances {
    pub positions: usize,
    pub log_loss: f64,
    /// Per phase (as [`Phase::ALL`]): positions and their log loss (`None` without any).
    pub by_phase: [(usize, Option<f64>); 3],
    /// Ten bins of chance, 0–10% to 90–100%.
    pub reliability: [Bin; 10],
}

/// The chances that fell in one tenth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bin {
    pub count: usize,
    pub mean_predicted: f64,
    /// What came of them: the share of those positions won (½ for a shared first place), or
    /// of those features completed.
    pub observed: f64,
    /// The 95% interval of `observed − mean_predicted`, over the games with a chance in this
    /// tenth, within what a share can be; `None` with fewer than two games.
    pub miss_interval: Option<(f64, f64)>,
}

/// The completion chances' goal: within 5 points of what came of them, in every tenth.
pub const COMPLETION_TOLERANCE: f64 = 0.05;

/// What a group's games show of a tenth's miss against a tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The miss's whole interval lies within the tolerance.
    Within,
    /// Its whole interval lies beyond the tolerance, on one side.
    Beyond,
    /// Its interval reaches across an edge of the tolerance, or there is none (one game): only
    /// more games can tell. Ten real games leave most tenths here even for chances calibrated
    /// on the very play judged (`/docs/analysis`, completion chances).
    Unresolved,
}

impl Verdict {
    /// How `bench judge` prints it.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::Beyond => "beyond",
            Verdict::Unresolved => "cannot tell",
        }
    }
}

impl Bin {
    /// Whether this tenth's miss is shown within `tolerance` (a share), shown beyond it, or
    /// neither.
    pub fn against(&self, tolerance: f64) -> Verdict {
        match self.miss_interval {
            Some((lo, hi)) if -tolerance <= lo && hi <= tolerance => Verdict::Within,
            Some((lo, hi)) if lo > tolerance || hi < -tolerance => Verdict::Beyond,
            _ => Verdict::Unresolved,
        }
    }
}

pub fn summarise(games: &[Game]) -> Summary {
    let turns = || games.iter().flat_map(|g| &g.turns);
    let per_game: Vec<(f64, f64)> = (games.iter())
        .map(|g| (g.turns.iter().map(|t| t.points_lost).sum(), g.turns.len() as f64))
        .collect();
    let (mean_lost, interval) = ratio_interval(&per_game);
    Summary {
        games: games.len(),
        moves: turns().count(),
        mean_lost,
        interval,
        first_choice: turns().filter(|t| t.listed_first()).count(),
        loss_over_gap: turns().filter(|t| t.points_lost > t.listed_gap() + ROUNDING).count(),
        first_with_loss: turns().filter(|t| t.listed_first() && t.points_lost > 0.0).count(),
        chances: chances(games),
        completion: completion(games),
    }
}

fn completion(games: &[Game]) -> Option<Completion> {
    let per_game: Vec<&Vec<(f64, f64)>> = games.iter().map(|g| &g.completions).collect();
    let pairs = || per_game.iter().flat_map(|g| g.iter());
    let n = pairs().count() as f64;
    (n > 0.0).then(|| Completion {
        forecasts: n as usize,
        brier: pairs().map(|(p, y)| (p - y).powi(2)).sum::<f64>() / n,
        share: pairs().map(|(_, y)| y).sum::<f64>() / n,
        reliability: reliability(&per_game),
    })
}

/// Chances `p` against what came of them `y`, one slice a game, in ten bins by tenths of `p`.
fn reliability(per_game: &[impl AsRef<[(f64, f64)]>]) -> [Bin; 10] {
    let tenth = |p: f64| ((p * 10.0) as usize).min(9);
    std::array::from_fn(|i| {
        // Per game with a chance in this tenth: its chances, their sum, and what came of them.
        let games: Vec<(usize, f64, f64)> = (per_game.iter())
            .map(|g| {
                (g.as_ref().iter().filter(|(p, _)| tenth(*p) == i))
                    .fold((0, 0.0, 0.0), |(n, ps, ys), (p, y)| (n + 1, ps + p, ys + y))
            })
            .filter(|g| g.0 > 0)
            .collect();
        let count: usize = games.iter().map(|g| g.0).sum();
        if count == 0 {
            return Bin::default();
        }
        let sum = |of: fn(&(usize, f64, f64)) -> f64| games.iter().map(of).sum::<f64>() / count as f64;
        let misses: Vec<(f64, f64)> = games.iter().map(|&(n, ps, ys)| (ys - ps, n as f64)).collect();
        let mean_predicted = sum(|g| g.1);
        // What came of them is a share: the miss cannot leave `−mean .. 1 − mean`.
        let possible = |(lo, hi): (f64, f64)| (lo.max(-mean_predicted), hi.min(1.0 - mean_predicted));
        Bin {
            count,
            mean_predicted,
            observed: sum(|g| g.2),
            miss_interval: ratio_interval(&misses).1.map(possible),
        }
    })
}

/// `Σ losses / Σ moves` over `(losses, moves)` per game, and its 95% interval over games.
fn ratio_interval(per_game: &[(f64, f64)]) -> (f64, Option<(f64, f64)>) {
    let (lost, moves) = per_game.iter().fold((0.0, 0.0), |(l, m), g| (l + g.0, m + g.1));
    if moves == 0.0 {
        return (0.0, None);
    }
    let mean = lost / moves;
    let g = per_game.len();
    if g < 2 {
        return (mean, None);
    }
    let spread: f64 = per_game.iter().map(|(l, m)| (l - mean * m).powi(2)).sum();
    let se = (spread * g as f64 / (g - 1) as f64).sqrt() / moves;
    let half = t_975(g - 1) * se;
    (mean, Some((mean - half, mean + half)))
}

/// Student's t at 97.5% (a two-sided 95% interval) with `df` degrees of freedom.
fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        // Within 0.001 of the true value from 31 on.
        _ => 1.96 + 2.46 / df as f64,
    }
}

/// The log loss of one chance `p` against a result `y` (1, ½ or 0).
fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(CHANCE_FLOOR, 1.0 - CHANCE_FLOOR);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Every chance of a finished game, with its phase and how the game ended for its mover.
fn scored(game: &Game) -> Vec<(Phase, f64, f64)> {
    let Some(results) = &game.results else {
        return Vec::new();
    };
    (game.turns.iter())
        .filter_map(|t| Some((t.phase, t.win_chance?, *results.get(t.mover as usize)?)))
        .collect()
}

fn chances(games: &[Game]) -> Option<Chances> {
    let per_game: Vec<Vec<(Phase, f64, f64)>> = games.iter().map(scored).collect();
    let scored = || per_game.iter().flatten();
    // No finished game's chance, nothing to score.
    scored().next()?;
    let mean_loss = |of: &mut dyn Iterator<Item = &(Phase, f64, f64)>| {
        let (n, sum) = of.fold((0, 0.0), |(n, s), &(_, p, y)| (n + 1, s + log_loss(p, y)));
        (n, (n > 0).then(|| sum / n as f64))
    };
    let (positions, overall) = mean_loss(&mut scored());
    let by_phase = Phase::ALL.map(|phase| mean_loss(&mut scored().filter(|s| s.0 == phase)));
    let pairs: Vec<Vec<(f64, f64)>> = (per_game.iter())
        .map(|g| g.iter().map(|&(_, p, y)| (p, y)).collect())
        .collect();
    Some(Chances {
        positions,
        log_loss: overall.unwrap_or(0.0),
        by_phase,
        reliability: reliability(&pairs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(points_lost: f64, best_listed: f64, played_listed: f64) -> Turn {
        Turn {
            phase: Phase::Early,
            mover: 0,
            points_lost,
            best_listed,
            played_listed,
            win_chance: None,
        }
    }

    fn game(losses: &[f64]) -> Game {
        Game {
            turns: losses.iter().map(|&l| turn(l, l, 0.0)).collect(),
            results: None,
            completions: Vec::new(),
        }
    }

    /// Games of equal length: the interval is the games' means' mean ± t(G−1) × their standard
    /// error. Means 1, 2 and 3: s = 1, se = 1/√3, t(2) = 4.303.
    #[test]
    fn the_interval_of_points_lost_is_over_games() {
        let s = summarise(&[game(&[0.0, 2.0]), game(&[4.0, 0.0]), game(&[3.0, 3.0])]);
        assert_eq!((s.games, s.moves), (3, 6));
        assert!((s.mean_lost - 2.0).abs() < 1e-12);
        let (lo, hi) = s.interval.unwrap();
        let half = 4.303 / 3f64.sqrt();
        assert!(
            (lo - (2.0 - half)).abs() < 1e-9 && (hi - (2.0 + half)).abs() < 1e-9,
            "{lo} {hi}"
        );
        // The spread of moves within a game does not narrow it: the same game means with no
        // spread inside each game give the same interval.
        let flat = summarise(&[game(&[1.0, 1.0]), game(&[2.0, 2.0]), game(&[3.0, 3.0])]);
        assert_eq!(flat.interval, s.interval);
        assert_eq!(
            summarise(&[game(&[1.0, 3.0])]).interval,
            None,
            "one game has no interval"
        );
    }

    /// A long game weighs by its moves: the mean is all losses over all moves.
    #[test]
    fn the_mean_is_over_moves() {
        let s = summarise(&[game(&[1.0; 9]), game(&[11.0])]);
        assert!((s.mean_lost - 2.0).abs() < 1e-12, "{}", s.mean_lost);
        let (lo, hi) = s.interval.unwrap();
        assert!(lo < 2.0 && hi > 2.0);
    }

    #[test]
    fn losses_beyond_the_listed_gap_and_first_moves_that_lose_are_counted() {
        let turns = vec![
            turn(0.0, 5.0, 5.0),    // listed first, loses nothing: consistent
            turn(0.4, 5.0, 5.0),    // listed first, loses: both counts
            turn(14.8, 5.0, 4.7),   // a loss of 14.8 on a gap of 0.3
            turn(2.0005, 7.0, 5.0), // within the rounding of the gap
            turn(1.0, 7.0, 5.0),    // a loss under the gap
            turn(0.0, 6.0, 6.0),    // level with the first: a first choice
        ];
        let s = summarise(&[Game {
            turns,
            results: None,
            completions: Vec::new(),
        }]);
        assert_eq!(s.first_choice, 3);
        assert_eq!(s.first_with_loss, 1);
        assert_eq!(s.loss_over_gap, 2);
        assert_eq!(s.chances, None, "no result, no chances scored");
    }

    fn chance_turn(phase: Phase, mover: u8, p: f64) -> Turn {
        Turn {
            phase,
            mover,
            win_chance: Some(p),
            ..turn(0.0, 0.0, 0.0)
        }
    }

    #[test]
    fn chances_are_scored_against_how_the_game_ended() {
        let turns = vec![
            chance_turn(Phase::Early, 0, 0.5),  // ln 2 whatever the result
            chance_turn(Phase::Middle, 0, 0.8), // player 0 won: −ln 0.8
            chance_turn(Phase::Middle, 1, 0.8), // player 1 lost: −ln 0.2
            chance_turn(Phase::Late, 1, 0.0),   // sure of a loss, and lost: read as 0.0005
        ];
        let finished = Game {
            turns: turns.clone(),
            results: Some(vec![1.0, 0.0]),
            completions: Vec::new(),
        };
        let unfinished = Game {
            turns,
            results: None,
            completions: Vec::new(),
        };
        let c = summarise(&[finished, unfinished]).chances.unwrap();
        assert_eq!(c.positions, 4, "the unfinished game's chances are not scored");
        let (early, middle, late) = (2f64.ln(), -(0.8f64.ln() + 0.2f64.ln()) / 2.0, -(0.9995f64.ln()));
        assert!((c.by_phase[0].1.unwrap() - early).abs() < 1e-12);
        assert!((c.by_phase[1].1.unwrap() - middle).abs() < 1e-12);
        assert!((c.by_phase[2].1.unwrap() - late).abs() < 1e-12);
        assert_eq!(c.by_phase.map(|p| p.0), [1, 2, 1]);
        assert!((c.log_loss - (early + 2.0 * middle + late) / 4.0).abs() < 1e-12);
        let bins: Vec<(usize, Bin)> = (c.reliability.iter().copied().enumerate())
            .filter(|(_, b)| b.count > 0)
            .collect();
        let bin = |count, mean_predicted, observed| Bin {
            count,
            mean_predicted,
            observed,
            miss_interval: None,
        };
        assert_eq!(
            bins,
            vec![(0, bin(1, 0.0, 0.0)), (5, bin(1, 0.5, 1.0)), (8, bin(2, 0.8, 0.5))]
        );
    }

    /// A shared first place is half a win: a chance of ½ scores ln 2 on it, and so does any
    /// chance on average over a win and a loss.
    #[test]
    fn a_shared_first_place_counts_half() {
        assert!((log_loss(0.5, 0.5) - 2f64.ln()).abs() < 1e-12);
        assert!((log_loss(0.9, 0.5) - (log_loss(0.9, 1.0) + log_loss(0.9, 0.0)) / 2.0).abs() < 1e-12);
        assert!(log_loss(1.0, 0.0).is_finite());
    }

    #[test]
    fn t_quantiles_approach_the_normal() {
        assert_eq!(t_975(1), 12.706);
        assert!((t_975(60) - 2.000).abs() < 0.002 && (t_975(1000) - 1.962).abs() < 0.002);
        assert!(t_975(31) < t_975(30));
    }

    /// Completion chances: Brier is the mean squared miss, over every game's forecasts, and
    /// the bins hold what came of the chances given in each tenth.
    #[test]
    fn completion_chances_are_scored_by_brier_and_tenths() {
        let with = |completions: Vec<(f64, f64)>| Game {
            completions,
            ..game(&[0.0])
        };
        let s = summarise(&[
            with(vec![(0.9, 1.0), (0.95, 0.0)]),
            with(vec![(0.2, 0.0)]),
            game(&[0.0]),
        ]);
        let c = s.completion.unwrap();
        assert_eq!(c.forecasts, 3);
        assert!((c.brier - (0.01 + 0.9025 + 0.04) / 3.0).abs() < 1e-12, "{}", c.brier);
        assert!((c.share - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!((c.reliability[9].count, c.reliability[2].count), (2, 1));
        assert!((c.reliability[9].mean_predicted - 0.925).abs() < 1e-12);
        assert!((c.reliability[9].observed - 0.5).abs() < 1e-12);
        assert_eq!(summarise(&[game(&[0.0])]).completion, None, "no forecast, no score");
    }

    /// The completion tenth of the first game's first chance, judged over games of these
    /// chances (each with 1 when completed, else 0).
    fn tenth_of_first(games: Vec<Vec<(f64, f64)>>) -> Bin {
        let games: Vec<Game> = (games.into_iter())
            .map(|completions| Game {
                completions,
                ..game(&[0.0])
            })
            .collect();
        let c = summarise(&games).completion.unwrap();
        c.reliability[((games[0].completions[0].0 * 10.0) as usize).min(9)]
    }

    /// A tenth's miss has its interval over games: a feature forecast on many turns is one
    /// game's cluster, not many independent chances. Twelve games of one chance of ½, six
    /// completed: the mean miss is 0, the games' misses ±½, so se = √(12 · ¼ · 12/11)/12 and
    /// the interval ± t(11) = 2.201 times it. The same chances in one game give no interval,
    /// and an interval never leaves what a share can be.
    #[test]
    fn a_tenths_miss_has_its_interval_over_games() {
        let halves: Vec<Vec<(f64, f64)>> = (0..12).map(|g| vec![(0.5, f64::from(g % 2))]).collect();
        let bin = tenth_of_first(halves.clone());
        assert!((bin.observed - bin.mean_predicted).abs() < 1e-12);
        let (lo, hi) = bin.miss_interval.unwrap();
        let half = 2.201 * (12.0 * 0.25 * 12.0 / 11.0f64).sqrt() / 12.0;
        assert!((lo + half).abs() < 1e-9 && (hi - half).abs() < 1e-9, "{lo} {hi}");
        assert_eq!(
            tenth_of_first(vec![halves.concat()]).miss_interval,
            None,
            "one game gives no interval"
        );
        let sure = tenth_of_first(vec![vec![(0.9, 1.0), (0.9, 1.0)], vec![(0.9, 0.0)]]);
        let (lo, hi) = sure.miss_interval.unwrap();
        assert!(
            (lo + 0.9).abs() < 1e-9 && (hi - 0.1).abs() < 1e-9,
            "{lo} {hi}: t(1) spans all"
        );
    }

    /// A tenth is shown within 5 points only when its whole interval is, and beyond only when
    /// its whole interval is: ten games each completing half of their even chances are within;
    /// ten never completing their 90% chances are beyond; twelve games each of one even chance,
    /// or one game however many chances, cannot tell.
    #[test]
    fn a_tenth_is_judged_against_the_tolerance_by_its_whole_interval() {
        let judged = |games| tenth_of_first(games).against(COMPLETION_TOLERANCE);
        let even = vec![(0.5, 1.0), (0.5, 0.0)];
        assert_eq!(judged(vec![even.clone(); 10]), Verdict::Within);
        assert_eq!(judged(vec![vec![(0.9, 0.0); 3]; 10]), Verdict::Beyond);
        let one_each: Vec<Vec<(f64, f64)>> = (0..12).map(|g| vec![(0.5, f64::from(g % 2))]).collect();
        assert_eq!(judged(one_each), Verdict::Unresolved);
        assert_eq!(
            judged(vec![even.repeat(50)]),
            Verdict::Unresolved,
            "one game, no interval"
        );
    }
}

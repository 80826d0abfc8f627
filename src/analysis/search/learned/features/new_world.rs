//! New World's features. Its settlers stand as robbers on trails, shopkeepers in towns,
//! farmers on farms and trappers on plains (who never come home), and its surveyors send home
//! every standing settler they leave behind after a scoring: a settler's worth depends on its
//! column as much as on its feature. So beside the base game's kind of counts (settlers by
//! where they stand, what owned open towns and farms would add completed, plain and times
//! their chance of completion), a player has the settlers standing in or east of the
//! eastern-most surveyor's column (sent home, unscored, at the next scoring) and those one
//! column west of it (at the one after).

use super::{OpenFeature, count_figures, per_player};
use crate::engine::{FeatureKind, Game, SegId};

/// How many features a player has.
pub const N: usize = 17;

/// The features' names, in vector order.
pub const NAMES: [&str; N] = [
    "score_if_ended",
    "score_if_ended_x_share",
    "supply_x_share",
    "supply_x_share2",
    "empty_supply_x_share",
    "robbers_x_share",
    "shopkeepers_x_share",
    "farmers_x_share",
    "trappers_x_share",
    "town_gain_x_share",
    "farm_gain_x_share",
    "town_gain_x_chance",
    "farm_gain_x_chance",
    "trail_bonus_x_chance",
    "settlers_x_miss_chance_x_share",
    "settlers_behind",
    "settlers_next_behind",
];

/// One player's features, in [`NAMES`] order.
pub type Vector = [f64; N];

/// Raw counts per player, before the share of the pack left.
#[derive(Clone, Copy, Default)]
struct Counts {
    robbers: u32,
    shopkeepers: u32,
    farmers: u32,
    trappers: u32,
    /// Points owned open towns and farms would add if completed.
    town_gain: u32,
    farm_gain: u32,
    /// The same, each times the feature's chance of completion; and for trails (which score
    /// as much open as completed, but for the surveyors' bonus).
    town_expected: f64,
    farm_expected: f64,
    trail_expected: f64,
    /// Standing settlers, each times the chance its feature is never completed.
    stuck: f64,
    /// Standing settlers in or east of the eastern-most surveyor's column, and one west of it.
    behind: u32,
    next_behind: u32,
}

/// Every player's features in `game`, in seat order.
pub fn of(game: &Game) -> Vec<Vector> {
    per_player(game, counts(game), |c, share| {
        let s = |x: u32| f64::from(x) * share;
        [
            s(c.robbers),
            s(c.shopkeepers),
            s(c.farmers),
            s(c.trappers),
            s(c.town_gain),
            s(c.farm_gain),
            c.town_expected,
            c.farm_expected,
            c.trail_expected,
            c.stuck * share,
            f64::from(c.behind),
            f64::from(c.next_behind),
        ]
    })
}

/// Each player's settlers by where they stand, and what their open features would gain.
fn counts(game: &Game) -> Vec<Counts> {
    let east = game.surveyors().map(|s| s.east());
    count_figures(
        game,
        |c: &mut Counts, s, _| {
            match game.features().kind(s) {
                FeatureKind::Plains => {
                    // Trappers lie down: the surveyors never send them home.
                    c.trappers += 1;
                    return false;
                }
                FeatureKind::Trail => c.robbers += 1,
                FeatureKind::Town => c.shopkeepers += 1,
                FeatureKind::Farm => c.farmers += 1,
                _ => {}
            }
            if let Some(east) = east {
                let x = game.segment_place(s).0.x;
                c.behind += u32::from(x >= east);
                c.next_behind += u32::from(x == east - 1);
            }
            true
        },
        add_root,
    )
}

/// What one occupied open town, trail or farm adds to its owners' counts: its points
/// completed less its points at the end, as they are and times its chance of completion (for
/// the first owner's draws), and to every settler on it the chance it stays out.
fn add_root(game: &Game, root: SegId, counts: &mut [Counts]) {
    let Some(open) = OpenFeature::of(game, root) else {
        return;
    };
    let kind = game.features().kind(root);
    for (p, c) in counts.iter_mut().enumerate() {
        c.stuck += open.stuck(p);
        let Some((gain, expected)) = open.owned_gain(p) else {
            continue;
        };
        match kind {
            FeatureKind::Town => {
                c.town_gain += gain;
                c.town_expected += expected;
            }
            FeatureKind::Farm => {
                c.farm_gain += gain;
                c.farm_expected += expected;
            }
            FeatureKind::Trail => c.trail_expected += expected,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::search::learned::features::pack_share;
    use crate::engine::Preset;
    use crate::engine::bots::Policy;
    use crate::record::RulesSpec;
    use crate::selfplay::generate;

    /// Every settler is counted once, where it stands: in supply, on a trail, in a town, on a
    /// farm or on plains. Standing settlers behind the surveyors are among those on the board,
    /// and the chance-weighted gains never exceed the gains.
    #[test]
    fn every_settler_is_counted_once_where_it_stands() {
        let record = generate(RulesSpec::new(Preset::NewWorld), 2, Policy::Greedy, 9).unwrap();
        let (mut seen_on_board, mut seen_trappers) = (0, 0);
        for turn in (2..=record.moves.len() as u32).step_by(4) {
            let (game, _) = crate::analysis::position_before(&record, turn).unwrap();
            let share = pack_share(&game);
            for f in of(&game) {
                let supply = f[2] / share;
                let placed: f64 = f[5..=8].iter().sum::<f64>() / share;
                let standing: f64 = f[5..=7].iter().sum::<f64>() / share;
                assert!((supply + placed - 5.0).abs() < 1e-9, "turn {turn}: {f:?}");
                assert!(f[15] + f[16] <= standing + 1e-9, "turn {turn}: {f:?}");
                assert!(f[11] <= f[9] / share + 1e-9 && f[12] <= f[10] / share + 1e-9);
                seen_on_board += usize::from(placed > 0.0);
                seen_trappers += usize::from(f[8] > 0.0);
            }
        }
        assert!(
            seen_on_board > 10 && seen_trappers > 0,
            "{seen_on_board} {seen_trappers}"
        );
    }
}

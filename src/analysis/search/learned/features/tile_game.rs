//! The base game's features: followers by where they stand, farmers and the open cities
//! their fields border, the abbot, and what owned open cities and cloisters would add if
//! completed, plain and times their chance of completion ([`quick_completion_chance`], the
//! tiles left that close them; it falls to zero with the pack by itself).

use super::{OpenFeature, count_figures, per_player};
use crate::engine::features::{Figure, Meeple, majority};
use crate::engine::{FeatureKind, Game, SegId};

/// How many features a player has.
pub const N: usize = 16;

/// The features' names, in vector order (the weights file lists them to be checked).
pub const NAMES: [&str; N] = [
    "score_if_ended",
    "score_if_ended_x_share",
    "supply_x_share",
    "supply_x_share2",
    "empty_supply_x_share",
    "road_followers_x_share",
    "city_followers_x_share",
    "cloister_followers_x_share",
    "farmers_x_share",
    "farm_open_cities_x_share",
    "abbot_on_board_x_share",
    "city_gain_x_share",
    "cloister_gain_x_share",
    "city_gain_x_chance",
    "cloister_gain_x_chance",
    "followers_x_miss_chance_x_share",
];

/// One player's features, in [`NAMES`] order.
pub type Vector = [f64; N];

/// Raw counts per player, before the share of the pack left.
#[derive(Clone, Copy, Default)]
struct Counts {
    road_followers: u32,
    city_followers: u32,
    cloister_followers: u32,
    farmers: u32,
    farm_open_cities: u32,
    abbots: u32,
    /// Points owned open features would add if completed, by kind (a road scores the same
    /// open or completed).
    city_gain: u32,
    cloister_gain: u32,
    /// The same, each times the feature's chance of completion.
    city_expected: f64,
    cloister_expected: f64,
    /// Followers on open roads, cities and cloisters, each times the chance its feature is
    /// never completed (it stays out of the supply).
    stuck: f64,
}

/// Every player's features in `game`, in seat order.
pub fn of(game: &Game) -> Vec<Vector> {
    per_player(game, counts(game), |c, share| {
        let s = |x: u32| f64::from(x) * share;
        [
            s(c.road_followers),
            s(c.city_followers),
            s(c.cloister_followers),
            s(c.farmers),
            s(c.farm_open_cities),
            s(c.abbots),
            s(c.city_gain),
            s(c.cloister_gain),
            c.city_expected,
            c.cloister_expected,
            c.stuck * share,
        ]
    })
}

/// Each player's figures on the board by where they stand, and what their open features
/// would gain completed.
fn counts(game: &Game) -> Vec<Counts> {
    count_figures(
        game,
        |c: &mut Counts, s, Meeple { figure, .. }| {
            match (figure, game.features().kind(s)) {
                (Figure::Abbot, _) => c.abbots += 1,
                (Figure::Follower, FeatureKind::Field) => c.farmers += 1,
                (Figure::Follower, FeatureKind::Road) => c.road_followers += 1,
                (Figure::Follower, FeatureKind::City) => c.city_followers += 1,
                (Figure::Follower, k) if k.is_inner() => c.cloister_followers += 1,
                _ => {}
            }
            true
        },
        add_root,
    )
}

/// What one occupied feature adds to its owners' counts: a field, the open cities it borders;
/// an open city or cloister, its points completed less its points at the end, as they are and
/// times its chance of completion ([`quick_completion_chance`], for the first owner's draws).
fn add_root(game: &Game, root: SegId, counts: &mut [Counts]) {
    let features = game.features();
    let kind = features.kind(root);
    let players = counts.len();
    if kind == FeatureKind::Field {
        let owners = majority(&features.count_meeples(root));
        let open_cities = game.field_open_cities(root).len() as u32;
        for p in owners.iter().filter(|&p| usize::from(p) < players) {
            counts[usize::from(p)].farm_open_cities += open_cities;
        }
        return;
    }
    let Some(open) = OpenFeature::of(game, root) else {
        return;
    };
    for (p, c) in counts.iter_mut().enumerate() {
        c.stuck += open.stuck(p);
        let Some((gain, expected)) = open.owned_gain(p) else {
            continue;
        };
        match kind {
            FeatureKind::City => {
                c.city_gain += gain;
                c.city_expected += expected;
            }
            k if k.is_inner() => {
                c.cloister_gain += gain;
                c.cloister_expected += expected;
            }
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

    /// Every follower is counted once, where it stands: in supply, on a road, a city, a
    /// cloister or a field (the base game sends home those whose feature completes). The
    /// chance-weighted gains never exceed the gains.
    #[test]
    fn every_follower_is_counted_once_where_it_stands() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 9).unwrap();
        let mut seen_on_board = 0;
        for turn in (2..70).step_by(4) {
            let (game, _) = crate::analysis::position_before(&record, turn).unwrap();
            let share = pack_share(&game);
            for f in of(&game) {
                let supply = f[2] / share;
                let placed: f64 = f[5..=8].iter().sum::<f64>() / share;
                assert!((supply + placed - 7.0).abs() < 1e-9, "turn {turn}: {f:?}");
                assert!(f[13] <= f[11] * share.recip() + 1e-9 && f[14] <= f[12] * share.recip() + 1e-9);
                seen_on_board += usize::from(placed > 0.0);
            }
        }
        assert!(seen_on_board > 10, "followers were placed: {seen_on_board}");
    }
}

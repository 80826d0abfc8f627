//! A follower may not go on a feature that is already occupied, judged on the feature as it is
//! once the tile is placed: the new tile may join features through its other segments (two of
//! its fields touching one neighbouring field, one of them also touching an occupied field).
//!
//! In detail:
//! - `../shared/fixtures/engine/farmer-on-occupied-field.json`: its 60 turns replay, and turn 61
//!   (a farmer on a curve's inner field, joined through the curve's outer field to a held
//!   field) is refused, naming the turn, the player and the rule
//! - over random games (the base game with farmers, The River with The Abbot, the classic
//!   rules, New World on our sample tiles), for every legal placement of the drawn tile: each
//!   follower spot `Game::actions` offers, and each `Game::check_action` accepts, is exactly one
//!   whose feature, once the tile is placed, nobody holds; refused ones are refused as
//!   occupied. Cloisters, gardens and farms keep their own rules.

use crate::common;

use carcassonne_replay::engine::{
    Action, FeatureKind, Figure, Game, IllegalMove, Location, Move, Placement, Pos, Preset, Rng, Rotation, TileKindId,
    random_placement,
};
use carcassonne_replay::record::{RulesSpec, Walk};
use carcassonne_replay::replay;
use carcassonne_replay::selfplay;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Turn 61 of the fixture: Ann lays V at (3,-3) turned 180 with a farmer on its inner field
/// (N.e). That field touches only a free field to the north, but so does the curve's outer
/// field, which also touches a field a farmer holds: once placed, all of it is one occupied
/// field. Board Game Arena refuses the farmer there too.
#[test]
fn a_farmer_on_a_field_the_tile_joins_to_an_occupied_one_is_refused() {
    let Some(fixtures) = common::fixtures_dir() else { return };
    let record = common::load_record(&fixtures.join("engine/farmer-on-occupied-field.json")).unwrap();
    replay::replay_upto(&record, None, Some(60)).expect("the 60 turns before replay");
    let Err(err) = replay::replay(&record, None) else {
        panic!("turn 61 replayed");
    };
    let text = err.describe(&record);
    assert!(
        text.starts_with("turn 61 (Ann): tile V at (3,-3) rotated 180 with a meeple on the field at N.e: ")
            && text.ends_with("that field is already occupied: a meeple stands elsewhere on it"),
        "{text}"
    );
    // The engine's legal moves never offered it.
    let mut walk = Walk::new(&record).unwrap();
    while walk.placed() < 60 {
        walk.step().unwrap().unwrap();
    }
    let game = walk.game();
    let v = game.catalog().by_name("V").unwrap();
    let p = Placement {
        pos: Pos::new(3, -3),
        rotation: Rotation::from_degrees(180).unwrap(),
    };
    let farmer_spot = (game.tile_kind(v))
        .segment_at(p.rotation, FeatureKind::Field, Location::parse("N.e"))
        .unwrap();
    let mut actions = Vec::new();
    game.actions(v, p, &mut actions);
    assert!(
        !actions.contains(&Action::Deploy {
            segment: farmer_spot,
            figure: Figure::Follower
        }),
        "{actions:?}"
    );
}

/// The rule sets of the random games, each with 20 followers so that late turns still have
/// spots to offer.
fn rule_sets() -> Vec<(&'static str, RulesSpec)> {
    let spec = |preset, river_abbot: bool| {
        let mut s = RulesSpec::new(preset);
        s.overrides.followers = Some(20u8.try_into().unwrap());
        if river_abbot {
            (s.overrides.river, s.overrides.abbot) = (Some(true), Some(true));
        }
        s
    };
    vec![
        ("the base game with farmers", spec(Preset::SecondEdition, false)),
        ("The River with The Abbot", spec(Preset::SecondEdition, true)),
        ("the classic rules", spec(Preset::Classic2000, false)),
        ("New World", spec(Preset::NewWorld, false)),
    ]
}

/// What the checks met over all games, per feature kind: the follower spots refused as
/// occupied, and those of them whose feature, once placed, also holds another segment of the
/// tile.
#[derive(Default)]
struct Met {
    refused: BTreeMap<FeatureKind, usize>,
    joined_through_the_tile: BTreeMap<FeatureKind, usize>,
}

/// Checks every follower and abbot spot of every placement of `tile` against the features
/// once the tile is placed; returns the first disagreement.
fn check_spots(game: &Game, tile: TileKindId, met: &mut Met) -> Result<(), String> {
    let kind = game.tile_kind(tile);
    let me = game.players()[game.current_player() as usize];
    let rules = game.rules();
    let (mut placements, mut actions) = (Vec::new(), Vec::new());
    game.placements(tile, false, &mut placements);
    for &p in &placements {
        game.actions(tile, p, &mut actions);
        let mut placed = game.clone();
        let index = placed.place_tile_only(tile, p);
        for (i, s) in kind.segments.iter().enumerate() {
            let segment = i as u8;
            let at = format!(
                "{} at {} turned {}, segment {i} ({})",
                kind.name, p.pos, p.rotation, s.kind
            );
            // The slow way: the tile placed, its features merged.
            let held = placed.features().is_occupied(placed.segment_id(index, segment));
            if s.kind.is_inner() && held {
                return Err(format!("{at}: a lone {} is held before anyone stands on it", s.kind));
            }
            for figure in [Figure::Follower, Figure::Abbot] {
                let deploy = Action::Deploy { segment, figure };
                let offered = actions.contains(&deploy);
                let checked = game.check_action(tile, p, deploy);
                if offered != checked.is_ok() {
                    return Err(format!("{at}: {figure:?} offered {offered}, check_action {checked:?}"));
                }
                let may_stand = match (figure, s.kind) {
                    (_, FeatureKind::River | FeatureKind::Crossing) => false,
                    (Figure::Follower, FeatureKind::Garden) => false,
                    (Figure::Follower, FeatureKind::Field) => rules.farmers && me.followers > 0,
                    (Figure::Follower, _) => me.followers > 0,
                    (Figure::Abbot, k) => k.is_inner() && rules.abbot && me.abbot_at.is_none(),
                };
                let legal = may_stand && !held;
                if offered != legal {
                    return Err(format!(
                        "{at}: {figure:?} offered {offered}, but held once placed is {held}"
                    ));
                }
                if may_stand && held && checked != Err(IllegalMove::FeatureOccupied { kind: s.kind }) {
                    return Err(format!("{at}: refused as {checked:?}, not as occupied"));
                }
            }
            if held && me.followers > 0 {
                *met.refused.entry(s.kind).or_default() += 1;
                let root = placed.features().root(placed.segment_id(index, segment));
                let joined = (0..kind.segments.len() as u8)
                    .any(|o| o != segment && placed.features().root(placed.segment_id(index, o)) == root);
                if joined {
                    *met.joined_through_the_tile.entry(s.kind).or_default() += 1;
                }
            }
        }
    }
    Ok(())
}

/// One random game under `rules`, its moves random and legal, checking the spots at each
/// turn `check_every` picks.
fn check_game(rules: &RulesSpec, players: u8, seed: u64, check_every: usize, met: &mut Met) -> Result<(), String> {
    let mut failure = None;
    let mut scratch = Vec::new();
    let mut actions = Vec::new();
    let mut turn = 0;
    selfplay::generate_with(rules.clone(), players, seed, |game, tile, rng: &mut Rng| {
        turn += 1;
        if failure.is_none() && turn % check_every == 0 {
            failure = check_spots(game, tile, met).err().map(|e| format!("turn {turn}: {e}"));
        }
        let placement = random_placement(game, tile, rng, &mut scratch)?;
        game.actions(tile, placement, &mut actions);
        Some(Move {
            tile,
            placement,
            action: actions[rng.below(actions.len())],
        })
    })
    .map_err(|e| e.to_string())?;
    failure.map_or(Ok(()), Err)
}

/// The follower spots offered at random positions of random games, and those `check_action`
/// refuses, agree with the merged features once the tile is placed, for every kind.
#[test]
fn follower_spots_agree_with_the_features_once_the_tile_is_placed() {
    let sets = rule_sets();
    let met = RefCell::new(Met::default());
    let mut runner = TestRunner::new(Config {
        cases: 16,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (any::<u64>(), 2u8..=4, 2usize..=4);
    let result = runner.run(&strategy, |(seed, players, check_every)| {
        for (name, rules) in &sets {
            check_game(rules, players, seed, check_every, &mut met.borrow_mut())
                .map_err(|e| TestCaseError::fail(format!("{name}, {players} players, seed {seed}: {e}")))?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The checks met what they are about: spots refused on every kind a follower can hold,
    // and fields and plains held through a join with the tile's other segments.
    let met = met.into_inner();
    for kind in [
        FeatureKind::Field,
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Plains,
        FeatureKind::Trail,
        FeatureKind::Town,
    ] {
        assert!(
            met.refused.get(&kind).is_some_and(|&n| n > 0),
            "no {kind} refused: {:?}",
            met.refused
        );
    }
    for kind in [FeatureKind::Field, FeatureKind::Plains] {
        assert!(
            met.joined_through_the_tile.get(&kind).is_some_and(|&n| n > 0),
            "no {kind} joined through the tile: {:?}",
            met.joined_through_the_tile
        );
    }
}

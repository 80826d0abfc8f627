//! What-if analysis: alternative counts against the perft fixtures, hand positions with an
//! obvious best move, independence from the record's future, determinism, and the CLI's JSON
//! contract. Playout counts stay small so the suite is quick in debug builds.
//!
//! In detail:
//! - a New World game analysed turn by turn, every legal move an alternative
//! - alternative and move counts on every `yas/` turn, hand positions with an obvious best move
//!   (closing a city, stealing one), completion chances counted by hand (one open side with 22
//!   closing tiles; two sides sharing them), meeples committed (+1 a deployment, −1 an abbot
//!   recall), the analysis never reading future draws, determinism across thread counts, the
//!   `analyse` JSON contract
//! - the board's feature notes against final scoring on every feature of a game, and a city's
//!   worth under each rulebook (1 open at the end; completed, 4 or the classic 2 for the two
//!   tiles a cap makes), every note's "if completed" against what completing the feature pays
//!   in all three tile rulebooks' generated games, a farm needing three squares likely only
//!   when the tiles left say so, and features that never complete saying so
//! - played moves classed by the chance they lost (0 within the noise) with accuracies
//! - the win-chance model, its classes, its fit recovering a known scale, and the baseline
//!   predicting the share of wins (a third with three players) (unit tests in
//!   `src/analysis/win_chance.rs`)
//! - sequential halving keeping the best move and spending most on the last two, on any number
//!   of threads, and the analysis's rounds valuing every move and finishing the best quarter
//!   (`src/analysis/halving.rs`)
//! - a Card Game turn judged through the one path the same on one thread and two, every action
//!   weighed again, the first listed losing nothing and no loss above the listed gap
//!   (`src/analysis/weighing.rs`)
//! - the search repeatable on any number of threads, halving down to two moves that met the
//!   same futures and choosing the better, its horizon value equal to the final margin at the
//!   end and counting followers in supply before it (`src/analysis/search.rs`)
//! - a Card Game turn's analysis and search reading nothing the mover cannot see (the search
//!   weighing every action, the same on any number of threads), the analysis's own best action
//!   losing nothing on the recheck, a chance for every turn, nothing lost where the recheck
//!   found nothing, and an analysis stored before greedy playouts keeping the scale fitted for
//!   it (`src/analysis/cards.rs`)
//! - `match` over Card Game deals, the same games twice (`src/analysis/arena.rs`)

use crate::common;

use carcassonne_replay::analysis::{
    self, AnalysisError, AnalysisOptions, GameAnalysis, HEURISTIC_FORMULA, TurnAnalysis, ValueBasis,
};
use carcassonne_replay::analysis::{KindGroup, Never, Outlook};
use carcassonne_replay::engine::{Action, FeatureKind, Move, Pos, Preset, Rotation};
use carcassonne_replay::engine::{Rng, random_placement, shuffled_bag};
use carcassonne_replay::record::recorded;
use carcassonne_replay::record::{self, GameRecord, RecordedMove, RulesSpec};
use carcassonne_replay::replay;
use carcassonne_replay::selfplay::{Policy, generate};
use common::{Failures, file_name, files_with_suffix, fixtures_dir, read_json};
use serde_json::Value;

fn parse(json: &str) -> GameRecord {
    record::parse(json.as_bytes()).expect("the test record parses").0
}

fn heuristic_only() -> AnalysisOptions {
    AnalysisOptions {
        playouts_per_alternative: Some(0),
        ..AnalysisOptions::default()
    }
}

fn few_playouts(seed: u64) -> AnalysisOptions {
    AnalysisOptions {
        playouts_per_alternative: Some(8),
        sampler: analysis::Sampler::ToTheEnd,
        greedy_share: 0.25,
        seed,
        threads: 2,
        ..AnalysisOptions::default()
    }
}

fn two_players(moves: &str) -> GameRecord {
    parse(&format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "rules": {{"preset": "second-edition"}}, "moves": [{moves}]}}"#
    ))
}

fn is_at(t: &TurnAnalysis, i: usize, x: i32, y: i32, degrees: u16) -> bool {
    let a = &t.alternatives[i];
    a.placement.pos == Pos::new(x, y) && a.placement.rotation.degrees() == degrees
}

// ----- counts against the perft fixtures -----

fn expected_counts(v: &Value, key: &str) -> Vec<usize> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}"))
        .iter()
        .map(|n| n.as_u64().expect("a count") as usize)
        .collect()
}

/// `placements_count` and `moves_count` on every turn of every yas game equal the fixture's
/// `num_placements` and `num_moves`, and every played move is found among the alternatives.
#[test]
fn alternative_counts_match_the_yas_fixtures_on_every_turn() {
    let Some(fixtures) = fixtures_dir() else {
        return;
    };
    let games = files_with_suffix(&fixtures.join("games/yas"), ".jcz");
    assert!(!games.is_empty());
    // One thread per game: the suite stays quick in debug builds.
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = games.iter().map(|jcz| s.spawn(|| check_counts(jcz))).collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut f = Failures::default();
    let mut turns = 0;
    for (n, failures) in results {
        turns += n;
        failures.into_iter().for_each(|m| f.push(m));
    }
    println!("analysis counts: {turns} turns checked");
    f.finish("analysis counts");
}

/// (turns checked, failures) for one yas game.
fn check_counts(jcz: &std::path::Path) -> (usize, Vec<String>) {
    let stem = file_name(jcz).trim_end_matches(".jcz").to_string();
    let expected = read_json(&jcz.with_file_name(format!("{stem}.expected.json")));
    let (placements, moves) = (
        expected_counts(&expected, "num_placements"),
        expected_counts(&expected, "num_moves"),
    );
    let record = common::load_record(jcz).expect("the fixture loads");
    let opts = AnalysisOptions {
        threads: 1,
        ..heuristic_only()
    };
    let game =
        analysis::analyse_game(&record, &opts, &carcassonne_replay::analysis::quiet).expect("the fixture analyses");
    let mut failures = Vec::new();
    if game.turns.len() != placements.len() {
        failures.push(format!(
            "yas/{stem}: {} turns, expected {}",
            game.turns.len(),
            placements.len()
        ));
    }
    for (t, (&p, &m)) in game.turns.iter().zip(placements.iter().zip(&moves)) {
        if (t.facts.placements_count, t.facts.moves_count) != (p, m) {
            failures.push(format!(
                "yas/{stem} turn {}: {} placements / {} moves, expected {p} / {m}",
                t.turn, t.facts.placements_count, t.facts.moves_count
            ));
        }
        if t.alternatives.len() != t.facts.moves_count || t.played.is_none() {
            failures.push(format!(
                "yas/{stem} turn {}: played move not among the alternatives",
                t.turn
            ));
        }
    }
    (game.turns.len(), failures)
}

// ----- hand positions -----

/// Turn 1: Ann draws E beside the start tile's open city. Closing it with a knight scores 4 at
/// once and the knight comes home: the obvious best.
#[test]
fn closing_a_city_for_points_ranks_first() {
    let record = two_players(r#"{"tile": "E", "at": [0, -1], "rotation": 180}"#);
    let t = analysis::analyse_turn(&record, 1, &heuristic_only()).unwrap();
    assert_eq!(t.facts.value_basis, ValueBasis::Heuristic);
    assert!(is_at(&t, 0, 0, -1, 180), "best: {:?}", t.alternatives[0]);
    let best = &t.alternatives[0];
    assert!(matches!(best.action, Action::Deploy { .. }));
    assert_eq!(best.evaluation.immediate, vec![4, 0]);
    assert_eq!(best.evaluation.meeples_committed, 0, "the knight scored and came home");
    let city = best
        .evaluation
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::City)
        .unwrap();
    assert!(city.closed && city.tiles == 2 && city.joined == 1 && city.at_stake == 4);
    assert_eq!(city.owners, vec![0]);
    // The played move (no knight) closed the city for nobody.
    let played = t.played_alternative().unwrap();
    assert_eq!(played.evaluation.immediate, vec![0, 0]);
    assert!(t.played_rank().unwrap() > 1 && t.points_lost().unwrap() >= 4.0 - 1e-9);

    // Playouts agree: the extra 4 points and the knight in hand outweigh their noise.
    let with_playouts = random_playouts(64);
    let t = analysis::analyse_turn(&record, 1, &with_playouts).unwrap();
    assert_eq!(t.facts.value_basis, ValueBasis::Playouts);
    let closing = (t.alternatives.iter())
        .position(|a| a.evaluation.immediate == vec![4, 0])
        .unwrap();
    assert!(
        t.alternatives[closing].rank <= 2,
        "closing ranks {} by playouts",
        t.alternatives[closing].rank
    );
}

/// `k` random playouts per alternative on two threads, seeded.
fn random_playouts(k: u32) -> AnalysisOptions {
    AnalysisOptions {
        playouts_per_alternative: Some(k),
        greedy_share: 0.0,
        seed: 5,
        threads: 2,
        ..AnalysisOptions::default()
    }
}

/// Points lost are weighed again on fresh futures, paired: a move within the noise of the best
/// loses nothing, and one clearly worse loses what the recheck measures, never the ranking's
/// optimistic gap.
#[test]
fn points_lost_are_rechecked_on_fresh_futures() {
    let record = two_players(r#"{"tile": "E", "at": [0, -1], "rotation": 180}"#);
    let opts = random_playouts(64);
    let t = analysis::analyse_turn(&record, 1, &opts).unwrap();
    let r = t.recheck.expect("playouts ran, so the played move is rechecked");
    assert_eq!(t.points_lost(), Some(r.points_lost));
    // Leaving the city to nobody gave away 4 points now, plainly beyond the noise.
    assert!(r.points_lost > 2.0 * r.std_error && r.points_lost >= 3.0, "{r:?}");
    // Playing the best move as ranked loses nothing beyond the noise.
    let mut best_played = record.clone();
    let best = &t.alternatives[0];
    if let RecordedMove::Place { placement, action, .. } = &mut best_played.moves[0] {
        *placement = best.placement;
        *action = best.meeple;
    }
    let again = analysis::analyse_turn(&best_played, 1, &opts).unwrap();
    assert_eq!(again.played, Some(0));
    assert_eq!(again.points_lost(), Some(0.0), "{:?}", again.recheck);
    // The heuristic alone has no recheck.
    assert!(
        analysis::analyse_turn(&record, 1, &heuristic_only())
            .unwrap()
            .recheck
            .is_none()
    );
}

/// What a reader of the list can check, on every analysed turn of a bot game: the move listed
/// first loses nothing, the played move never loses more than the gap the list shows between
/// the first move and it, a move listed with rank 1 loses nothing, and a move that lost points
/// is not too close to call.
#[test]
fn a_loss_is_the_gap_the_list_shows_and_the_first_listed_loses_nothing() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 33).unwrap();
    let opts = AnalysisOptions {
        max_playouts_per_turn: 600,
        ..random_playouts(24)
    };
    let (mut lost_some, mut too_close) = (0, 0);
    for n in (1..=71).step_by(5) {
        let t = analysis::analyse_turn(&record, n, &opts).unwrap().report();
        let (Some(played), Some(lost)) = (t.played, t.points_lost) else {
            panic!("turn {n}: the played move is listed and judged");
        };
        let gap = t.alternatives[0].value - t.alternatives[played].value;
        assert!(lost >= 0.0 && gap >= 0.0, "turn {n}: lost {lost}, gap {gap}");
        assert!(lost <= gap + 0.002, "turn {n}: lost {lost}, gap {gap}");
        assert!(
            t.facts.played_rank != Some(1) || lost == 0.0,
            "turn {n}: rank 1 is nothing lost"
        );
        assert!(!t.too_close || lost == 0.0, "turn {n}: a loss is not too close to call");
        assert!(t.alternatives[0].rechecked && t.alternatives[played].rechecked);
        lost_some += usize::from(lost > 0.0);
        too_close += usize::from(t.too_close);
    }
    assert!(lost_some > 0, "a greedy bot loses points on some turns");
    assert!(too_close < 15, "not every turn is too close to call");
    let cards = carcassonne_replay::selfplay::card_game(2, Policy::Greedy, 4).unwrap();
    for n in (1..cards.moves.len() as u32).step_by(9) {
        let t = analysis::cards::analyse_turn(&cards, n, 12, u64::from(n))
            .unwrap()
            .report(12);
        let (Some(played), Some(lost)) = (t.played, t.points_lost) else {
            panic!("Card Game turn {n}: the played action is listed and judged");
        };
        let gap = t.alternatives[0].value - t.alternatives[played].value;
        assert!(gap >= 0.0 && lost <= gap + 0.002, "turn {n}: lost {lost}, gap {gap}");
    }
}

#[test]
fn stealing_a_city_with_a_second_knight_ranks_first() {
    let record = two_players(common::STEAL);
    let t = analysis::analyse_turn(&record, 7, &heuristic_only()).unwrap();
    assert_eq!((t.player, t.facts.tile_name.as_str()), (0, "R"));
    assert!(is_at(&t, 0, 0, 2, 0), "best: {:?}", t.alternatives[0]);
    let best = &t.alternatives[0];
    assert_eq!(
        best.evaluation.immediate,
        vec![8, 0],
        "Ann's majority takes the whole city"
    );
    let city = best
        .evaluation
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::City)
        .unwrap();
    assert_eq!((city.tiles, city.joined, city.closed), (4, 3, true));
    assert_eq!((city.meeples.clone(), city.owners.clone()), (vec![2, 1], vec![0]));
    assert!(t.played_rank().unwrap() > 1);
}

// ----- the future is never read -----

/// The record up to and including placed tile `n` (discards after it dropped).
fn truncated(record: &GameRecord, n: u32) -> GameRecord {
    let mut r = record.clone();
    r.moves.truncate(record.placing(n).expect("the record has n turns") + 1);
    r
}

/// The record to turn `n`, then the rest of the pack in another order, played at random.
fn other_future(record: &GameRecord, n: u32, seed: u64) -> GameRecord {
    let mut r = truncated(record, n);
    let mut game = replay::replay(&r, None).expect("the truncated record replays").game;
    let (mut rng, mut scratch, mut actions, mut events) = (Rng::new(seed), Vec::new(), Vec::new(), Vec::new());
    for tile in shuffled_bag(&game, &mut rng) {
        let Some(placement) = random_placement(&game, tile, &mut rng, &mut scratch) else {
            r.moves.push(RecordedMove::Discard { player: None, tile });
            game.discard(tile, &mut events).unwrap();
            continue;
        };
        game.actions(tile, placement, &mut actions);
        let mv = Move {
            tile,
            placement,
            action: actions[rng.below(actions.len())],
        };
        r.moves.push(recorded(&game, &mv));
        game.play(&mv, &mut events).unwrap();
    }
    r
}

#[test]
fn a_turn_analysis_never_reads_the_recorded_future() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 7).unwrap();
    let n = 30;
    let opts = few_playouts(11);
    let full = analysis::analyse_turn(&record, n, &opts).unwrap();
    let cut = analysis::analyse_turn(&truncated(&record, n), n, &opts).unwrap();
    assert_eq!(full, cut, "truncating the record after turn {n} changed its analysis");
    let other = other_future(&record, n, 99);
    assert_ne!(other.moves, record.moves, "the future really differs");
    let reordered = analysis::analyse_turn(&other, n, &opts).unwrap();
    assert_eq!(
        full, reordered,
        "another draw order after turn {n} changed its analysis"
    );
}

// ----- determinism -----

#[test]
fn the_same_seed_gives_the_same_analysis_on_any_number_of_threads() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 3, Policy::Greedy, 3).unwrap();
    let two = analysis::analyse_turn(&record, 12, &few_playouts(1)).unwrap();
    let again = analysis::analyse_turn(&record, 12, &few_playouts(1)).unwrap();
    let one = AnalysisOptions {
        threads: 1,
        ..few_playouts(1)
    };
    assert_eq!(two, again);
    assert_eq!(two, analysis::analyse_turn(&record, 12, &one).unwrap());
    let other_seed = analysis::analyse_turn(&record, 12, &few_playouts(2)).unwrap();
    assert_ne!(two, other_seed, "the seed drives the playouts");
}

/// Playouts stopped at the search's horizon are as repeatable as playouts to the end, on any
/// number of threads, and a move that wins a city's points now still ranks above leaving them.
#[test]
fn playouts_to_the_horizon_are_repeatable_and_value_points_won() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 3).unwrap();
    let horizon = |threads| AnalysisOptions {
        sampler: analysis::Sampler::Horizon,
        threads,
        ..few_playouts(1)
    };
    let two = analysis::analyse_turn(&record, 30, &horizon(2)).unwrap();
    assert_eq!(two, analysis::analyse_turn(&record, 30, &horizon(1)).unwrap());
    assert_ne!(two, analysis::analyse_turn(&record, 30, &few_playouts(1)).unwrap());
    let closing = two_players(r#"{"tile": "E", "at": [0, -1], "rotation": 180}"#);
    let t = analysis::analyse_turn(&closing, 1, &horizon(2)).unwrap();
    let lost = t.points_lost().unwrap();
    assert!(lost >= 3.0, "leaving the start city to nobody loses its points: {lost}");
}

/// A queue's worker told to stop, or whose job another worker took over, stops the analysis
/// at the next turn through its progress: an error saying where, not a panic.
#[test]
fn a_whole_game_analysis_stops_when_its_progress_says_so() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 21).unwrap();
    let stop_after_3 = |done: u32, _| match done {
        3 => std::ops::ControlFlow::Break(()),
        _ => std::ops::ControlFlow::Continue(()),
    };
    let stopped = analysis::analyse_game(&record, &heuristic_only(), &stop_after_3).unwrap_err();
    assert!(matches!(stopped, analysis::AnalysisError::Stopped(3)), "{stopped}");
}

/// An analysis keeps the win-chance scale it was made with, and its chances read on it
/// whatever scale later analyses use; one stored before reports kept theirs reads on the scale
/// of its version.
#[test]
fn an_analysis_reads_its_chances_on_the_scale_it_stored() {
    use carcassonne_replay::analysis::report::{ReportHead, StoredAnalysis};
    use carcassonne_replay::analysis::win_chance::{Scale, TILE_SCALE_TO_THE_END};
    use carcassonne_replay::engine::GameKind;
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 21).unwrap();
    let game = analysis::analyse_game(&record, &few_playouts(3), &analysis::quiet).unwrap();
    let mut stored = StoredAnalysis::of(&game);
    let made_with = stored.head.summary.scale.expect("a new analysis stores its scale");
    assert_eq!(made_with, Scale::current(GameKind::Carcassonne));
    let first = |s: &StoredAnalysis| s.chances(None)[0].chance.after;
    let before = first(&stored);
    let wider = Scale {
        base: made_with.base * 3.0,
        ..made_with
    };
    stored.head.summary.scale = Some(wider);
    let back: StoredAnalysis = serde_json::from_str(&serde_json::to_string(&stored).unwrap()).unwrap();
    assert_eq!(back.head.scale(), wider);
    assert!(
        (first(&back) - 0.5).abs() < (before - 0.5).abs(),
        "a wider scale, a chance nearer ½"
    );
    let mut old = serde_json::to_value(&stored).unwrap();
    old["summary"].as_object_mut().unwrap().remove("scale");
    old["summary"]["version"] = 2.into();
    let old: StoredAnalysis = serde_json::from_value(old).unwrap();
    assert_eq!(old.head.scale(), TILE_SCALE_TO_THE_END);
}

/// Analysing the whole game gives each turn what analysing that turn alone gives.
#[test]
fn a_whole_game_agrees_with_its_turns_and_sums_points_lost() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 21).unwrap();
    let calls = std::cell::Cell::new(0);
    let game: GameAnalysis = analysis::analyse_game(&record, &heuristic_only(), &|done, total| {
        calls.set(calls.get() + 1);
        assert!(done <= total);
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(
        calls.get() as usize,
        game.turns.len() + 1,
        "progress at the start and after each turn"
    );
    for n in [1, 2, 35, game.turns.len() as u32] {
        let alone = analysis::analyse_turn(&record, n, &heuristic_only()).unwrap();
        assert_eq!(alone, game.turns[n as usize - 1], "turn {n}");
    }
    for (p, s) in game.players.iter().enumerate() {
        let lost: f64 = (game.turns.iter())
            .filter(|t| t.player as usize == p)
            .filter_map(|t| t.points_lost())
            .sum();
        assert!((s.points_lost - lost).abs() < 1e-9);
        assert!((s.average_points_lost - lost / f64::from(s.turns)).abs() < 1e-9);
        assert!(s.points_lost >= 0.0 && s.turns > 30);
    }
}

#[test]
fn the_per_turn_cap_shares_playouts_between_alternatives() {
    let opts = AnalysisOptions {
        playouts_per_alternative: Some(96),
        max_playouts_per_turn: 1_000,
        ..AnalysisOptions::default()
    };
    assert_eq!(opts.playouts_for(10), 96);
    assert_eq!(opts.playouts_for(20), 50);
    assert_eq!(opts.playouts_for(5_000), 1, "every alternative gets at least one");
    let uncapped = AnalysisOptions {
        max_playouts_per_turn: 0,
        ..opts.clone()
    };
    assert_eq!(uncapped.playouts_for(5_000), 96);
    let record = two_players(common::STEAL);
    // No move played: the moves weighed again on fresh futures are the top three, survivors.
    let (before, played) = analysis::position_before(&record, 7).unwrap();
    let capped = AnalysisOptions { threads: 1, ..opts };
    let t = analysis::analyse_position(&before, played.tile, None, 7, &capped).unwrap();
    let each = opts.playouts_for(t.facts.moves_count);
    let counts: Vec<u32> = t.alternatives.iter().map(|a| a.playouts.unwrap().count).collect();
    // Successive halving: the best quarter (at least 8) gets every playout; the rest keep the
    // first quarter's. The moves weighed again on the fresh futures, the first listed among
    // them, get as many again; a pruned move weighed again has them too.
    assert!(t.alternatives[0].rechecked);
    let rechecked = t.alternatives.iter().filter(|a| a.rechecked);
    assert!(rechecked.clone().count() >= 3 && rechecked.clone().all(|a| a.playouts.unwrap().count == each));
    let survivors = t.facts.moves_count.min(8.max(t.facts.moves_count / 4));
    let pruned = counts.iter().filter(|&&c| c == each / 4).count();
    assert!(counts.iter().all(|&c| c == each || c == each / 4), "{counts:?}");
    assert!(pruned > 0 && pruned <= t.facts.moves_count - survivors, "{counts:?}");
    // Without pruning (`match`'s flat-uniform), every alternative gets every playout.
    let uniform = AnalysisOptions {
        threads: 1,
        prune: false,
        ..opts
    };
    let t = analysis::analyse_turn(&record, 7, &uniform).unwrap();
    assert!(t.alternatives.iter().all(|a| a.playouts.unwrap().count == each));
}

// ----- completion chances and spots -----

#[test]
fn open_features_carry_spots_and_a_completion_chance() {
    // Turn 1 of the steal record: a knight on E at (0,1) leaves its city open towards (0,2),
    // which many tiles fit.
    let record = two_players(common::STEAL);
    let t = analysis::analyse_turn(&record, 1, &heuristic_only()).unwrap();
    let knight = (t.alternatives.iter())
        .find(|a| is_at_pos(a, 0, 1, 180) && matches!(a.action, Action::Deploy { .. }))
        .unwrap();
    let city = knight
        .evaluation
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::City)
        .unwrap();
    assert_eq!(city.open_spots.len(), 1);
    assert_eq!(city.open_spots[0].pos, Pos::new(0, 2));
    assert!(
        city.open_spots[0].fits > 20,
        "most city tiles fit: {}",
        city.open_spots[0].fits
    );
    // Closing tiles are sure to come to its owner, yet held cities like it were completed only
    // so often in played games: the chance is the share completed (`completion_rates`).
    let chance = city.completion.unwrap();
    assert!(chance > 0.5 && chance < 0.95, "{chance}");
    assert!(!t.facts.spots.is_empty());
    assert_eq!(t.dead_spots().count(), 0, "nothing is dead on turn 1");
}

/// C(n, k) as a float, multiplied out: the tests' own arithmetic, not the crate's.
fn choose(n: u32, k: u32) -> f64 {
    (0..k).map(|i| f64::from(n - i) / f64::from(i + 1)).product()
}

/// The chance of exactly `j` of `good` tiles among `d` drawn from `n`.
fn exactly(j: u32, good: u32, n: u32, d: u32) -> f64 {
    choose(good, j) * choose(n - good, d - j) / choose(n, d)
}

/// The city caps of the base game: tiles whose city is on one side only, D E H I J K L.
/// 2nd edition: D 4 (one is the start tile, so 3 in the pack), E 5, H 3, I 2, J 3, K 3,
/// L 3. That is 22. Every tile with a city side fits next to a city: the caps, and C 1, F 2,
/// G 1, M 2, N 3, O 2, P 3, Q 1, R 3, S 2, T 1, which make 43.
const CITY_CAPS: u32 = 22;
const CITY_TILES: u32 = 43;

fn start_position(moves: &str) -> carcassonne_replay::engine::Game {
    let record = two_players(moves);
    let n = replay::replay(&record, None).unwrap().turns.len() as u32;
    replay::replay_upto(&record, None, Some(n)).unwrap().game
}

/// One open side: the start tile's city, open to the north. Of the 71 tiles left, 43 fit the
/// square north of it and 22 close the city there. Ann, to move, draws 36 of the 71: the city
/// completes unless none of them is a cap.
#[test]
fn one_open_side_completes_when_one_of_its_closing_tiles_is_drawn() {
    let game = start_position("");
    let city = game.segment_id(0, 0);
    let (spots, completion) = analysis::feature_outlook(&game, city, 0, &mut analysis::Chances::default());
    let chance = completion.model;
    assert_eq!(spots.len(), 1);
    assert_eq!(
        (spots[0].pos, spots[0].fits, spots[0].closes),
        (Pos::new(0, -1), CITY_TILES, CITY_CAPS)
    );
    let (n, d) = (71, 36);
    let expected = 1.0 - exactly(0, CITY_CAPS, n, d);
    assert!((chance - expected).abs() < 1e-9, "{chance} against {expected}");
    assert!(chance < 1.0, "tiles that merely fit do not close it");
}

/// Two open sides: Ann's R turned 180° on the start tile's city leaves it open west and east.
/// Both squares are closed by the same 22 caps, so it takes two different caps among Ann's 35
/// draws of the 70 left: 1 − P(no cap) − P(exactly one cap).
#[test]
fn two_open_sides_need_a_closing_tile_each() {
    let game = start_position(r#"{"tile": "R", "at": [0, -1], "rotation": 180}"#);
    let city = game.segment_id(0, 0);
    let (spots, completion) = analysis::feature_outlook(&game, city, 0, &mut analysis::Chances::default());
    let chance = completion.model;
    let places: Vec<(Pos, u32)> = spots.iter().map(|s| (s.pos, s.closes)).collect();
    assert_eq!(
        places,
        vec![(Pos::new(-1, -1), CITY_CAPS), (Pos::new(1, -1), CITY_CAPS)]
    );
    let (n, d) = (70, 35);
    let expected = 1.0 - exactly(0, CITY_CAPS, n, d) - exactly(1, CITY_CAPS, n, d);
    assert!((chance - expected).abs() < 1e-9, "{chance} against {expected}");
    let as_if_independent = (1.0 - exactly(0, CITY_CAPS, n, d)).powi(2);
    assert!(chance < as_if_independent, "one cap cannot close both sides");
}

/// A deployment takes a follower out of supply: +1. Nothing else moves a figure on a turn
/// that completes nothing.
#[test]
fn a_deployment_commits_one_meeple() {
    let demo = record::parse(include_bytes!("../../static/games/demo-second-edition.json"))
        .unwrap()
        .0;
    let t = analysis::analyse_turn(&demo, 38, &heuristic_only()).unwrap();
    let quiet = |a: &&analysis::Alternative| a.evaluation.features.iter().all(|f| !f.closed);
    let deploys: Vec<i32> = (t.alternatives.iter().filter(quiet))
        .filter(|a| matches!(a.action, Action::Deploy { .. }))
        .map(|a| a.evaluation.meeples_committed)
        .collect();
    assert!(!deploys.is_empty());
    assert!(deploys.iter().all(|&m| m == 1), "{deploys:?}");
    let passes = (t.alternatives.iter().filter(quiet)).filter(|a| a.action == Action::Pass);
    assert!(passes.map(|a| a.evaluation.meeples_committed).all(|m| m == 0));
}

/// Taking the abbot back brings a figure home: −1.
#[test]
fn recalling_the_abbot_commits_minus_one() {
    let record = parse(
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "Ann"}, {"name": "Bob"}],
            "rules": {"preset": "second-edition", "abbot": true},
            "moves": [{"tile": "B", "at": [0, 1], "rotation": 0, "meeple": {"feature": "cloister", "abbot": true}},
                      {"tile": "U", "at": [1, 0], "rotation": 90},
                      {"tile": "U", "at": [2, 0], "rotation": 90}]}"#,
    );
    let t = analysis::analyse_turn(&record, 3, &heuristic_only()).unwrap();
    let recall = t.alternatives.iter().find(|a| a.action == Action::RecallAbbot).unwrap();
    assert_eq!(recall.evaluation.meeples_committed, -1);
}

fn is_at_pos(a: &analysis::Alternative, x: i32, y: i32, degrees: u16) -> bool {
    a.placement.pos == Pos::new(x, y) && a.placement.rotation == Rotation::from_degrees(degrees.into()).unwrap()
}

// ----- errors -----

#[test]
fn bad_turns_and_illegal_records_are_errors() {
    let record = two_players(common::STEAL);
    let opts = heuristic_only();
    assert!(matches!(
        analysis::analyse_turn(&record, 0, &opts),
        Err(AnalysisError::NoSuchTurn { turn: 0, turns: 7 })
    ));
    assert!(matches!(
        analysis::analyse_turn(&record, 8, &opts),
        Err(AnalysisError::NoSuchTurn { .. })
    ));
    let illegal = two_players(r#"{"tile": "E", "at": [0, 1], "rotation": 0}"#);
    let e = analysis::analyse_turn(&illegal, 1, &opts).unwrap_err();
    assert!(matches!(e, AnalysisError::Replay(_)), "{e}");
    assert!(analysis::analyse_game(&illegal, &opts, &carcassonne_replay::analysis::quiet).is_err());
    let odd = AnalysisOptions {
        greedy_share: f64::NAN,
        playouts_per_alternative: Some(2),
        ..few_playouts(0)
    };
    assert!(analysis::analyse_turn(&record, 7, &odd).is_ok());
    // A position built by hand with a tile that is not in the pack.
    let start = replay::replay_upto(&record, None, Some(0)).unwrap().game;
    let spring = start.catalog().by_name("river-A").unwrap();
    let e = analysis::analyse_position(&start, spring, None, 1, &opts).unwrap_err();
    assert!(matches!(e, AnalysisError::Illegal { turn: 1, .. }), "{e}");
}

// ----- the command line -----

#[test]
fn the_cli_prints_the_json_contract_of_a_turn_and_a_game() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json");
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
            .arg("analyse")
            .arg(&demo)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let doc: Value = serde_json::from_str(&run(&["--turn", "5", "--json", "--playouts", "2"])).unwrap();
    let alts = doc["alternatives"].as_array().unwrap();
    assert_eq!(alts.len() as u64, doc["moves_count"].as_u64().unwrap());
    assert!(doc["placements_count"].as_u64().unwrap() > 0);
    let first = &alts[0];
    assert_eq!(first["position"].as_array().unwrap().len(), 2);
    assert!([0, 90, 180, 270].contains(&first["rotation"].as_u64().unwrap()));
    assert!(["pass", "deploy", "recall_abbot"].contains(&first["action"]["type"].as_str().unwrap()));
    assert_eq!(
        first["immediate"].as_array().unwrap().len(),
        3,
        "the demo has three players"
    );
    assert!(first["value"].is_number() && first["rank"] == 1);
    let played = doc["played"].as_u64().unwrap() as usize;
    assert_eq!(alts[played]["rank"], doc["played_rank"]);
    assert_eq!(doc["heuristic_formula"], HEURISTIC_FORMULA);
    let best = &doc["best"];
    assert!(
        alts.iter()
            .any(|a| ["position", "rotation", "action"].iter().all(|k| a[k] == best[*k])),
        "the move the analysis would play is one of the alternatives: {best}"
    );

    let table = run(&["--turn", "5", "--playouts", "0"]);
    assert!(
        table.contains("Turn 5") && table.contains("played (*): rank"),
        "{table}"
    );

    let game: Value = serde_json::from_str(&run(&["--json", "--playouts", "0"])).unwrap();
    assert_eq!(game["turns"].as_array().unwrap().len(), 71);
    assert!(game["turns"][0]["played_rank"].is_u64() && game["turns"][0]["points_lost"].is_number());
    assert!(
        game["turns"][0]["win_chance"].is_null(),
        "a heuristic value is not a margin, so it has no chance"
    );
    assert!(game["players"][0]["average_points_lost"].is_number());
}

#[test]
fn the_cli_rejects_a_turn_out_of_range_cleanly() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["analyse", demo.to_str().unwrap(), "--turn", "500"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("there is no turn 500") && !err.contains("panicked"),
        "{err}"
    );
}

/// New World goes through the same analysis: every turn lists every legal move (counted
/// through the `Position` trait), the played one among them.
#[test]
fn a_new_world_game_is_analysed_move_by_move() {
    use carcassonne_replay::engine::{Played, Position};
    let record = generate(RulesSpec::new(Preset::NewWorld), 3, Policy::Greedy, 5).unwrap();
    let opts = AnalysisOptions {
        threads: 1,
        ..heuristic_only()
    };
    let game = analysis::analyse_game(&record, &opts, &carcassonne_replay::analysis::quiet).unwrap();
    let mut walk = record::Walk::new(&record).unwrap();
    let mut listed = Vec::new();
    for t in &game.turns {
        // Step to the turn's placement, and count what the mover could do with its tile.
        loop {
            let next = walk
                .peek_played()
                .expect("the walk reaches every analysed turn")
                .unwrap();
            if let Played::Place(mv) = next {
                let mut position = walk.game().clone();
                position.draw(mv.tile).unwrap();
                position.legal_moves(&mut listed);
                walk.step().unwrap().unwrap();
                break;
            }
            walk.step().unwrap().unwrap();
        }
        assert_eq!(t.facts.moves_count, listed.len(), "turn {}", t.turn);
        assert!(t.played.is_some(), "turn {}: the played move is an alternative", t.turn);
    }
    assert_eq!(game.turns.len(), 61, "every tile of the sample set is a turn");
}

// ----- the board's feature notes -----

/// What each feature's owners score at final scoring if the game ended now, by feature root.
fn final_scoring_by_root(game: &carcassonne_replay::engine::Game) -> std::collections::HashMap<u32, u32> {
    use carcassonne_replay::engine::Event;
    let mut ended = game.clone();
    let mut events = Vec::new();
    ended.finish(&mut events);
    let mut by_root = std::collections::HashMap::new();
    for e in &events {
        let Event::Scored(s) = e else { continue };
        let i = ended.board().tile_index_at(s.pos).expect("a scored tile");
        let t = ended.board().tiles()[i];
        let seg = ended
            .tile_kind(t.kind)
            .segment_at(t.rotation, s.feature, Some(s.location))
            .expect("a scored segment");
        let root = ended.features().root(ended.segment_id(i, seg));
        *by_root.entry(root).or_insert(0) += s.points;
    }
    by_root
}

/// The board's notes say what final scoring would pay: every occupied open road, city,
/// cloister and garden's "worth now" is what its owners score if the game ended there, turn
/// after turn of a generated game, and fields name the completed cities their farmers count.
#[test]
fn board_notes_agree_with_final_scoring_on_every_turn() {
    use carcassonne_replay::analysis::board_features;
    let record = generate(RulesSpec::new(Preset::SecondEdition), 3, Policy::Greedy, 11).unwrap();
    let full = replay::replay(&record, None).unwrap();
    let mut checked = 0;
    for n in (4..=full.turns.len() as u32).step_by(6) {
        let game = replay::replay_upto(&record, None, Some(n)).unwrap().game;
        let paid = final_scoring_by_root(&game);
        for f in board_features(&game) {
            assert_eq!(f.meeples.len(), 3);
            if f.owners.is_empty() || f.kind == FeatureKind::Field {
                continue;
            }
            let Some(now) = f.worth.at_end else { continue };
            assert_eq!(paid.get(&f.root).copied(), Some(now), "turn {n}: {f:?}");
            assert!(f.worth.completed.unwrap() >= now, "completing never pays less: {f:?}");
            match f.outlook {
                Outlook::Open { chance } => assert!((0.0..=1.0).contains(&chance.chance), "{f:?}"),
                Outlook::Never(Never::DeadSpot(_)) => {}
                other => panic!("an open feature that may complete: {other:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} features checked");
}

/// The start tile's city alone is worth 1 at the end ("1 point per tile" incomplete), and
/// completed it needs one more tile at least, so it is worth what the two-tile city pays; closed by a city cap with a knight on it, the two-tile city paid 4 under the 2nd
/// edition ("2 points per tile") and 2 under the classic rules ("a two-tile city scores 2").
#[test]
fn a_city_note_is_worth_what_each_rulebook_says() {
    use carcassonne_replay::analysis::board_features;
    let city_of = |game: &carcassonne_replay::engine::Game| {
        board_features(game)
            .into_iter()
            .find(|f| f.kind == FeatureKind::City)
            .expect("a city")
    };
    for (preset, paid) in [("second-edition", 4), ("classic-2000", 2)] {
        let record = parse(&format!(
            r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
                "rules": {{"preset": "{preset}"}}, "moves": [
                {{"tile": "E", "at": [0, -1], "rotation": 180, "meeple": {{"feature": "city", "at": "S"}}}}]}}"#
        ));
        let start = city_of(&replay::replay_upto(&record, None, Some(0)).unwrap().game);
        assert_eq!(
            (
                start.tiles,
                start.worth.at_end,
                start.worth.completed,
                start.worth.is_complete
            ),
            (1, Some(1), Some(paid), false),
            "{preset}: completed, it is the two-tile city the cap made"
        );
        assert!(
            start.owners.is_empty() && matches!(start.outlook, Outlook::Open { .. }),
            "{start:?}"
        );
        let closed = city_of(&replay::replay(&record, None).unwrap().game);
        assert_eq!(
            (
                closed.tiles,
                closed.worth.at_end,
                closed.worth.completed,
                closed.worth.is_complete
            ),
            (2, None, Some(paid), true),
            "{preset}"
        );
        assert_eq!(
            closed.outlook,
            Outlook::Complete,
            "a completed city has no chance left to weigh"
        );
    }
}

/// A note's "if completed" against what the engine pays when the feature completes, on the
/// turn before each completion of generated games: 2nd edition with the abbot (roads, cities,
/// monasteries, gardens), classic 2000 (its two-tile city) and New World (towns, trails,
/// farms). The rulebooks' values:
/// - 2nd edition: "Each tile in a completed road is worth 1 point." "Each tile in the
///   completed city is worth 2 points. Each coat of arms in the completed city is worth an extra
///   2 points." A monastery: "It earns you 9 points"; "gardens are scored exactly like
///   monastery".
/// - classic 2000: "When a completed city has just two segments, the player scores two points
///   (not four)." "A player with a monk in the cloister scores nine points."
/// - New World: "one point for each tile in the completed trail … and 2 points for each
///   trading post"; a town "two points for each tile in the town … Each flag … 2 points"; "The
///   player with a farmer in the farm earns 9 points".
///
/// A cloister, garden or farm pays exactly its note (few generated games surround an occupied
/// one, so every open one on the boards checked must also say 9); a road, city, town or trail pays at least
/// it (the note counts one closing tile per empty square it reaches), and exactly it when the
/// closing tiles brought no marks and no other feature. Fields and plains have no such note:
/// "Plains are not scored if completed during the game."
#[test]
fn worth_if_completed_is_what_completing_the_feature_pays() {
    use carcassonne_replay::analysis::board_features;
    use carcassonne_replay::engine::{Event, Reason, SegId, Unit};
    use std::collections::BTreeMap;
    let mut abbot = RulesSpec::new(Preset::SecondEdition);
    abbot.overrides.abbot = Some(true);
    let games = [
        (abbot, 1..=12),
        (RulesSpec::new(Preset::Classic2000), 1..=4),
        (RulesSpec::new(Preset::NewWorld), 1..=12),
    ];
    // Per game kind and feature kind: (completions checked, of them paid exactly the note).
    let mut seen: BTreeMap<(&str, String), (u32, u32)> = BTreeMap::new();
    for (spec, seeds) in games {
        let preset = spec.preset;
        for seed in seeds {
            // Random play puts figures everywhere, the abbot on gardens too.
            let policy = if seed % 2 == 0 { Policy::Greedy } else { Policy::Random };
            let record = generate(spec.clone(), 2, policy, seed).unwrap();
            let full = replay::replay(&record, None).unwrap();
            for t in &full.turns {
                let completions = t.events.iter().filter_map(|e| match e {
                    Event::Scored(s) if s.reason == Reason::Completed => Some(s),
                    _ => None,
                });
                for s in completions {
                    let before = replay::replay_upto(&record, None, Some(t.turn - 1)).unwrap().game;
                    let after = replay::replay_upto(&record, None, Some(t.turn)).unwrap().game;
                    let i = after.board().tile_index_at(s.pos).unwrap();
                    let tile = after.board().tiles()[i];
                    let seg = (after.tile_kind(tile.kind))
                        .segment_at(tile.rotation, s.feature, Some(s.location))
                        .unwrap();
                    let root = after.features().root(after.segment_id(i, seg));
                    let first_new = after.board().tiles().last().unwrap().first_segment;
                    let mut roots: Vec<SegId> = (after.features().members(root))
                        .filter(|&m| m < first_new)
                        .map(|m| before.features().root(m))
                        .collect();
                    roots.sort_unstable();
                    roots.dedup();
                    // A feature the closing tile started, or one it joined to another, had no
                    // single note the turn before.
                    let [was] = roots[..] else { continue };
                    let notes = board_features(&before);
                    // Few generated games surround an occupied monastery: every open one on
                    // these boards is held to the rulebooks' 9 as well.
                    for f in notes.iter().filter(|f| f.kind.is_inner() && !f.worth.is_complete) {
                        assert_eq!(f.worth.completed, Some(9), "{preset}: {f:?}");
                        seen.entry((preset.name(), format!("open {:?}", f.kind))).or_default().1 += 1;
                    }
                    for f in notes
                        .iter()
                        .filter(|f| matches!(f.kind, FeatureKind::Field | FeatureKind::Plains))
                    {
                        assert_eq!(
                            (f.worth.completed, f.outlook),
                            (None, Outlook::Never(Never::ByRule)),
                            "{preset}: {f:?}"
                        );
                        seen.entry((preset.name(), format!("{:?}", f.kind))).or_default().1 += 1;
                    }
                    let note = notes.into_iter().find(|f| f.root == was).unwrap();
                    let completed = note.worth.completed.expect("a feature that completes");
                    let count = |unit: Unit| s.terms.iter().filter(|t| t.unit == unit).map(|t| t.count).sum::<u32>();
                    let paid: u32 = (s.terms.iter())
                        .filter(|t| t.unit != Unit::Surveyor)
                        .map(|t| t.count * t.rate)
                        .sum();
                    let entry = seen.entry((preset.name(), format!("{:?}", s.feature))).or_default();
                    entry.0 += 1;
                    if s.feature.is_inner() {
                        assert_eq!(paid, completed, "{preset} seed {seed} turn {}: {note:?}", t.turn);
                        entry.1 += 1;
                        continue;
                    }
                    assert!(paid >= completed, "{preset} seed {seed} turn {}: {note:?}", t.turn);
                    let closing = before.open_squares(was).len() as u32;
                    let marks = count(Unit::Shield) + count(Unit::Flag) + count(Unit::TradingPost);
                    if count(Unit::Tile) == note.tiles + closing && marks == note.marks {
                        assert_eq!(paid, completed, "{preset} seed {seed} turn {}: {note:?}", t.turn);
                        entry.1 += 1;
                    }
                }
            }
        }
    }
    let kinds: Vec<&(&str, String)> = seen
        .iter()
        .filter(|(_, (_, exact))| *exact > 0)
        .map(|(k, _)| k)
        .collect();
    for want in [
        (Preset::SecondEdition, "Road"),
        (Preset::SecondEdition, "City"),
        (Preset::SecondEdition, "open Cloister"),
        (Preset::SecondEdition, "open Garden"),
        (Preset::Classic2000, "City"),
        (Preset::Classic2000, "open Cloister"),
        (Preset::NewWorld, "Town"),
        (Preset::NewWorld, "Trail"),
        (Preset::NewWorld, "open Farm"),
        (Preset::SecondEdition, "Field"),
        (Preset::NewWorld, "Plains"),
    ] {
        assert!(
            kinds.contains(&&(want.0.name(), want.1.to_string())),
            "no exact check of {want:?}: {seen:?}"
        );
    }
}

/// A farm that needs three squares, where the tiles left decide the count: beside the coast's
/// start spaces at (0,6) with plains north and south of it, it lacks (-1,5), (-1,6) and (-1,7),
/// each facing plains only. Of the 23 tiles left, Bob draws first, so Ann, its farmer, draws
/// 11. With 3 plains tiles and 20 tiles all town (they fit none of the squares), she must draw
/// all three plains: C(20,8)/C(23,11), about 0.12, however likely each square alone looks.
/// Only when every tile left is plains do the tiles left make it certain.
#[test]
fn a_feature_needing_several_tiles_is_likely_only_when_the_tiles_left_say_so() {
    use carcassonne_replay::analysis::board_features;
    let farm_outlook = |plains: u32, towns: u32| {
        let record = parse(&format!(
            r#"{{"format": "carcassonne-replay/1", "game": "new-world",
                "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
                "tiles": [
                  {{"name": "farm", "count": 1, "segments": "farm; plains N.w N.e E.n E.s S.e S.w W.s W.n"}},
                  {{"name": "town", "count": {towns}, "segments": "town N E S W"}},
                  {{"name": "plains", "count": {plains}, "segments": "plains N.w N.e E.n E.s S.e S.w W.s W.n"}}],
                "moves": [
                  {{"tile": "farm", "at": [0, 6], "rotation": 0, "meeple": {{"feature": "farm"}}}},
                  {{"tile": "plains", "at": [0, 5], "rotation": 0}},
                  {{"tile": "plains", "at": [0, 7], "rotation": 0}}]}}"#
        ));
        let game = replay::replay(&record, None).unwrap().game;
        assert_eq!(game.pack_left(), 23);
        let farm = (board_features(&game).into_iter())
            .find(|f| f.kind == FeatureKind::Farm)
            .unwrap();
        let (spots, _) = analysis::feature_outlook(&game, farm.root, 0, &mut analysis::Chances::default());
        let fits: Vec<(Pos, u32)> = spots.iter().map(|s| (s.pos, s.fits)).collect();
        let left = plains - 2;
        assert_eq!(
            fits,
            vec![
                (Pos::new(-1, 5), left),
                (Pos::new(-1, 6), left),
                (Pos::new(-1, 7), left)
            ]
        );
        farm.outlook
    };
    // The model's chance beside the one shown, the share completed of New World's held farms
    // like it in its own games.
    let Outlook::Open { chance } = farm_outlook(5, 20) else {
        panic!("the farm may still complete")
    };
    let expected = exactly(3, 3, 23, 11);
    assert!((chance.model - expected).abs() < 1e-9, "{chance:?} against {expected}");
    let cell = chance.cell.expect("New World's farms are calibrated");
    assert_eq!((cell.kind, cell.held, cell.spots), (KindGroup::Farm, true, 3));
    assert_eq!(Some(chance.chance), analysis::shipped_share(cell));
    assert!(
        matches!(farm_outlook(25, 0), Outlook::Open { chance } if chance.model == 1.0),
        "every tile left is a plains tile"
    );
}

/// New World's coast in the notes: a farm beside the coast's column north of the start
/// spaces, and a town facing the coast, can never be completed ("completely surrounded by land
/// tiles"; a start space presents no town wall): the notes say so, with no chance, however
/// many tiles are left; a farm beside the start spaces counts them as land and may still complete.
#[test]
fn features_the_coast_keeps_open_never_complete() {
    use carcassonne_replay::analysis::board_features;
    let record = parse(
        r#"{"format": "carcassonne-replay/1", "game": "new-world",
            "players": [{"name": "Ann"}, {"name": "Bob"}],
            "tiles": [
              {"name": "farm", "count": 2, "segments": "farm; plains N.w N.e E.n E.s S.e S.w W.s W.n"},
              {"name": "cap", "count": 1, "segments": "town N; plains E.n E.s S.e S.w W.s W.n"},
              {"name": "plains", "count": 20, "segments": "plains N.w N.e E.n E.s S.e S.w W.s W.n"}],
            "moves": [
              {"tile": "plains", "at": [0, 0], "rotation": 0},
              {"tile": "farm", "at": [0, -1], "rotation": 0, "meeple": {"feature": "farm"}},
              {"tile": "cap", "at": [0, 3], "rotation": 90, "meeple": {"feature": "town", "at": "E"}},
              {"tile": "farm", "at": [0, 6], "rotation": 0, "meeple": {"feature": "farm"}}]}"#,
    );
    let game = replay::replay(&record, None).unwrap().game;
    let outlook_at = |x: i32, y: i32, kind: FeatureKind| {
        board_features(&game)
            .into_iter()
            .find(|f| f.kind == kind && game.segment_place(f.root).0 == Pos::new(x, y))
            .map(|f| f.outlook)
            .expect("a feature there")
    };
    assert!(
        matches!(outlook_at(0, -1, FeatureKind::Farm), Outlook::Never(Never::DeadSpot(_))),
        "(1,-1) is not a start space"
    );
    assert_eq!(
        outlook_at(0, 3, FeatureKind::Town),
        Outlook::Never(Never::DeadSpot(Pos::new(1, 3))),
        "the town's wall has a gap at the coast"
    );
    assert!(
        matches!(outlook_at(0, 6, FeatureKind::Farm), Outlook::Open { chance } if chance.chance > 0.0),
        "five land squares and three start spaces"
    );
}

// ----- chances of winning -----

/// Each analysed turn's played move gets a chance of winning and a class from the points it
/// lost: within the noise (0 points lost) a move is good and loses no chance; otherwise its
/// class is the one its lost chance falls in, and accuracy is 100 only for a player who lost
/// nothing.
#[test]
fn played_moves_are_classed_by_the_chance_they_lost() {
    use carcassonne_replay::analysis::report::StoredAnalysis;
    use carcassonne_replay::analysis::win_chance::{self, MoveClass};
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, 5).unwrap();
    let game = analysis::analyse_game(&record, &few_playouts(3), &carcassonne_replay::analysis::quiet).unwrap();
    let stored = StoredAnalysis::of(&game);
    let chances = stored.chances(None);
    assert_eq!(chances.len(), stored.turns.len(), "every turn was valued by playouts");
    // `analyse --json` states each turn's chance after the move played, as the pages show it,
    // so anyone can score the chances against how games ended.
    for (c, t) in chances.iter().zip(&stored.head.summary.turns) {
        let stated = t.win_chance.expect("a move valued by playouts has a chance");
        assert!(
            (stated - c.chance.after).abs() <= 0.0005,
            "turn {}: {stated} against {:?}",
            t.turn,
            c.chance
        );
    }
    for (c, t) in chances.iter().zip(&stored.turns) {
        let lost = t.points_lost.unwrap();
        assert!((0.0..=1.0).contains(&c.chance.after));
        assert_eq!(c.chance.class, MoveClass::of(c.chance.lost), "turn {}", t.turn);
        if lost == 0.0 {
            assert_eq!(
                (c.chance.lost, c.chance.class),
                (0.0, MoveClass::Good),
                "turn {}",
                t.turn
            );
        } else {
            assert!(
                c.chance.lost > 0.0,
                "turn {}: {lost} points lost cost some chance",
                t.turn
            );
        }
    }
    let random_players_blunder = chances.iter().any(|c| c.chance.class >= MoveClass::Mistake);
    assert!(random_players_blunder, "random moves include mistakes");
    // Accuracy follows the points lost a move: 100% for none, halved by every two.
    for (p, a) in win_chance::accuracies(&chances, 2).iter().enumerate() {
        let lost: Vec<f64> = (chances.iter())
            .filter(|c| c.player as usize == p)
            .map(|c| c.chance.points_lost)
            .collect();
        let a_move = lost.iter().sum::<f64>() / lost.len() as f64;
        assert!(
            (a.accuracy - 100.0 * 0.5f64.powf(a_move / 2.0)).abs() < 1e-9,
            "{a:?}, {a_move} a move"
        );
        assert!(a.moves > 30 && a.accuracy < 100.0, "random play is not perfect: {a:?}");
    }
}

/// `best` is the move the analysis would play had no move been played (what `match` plays):
/// the move played is weighed again for its verdict, and may then be listed above it within the
/// noise, but it never becomes the analysis's choice by being played.
#[test]
fn the_best_move_does_not_depend_on_the_move_played() {
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, 12).unwrap();
    let opts = AnalysisOptions {
        playouts_per_alternative: Some(6),
        threads: 2,
        ..AnalysisOptions::default()
    };
    for turn in [4, 11, 23, 37, 52, 66] {
        let told = analysis::analyse_turn(&record, turn, &opts).unwrap();
        let (before, played) = analysis::position_before(&record, turn).unwrap();
        let alone = analysis::analyse_position(&before, played.tile, None, turn, &opts).unwrap();
        let (best, first) = (&told.alternatives[told.chosen], &alone.alternatives[alone.chosen]);
        assert_eq!(
            (best.placement, best.action),
            (first.placement, first.action),
            "turn {turn}"
        );
        assert_eq!(
            told.report().facts.best.unwrap().position,
            [best.placement.pos.x, best.placement.pos.y]
        );
    }
}

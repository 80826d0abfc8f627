//! Puzzles from an analysed game: the list, a puzzle's page that gives nothing away, and the
//! answers (the solution, another placement, a placement the tile cannot take), served by the
//! real app. Which turns are puzzles is `analysis::puzzles`' rule, unit-tested beside it.

mod common;

use carcassonne_replay::analysis::report::StoredAnalysis;
use carcassonne_replay::analysis::{self, AnalysisOptions, puzzles};
use carcassonne_replay::record;
use carcassonne_replay::store::{GameId, Store};
use common::app::*;

/// The moves of `common::STEAL` as a whole record.
fn steal() -> String {
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "rules": {{"preset": "second-edition"}}, "moves": [{}]}}"#,
        common::STEAL
    )
}

/// A quick analysis of the game, with turn 7's placement at (0,2) made clearly best (10
/// points ahead, errors of half a point): the analysis a long run would give, stored as the
/// service stores a finished one.
fn store_analysis(app: &TestApp, id: &str) -> StoredAnalysis {
    let record = record::parse(steal().as_bytes()).unwrap().0;
    let quick = AnalysisOptions {
        playouts_per_alternative: 4,
        greedy_share: 0.0,
        threads: 2,
        ..AnalysisOptions::default()
    };
    let mut stored = StoredAnalysis::of(&analysis::analyse_game(&record, &quick, &|_, _| {}).unwrap());
    let turn = stored.turns.iter_mut().find(|t| t.turn == 7).unwrap();
    let top = turn.alternatives.iter().map(|a| a.value).fold(f64::MIN, f64::max);
    for a in &mut turn.alternatives {
        if a.position == [0, 2] {
            a.value = top + 10.0;
        }
        if let Some(p) = &mut a.playouts {
            p.std_error = 0.5;
        }
    }
    let store = Store::open(&app.db).unwrap();
    let id: GameId = id.parse().unwrap();
    store.queue_analysis(&id, 100).unwrap();
    store
        .finish_analysis(&id, Ok(&serde_json::to_string(&stored).unwrap()))
        .unwrap();
    stored
}

#[test]
fn an_analysed_game_serves_its_puzzles_and_judges_answers() {
    let app = spawn_app();
    let id = upload_id(&app, steal().as_bytes());
    let before = get(&app, &format!("/g/{id}/puzzles"));
    assert_eq!(before.status, 200);
    assert!(before.body.contains("run it"), "{}", before.body);
    assert_eq!(
        get(&app, &format!("/g/{id}/puzzle/7")).status,
        404,
        "no analysis, no puzzle"
    );

    let stored = store_analysis(&app, &id);
    let expected: Vec<u32> = puzzles::pick(&stored.turns).iter().map(|p| p.turn).collect();
    assert!(expected.contains(&7), "{expected:?}");
    let list = get(&app, &format!("/g/{id}/puzzles"));
    let listed: Vec<u32> = list
        .body
        .split(&format!("href=\"/g/{id}/puzzle/"))
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
        .collect();
    assert_eq!(listed, expected, "the list is the rule's pick");

    // The puzzle shows the position before the move and the tile, and gives nothing away.
    let page = get(&app, &format!("/g/{id}/puzzle/7"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(&format!("/g/{id}/t/6.png")),
        "the board before turn 7"
    );
    assert!(page.body.contains(&format!("/g/{id}/tiles/R.svg")));
    assert!(page.body.contains("<option value=\"0,2\""), "the squares the tile fits");
    assert!(!page.body.contains("The best placement:") && !page.body.contains("points below"));

    let solved = get(&app, &format!("/g/{id}/puzzle/7?square=0,2&rotation=0"));
    assert!(solved.body.contains("Solved"), "{}", solved.body);
    let t7 = stored.turn(7).unwrap();
    let other = puzzles::placements(t7)
        .into_iter()
        .find(|p| p.position != [0, 2])
        .expect("another placement");
    let [x, y] = other.position;
    let worse = get(
        &app,
        &format!("/g/{id}/puzzle/7?square={x},{y}&rotation={}", other.rotation),
    );
    assert!(worse.body.contains("points below the best"), "{}", worse.body);
    assert!(worse.body.contains("The best placement: (0,2) rotated 0°"));
    let nowhere = get(&app, &format!("/g/{id}/puzzle/7?square=40,40&rotation=90"));
    assert!(nowhere.body.contains("does not fit"), "{}", nowhere.body);

    let not_one = (1..=7)
        .find(|n| !expected.contains(n))
        .expect("a turn that is no puzzle");
    let missing = get(&app, &format!("/g/{id}/puzzle/{not_one}"));
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("not a puzzle"), "{}", missing.body);
    app.stop();
}

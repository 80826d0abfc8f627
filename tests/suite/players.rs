//! Player pages and search: names matched across case and Unicode forms, Board Game Arena ids,
//! results and places, head to head, unlisted games never shown, the home page's search and its
//! pages, and a database of the previous release given its player rows at start.

use crate::common::app::{TestApp, get, get_html, post, spawn_app, spawn_app_on_previous_release, upload_id};
use serde_json::Value;
use std::path::Path;

/// A small game of `names`, played to its final scoring (so it counts for results).
fn finished_game(names: [&str; 2]) -> String {
    let game = crate::common::app::small_game(["@0", "@1"]).replacen('{', r#"{"final_scoring": true, "#, 1);
    let json = |name: &str| serde_json::to_string(name).unwrap();
    game.replace(r#""@0""#, &json(names[0]))
        .replace(r#""@1""#, &json(names[1]))
}

fn player(app: &TestApp, path: &str) -> Value {
    let a = get(app, path);
    assert_eq!(a.status, 200, "{path}: {}", a.body);
    a.json()
}

#[test]
fn a_player_is_found_whatever_the_case_and_form_of_their_name() {
    let app = spawn_app();
    let composed = upload_id(&app, finished_game(["Zoë", "Brin"]).as_bytes());
    // The same name in capitals, its ë written as e and a combining diaeresis.
    let decomposed = upload_id(&app, finished_game(["ZOE\u{308}", "Cora"]).as_bytes());
    for asked in [
        "/api/players/zo%C3%AB",
        "/api/players/ZO%C3%8B",
        "/api/players/zoe%CC%88",
    ] {
        let p = player(&app, asked);
        assert_eq!(p["games"], 2, "{asked}: {p}");
        let ids: Vec<&str> = p["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert!(
            ids.contains(&composed.as_str()) && ids.contains(&decomposed.as_str()),
            "{ids:?}"
        );
    }
    // Accents are kept: Zoe is another player.
    assert_eq!(get(&app, "/api/players/Zoe").status, 404);
    let page = get_html(&app, "/p/zo%C3%AB");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains(&format!("/g/{composed}")) && page.body.contains(&format!("/g/{decomposed}")));
    // Every name on a game page links to its player page.
    let game = get_html(&app, &format!("/g/{composed}"));
    assert!(game.body.contains(r#"href="/p/Zo%C3%AB""#), "{}", game.body);
}

#[test]
fn a_board_game_arena_player_is_found_by_their_id() {
    let app = spawn_app();
    let log = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bga/strings.json")).unwrap();
    let id = upload_id(&app, &log);
    let (a, b) = (
        player(&app, "/api/players/bga:1001"),
        player(&app, "/api/players/bga:1002"),
    );
    for p in [&a, &b] {
        assert_eq!(p["games"], 1, "{p}");
        assert_eq!(p["list"][0]["id"], id.as_str());
    }
    let names = [a["names"][0].as_str().unwrap(), b["names"][0].as_str().unwrap()];
    assert!(names == ["Ann", "Bob"] || names == ["Bob", "Ann"], "{names:?}");
    assert_eq!(get(&app, "/api/players/bga:1003").status, 404);
    assert_eq!(get_html(&app, "/p/bga:1001").status, 200);
}

/// Wins and places from each game's final scores, as the game's own answer gives them.
#[test]
fn results_places_and_head_to_head_follow_the_final_scores() {
    let app = spawn_app();
    let games = [["Aster", "Brin"], ["Brin", "Aster"], ["Aster", "Cora"]];
    let (mut wins, mut places) = (0, std::collections::BTreeMap::<u64, u64>::new());
    let mut aster_points = 0;
    for names in games {
        let id = upload_id(&app, finished_game(names).as_bytes());
        let scores = player(&app, &format!("/api/games/{id}"))["final_scores"].clone();
        let seat = names.iter().position(|n| *n == "Aster").unwrap();
        let (mine, theirs) = (scores[seat].as_i64().unwrap(), scores[1 - seat].as_i64().unwrap());
        let place = if theirs > mine { 2 } else { 1 };
        wins += u64::from(place == 1);
        *places.entry(place).or_default() += 1;
        aster_points += mine;
    }
    let aster = player(&app, "/api/players/aster");
    assert_eq!(
        (aster["games"].as_u64(), aster["finished"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(aster["wins"].as_u64(), Some(wins));
    let got: Vec<(u64, u64)> = (aster["places"].as_array().unwrap().iter())
        .map(|p| (p["place"].as_u64().unwrap(), p["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, places.into_iter().collect::<Vec<_>>());
    assert!((aster["average_score"].as_f64().unwrap() - aster_points as f64 / 3.0).abs() < 1e-9);
    // Points by category add up to the average score.
    let by_category: f64 = aster["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["per_game"].as_f64().unwrap())
        .sum();
    assert!((by_category - aster_points as f64 / 3.0).abs() < 1e-9, "{aster}");
    // Head to head: only the two games against Bruno.
    let vs = player(&app, "/api/players/aster?vs=brin");
    assert_eq!(vs["games"], 2, "{vs}");
    let page = get_html(&app, "/p/Aster/vs/Brin");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("against"));
    assert_eq!(get(&app, "/api/players/cora?vs=brin").status, 404, "they never met");
    // Their page offers the head to head with each opponent, and none with themselves.
    let own = get_html(&app, "/p/aster").body;
    assert!(
        own.contains("/p/aster/vs/Brin") || own.contains("/vs/Brin\""),
        "with Brin"
    );
    assert!(!own.contains(">vs Aster<"), "never against themselves");
}

#[test]
fn unlisted_and_deleted_games_appear_in_no_list_and_no_search() {
    let app = spawn_app();
    let a = post(
        &app,
        "/api/games?listed=false",
        finished_game(["Hidden", "Quiet"]).as_bytes(),
    );
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    assert_eq!(get(&app, "/api/players/hidden").status, 404);
    assert_eq!(get_html(&app, "/p/Hidden").status, 404);
    let search = get_html(&app, "/?q=Hidden");
    assert_eq!(search.status, 200);
    assert!(!search.body.contains(&id), "{}", search.body);
    // Listed again, it is found.
    let store = app.store();
    store.set_listed(&id.parse().unwrap(), true).unwrap();
    assert!(get_html(&app, "/?q=Hidden").body.contains(&id));
    // Deleted, its player rows go with it.
    assert!(store.delete(&id.parse().unwrap()).unwrap());
    assert_eq!(get(&app, "/api/players/hidden").status, 404);
}

#[test]
fn the_home_page_searches_by_player_kind_rules_and_day_a_page_at_a_time() {
    let app = spawn_app();
    let store = app.store();
    let mut ids = Vec::new();
    for n in 0..31 {
        let g = finished_game(["Searcher", &format!("Opponent {n}")]);
        ids.push(
            carcassonne_replay::store::ingest(&store, g.as_bytes())
                .unwrap()
                .0
                .id
                .to_string(),
        );
    }
    let count = |path: &str| {
        let a = get_html(&app, path);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        ids.iter().filter(|id| a.body.contains(&format!("/g/{id}\""))).count()
    };
    assert_eq!(count("/?q=searcher"), 30);
    assert_eq!(count("/?q=searcher&page=2"), 1);
    let second = get_html(&app, "/?q=searcher&page=2").body;
    assert!(
        second.contains(r#"href="/?q=searcher&#38;page=1""#),
        "the search stays in the pages' links: {second}"
    );
    assert_eq!(get_html(&app, "/?q=searcher&page=3").status, 404);
    assert_eq!(count("/?q=opponent%203"), 1);
    assert_eq!(count("/?q=searcher&kind=carcassonne&rules=second-edition"), 30);
    assert_eq!(count("/?q=searcher&kind=card-game"), 0);
    assert_eq!(count("/?q=searcher&rules=course"), 0);
    let today = chrono::Utc::now().date_naive();
    assert_eq!(count(&format!("/?q=searcher&from={today}&until={today}")), 30);
    assert_eq!(count(&format!("/?q=searcher&from={}", today.succ_opt().unwrap())), 0);
    assert_eq!(count(&format!("/?q=searcher&until={}", today.pred_opt().unwrap())), 0);
    assert_eq!(get_html(&app, "/?from=yesterday").status, 400);
    assert_eq!(get_html(&app, "/?rules=chess").status, 400);
}

#[test]
fn a_database_of_the_previous_release_gets_its_player_rows_at_start() {
    let app = spawn_app_on_previous_release();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store");
    let expected = crate::common::read_json(&fixtures.join("previous-release.json"));
    let first = &expected["games"][0]["game"];
    for p in first["players"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let path = format!("/api/players/{}", percent(name));
        let found = player(&app, &path);
        let ids: Vec<&str> = found["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert!(ids.contains(&first["id"].as_str().unwrap()), "{path}: {found}");
        assert_eq!(get_html(&app, &format!("/p/{}", percent(name))).status, 200);
    }
    // A second start finds every game with its rows: nothing to fill.
    assert_eq!(app.store().fill_players().unwrap(), 0);
    // The analysis that release finished got its seats' rows at start too.
    let analysed = expected["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["analysis"]["status"] == "done")
        .count();
    assert!(analysed > 0, "the fixture holds a finished analysis");
    assert_eq!(app.store().analysed_without_seats(0, 100).unwrap(), vec![]);
}

/// Once a game is analysed, its players' pages show their accuracy over time and their
/// mistakes by kind of move, which add up to the mistakes and blunders of their games.
#[test]
fn an_analysed_game_gives_its_players_an_accuracy() {
    let app = spawn_app();
    let id = upload_id(&app, finished_game(["Ana Lyse", "Bo Rd"]).as_bytes());
    let queued = post(&app, &format!("/g/{id}/analysis"), b"");
    assert_eq!(queued.status, 202, "{}", queued.body);
    let mut p = Value::Null;
    for _ in 0..600 {
        p = player(&app, "/api/players/ana%20lyse");
        if !p["analysed"].as_array().unwrap().is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let analysed = p["analysed"].as_array().unwrap();
    assert_eq!(analysed.len(), 1, "{p}");
    assert_eq!(analysed[0]["url"], format!("/g/{id}/analysis"));
    let accuracy = p["accuracy"].as_f64().unwrap();
    assert!(
        (0.0..=100.0).contains(&accuracy) && analysed[0]["moves"].as_u64() > Some(0),
        "{p}"
    );
    let wrong = |g: &Value| g["mistakes"].as_u64().unwrap() + g["blunders"].as_u64().unwrap();
    let by_kind: u64 = p["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["count"].as_u64().unwrap())
        .sum();
    assert_eq!(by_kind, analysed.iter().map(wrong).sum::<u64>(), "{p}");
    let page = get_html(&app, "/p/Ana%20Lyse");
    assert!(
        page.body.contains("Accuracy over time") && page.body.contains("<svg"),
        "{}",
        page.body
    );
}

fn percent(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

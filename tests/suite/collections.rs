//! Collections over HTTP: an import of many games reports each bad line by its number and
//! stores the rest; the standings and head to head of a hand-made tournament; only the owner
//! renames, adds and removes, never without the token, with another, or from another site;
//! unlisted games never reach the lists; a deleted game leaves its collections; a database of
//! the previous release opens and takes a collection.

use crate::common;

use carcassonne_replay::engine::{GameKind, Preset};
use carcassonne_replay::record::{RulesSpec, lab};
use carcassonne_replay::selfplay::{self, Policy};
use carcassonne_replay::store::{GameId, GameRow, NewGame, Store};
use common::app::*;
use serde_json::{Value, json};

const JSON: (&str, &str) = ("Content-Type", "application/json");
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

/// A generated base game between `names`, as a Carcassonne Lab link (Board Game Arena's
/// rules: tiles without gardens).
fn lab_link(seed: u64, names: [&str; 2]) -> String {
    let mut rules = RulesSpec::new(Preset::SecondEdition);
    rules.overrides = serde_json::from_value(json!({"edition": 1})).unwrap();
    let mut r = selfplay::generate(rules, 2, Policy::Greedy, seed).unwrap();
    for (p, name) in r.players.iter_mut().zip(names) {
        p.name = name.to_string();
    }
    lab::to_link(&r).unwrap()
}

/// `small_game` on one line.
fn one_line(record: &str) -> String {
    serde_json::from_str::<Value>(record).unwrap().to_string()
}

fn create(app: &TestApp, body: Value) -> Answer {
    post_json(app, "/api/collections", &body)
}

fn edit(app: &TestApp, id: &str, headers: &[(&str, &str)], body: Value) -> Answer {
    let mut all = vec![JSON];
    all.extend_from_slice(headers);
    request(
        app,
        "PATCH",
        &format!("/api/collections/{id}"),
        &all,
        body.to_string().as_bytes(),
    )
}

fn collection(app: &TestApp, id: &str) -> Value {
    let a = get(app, &format!("/api/collections/{id}"));
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

fn game_ids(c: &Value) -> Vec<String> {
    (c["games"].as_array().unwrap().iter())
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn an_import_stores_the_good_lines_and_names_each_bad_one() {
    let app = spawn_app();
    let before = app.stored_games();
    let illegal = one_line(&small_game(["Ines", "Jon"]).replace("[1, 0]", "[5, 5]"));
    let text = [
        lab_link(1, ["Ann", "Bob"]),
        String::new(),
        "not a game at all".into(),
        lab_link(2, ["Bob", "Cleo"]),
        illegal,
        one_line(&small_game(["Ines", "Jon"])),
        "0123456789abcdef".into(),
    ]
    .join("\n");
    let a = create(&app, json!({"name": "  Club night ", "text": text}));
    assert_eq!(a.status, 201, "{}", a.body);
    let answer = a.json();
    let id = answer["id"].as_str().unwrap();
    assert_eq!(answer["url"], format!("/c/{id}"));
    assert_eq!(a.location.as_deref(), Some(answer["url"].as_str().unwrap()));
    assert_eq!(answer["owner_token"].as_str().unwrap().len(), 64);
    let lines = |key: &str| -> Vec<u64> {
        (answer[key].as_array().unwrap().iter())
            .map(|e| e["line"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(
        lines("games"),
        [1, 4, 6],
        "blank line 2 is skipped, the rest keep their numbers"
    );
    assert_eq!(lines("errors"), [3, 5, 7]);
    let errors = answer["errors"].as_array().unwrap();
    assert_eq!(errors[0]["title"], "Unreadable record");
    assert_eq!(errors[1]["title"], "Illegal move");
    assert_eq!(errors[1]["turn"], 2, "{}", errors[1]);
    assert_eq!(errors[1]["player"], "Jon");
    assert_eq!(errors[2]["title"], "No such game");
    assert!(errors[2]["detail"].as_str().unwrap().contains("0123456789abcdef"));

    let c = collection(&app, id);
    assert_eq!(c["name"], "Club night");
    assert_eq!(c["import"]["done"], 6);
    assert_eq!(c["import"]["total"], 6);
    assert_eq!(c["import"]["errors"].as_array().unwrap().len(), 3);
    let stored: Vec<String> = (answer["games"].as_array().unwrap().iter())
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(game_ids(&c), stored, "the games in the lines' order");
    assert_eq!(app.stored_games(), before + 3);
    let page = get_html(&app, &format!("/c/{id}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Line 5: Illegal move"), "{}", page.body);
    assert!(page.body.contains(&format!("/g/{}", stored[0])));

    for (body, status) in [
        (json!({"name": "", "text": lab_link(1, ["Ann", "Bob"])}), 400),
        (json!({"name": "Nothing", "text": "\n \n"}), 400),
        (json!({"name": "Many", "text": "x\n".repeat(2001)}), 413),
    ] {
        let a = create(&app, body);
        assert_eq!(a.status, status, "{}", a.body);
        assert_eq!(a.content_type, "application/problem+json");
    }
}

#[test]
fn files_sent_as_a_form_are_imported_and_the_browser_goes_to_the_page() {
    let app = spawn_app();
    let boundary = "----collection-boundary";
    let part = |head: &str, content: &str| {
        format!("--{boundary}\r\nContent-Disposition: form-data; {head}\r\n\r\n{content}\r\n")
    };
    let body = [
        part("name=\"name\"", "Files"),
        part("name=\"file\"; filename=\"one.txt\"", &lab_link(3, ["Ann", "Bob"])),
        part("name=\"file\"; filename=\"two.json\"", "{\"format\": 7}"),
        format!("--{boundary}--\r\n"),
    ]
    .concat();
    let ct = format!("multipart/form-data; boundary={boundary}");
    let a = request(&app, "POST", "/collections", &[("Content-Type", &ct)], body.as_bytes());
    assert_eq!(a.status, 303, "{}", a.body);
    let page_url = a.location.clone().unwrap();
    let cookie = a.header("set-cookie");
    assert!(
        cookie.contains(&format!("Path={page_url}")) && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let token = cookie
        .trim_start_matches("owner=")
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let id = page_url.trim_start_matches("/c/");
    // The import may still run: the page says how far it got until it is done.
    let c = (0..200)
        .map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            collection(&app, id)
        })
        .find(|c| c["import"]["done"] == c["import"]["total"])
        .expect("the import ends");
    assert_eq!(game_ids(&c).len(), 1);
    let errors = c["import"]["errors"].as_array().unwrap();
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["file"].as_str()),
        (Some(2), Some("two.json"))
    );
    let cookie = format!("owner={token}");
    let page = request(&app, "GET", &page_url, &[("Cookie", &cookie)], b"");
    assert!(
        page.body.contains("Rename"),
        "the creating browser gets the owner's forms"
    );
    assert!(!get_html(&app, &page_url).body.contains("Rename"), "nobody else does");
}

/// A game of the tournament, written straight to the store: only its summary row matters.
fn result(app: &TestApp, n: u32, players: &[&str], scores: &[i32], finished: bool) -> String {
    write_result(&app.store(), n, players, scores, finished)
}

fn write_result(store: &Store, n: u32, players: &[&str], scores: &[i32], finished: bool) -> String {
    let row = GameRow {
        id: GameId::of(&format!("tournament game {n}")),
        kind: GameKind::Carcassonne,
        record: "{}".into(),
        source_format: "carcassonne-replay JSON".into(),
        players: players.iter().map(|p| p.to_string()).collect(),
        preset: "second-edition".into(),
        turns: 71,
        finished,
        final_scores: scores.to_vec(),
        created_at: "2026-11-26T18:00:00Z".into(),
        listed: NewGame::PUBLIC.listed,
        owner: None,
        live: false,
    };
    store.write_game(&row, &[], &[], &[]).unwrap();
    row.id.to_string()
}

/// An import's lines are counted as its text is cut into lines: the 2,001st stops it, however
/// many more the body holds, before any is copied, and nothing is stored.
#[test]
fn an_import_past_its_lines_is_refused_before_any_is_stored() {
    let app = spawn_app();
    let before = app.stored_games();
    let text = "x\n".repeat(4_000_000);
    let a = create(&app, json!({"name": "Flood", "text": text}));
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(
        a.json()["detail"]
            .as_str()
            .unwrap()
            .starts_with("more than 2000 games sent"),
        "{}",
        a.body
    );
    let owner = create(
        &app,
        json!({"name": "Mine", "text": one_line(&small_game(["Ann", "Bob"]))}),
    );
    let (id, token) = (
        owner.json()["id"].as_str().unwrap().to_string(),
        owner.json()["owner_token"].as_str().unwrap().to_string(),
    );
    let bearer = format!("Bearer {token}");
    let added = edit(
        &app,
        &id,
        &[("Authorization", &bearer)],
        json!({"add": "y\n".repeat(2001)}),
    );
    assert_eq!(added.status, 413, "{}", added.body);
    assert_eq!(app.stored_games(), before + 1);
}

/// 2,000 refused files with names of 8,000 characters: the collection keeps the first 100
/// refusals, names cut short, and how many there were; the next import starts its own count.
#[test]
fn an_imports_refused_lines_are_kept_bounded() {
    let app = spawn_app();
    let boundary = "----bounded";
    let mut body = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nJunk\r\n");
    let long = "n".repeat(8000);
    for i in 0..2000 {
        body += &format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{long}{i}\"\r\n\r\nnot a game {i}\r\n"
        );
    }
    body += &format!("--{boundary}--\r\n");
    let kind = format!("multipart/form-data; boundary={boundary}");
    let a = request(
        &app,
        "POST",
        "/api/collections",
        &[("Content-Type", &kind)],
        body.as_bytes(),
    );
    assert_eq!(a.status, 201, "{}", &a.body[..a.body.len().min(500)]);
    assert!(a.body.len() < 100_000, "{} bytes", a.body.len());
    assert_eq!(a.json()["refused"], 2000);
    let (id, token) = (
        a.json()["id"].as_str().unwrap().to_string(),
        a.json()["owner_token"].as_str().unwrap().to_string(),
    );
    let c = collection(&app, &id);
    let errors = c["import"]["errors"].as_array().unwrap();
    assert_eq!((c["import"]["refused"].as_u64(), errors.len()), (Some(2000), 100));
    assert!(
        errors
            .iter()
            .all(|e| e["file"].as_str().unwrap().chars().count() <= 301)
    );
    let page = get_html(&app, &format!("/c/{id}")).body;
    assert!(
        page.contains("2000 lines refused") && page.contains("The first 100 are listed."),
        "{page}"
    );
    let bearer = format!("Bearer {token}");
    let added = edit(
        &app,
        &id,
        &[("Authorization", &bearer)],
        json!({"add": "still not a game"}),
    );
    assert_eq!(added.status, 200, "{}", added.body);
    let c = collection(&app, &id);
    assert_eq!(c["import"]["refused"], 1, "{}", c["import"]);
    assert_eq!(c["import"]["errors"][0]["line"], 1);
}

/// 800 games between 4,800 players, each of whom met five others: the head to head of every
/// pair would be 23 million cells (738 MB of JSON before). Each answer holds a page of the
/// standings, the pairs of that page's players who met, and a page of the games.
#[test]
fn a_collection_of_thousands_of_players_answers_a_page_at_a_time() {
    let app = spawn_app();
    let store = app.store();
    let ids: Vec<String> = (0..800u32)
        .map(|n| {
            let names: Vec<String> = (0..6).map(|s| format!("Player {}", n * 6 + s)).collect();
            let seats: Vec<&str> = names.iter().map(String::as_str).collect();
            write_result(&store, 10_000 + n, &seats, &[60, 50, 40, 30, 20, 10], true)
        })
        .collect();
    let a = create(&app, json!({"name": "Open", "text": ids.join("\n")}));
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let first = get(&app, &format!("/api/collections/{id}"));
    assert!(first.body.len() < 100_000, "{} bytes", first.body.len());
    let c = first.json();
    assert_eq!(
        (c["player_count"].as_u64(), c["standings_pages"].as_u64()),
        (Some(4800), Some(48))
    );
    assert_eq!(
        (c["game_count"].as_u64(), c["games_pages"].as_u64()),
        (Some(800), Some(8))
    );
    assert_eq!(c["standings"].as_array().unwrap().len(), 100);
    assert_eq!(c["games"].as_array().unwrap().len(), 100);
    // The 800 winners share first place (a win and +10 each), and met nobody else on top.
    assert_eq!(c["standings"][99]["rank"], 1);
    assert_eq!(c["head_to_head"], json!([]));
    let last = get(&app, &format!("/api/collections/{id}?standings_page=48&games_page=8")).json();
    assert_eq!(last["standings"][99]["rank"], 4001, "the 800 last share place 4,001");
    assert_eq!(last["games"].as_array().unwrap().len(), 100);
    assert_eq!(
        get(&app, &format!("/api/collections/{id}?standings_page=49")).status,
        404
    );
    let page = get_html(&app, &format!("/c/{id}?standings_page=2&games_page=3"));
    assert_eq!(page.status, 200);
    assert!(page.body.len() < 200_000, "{} bytes", page.body.len());
    assert!(page.body.contains("Page 2 of 48, of 4800 players."), "{}", page.body);
    let next = format!("href=\"/c/{id}?standings_page=3&#38;games_page=3\" rel=\"next\"");
    assert!(page.body.contains(&next), "{}", page.body);
}

#[test]
fn the_standings_of_a_small_tournament() {
    let app = spawn_app();
    let games = [
        result(&app, 1, &["Ann", "Bob"], &[30, 20], true),
        result(&app, 2, &["Bob", "Cleo"], &[25, 25], true),
        result(&app, 3, &["Ann", "Bob", "Cleo"], &[10, 15, 40], true),
        result(&app, 4, &["Ann", "Cleo"], &[50, 5], false),
    ];
    let a = create(&app, json!({"name": "Cup", "text": games.join("\n")}));
    assert_eq!(a.status, 201, "{}", a.body);
    let c = collection(&app, a.json()["id"].as_str().unwrap());
    assert_eq!(game_ids(&c), games);
    // By hand: only finished games count (game 4 is not); a tie (game 2) is a win for both.
    // Cleo: 2 games, 2 wins, 25 + 40 = 65 points, difference 0 + 25. Ann: games 1 and 3, 1 win,
    // 40 points, 20.0, difference +10 − 30. Bob: 3 games, 1 win (the tie), 20 + 25 + 15 = 60,
    // 20.0, difference −10 + 0 − 25: level with Ann on wins and average, behind her on
    // difference.
    let rows: Vec<(u64, String, u64, u64, i64, i64, f64)> = (c["standings"].as_array().unwrap().iter())
        .map(|s| {
            (
                s["rank"].as_u64().unwrap(),
                s["name"].as_str().unwrap().into(),
                s["games"].as_u64().unwrap(),
                s["wins"].as_u64().unwrap(),
                s["point_difference"].as_i64().unwrap(),
                s["points"].as_i64().unwrap(),
                s["average"].as_f64().unwrap(),
            )
        })
        .collect();
    let row = |r, n: &str, g, w, d, p, a| (r, n.to_string(), g, w, d, p, a);
    assert_eq!(
        rows,
        [
            row(1, "Cleo", 2, 2, 25, 65, 32.5),
            row(2, "Ann", 2, 1, -20, 40, 20.0),
            row(3, "Bob", 3, 1, -35, 60, 20.0)
        ]
    );
    // Head to head, the higher placed first: Ann beat Bob in game 1 and lost to him in game 3;
    // Bob drew with Cleo in game 2 and lost to her in game 3; Cleo beat Ann in game 3 (game 4
    // is unfinished).
    let met: Vec<(&str, &str, u64, u64, u64)> = (c["head_to_head"].as_array().unwrap().iter())
        .map(|m| {
            (
                m["player"].as_str().unwrap(),
                m["opponent"].as_str().unwrap(),
                m["wins"].as_u64().unwrap(),
                m["losses"].as_u64().unwrap(),
                m["draws"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        met,
        [
            ("Cleo", "Ann", 1, 0, 0),
            ("Cleo", "Bob", 1, 0, 1),
            ("Ann", "Bob", 1, 1, 0)
        ]
    );
    assert_eq!(
        (c["player_count"].as_u64(), c["standings_pages"].as_u64()),
        (Some(3), Some(1))
    );
    let page = get_html(&app, &format!("/c/{}", c["id"].as_str().unwrap())).body;
    assert!(
        page.contains(
            "<td>1</td><td><a href=\"/p/Cleo\">Cleo</a></td><td>2</td><td>2</td><td>+25</td><td>65</td><td>32.5</td>"
        ),
        "{page}"
    );
    assert!(page.contains("<td>−35</td>"), "{page}");
    // Bob's row of the table: against Cleo, Ann, and himself.
    assert!(
        page.contains("<th scope=\"row\">Bob</th><td>0–1–1</td><td>1–1</td><td></td>"),
        "{page}"
    );
    assert!(page.contains("2nd edition rules"), "rules by their names: {page}");
    // Its day, not a timestamp (today's, or yesterday's past midnight).
    let day = |t: chrono::DateTime<chrono::Utc>| format!("created {} ·", t.format("%-d %B %Y"));
    let now = chrono::Utc::now();
    assert!(
        page.contains(&day(now)) || page.contains(&day(now - chrono::TimeDelta::days(1))),
        "{page}"
    );
}

#[test]
fn only_the_owner_renames_adds_and_removes() {
    let app = spawn_app();
    let before = app.stored_games();
    let first = one_line(&small_game(["Ines", "Jon"]));
    let a = create(&app, json!({"name": "Mine", "text": first}));
    assert_eq!(a.status, 201, "{}", a.body);
    let (id, token) = (
        a.json()["id"].as_str().unwrap().to_string(),
        a.json()["owner_token"].as_str().unwrap().to_string(),
    );
    let other = create(
        &app,
        json!({"name": "Theirs", "text": one_line(&small_game(["Kim", "Lou"]))}),
    )
    .json();
    let other_token = other["owner_token"].as_str().unwrap();
    let second = other["games"][0]["id"].as_str().unwrap().to_string();

    let rename = json!({"name": "Renamed"});
    let bearer = |t: &str| format!("Bearer {t}");
    let (mine, theirs) = (bearer(&token), bearer(other_token));
    let refused = [
        (edit(&app, &id, &[], rename.clone()), 401),
        (edit(&app, &id, &[("Authorization", &theirs)], rename.clone()), 403),
        (
            edit(&app, &id, &[("Authorization", "Bearer nonsense")], rename.clone()),
            401,
        ),
        (
            edit(
                &app,
                &id,
                &[("Authorization", &mine), ("Origin", "https://evil.example")],
                rename.clone(),
            ),
            403,
        ),
    ];
    for (a, status) in refused {
        assert_eq!(a.status, status, "{}", a.body);
        assert_eq!(a.content_type, "application/problem+json");
    }
    // The owner's browser, its cookie sent along by another site's form: refused too.
    let cookie = format!("owner={token}");
    let cross = request(
        &app,
        "POST",
        &format!("/c/{id}/edit"),
        &[FORM, ("Cookie", &cookie), ("Sec-Fetch-Site", "cross-site")],
        b"name=Hijacked",
    );
    assert_eq!(cross.status, 403, "{}", cross.body);
    assert_eq!(collection(&app, &id)["name"], "Mine");

    let a = edit(
        &app,
        &id,
        &[("Authorization", &mine)],
        json!({"name": "Renamed", "add": second}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let c = collection(&app, &id);
    assert_eq!(c["name"], "Renamed");
    let both = game_ids(&c);
    assert_eq!(both.len(), 2);
    assert_eq!(both[1], second, "added at the end");
    // The owner's own form, from this site, in the creating browser.
    let form = request(
        &app,
        "POST",
        &format!("/c/{id}/edit"),
        &[FORM, ("Cookie", &cookie), ("Sec-Fetch-Site", "same-origin")],
        format!("remove={}", both[0]).as_bytes(),
    );
    assert_eq!(form.status, 303, "{}", form.body);
    assert_eq!(game_ids(&collection(&app, &id)), vec![second.as_str()]);
    assert_eq!(app.stored_games(), before + 2, "a game taken out stays stored");

    // The collection's token owns the games its import stored: deleting one takes it out of
    // every collection.
    let gone = request(
        &app,
        "DELETE",
        &format!("/api/games/{second}"),
        &[("Authorization", &theirs)],
        b"",
    );
    assert_eq!(gone.status, 204, "{}", gone.body);
    assert!(game_ids(&collection(&app, &id)).is_empty());
    assert!(game_ids(&collection(&app, other["id"].as_str().unwrap())).is_empty());
}

#[test]
fn unlisted_imports_stay_off_the_lists() {
    let app = spawn_app();
    let text = [lab_link(4, ["Ann", "Bob"]), lab_link(5, ["Cleo", "Dan"])].join("\n");
    let a = create(&app, json!({"name": "Private", "text": text, "listed": false}));
    assert_eq!(a.status, 201, "{}", a.body);
    let c = collection(&app, a.json()["id"].as_str().unwrap());
    let ids = game_ids(&c);
    assert_eq!(ids.len(), 2);
    let home = get_html(&app, "/").body;
    for id in &ids {
        assert!(!home.contains(id.as_str()), "an unlisted game is on the home page");
        assert_eq!(get_html(&app, &format!("/g/{id}")).status, 200, "its link still works");
    }
    let everything = carcassonne_replay::store::Search::default();
    let listed: Vec<String> = (app.store().search(&everything, 0, 100).unwrap().iter())
        .map(|g| g.id.to_string())
        .collect();
    assert!(ids.iter().all(|id| !listed.contains(id)), "{listed:?}");
}

#[test]
fn a_database_of_the_previous_release_takes_a_collection() {
    let app = spawn_app_on_previous_release();
    let before = app.stored_games();
    let a = create(
        &app,
        json!({"name": "Old and new", "text": one_line(&small_game(["Ines", "Jon"]))}),
    );
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(app.stored_games(), before + 1);
    assert_eq!(game_ids(&collection(&app, a.json()["id"].as_str().unwrap())).len(), 1);
}

#[test]
fn copy_db_takes_the_collections_along() {
    let app = spawn_app();
    let text = [
        one_line(&small_game(["Ines", "Jon"])),
        one_line(&small_game(["Kim", "Lou"])),
    ]
    .join("\n");
    let a = create(&app, json!({"name": "Moving", "text": text}));
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let target = carcassonne_replay::store::Store::open(dir.path().join("copy.sqlite")).unwrap();
    let counts = carcassonne_replay::store::copy(&app.store(), &target, &|_| {}).unwrap();
    assert_eq!(counts.collections, 1);
    let id = id.parse().unwrap();
    let (was, is) = (
        app.store().collection(&id).unwrap().unwrap(),
        target.collection(&id).unwrap().unwrap(),
    );
    assert_eq!((was.name, was.owner, was.import), (is.name, is.owner, is.import));
    let games = |s: &carcassonne_replay::store::Store| -> Vec<GameId> {
        s.collection_games(&id).unwrap().iter().map(|g| g.id).collect()
    };
    assert_eq!(games(&target), games(&app.store()));
}

/// An import renews a lease as it reads; one whose lease ran out before its last line (the
/// server stopped) says so instead of reloading for ever, and its owner adds the rest again.
/// While an import runs, adding more is refused, so two imports never count one progress.
#[test]
fn a_stopped_import_says_so_and_takes_the_rest_again() {
    use carcassonne_replay::store::ImportState;
    let app = spawn_app();
    let text = [
        one_line(&small_game(["Ines", "Jon"])),
        one_line(&small_game(["Kim", "Lou"])),
    ]
    .join("\n");
    let a = create(&app, json!({"name": "Cut short", "text": text}));
    assert_eq!(a.status, 201, "{}", a.body);
    let (id, token) = (
        a.json()["id"].as_str().unwrap().to_string(),
        a.json()["owner_token"].as_str().unwrap().to_string(),
    );
    assert_eq!(collection(&app, &id)["import"]["status"], "finished");
    let cid = id.parse().unwrap();
    let lease = |minutes| {
        let state = ImportState {
            total: 5,
            done: 2,
            errors: Default::default(),
            lease_until: Some(chrono::Utc::now() + chrono::TimeDelta::minutes(minutes)),
        };
        app.store().import_progress(&cid, &state).unwrap();
    };
    let more = json!({"add": one_line(&small_game(["Mo", "Nel"]))});
    let owner = format!("Bearer {token}");

    // Running: the page reloads itself, and adding more waits for the end.
    lease(1);
    assert_eq!(collection(&app, &id)["import"]["status"], "running");
    assert!(
        get_html(&app, &format!("/c/{id}"))
            .body
            .contains(r#"http-equiv="refresh""#)
    );
    let busy = edit(&app, &id, &[("Authorization", &owner)], more.clone());
    assert_eq!(busy.status, 409, "{}", busy.body);
    assert!(busy.body.contains("2 of 5"), "{}", busy.body);
    // A rename meanwhile leaves the running import's count alone.
    let renamed = edit(
        &app,
        &id,
        &[("Authorization", &owner)],
        json!({"name": "Cut short, renamed"}),
    );
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    let c = collection(&app, &id);
    assert_eq!(
        (&c["import"]["status"], &c["import"]["done"], &c["import"]["total"]),
        (&json!("running"), &json!(2), &json!(5)),
        "{c}"
    );

    // Stopped: said once, no reload.
    lease(-1);
    assert_eq!(collection(&app, &id)["import"]["status"], "stopped");
    let page = get_html(&app, &format!("/c/{id}")).body;
    assert!(page.contains("The import stopped after 2 of 5 lines"), "{page}");
    assert!(!page.contains(r#"http-equiv="refresh""#), "{page}");

    // The owner adds the rest: the lines never read are dropped from the count.
    let added = edit(&app, &id, &[("Authorization", &owner)], more);
    assert!(added.status == 200 || added.status == 201, "{}", added.body);
    let c = collection(&app, &id);
    assert_eq!(
        (&c["import"]["status"], &c["import"]["done"], &c["import"]["total"]),
        (&json!("finished"), &json!(3), &json!(3)),
        "{c}"
    );
    assert_eq!(game_ids(&c).len(), 3);
}

/// The standings' accuracy comes from the seats' analysis rows, whatever the game: here a Card
/// Game's, whose analysis is stored as a finished one (the app runs no worker) and noted at the
/// next start, as analyses finished before are.
#[test]
fn the_standings_count_a_card_games_accuracy() {
    use carcassonne_replay::analysis::{self, cards};
    use carcassonne_replay::record::cards::to_value;
    let app = spawn_app_configured(|s| s.analysis_workers = 0);
    let mut record = selfplay::card_game(2, Policy::Greedy, 3).unwrap();
    for (p, name) in record.players.iter_mut().zip(["Ines", "Jon"]) {
        p.name = name.to_string();
    }
    let line = to_value(&record).to_string();
    let a = create(&app, json!({"name": "Cards", "text": line}));
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let game: GameId = a.json()["games"][0]["id"].as_str().unwrap().parse().unwrap();
    let report = cards::analyse_game(&record, 4, &carcassonne_replay::analysis::quiet).unwrap();
    let store = app.store();
    store.queue_analysis(&game, &ANY_PLACE, analysis::VERSION).unwrap();
    let claim = (store.claim_analysis("test", std::time::Duration::from_secs(60)))
        .unwrap()
        .unwrap();
    let json = serde_json::to_string(&report).unwrap();
    assert!(store.finish_analysis(&claim, Ok(&json), analysis::VERSION).unwrap());

    let restarted = spawn_app_at(app.db.clone(), None);
    let mut c = Value::Null;
    for _ in 0..600 {
        c = collection(&restarted, &id);
        if c["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["accuracy"].is_number())
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let expected = analysis::win_chance::accuracies(&report.chances(None), 2);
    for (seat, name) in ["Ines", "Jon"].iter().enumerate() {
        let s = (c["standings"].as_array().unwrap().iter())
            .find(|s| s["name"] == *name)
            .unwrap_or_else(|| panic!("{name} stands: {c}"));
        let shown = s["accuracy"]
            .as_f64()
            .unwrap_or_else(|| panic!("{name}'s accuracy: {c}"));
        assert!(
            (shown - expected[seat].accuracy).abs() <= 0.051,
            "{name}: {shown} against {:?}",
            expected[seat]
        );
    }
}

/// A newcomer finds collections: the home page, a player's page and the reference link the
/// form that makes one.
#[test]
fn the_home_page_player_pages_and_the_reference_link_a_new_collection() {
    let app = spawn_app();
    for page in ["/", "/p/Ada", "/docs"] {
        let a = get_html(&app, page);
        assert_eq!(a.status, 200, "{page}");
        assert!(a.body.contains("<a href=\"/c/new\">"), "{page}: {}", a.body);
    }
    assert_eq!(get_html(&app, "/c/new").status, 200);
}

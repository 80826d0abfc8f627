//! Games recorded at the table over the API: started with no moves, then every move of a
//! generated game of each kind posted one by one with its number. A skipped number answers 409
//! naming the next, the last move sent again answers 200 as before, a move taken back can be
//! played again, an illegal move answers 422 naming the turn, the player and the rule, and the
//! finished game is the generated one, stored as an upload of it would be. A live game counts
//! in nobody's statistics until it ends, and other processes see each move.

use crate::common;

use carcassonne_replay::engine::Preset;
use carcassonne_replay::record::{RulesSpec, cards, native};
use carcassonne_replay::selfplay::{self, Policy};
use common::app::*;
use common::browser::{Browser, within_a_page_load};
use serde_json::{Map, Value, json};

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// A live game: its id and owner token.
struct Live {
    id: String,
    token: String,
}

impl Live {
    /// Starts a live game of `record`'s start (its members but its moves).
    fn start(app: &TestApp, start: &Map<String, Value>) -> Live {
        let created = post_json(app, "/api/games/live", &Value::Object(start.clone()));
        assert_eq!(created.status, 201, "{}", created.body);
        let created = created.json();
        Live {
            id: created["id"].as_str().unwrap().into(),
            token: created["token"].as_str().unwrap().into(),
        }
    }

    fn post(&self, app: &TestApp, turn: u32, mv: &Value) -> Answer {
        self.send(app, "POST", "moves", json!({"turn": turn, "move": mv}).to_string())
    }

    fn take_back(&self, app: &TestApp) -> Answer {
        self.send(app, "DELETE", "moves/last", String::new())
    }

    fn send(&self, app: &TestApp, method: &str, path: &str, body: String) -> Answer {
        let bearer = format!("Bearer {}", self.token);
        let path = format!("/api/games/{}/{path}", self.id);
        request(app, method, &path, &[JSON, ("Authorization", &bearer)], body.as_bytes())
    }

    fn game(&self, app: &TestApp) -> Value {
        get(app, &format!("/api/games/{}", self.id)).json()
    }
}

/// A record's start and its moves.
fn split(record: Value) -> (Map<String, Value>, Vec<Value>) {
    let Value::Object(mut start) = record else {
        panic!("a record is an object")
    };
    let Some(Value::Array(moves)) = start.remove("moves") else {
        panic!("a record has moves")
    };
    (start, moves)
}

/// Records `record` move by move on `app`, checking every answer, and returns the live game.
fn record_move_by_move(app: &TestApp, record: Value) -> Live {
    let (start, moves) = split(record);
    let live = Live::start(app, &start);
    let game = live.game(app);
    assert_eq!((game["live"].clone(), game["turns"].clone()), (json!(true), json!(0)));
    let page = get_html(app, &format!("/g/{}", live.id));
    assert_eq!(page.status, 200, "the game's page before its first move");
    assert!(page.body.contains(">live</strong>"), "it says the game is live");
    let mut last = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let n = i as u32 + 1;
        if n == 1 {
            let skipped = live.post(app, 2, mv);
            assert_eq!(skipped.status, 409, "{}", skipped.body);
            assert_eq!(skipped.json()["next_turn"], 1, "{}", skipped.body);
        }
        let played = live.post(app, n, mv);
        assert_eq!(played.status, 201, "move {n}: {}", played.body);
        let answer = played.json();
        assert_eq!(
            (answer["turn"].as_u64(), answer["next_turn"].as_u64()),
            (Some(n.into()), Some(n as u64 + 1))
        );
        if n == 1 {
            let again = live.post(app, n, mv);
            assert_eq!(
                (again.status, again.json()),
                (200, answer.clone()),
                "the first move sent again"
            );
        }
        if n == 2 {
            let back = live.take_back(app);
            assert_eq!(back.status, 200, "{}", back.body);
            assert_eq!(back.json()["next_turn"], 2, "{}", back.body);
            let again = live.post(app, n, mv);
            assert_eq!(
                (again.status, again.json()),
                (201, answer.clone()),
                "the move taken back, played again"
            );
        }
        last = answer;
    }
    assert_eq!(
        (last["finished"].clone(), last["live"].clone()),
        (json!(true), json!(false)),
        "{last}"
    );
    let game = live.game(app);
    assert_eq!(
        (game["finished"].clone(), game["live"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(game["final_scores"], last["scores"]);
    let page = get_html(app, &format!("/g/{}", live.id));
    assert!(!page.body.contains(">live</strong>"), "over, the game is live no more");
    let again = live.post(app, moves.len() as u32, moves.last().unwrap());
    assert_eq!(
        (again.status, again.json()),
        (200, last),
        "the last move sent again, the game over"
    );
    let over = live.post(app, moves.len() as u32 + 1, &moves[0]);
    assert_eq!(over.status, 409, "{}", over.body);
    assert_eq!(live.take_back(app).status, 409, "nor is a move taken back");
    live
}

/// The finished live game is the game an upload of its whole record stores: the same record and
/// the same turns.
fn same_as_uploaded(app: &TestApp, live: &Live, whole: &str) {
    let uploaded = upload_id(app, whole.as_bytes());
    let of = |id: &str| get(app, &format!("/g/{id}.json")).json();
    let mut recorded = of(&live.id);
    let mut stored = of(&uploaded);
    // The native export names each game's own page; nothing else may differ.
    for r in [&mut recorded, &mut stored] {
        r.as_object_mut().unwrap().remove("source");
    }
    assert_eq!(recorded, stored);
    let turns = stored_turns(app, &uploaded);
    assert_eq!(stored_turns(app, &live.id), turns);
    assert!(!turns.is_empty());
}

fn stored_turns(app: &TestApp, id: &str) -> Vec<Value> {
    (1..)
        .map(|n| get(app, &format!("/api/games/{id}/turns/{n}")))
        .take_while(|a| a.status == 200)
        .map(|a| a.json())
        .collect()
}

#[test]
fn a_tile_game_is_recorded_move_by_move_and_ends_as_the_game_played() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 41).unwrap();
    let whole = native::to_pretty_string(&game);
    let live = record_move_by_move(&app, serde_json::from_str(&whole).unwrap());
    same_as_uploaded(&app, &live, &whole);
}

#[test]
fn a_new_world_game_is_recorded_move_by_move_and_ends_as_the_game_played() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::NewWorld), 3, Policy::Greedy, 42).unwrap();
    let whole = native::to_pretty_string(&game);
    let live = record_move_by_move(&app, serde_json::from_str(&whole).unwrap());
    same_as_uploaded(&app, &live, &whole);
}

#[test]
fn a_card_game_is_recorded_move_by_move_and_ends_as_the_game_played() {
    let app = spawn_app();
    let game = selfplay::card_game(3, Policy::Greedy, 43).unwrap();
    let whole = cards::to_value(&game).to_string();
    let live = record_move_by_move(&app, serde_json::from_str(&whole).unwrap());
    same_as_uploaded(&app, &live, &whole);
}

#[test]
fn an_illegal_move_is_refused_naming_the_turn_the_player_and_the_rule_and_nothing_is_stored() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 44).unwrap();
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let live = Live::start(&app, &start);
    assert_eq!(live.post(&app, 1, &moves[0]).status, 201);
    let mut far = moves[1].clone();
    far["at"] = json!([30, 30]);
    let refused = live.post(&app, 2, &far);
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(refused.content_type.starts_with("application/problem+json"));
    let problem = refused.json();
    assert_eq!(problem["turn"], 2, "{problem}");
    assert_eq!(problem["player"], game.players[1].name, "{problem}");
    assert!(
        problem["reason"].as_str().unwrap().contains("touches no placed tile"),
        "{problem}"
    );
    assert_eq!(live.game(&app)["turns"], 1, "the refused move is not stored");
    assert_eq!(
        live.post(&app, 2, &moves[1]).status,
        201,
        "the next move still is move 2"
    );
}

#[test]
fn only_the_owner_records_moves_and_an_uploaded_game_takes_none() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 45).unwrap();
    let whole = native::to_pretty_string(&game);
    let (start, moves) = split(serde_json::from_str(&whole).unwrap());
    let live = Live::start(&app, &start);
    let stranger = Live {
        id: live.id.clone(),
        token: "0".repeat(64),
    };
    assert_eq!(stranger.post(&app, 1, &moves[0]).status, 403);
    let anonymous = request(&app, "POST", &format!("/api/games/{}/moves", live.id), &[JSON], b"{}");
    assert_eq!(anonymous.status, 401);
    assert_eq!(live.take_back(&app).status, 409, "no move to take back yet");
    let mut unfinished = start.clone();
    unfinished.insert("moves".into(), json!(moves[..5]));
    let up = post_json(&app, "/api/games", &Value::Object(unfinished)).json();
    let uploaded = Live {
        id: up["id"].as_str().unwrap().into(),
        token: up["owner_token"].as_str().unwrap().into(),
    };
    let refused = uploaded.take_back(&app);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.json()["detail"].as_str().unwrap().contains("uploaded whole"));
    let mut with_moves = start.clone();
    with_moves.insert("moves".into(), json!([moves[0]]));
    let refused = post_json(&app, "/api/games/live", &Value::Object(with_moves));
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.json()["detail"]
            .as_str()
            .unwrap()
            .contains("starts with no moves")
    );
}

#[test]
fn a_live_game_counts_in_no_statistics_until_it_ends() {
    let app = spawn_app();
    let mut game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 46).unwrap();
    for (p, name) in game.players.iter_mut().zip(["Livia", "Marek"]) {
        p.name = name.into();
    }
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let live = Live::start(&app, &start);
    let livia = || get(&app, "/api/players/Livia");
    for (i, mv) in moves.iter().enumerate().take(moves.len() - 1) {
        assert_eq!(live.post(&app, i as u32 + 1, mv).status, 201);
    }
    assert_eq!(livia().status, 404, "unfinished, the game is nobody's yet");
    assert_eq!(live.post(&app, moves.len() as u32, moves.last().unwrap()).status, 201);
    let over = livia();
    assert_eq!(
        (over.status, over.json()["finished"].clone()),
        (200, json!(1)),
        "over, it is Livia's"
    );
}

#[test]
fn a_live_games_pictures_follow_its_moves_and_are_asked_again_each_time() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 47).unwrap();
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let live = Live::start(&app, &start);
    let board = || get(&app, &format!("/g/{}.png", live.id));
    assert_eq!(live.post(&app, 1, &moves[0]).status, 201);
    let first = board();
    assert_eq!((first.status, first.header("cache-control")), (200, "no-cache"));
    assert_eq!(live.post(&app, 2, &moves[1]).status, 201);
    let second = board();
    assert_ne!(
        second.header("etag"),
        first.header("etag"),
        "the board shows the second tile"
    );
    assert_eq!(live.take_back(&app).status, 200);
    assert_eq!(
        board().header("etag"),
        first.header("etag"),
        "and not once it is taken back"
    );
}

/// Whether `script` comes true in `browser` within a page load's wait.
fn comes_true(browser: &Browser, script: &str) -> bool {
    let script = format!("return {script};");
    within_a_page_load(|| (browser.eval(&script) == Value::Bool(true)).then_some(())).is_some()
}

#[test]
fn a_browser_following_a_live_game_sees_each_move_without_reloading_by_hand() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 48).unwrap();
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let live = Live::start(&app, &start);
    for (i, mv) in moves.iter().enumerate().take(3) {
        assert_eq!(live.post(&app, i as u32 + 1, mv).status, 201);
    }
    let shows = |n: u32| format!("document.querySelector('[data-live-turns=\"{n}\"]') !== null");
    browser.open(&app.url(&format!("/g/{}", live.id)));
    assert!(comes_true(&browser, &shows(3)), "the page shows the three turns played");
    assert_eq!(live.post(&app, 4, &moves[3]).status, 201);
    assert!(comes_true(&browser, &shows(4)), "the page follows to the fourth");
    // An older turn's page stays where the reader is, and says a move was played.
    browser.open(&app.url(&format!("/g/{}/t/2", live.id)));
    assert!(comes_true(&browser, "document.querySelector('[data-live]') !== null"));
    assert_eq!(live.post(&app, 5, &moves[4]).status, 201);
    let told = "document.querySelector('[data-live]').textContent.includes('Turn 5 was played')";
    assert!(comes_true(&browser, told), "the older turn says turn 5 was played");
    assert!(
        browser.current_url().ends_with("/t/2"),
        "and stays: {}",
        browser.current_url()
    );
}

/// Clicks the first element `css` finds, waiting a page load's wait for it.
fn click_on(browser: &Browser, css: &str) {
    let found = within_a_page_load(|| browser.find(css));
    browser.click(&found.unwrap_or_else(|| panic!("nothing matches {css} at {}", browser.current_url())));
}

/// A move of a native record as the explore board's line writes it: `tile@x,y,rotation` and
/// the meeple's feature and place, if any.
fn line_of(mv: &Value) -> String {
    let at = &mv["at"];
    let mut line = format!(
        "{}@{},{},{}",
        mv["tile"].as_str().unwrap(),
        at[0],
        at[1],
        mv["rotation"]
    );
    if let Some(m) = mv["meeple"].as_object() {
        // A cloister or a garden has no place in a record, and `center` in a line.
        let place = m.get("at").and_then(Value::as_str).unwrap_or("center");
        line += &format!(",{}-{place}", m["feature"].as_str().unwrap());
    }
    line
}

/// Records tile-game move `mv`, turn `turn`, by clicks on the explore board of that turn:
/// the tile drawn, its square, its rotation, the follower, then "Record this move".
fn record_by_clicks(browser: &Browser, id: &str, turn: usize, mv: &Value) {
    let tile = mv["tile"].as_str().unwrap();
    let line = line_of(mv);
    click_on(browser, &format!("button[name=draw][value=\"{tile}\"]"));
    click_on(
        browser,
        &format!("a.pick[data-spot=\"{},{}\"]", mv["at"][0], mv["at"][1]),
    );
    for _ in 0..4 {
        if browser.eval("return document.querySelector('[data-rotation]').textContent")
            == json!(mv["rotation"].to_string())
        {
            break;
        }
        click_on(browser, "[data-turn]");
    }
    click_on(browser, &format!("input[name=line][value=\"{line}\"]"));
    click_on(browser, "#answer button[type=submit]");
    click_on(browser, "[data-record] button[type=submit]");
    assert!(
        browser.wait_for_url_containing(&format!("/g/{id}/t/{turn}")),
        "turn {turn}: {}",
        browser.current_url()
    );
}

/// A whole two-player game recorded by clicks only, from the start page to the final
/// scoring, with a move taken back and played again on the way.
#[test]
fn a_whole_tile_game_is_recorded_by_clicks_on_the_page_with_a_move_taken_back() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 49).unwrap();
    let whole = native::to_pretty_string(&game);
    let (_, moves) = split(serde_json::from_str(&whole).unwrap());
    assert!(
        moves.iter().all(|m| m.get("tile").is_some()),
        "seed 49 discards nothing"
    );
    browser.open(&app.url("/new"));
    browser.eval("document.querySelector('[name=player1]').value = 'Bot 1'; document.querySelector('[name=player2]').value = 'Bot 2';");
    click_on(&browser, ".new-game button[type=submit]");
    assert!(
        browser.wait_for_url_containing("/t/1/explore"),
        "{}",
        browser.current_url()
    );
    let id = browser.current_url().split("/g/").nth(1).unwrap()[..16].to_string();
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            click_on(&browser, ".record-actions a.button");
        }
        record_by_clicks(&browser, &id, i + 1, mv);
        if i == 4 {
            click_on(&browser, ".record-actions button[type=submit]");
            assert!(comes_true(
                &browser,
                "document.querySelector('[data-live-turns=\"4\"]') !== null"
            ));
            assert_eq!(
                get(&app, &format!("/api/games/{id}")).json()["turns"],
                4,
                "the last move taken back"
            );
            click_on(&browser, ".record-actions a.button");
            record_by_clicks(&browser, &id, i + 1, mv);
        }
    }
    let stored = get(&app, &format!("/g/{id}.json")).json();
    let played: Vec<String> = stored["moves"].as_array().unwrap().iter().map(line_of).collect();
    let meant: Vec<String> = moves.iter().map(line_of).collect();
    assert_eq!(played, meant, "the stored record is the moves the clicks meant");
    let recorded = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(
        (recorded["live"].clone(), recorded["finished"].clone()),
        (json!(false), json!(true))
    );
    let uploaded = upload_id(&app, whole.as_bytes());
    let scores = get(&app, &format!("/api/games/{uploaded}")).json()["final_scores"].clone();
    assert_eq!(recorded["final_scores"], scores, "and it scores as the game generated");
}

#[test]
fn a_game_in_play_gets_no_engine_no_alternatives_and_no_analysis_until_it_is_over() {
    let app = spawn_app();
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 50).unwrap();
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let live = Live::start(&app, &start);
    assert_eq!(live.post(&app, 1, &moves[0]).status, 201);
    let explore = get(
        &app,
        &format!(
            "/api/explore?game={}&turn=2&line={}@",
            live.id,
            moves[1]["tile"].as_str().unwrap()
        ),
    );
    assert_eq!(explore.status, 200, "{}", explore.body);
    assert_eq!(
        explore.json()["engine"],
        Value::Null,
        "the engine says nothing of a game in play"
    );
    let queued = post(&app, &format!("/g/{}/analysis", live.id), b"");
    assert_eq!(queued.status, 409, "{}", queued.body);
    let alternatives = format!("/g/{}/t/1/alternatives", live.id);
    assert_eq!(
        get(&app, &alternatives).status,
        409,
        "nor what else a move could have done"
    );
    let turn = get_html(&app, &format!("/g/{}/t/1", live.id)).body;
    assert!(!turn.contains("/t/1/alternatives"), "the turn page does not offer it");
    for (i, mv) in moves.iter().enumerate().skip(1) {
        assert_eq!(live.post(&app, i as u32 + 1, mv).status, 201);
        if i == 9 {
            let turns = (1..=10).map(|n| get_html(&app, &format!("/g/{}/t/{n}", live.id)).body);
            assert!(turns.clone().all(|t| !t.contains("class=\"ghost")), "no ghosts in play");
        }
    }
    assert_eq!(
        post(&app, &format!("/g/{}/analysis", live.id), b"").status,
        202,
        "over, it is analysed"
    );
    assert_eq!(get(&app, &alternatives).status, 200);
    let ghosts = |n: u32| {
        get_html(&app, &format!("/g/{}/t/{n}", live.id))
            .body
            .contains("class=\"ghost")
    };
    assert!((1..=10).any(ghosts), "over, the turns draw other moves as ghosts");
}

#[test]
fn the_recording_page_is_linked_from_home_and_documented_with_its_screenshots() {
    let app = spawn_app();
    assert!(get_html(&app, "/").body.contains("href=\"/new\""));
    let page = get_html(&app, "/new");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("name=\"player1\""), "{}", page.body);
    let docs = get_html(&app, "/docs/recording").body;
    // A screenshot of each recorder: the tile games' and the Card Game's.
    for shot in ["recording.png", "recording-cards.png"] {
        let src = format!("/static/docs/{shot}");
        assert!(docs.contains(&format!("src=\"{src}\"")), "{docs}");
        let picture = get(&app, &src);
        assert_eq!((picture.status, picture.content_type.as_str()), (200, "image/png"));
    }
}

/// Waits until the Card Game's recording page asks for action `n`.
fn asks_for(browser: &Browser, n: usize) -> bool {
    comes_true(
        browser,
        &format!("document.querySelector('[data-record] input[name=number][value=\"{n}\"]') !== null"),
    )
}

/// Chooses `value` in the select `name` by clicking its option.
fn choose(browser: &Browser, name: &str, value: &str) {
    click_on(browser, &format!("select[name={name}] option[value=\"{value}\"]"));
}

#[test]
fn a_card_game_round_is_recorded_by_clicks_its_face_down_card_named_as_the_round_ends() {
    let Some(browser) = Browser::start() else { return };
    browser.resize(390, 844);
    let app = spawn_app();
    let game = selfplay::card_game(2, Policy::Greedy, 44).unwrap();
    let whole = cards::to_value(&game);
    browser.open(&app.url("/new"));
    choose(&browser, "game", "card-game");
    browser.eval("document.querySelector('[name=player1]').value = 'Ann'; document.querySelector('[name=player2]').value = 'Bob';");
    choose(&browser, "dealer", &(whole["dealer"].as_u64().unwrap() + 1).to_string());
    for (i, up) in whole["face_up"].as_array().unwrap().iter().enumerate() {
        choose(&browser, &format!("up{}", i + 1), up["card"].as_str().unwrap());
        choose(&browser, &format!("row{}", i + 1), up["row"].as_str().unwrap());
    }
    click_on(&browser, ".new-game button[type=submit]");
    assert!(browser.wait_for_url_containing("/record"), "{}", browser.current_url());
    let id = browser.current_url().split("/g/").nth(1).unwrap()[..16].to_string();
    assert!(asks_for(&browser, 1));
    // On a phone, one-handed: nothing wider than the screen, and every control finger-sized.
    let sizes = browser.eval(
        "return [document.documentElement.scrollWidth, window.innerWidth, \
         Math.min(...[...document.querySelectorAll('[data-record] button, [data-record] select, [data-record] .rows label')] \
         .map(e => e.getBoundingClientRect().height))];",
    );
    assert!(
        sizes[0].as_f64() <= sizes[1].as_f64(),
        "the page is wider than the phone: {sizes}"
    );
    assert!(sizes[2].as_f64().unwrap() >= 44.0, "a control under 44 px: {sizes}");
    // Two players: a round is 14 actions, 6 cards and the follower each; the first card
    // played goes face down, unseen, and is named by the action that ends the round.
    let moves = game_round(&whole["moves"], 14);
    let first_card = moves.iter().position(|m| m.get("play").is_some()).unwrap();
    let face_down = moves[first_card]["play"].clone();
    let ends = moves.iter().rposition(|m| m.get("wrong_row").is_none()).unwrap();
    for (i, mv) in moves.iter().enumerate() {
        assert!(
            asks_for(&browser, i + 1),
            "action {} at {}",
            i + 1,
            browser.current_url()
        );
        if i == ends {
            choose(&browser, "turned_over", face_down.as_str().unwrap());
        }
        if let Some(choice) = mv["wrong_row"].as_str() {
            click_on(&browser, &format!("button[name=action][value={choice}]"));
        } else if let Some(row) = mv["follower"].as_str() {
            click_on(&browser, &format!("button[name=action][value=\"follower {row}\"]"));
        } else {
            let card = if i == first_card {
                "face down"
            } else {
                mv["play"].as_str().unwrap()
            };
            choose(&browser, "card", card);
            click_on(
                &browser,
                &format!("[data-record] input[name=row][value={}]", mv["row"].as_str().unwrap()),
            );
            click_on(&browser, "button[name=action][value=play]");
        }
    }
    assert!(asks_for(&browser, moves.len() + 1));
    let take_back =
        browser.eval("return document.querySelector('.record-actions button').getBoundingClientRect().height;");
    assert!(
        take_back.as_f64().unwrap() >= 44.0,
        "take back is finger-sized: {take_back}"
    );
    let mut meant: Vec<Value> = moves.clone();
    for mv in &mut meant {
        mv.as_object_mut().unwrap().remove("player");
    }
    meant[first_card]["play"] = json!("face down");
    meant[ends]["face_down"] = face_down;
    let stored = get(&app, &format!("/g/{id}.json")).json();
    assert_eq!(
        stored["moves"],
        json!(meant),
        "the stored record is the actions the clicks meant"
    );
    // The round scores as the generated game's did.
    let generated = upload_id(&app, whole.to_string().as_bytes());
    let scores = |id: &str| get(&app, &format!("/api/games/{id}/turns/{}", moves.len())).json()["scores"].clone();
    assert_eq!(scores(&id), scores(&generated));
    assert_ne!(scores(&id), json!([0, 0]), "the round was scored");
}

/// The actions of a Card Game's first round (`actions` of them), and the choices after it.
fn game_round(moves: &Value, actions: usize) -> Vec<Value> {
    let moves = moves.as_array().unwrap();
    let mut regular = 0;
    moves
        .iter()
        .take_while(|m| {
            let choice = m.get("wrong_row").is_some();
            regular += usize::from(!choice);
            regular <= actions
        })
        .cloned()
        .collect()
}

/// Over the API, the Card Game's face-down card is sent unseen, named by no answer or page, and
/// the action that ends its round must name it.
#[test]
fn a_card_games_face_down_card_is_sent_unseen_and_named_as_its_round_ends() {
    let app = spawn_app();
    let game = selfplay::card_game(2, Policy::Greedy, 45).unwrap();
    let (start, moves) = split(cards::to_value(&game));
    let round = game_round(&Value::Array(moves.clone()), 14);
    let first = round.iter().position(|m| m.get("play").is_some()).unwrap();
    let ends = round.iter().rposition(|m| m.get("wrong_row").is_none()).unwrap();
    let card = round[first]["play"].clone();
    let live = Live::start(&app, &start);
    for (i, mv) in round.iter().enumerate().take(ends) {
        let mut mv = mv.clone();
        if i == first {
            mv["play"] = json!("face down");
        }
        let answer = live.post(&app, i as u32 + 1, &mv);
        assert_eq!(answer.status, 201, "{}", answer.body);
        if i == first {
            assert!(!answer.body.contains(card.as_str().unwrap()), "{}", answer.body);
        }
    }
    let page = get_html(&app, &format!("/g/{}/t/{}", live.id, first + 1));
    assert!(
        page.body.contains("The record stops inside this round"),
        "no hand is made up"
    );
    let unnamed = live.post(&app, ends as u32 + 1, &round[ends]);
    assert_eq!(unnamed.status, 422, "{}", unnamed.body);
    assert!(unnamed.body.contains("face-down card (move"), "{}", unnamed.body);
    let mut named = round[ends].clone();
    named["face_down"] = card;
    assert_eq!(live.post(&app, ends as u32 + 1, &named).status, 201);
}

/// The connection cut in the middle of a game: the move recorded meanwhile waits in the
/// browser, and is recorded once when the connection is back.
#[test]
fn a_move_recorded_while_the_connection_is_cut_is_sent_when_it_is_back() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let game = selfplay::card_game(2, Policy::Greedy, 46).unwrap();
    let (start, _) = split(cards::to_value(&game));
    let live = Live::start(&app, &start);
    // Two actions in, then the owner's phone loses its connection.
    let round = game_round(&cards::to_value(&game)["moves"], 14);
    for (i, mv) in round.iter().take(2).enumerate() {
        assert_eq!(live.post(&app, i as u32 + 1, mv).status, 201);
    }
    browser.open(&app.url(&format!("/g/{}/key#{}", live.id, live.token)));
    click_on(&browser, "[data-key-form] button");
    // The key is claimed once the game's page shows: its cookie is set by then.
    assert!(
        browser.wait_for_url(&format!("/g/{}", live.id)),
        "{}",
        browser.current_url()
    );
    browser.open(&app.url(&format!("/g/{}/record", live.id)));
    assert!(asks_for(&browser, 3), "{}", browser.current_url());
    browser.set_offline(true);
    let third = &round[2];
    if let Some(row) = third["follower"].as_str() {
        click_on(&browser, &format!("button[name=action][value=\"follower {row}\"]"));
    } else {
        choose(&browser, "card", third["play"].as_str().unwrap());
        click_on(
            &browser,
            &format!(
                "[data-record] input[name=row][value={}]",
                third["row"].as_str().unwrap()
            ),
        );
        click_on(&browser, "button[name=action][value=play]");
    }
    let waits = "document.querySelector('[data-pending]') !== null && document.querySelector('[data-pending]').textContent.includes('waits')";
    assert!(comes_true(&browser, waits), "the page says the move waits");
    assert_eq!(live.game(&app)["turns"], 2, "nothing reached the server");
    browser.set_offline(false);
    assert!(
        asks_for(&browser, 4),
        "back online, the move is sent: {} says {:?}, the server has {}",
        browser.current_url(),
        browser.eval(
            "return document.querySelector('[data-pending]') && document.querySelector('[data-pending]').textContent"
        ),
        live.game(&app)["turns"]
    );
    let stored = get(&app, &format!("/g/{}.json", live.id)).json();
    assert_eq!(stored["moves"].as_array().unwrap().len(), 3, "recorded once");
    let mut meant = third.clone();
    meant.as_object_mut().unwrap().remove("player");
    assert_eq!(stored["moves"][2], meant);
}

/// A page's move sent twice (its answer lost, or sent again once back online) is recorded
/// once, and the second answer is the first's; a different move under the same number is
/// refused.
#[test]
fn a_pages_move_sent_twice_is_recorded_once() {
    let app = spawn_app();
    let game = selfplay::card_game(2, Policy::Greedy, 47).unwrap();
    let (start, moves) = split(cards::to_value(&game));
    let live = Live::start(&app, &start);
    let bearer = format!("Bearer {}", live.token);
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let send = |body: &str| {
        let path = format!("/g/{}/record", live.id);
        request(
            &app,
            "POST",
            &path,
            &[form, ("Authorization", &bearer)],
            body.as_bytes(),
        )
    };
    let first = moves.iter().find(|m| m.get("play").is_some()).unwrap();
    assert_eq!(
        moves.iter().position(|m| m == first),
        Some(0),
        "seed 47 opens with a card"
    );
    let body = format!(
        "number=1&action=play&card=face+down&row={}",
        first["row"].as_str().unwrap()
    );
    let (a, b) = (send(&body), send(&body));
    assert_eq!((a.status, b.status), (303, 303), "{}", b.body);
    assert_eq!(live.game(&app)["turns"], 1, "recorded once");
    let other = send("number=1&action=follower+road");
    assert_eq!(other.status, 409, "{}", other.body);
    assert_eq!(live.game(&app)["turns"], 1);
}

/// A tile drawn that fits nowhere is discarded from the explore board of the next turn, and
/// its player draws again: the stored record has the discard, numbered among the moves.
#[test]
fn a_tile_that_fits_nowhere_is_discarded_from_the_page() {
    let app = spawn_app();
    // Random play on seed 84 draws a tile that fits nowhere as its fourth move.
    let game = selfplay::generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, 84).unwrap();
    let (start, moves) = split(serde_json::from_str(&native::to_pretty_string(&game)).unwrap());
    let at = moves
        .iter()
        .position(|m| m.get("discard").is_some())
        .expect("seed 84 discards");
    let live = Live::start(&app, &start);
    for (i, mv) in moves.iter().take(at).enumerate() {
        assert_eq!(live.post(&app, i as u32 + 1, mv).status, 201);
    }
    let bearer = format!("Bearer {}", live.token);
    let turn = at as u32 + 1;
    let page = request(
        &app,
        "GET",
        &format!("/g/{}/t/{turn}/explore", live.id),
        &[("Authorization", &bearer), ("Accept", "text/html")],
        b"",
    );
    assert!(
        page.body.contains("<h3 class=\"tile-group\">Cloisters</h3>"),
        "the tiles to draw come in groups"
    );
    let tile = moves[at]["discard"].as_str().unwrap();
    assert!(
        page.body.contains(&format!("value=\"{tile}\">Discard {tile}</button>")),
        "{}",
        page.body
    );
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let body = format!("from={turn}&number={}&discard={tile}", at + 1);
    let sent = request(
        &app,
        "POST",
        &format!("/g/{}/moves", live.id),
        &[form, ("Authorization", &bearer)],
        body.as_bytes(),
    );
    assert_eq!(sent.status, 303, "{}", sent.body);
    let again = request(
        &app,
        "POST",
        &format!("/g/{}/moves", live.id),
        &[form, ("Authorization", &bearer)],
        body.as_bytes(),
    );
    assert_eq!(again.status, 303, "sent twice, {}", again.body);
    let stored = get(&app, &format!("/g/{}.json", live.id)).json();
    assert_eq!(stored["moves"].as_array().unwrap().len(), at + 1, "recorded once");
    assert_eq!(stored["moves"][at]["discard"], tile);
    // The same player draws again: the next placement is recorded at the same turn.
    assert_eq!(live.post(&app, at as u32 + 2, &moves[at + 1]).status, 201);
}

/// The start page's players take colours from their game's palette, none twice; a colour
/// another game's pictures give a meaning (the Card Game's rows) is refused.
#[test]
fn players_choose_their_colours_from_their_games_palette() {
    let app = spawn_app();
    let form = ("Content-Type", "application/x-www-form-urlencoded");
    let start = |body: &str| request(&app, "POST", "/new", &[form], body.as_bytes());
    let started = start("game=second-edition&player1=Ada&colour1=%23009e73&player2=Bo&colour2=");
    assert_eq!(started.status, 303, "{}", started.body);
    let id = started.header("location").split('/').nth(2).unwrap().to_string();
    let players = get(&app, &format!("/g/{id}.json")).json()["players"].clone();
    assert_eq!(players, json!([{"name": "Ada", "colour": "#009e73"}, {"name": "Bo"}]));
    let twice = start("game=second-edition&player1=Ada&colour1=%23009e73&player2=Bo&colour2=%23009e73");
    assert_eq!(twice.status, 400);
    assert!(twice.body.contains("two players are green"), "{}", twice.body);
    // The tile games' green reads as the Card Game's farm row.
    let deal: String = (1..=10).map(|i| format!("&up{i}=dragon&row{i}=road")).collect();
    let green = start(&format!(
        "game=card-game&player1=Ada&colour1=%23009e73&player2=Bo&dealer=1{deal}"
    ));
    assert_eq!(green.status, 400);
    assert!(
        green.body.contains("Ada's colour is not one of this game's"),
        "{}",
        green.body
    );
}

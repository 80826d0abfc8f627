//! The explore board: lines played on from a turn, in the notation that lives in the address
//! (`record::TileLine`, `/docs/pages#the-explore-board`), through the library, the HTTP pages and the API,
//! and in a browser.
//!
//! - A line of 40 moves round-trips through its notation and replays to the same position,
//!   whether each step names its tile or the notation leaves the game's own draws out
//!   (property tests, the tile games and the Card Game).
//! - The pages play a line without JavaScript: a square's link puts the tile there, the form's
//!   meeple steps are each the whole next line, the tiles to choose appear once the line has
//!   left the game, and ← → walk the line.
//! - Bad lines are refused with 400, naming the step, the turn, the player and the rule, and
//!   never echoed.
//! - `/api/explore` gives the position, the legal moves and the engine's answer, which is kept.
//! - In Chromium: a tile line of 5 clicks, a New World line, a Card Game line, a phone.

use crate::common::app::*;
use crate::common::browser::Browser;
use carcassonne_replay::engine::cards::{CardGame, CardMove};
use carcassonne_replay::engine::{Game, Played, Position};
use carcassonne_replay::record::Record;
use carcassonne_replay::record::{self, GameRecord, RecordedMove, recorded};
use carcassonne_replay::record::{Line, TileLine, TileStep};
use carcassonne_replay::replay::{self, NextDraw, explore_cards, explore_tiles, tiles_to_draw};
use carcassonne_replay::web::LimitSettings;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;
use std::path::Path;

/// The whole line of `item` (a move or a choice) of an explore `answer`: its `before`, then
/// its step.
fn line_of(answer: &Value, item: &Value) -> String {
    let (before, step) = (answer["before"].as_str().unwrap(), item["step"].as_str().unwrap());
    if before.is_empty() {
        step.to_string()
    } else {
        format!("{before}~{step}")
    }
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn tile_demo(path: &str) -> GameRecord {
    record::parse(&read(path)).unwrap().0
}

fn card_demo() -> Record<CardGame> {
    match record::parse_any(&read("static/games/demo-card-game.json")).unwrap() {
        record::AnyRecord::Cards(r) => r,
        other => panic!("not a Card Game: {other:?}"),
    }
}

/// A tile line of up to `steps` moves from turn `from`, each chosen by `pick`: while the line
/// follows the game, the game's own move when `pick` says so; each step names its tile. Returns
/// the line as built and its last explore.
fn random_tile_line(record: &GameRecord, from: u32, picks: &[(Index, Index, bool)]) -> TileLine {
    let mut line = TileLine::default();
    for (tile_pick, move_pick, follow) in picks {
        let ex = explore_tiles(record, from, &line).unwrap();
        let tile = match ex.facts.next {
            NextDraw::Drawn(tile) => tile,
            NextDraw::Choose => {
                let choices: Vec<_> = tiles_to_draw(&ex.game).collect();
                tile_pick.get(&choices).0
            }
            NextDraw::Over => break,
        };
        let mut on: Game = ex.game.clone();
        on.draw(tile).unwrap();
        let mut moves = Vec::new();
        Position::legal_moves(&on, &mut moves);
        let own = record_move(record, from + line.steps.len() as u32);
        let mv = match own {
            Some(m) if *follow && ex.followed == line.steps.len() && m.tile == tile => m,
            _ => match *move_pick.get(&moves) {
                Played::Place(m) => m,
                Played::Discard(_) => unreachable!("a tile offered fits somewhere"),
            },
        };
        let RecordedMove::Place { action, .. } = recorded(&on, &mv) else {
            unreachable!()
        };
        line.steps.push(TileStep {
            tile: Some(tile),
            placement: mv.placement,
            action,
        });
    }
    line
}

/// The game's own move of turn `turn`, as the engine plays it.
fn record_move(record: &GameRecord, turn: u32) -> Option<carcassonne_replay::engine::Move> {
    let r = replay::replay_upto(record, None, Some(turn)).ok()?;
    r.turns.get(turn as usize - 1).map(|t| t.mv)
}

/// The same line, written and read again, and written as the notation writes it (leaving the
/// game's own draws out), replays to the same position: the same record of moves, scores and
/// pack, and the same board.
fn round_trips(record: &GameRecord, from: u32, line: &TileLine) {
    let cat = &record.setup.catalog;
    let first = explore_tiles(record, from, line).unwrap();
    let text = first.line.write(cat);
    let again = explore_tiles(record, from, &TileLine::parse(&text, cat).unwrap()).unwrap();
    let named = explore_tiles(record, from, &TileLine::parse(&line.write(cat), cat).unwrap()).unwrap();
    for other in [&again, &named] {
        assert_eq!(other.line.write(cat), text, "the notation writes one line one way");
        assert_eq!(other.facts.record.moves, first.facts.record.moves);
        assert_eq!(other.game.scores(), first.game.scores());
        assert_eq!(other.game.pack(), first.game.pack());
        assert_eq!(other.facts.next, first.facts.next);
        assert_eq!(other.followed, first.followed);
    }
    // The record the line makes replays, through the record walker, to the same position,
    // scored at the end when the line ends the game.
    let replayed = replay::replay_upto(&first.facts.record, None, None).unwrap();
    let mut game = first.game.clone();
    if first.facts.next == NextDraw::Over {
        game.finish(&mut Vec::new());
    }
    assert_eq!(replayed.game.scores(), game.scores());
    assert_eq!(replayed.turns.len() as u32, from - 1 + line.steps.len() as u32);
    // The board the explore page draws is built as the line is played, with no replay: it is
    // the same turn by turn, and after them.
    let built = &first.facts.replay;
    let seen = |x: &dyn std::fmt::Debug| format!("{x:?}");
    assert_eq!(seen(&built.turns), seen(&replayed.turns), "the turns");
    assert_eq!(seen(&built.final_events), seen(&replayed.final_events));
    assert_eq!(seen(&built.breakdown), seen(&replayed.breakdown));
    assert_eq!(
        (built.finished, &built.final_scores),
        (replayed.finished, &replayed.final_scores)
    );
    assert_eq!(built.game.board().tiles(), replayed.game.board().tiles());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn a_tile_line_of_40_moves_round_trips_through_its_address(
        from in 1u32..40,
        picks in prop::collection::vec((any::<Index>(), any::<Index>(), any::<bool>()), 40),
        new_world in any::<bool>(),
    ) {
        let record = if new_world {
            tile_demo("static/games/demo-new-world.json")
        } else {
            tile_demo("static/games/demo-second-edition.json")
        };
        let line = random_tile_line(&record, from, &picks);
        prop_assert!(line.steps.len() == 40 || explore_tiles(&record, from, &line).unwrap().facts.next == NextDraw::Over);
        round_trips(&record, from, &line);
    }

    #[test]
    fn a_card_game_line_of_40_moves_round_trips_through_its_address(
        from in 1u32..60,
        picks in prop::collection::vec(any::<Index>(), 40),
    ) {
        let record = card_demo();
        let mut line = Line::<CardMove>::default();
        for pick in &picks {
            let ex = explore_cards(&record, from, &line).unwrap();
            if ex.game.is_over() {
                break;
            }
            let mut moves = Vec::new();
            Position::legal_moves(&ex.game, &mut moves);
            line.steps.push(*pick.get(&moves));
        }
        let first = explore_cards(&record, from, &line).unwrap();
        let text = line.to_string();
        let again = explore_cards(&record, from, &text.parse().unwrap()).unwrap();
        prop_assert_eq!(again.line.to_string(), text);
        let same = |g: &CardGame| (Position::scores(g), g.round(), g.unseen(), Position::current_player(g));
        prop_assert_eq!(same(&again.game), same(&first.game));
        prop_assert_eq!(again.followed, first.followed);
    }
}

/// The game's own moves, as a line, follow the game: the position is the game's, and each
/// next draw is the game's own tile, drawn without being named.
#[test]
fn a_line_of_the_games_own_moves_follows_the_game() {
    let record = tile_demo("static/games/demo-second-edition.json");
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let index = any::<Index>().new_tree(&mut runner).unwrap().current();
    let picks = vec![(index, index, true); 6];
    let line = random_tile_line(&record, 10, &picks);
    let ex = explore_tiles(&record, 10, &line).unwrap();
    assert_eq!(ex.followed, 6);
    assert!(
        ex.line.steps.iter().all(|s| s.tile.is_none()),
        "no step names the game's own draw"
    );
    let game = replay::replay_upto(&record, None, Some(15)).unwrap();
    assert_eq!(ex.game.scores(), game.game.scores());
    assert_eq!(ex.facts.next, NextDraw::Drawn(record_move(&record, 16).unwrap().tile));
}

fn html(app: &TestApp, path: &str) -> String {
    let a = get_html(app, path);
    assert_eq!(a.status, 200, "{path}: {}", a.body);
    a.body
}

/// The attribute values of every `attr="…"` after `marker` in `page`, unescaped.
fn attrs(page: &str, marker: &str, attr: &str) -> Vec<String> {
    page.split(marker)
        .skip(1)
        .filter_map(|s| {
            let at = s.find(&format!("{attr}=\""))? + attr.len() + 2;
            Some(
                s[at..at + s[at..].find('"')?]
                    .replace("&amp;", "&")
                    .replace("&#38;", "&"),
            )
        })
        .collect()
}

/// Without JavaScript: the turn page links to the explore board; a square's link puts the
/// drawn tile there with a form whose meeple steps are each the whole next line; playing the
/// game's own move keeps to the game (its next tile drawn, "as in the game"), another leaves it
/// and the reader chooses the next tile from those left; ← goes back along the line.
#[test]
fn a_tile_line_is_played_through_links_and_forms() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let turn = html(&app, &format!("/g/{id}/t/9"));
    assert!(
        turn.contains(&format!("/g/{id}/t/10/explore\"")),
        "the turn page offers to play on"
    );
    assert!(
        turn.contains(&format!("/g/{id}/t/9/explore\"")),
        "and to try another move for it"
    );

    let start = html(&app, &format!("/g/{id}/t/10/explore"));
    assert!(start.contains("as in the game"), "turn 10's tile is the game's own");
    let squares = attrs(&start, "class=\"pick", "href");
    let squares: Vec<&String> = squares.iter().filter(|h| h.contains("square=")).collect();
    assert!(!squares.is_empty(), "the drawn tile's squares are links");
    let placed = html(&app, squares[0]);
    let lines = attrs(&placed, "name=\"line\"", "value");
    assert!(!lines.is_empty(), "the form offers the meeple steps");
    assert!(lines.iter().all(|l| l.split('~').count() == 1), "{lines:?}");
    // Playing the first step: a line of one move, listed, with a way back.
    let one = html(&app, &format!("/g/{id}/t/10/explore?line={}", lines[0]));
    assert!(one.contains("Turn 10, Ada"), "the line lists its step with its player");
    assert!(
        one.contains(&format!("/g/{id}/t/10/explore?line={}&amp;at=0", lines[0])) || one.contains("data-key=\"prev\"")
    );
    let api = get(&app, &format!("/api/explore?game={id}&turn=10&line={}", lines[0])).json();
    let own = get(&app, &format!("/api/games/{id}/turns/10")).json();
    if api["followed"] == 1 {
        assert!(
            one.contains("as in the game"),
            "the game's own move keeps to the game's draws"
        );
    } else {
        assert!(
            one.contains("The next draw"),
            "a move of the reader's own leaves the game: {own}"
        );
        let choices = attrs(&one, "<ul class=\"choices\">", "href");
        assert!(!choices.is_empty());
        // Grouped as they look at a glance: cloisters, then by how many sides are city.
        let headings = [
            "Cloisters",
            "No city side",
            "One city side",
            "Two city sides",
            "Three city sides",
        ];
        let found: Vec<usize> = (headings.iter())
            .filter_map(|h| one.find(&format!("<h3 class=\"tile-group\">{h}</h3>")))
            .collect();
        assert!(found.len() >= 3, "the tiles to draw come in groups");
        assert!(found.is_sorted(), "in that order");
        let tiles = api["choices"].as_array().unwrap();
        let drawn = html(&app, &format!("/g/{id}/t/10/explore?line={}", line_of(&api, &tiles[0])));
        assert!(
            drawn.contains("draws ") && drawn.contains("class=\"pick"),
            "the tile chosen is drawn"
        );
    }
    app.stop();
}

#[test]
fn walking_the_line_shows_each_position_and_keeps_the_line() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let mut line = String::new();
    for _ in 0..3 {
        let a = get(&app, &format!("/api/explore?game={id}&turn=20&line={line}")).json();
        line = match a["moves"].as_array().filter(|m| !m.is_empty()) {
            Some(m) => line_of(&a, m.last().unwrap()),
            None => line_of(&a, &a["choices"][0]),
        };
    }
    let end = get(&app, &format!("/api/explore?game={id}&turn=20&line={line}")).json();
    let back = get(&app, &format!("/api/explore?game={id}&turn=20&line={line}&at=1")).json();
    assert_eq!(back["line"], end["line"], "the whole line is kept while walking it");
    assert_eq!(back["at"], 1);
    assert_eq!(back["position"]["turn"], 21);
    let page = html(&app, &format!("/g/{id}/t/20/explore?line={line}&at=1"));
    assert!(page.contains("data-key=\"next\""), "→ steps forward along the line");
    assert!(page.contains("aria-current=\"step\""), "the step shown is marked");
    let past = get(&app, &format!("/api/explore?game={id}&turn=20&line={line}&at=99"));
    assert_eq!(past.status, 400);
    app.stop();
}

/// A step the rules refuse is named: its number, its turn, its player, the rule. A line that
/// is not notation is refused without being echoed.
#[test]
fn a_bad_line_is_refused_naming_the_step_the_turn_the_player_and_the_rule() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let occupied = get(&app, &format!("/api/explore?game={id}&turn=5&line=0,0,0"));
    assert_eq!(occupied.status, 400, "{}", occupied.body);
    assert_eq!(occupied.content_type, "application/problem+json");
    let detail = occupied.json()["detail"].as_str().unwrap().to_string();
    assert!(detail.contains("step 1") && detail.contains("turn 5"), "{detail}");
    let names = ["Ada", "Bruno", "Chloé"];
    assert!(names.iter().any(|n| detail.contains(n)), "names the player: {detail}");
    assert!(
        detail.contains("occupied") || detail.contains("already"),
        "names the rule: {detail}"
    );

    let script = get_html(&app, &format!("/g/{id}/t/5/explore?line=%3Cscript%3E"));
    assert_eq!(script.status, 400);
    assert!(!script.body.contains("<script>"), "never echoed");
    let unnamed = get(&app, &format!("/api/explore?game={id}&turn=5&line=0,-5,0~1,-5,0"));
    assert_eq!(unnamed.status, 400);
    for (path, status) in [
        (format!("/g/{id}/t/99/explore"), 404),
        (format!("/g/{id}/t/0/explore"), 404),
        ("/api/explore?game=zzz&turn=1".to_string(), 404),
        (format!("/api/explore?game={id}"), 400),
        (format!("/g/{id}/t/5/explore?square=a&rotation=45"), 400),
    ] {
        assert_eq!(get(&app, &path).status, status, "{path}");
    }
    app.stop();
}

fn engine_is_honest(e: &Value) {
    let best = e["best"].as_array().unwrap();
    assert!(!best.is_empty() && best.len() <= 3, "{e}");
    let values: Vec<f64> = best.iter().map(|b| b["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first: {values:?}");
    if e["samples"].as_u64().unwrap() > 0 {
        assert!(best.iter().all(|b| b["std_error"].as_f64().is_some_and(|s| s >= 0.0)));
        let c = &e["win_chance"];
        let (low, chance, high) = (
            c["low"].as_f64().unwrap(),
            c["chance"].as_f64().unwrap(),
            c["high"].as_f64().unwrap(),
        );
        assert!((0.0..=1.0).contains(&chance) && low <= chance && chance <= high, "{c}");
    }
}

/// The API answers the position, every legal move as a step after the line so far, and the
/// engine's best three, for all three games; the engine's answer is kept by position, so
/// asking again gives the very answer (the same thinking time).
#[test]
fn the_api_explores_every_game_and_keeps_the_engines_answer() {
    let app = spawn_app();
    for (file, turn) in [
        ("static/games/demo-second-edition.json", 30),
        ("static/games/demo-new-world.json", 12),
        ("static/games/demo-card-game.json", 20),
    ] {
        let id = upload_id(&app, &read(file));
        let path = format!("/api/explore?game={id}&turn={turn}");
        let a = get(&app, &path).json();
        assert_eq!(a["position"]["turn"], turn, "{file}");
        let moves = a["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{file}: {a}");
        let engine = &a["engine"];
        engine_is_honest(engine);
        let step = engine["best"][0]["step"].as_str().unwrap();
        assert!(
            moves.iter().any(|m| m["step"] == step),
            "the engine's move is a legal one"
        );
        assert_eq!(get(&app, &path).json()["engine"], *engine, "{file}: kept");
        let next = get(&app, &format!("{path}&line={}", line_of(&a, &moves[0]))).json();
        assert_eq!(next["at"], 1);
    }
    let openapi = get(&app, "/api/openapi.json").json();
    assert!(
        openapi["paths"]["/api/explore"]["get"].is_object(),
        "the API documents it"
    );
    app.stop();
}

/// A Card Game line goes to the end of the game, where final scoring is done.
#[test]
fn a_card_game_line_plays_to_the_end_with_final_scoring() {
    let app = spawn_app();
    let id = upload_id(&app, &read("static/games/demo-card-game.json"));
    let record = card_demo();
    let from = record.moves.len() as u32 - 8;
    let mut line = String::new();
    let mut last = Value::Null;
    for _ in 0..40 {
        last = get(&app, &format!("/api/explore?game={id}&turn={from}&line={line}")).json();
        match last["moves"].as_array().and_then(|m| m.first()) {
            Some(m) => line = line_of(&last, m),
            None => break,
        }
    }
    assert_eq!(last["position"]["over"], true, "{last}");
    assert!(last["engine"].is_null(), "no move is due at the end");
    let ended = explore_cards(&record, from, &line.parse().unwrap()).unwrap();
    let finals: Vec<i32> = Position::scores(&ended.game);
    assert_eq!(last["position"]["scores"], serde_json::json!(finals));
    let page = html(&app, &format!("/g/{id}/t/{from}/explore?line={line}"));
    assert!(page.contains("The game is over"));
    app.stop();
}

/// The engine thinks for a client only so often; its kept answers are free.
#[test]
fn the_engine_is_rate_limited_per_client() {
    let app = spawn_app_configured(|s| {
        s.limits = LimitSettings {
            analyses_per_minute: 1,
            ..LimitSettings::default()
        }
    });
    let id = upload_id(&app, &read("static/games/demo-card-game.json"));
    let statuses: Vec<u16> = (1..=14)
        .map(|turn| get(&app, &format!("/api/explore?game={id}&turn={turn}")).status)
        .collect();
    assert!(statuses[..12].iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(statuses[12], 429, "{statuses:?}");
    let moves_only = get(&app, &format!("/api/explore?game={id}&turn=20&engine=false"));
    assert_eq!(moves_only.status, 200, "the moves alone are not the engine's to limit");
    assert!(moves_only.json()["engine"].is_null() && !moves_only.json()["moves"].as_array().unwrap().is_empty());
    assert_eq!(
        get(&app, &format!("/api/explore?game={id}&turn=1")).status,
        200,
        "kept: free"
    );
    app.stop();
}

/// Clicks the first element `css` finds and waits for the address to change: false when there
/// is none, or nothing happens.
fn click_and_wait(browser: &Browser, css: &str) -> bool {
    let Some(element) = browser.find(css) else { return false };
    let was = browser.current_url();
    browser.click(&element);
    let moved = (0..100).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        browser.current_url() != was
    });
    wait_loaded(browser);
    moved
}

/// How a move was played by clicking.
#[derive(Debug, PartialEq)]
enum Clicked {
    /// A meeple's ring on the tile.
    Ring,
    /// "Play it", under the meeple steps.
    Form,
    Nothing,
}

/// Plays one move on the explore board by clicking: the first tile to choose, when the line
/// has left the game; then a marked square, and a meeple's ring on the tile (`on_board`) when
/// it has one, else "Play it".
fn click_a_tile_move(browser: &Browser, on_board: bool) -> Clicked {
    click_and_wait(browser, ".choices button");
    let Some(square) = browser.find("a.pick") else {
        return Clicked::Nothing;
    };
    browser.click(&square);
    let shown = browser.wait_for("return !document.getElementById('answer').hidden;");
    assert_eq!(shown, Value::Bool(true), "clicking a square shows the form");
    if on_board && browser.find(".meeple-spot").is_some() {
        let line = browser.eval(
            "return decodeURIComponent(document.querySelector('.meeple-spot').getAttribute('href').split('line=')[1]);",
        );
        let played = click_and_wait(browser, ".meeple-spot");
        let step = line.as_str().unwrap().rsplit('~').next().unwrap().to_string();
        let listed = browser.eval("return document.querySelector('ol.line li.current a').textContent;");
        assert!(played);
        assert!(
            listed.as_str().unwrap().contains("meeple"),
            "the ring plays {step} with its meeple: {listed}"
        );
        return Clicked::Ring;
    }
    match click_and_wait(browser, "#answer button[type=submit]") {
        true => Clicked::Form,
        false => Clicked::Nothing,
    }
}

fn wait_loaded(browser: &Browser) {
    browser.wait_for("return document.readyState === 'complete';");
}

/// In Chromium, five moves played by clicking make a line of five steps; the address alone
/// opens the same position; the engine's answer arrives in the background.
#[test]
fn a_browser_plays_a_tile_line_of_five_moves_by_clicking() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    browser.open(&app.url(&format!("/g/{id}/t/12/explore")));
    // The engine answers in the background, and its moves appear on the board as ghosts.
    let ghosts = browser.wait_for(
        "return document.querySelector('[data-engine] ol.best li') && document.querySelectorAll('[data-puzzle] .ghost').length;",
    );
    assert!(
        ghosts.as_u64().is_some_and(|n| (1..=3).contains(&n)),
        "ghosts: {ghosts}"
    );
    let mut ways = Vec::new();
    for i in 0..5 {
        wait_loaded(&browser);
        ways.push(click_a_tile_move(&browser, i % 2 == 1));
    }
    assert!(
        !ways.contains(&Clicked::Nothing),
        "every move could be played: {ways:?}"
    );
    assert!(
        ways.contains(&Clicked::Ring),
        "a meeple is put on the board itself: {ways:?}"
    );
    wait_loaded(&browser);
    // A tile chosen after the last move still counts no step: play on until five are listed.
    let steps = browser.eval("return document.querySelectorAll('ol.line li').length;");
    assert_eq!(steps, 5, "at {}", browser.current_url());
    let url = browser.current_url();
    let scores = browser.eval("return document.querySelector('.scoreboard tbody').textContent;");
    let engine = browser.wait_for("return document.querySelector('[data-engine] ol.best li') !== null || document.querySelector('.choices') !== null;");
    assert_eq!(
        engine,
        Value::Bool(true),
        "the engine answers, or a tile is to be chosen"
    );
    browser.open(&url);
    wait_loaded(&browser);
    assert_eq!(
        browser.eval("return document.querySelector('.scoreboard tbody').textContent;"),
        scores
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('ol.line li').length;"),
        5
    );
    // ← goes back a step along the line, keeping it.
    browser.press("\u{E012}");
    assert!(browser.wait_for_url_containing("at=4"), "at {}", browser.current_url());
    drop(browser);
    app.stop();
}

#[test]
fn a_browser_plays_new_world_and_card_game_lines() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let nw = upload_id(&app, &read("static/games/demo-new-world.json"));
    browser.open(&app.url(&format!("/g/{nw}/t/6/explore")));
    for _ in 0..2 {
        wait_loaded(&browser);
        assert_ne!(click_a_tile_move(&browser, true), Clicked::Nothing);
    }
    wait_loaded(&browser);
    assert_eq!(
        browser.eval("return document.querySelectorAll('ol.line li').length;"),
        2
    );

    let cards = upload_id(&app, &read("static/games/demo-card-game.json"));
    browser.open(&app.url(&format!("/g/{cards}/t/5/explore")));
    for i in 1..=3 {
        wait_loaded(&browser);
        assert!(click_and_wait(&browser, ".moves a"), "a legal action to click");
        assert_eq!(
            browser.eval("return document.querySelectorAll('ol.line li').length;"),
            i
        );
    }
    let url = browser.current_url();
    let table = browser.eval("return document.querySelector('[data-table] svg').outerHTML;");
    browser.open(&url);
    wait_loaded(&browser);
    assert_eq!(
        browser.eval("return document.querySelector('[data-table] svg').outerHTML;"),
        table,
        "the address is the position"
    );
    drop(browser);
    app.stop();
}

/// On a 390 px phone the explore board plays a move without the page scrolling sideways, and
/// R turns the tile.
#[test]
fn a_phone_plays_an_explore_move_without_sideways_scrolling() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    browser.resize(390, 800);
    browser.open(&app.url(&format!("/g/{id}/t/30/explore")));
    wait_loaded(&browser);
    let wide = || browser.eval("return document.documentElement.scrollWidth > window.innerWidth;");
    assert_eq!(wide(), Value::Bool(false), "the page fits the phone");
    let square = browser.find("a.pick").unwrap();
    browser.click(&square);
    browser.wait_for("return !document.getElementById('answer').hidden;");
    let rotation = "return document.querySelector('[data-rotation]').textContent;";
    let rotations =
        browser.eval("return JSON.parse(document.querySelector('a.pick.chosen').getAttribute('data-moves')).length;");
    let before = browser.eval(rotation);
    browser.press("r");
    if rotations.as_u64() > Some(1) {
        assert_ne!(browser.eval(rotation), before, "R turns the tile");
    }
    assert_eq!(wide(), Value::Bool(false), "the form fits the phone");
    assert!(click_and_wait(&browser, "#answer button[type=submit]"));
    assert_eq!(
        browser.eval("return document.querySelectorAll('ol.line li').length;"),
        1
    );
    assert_eq!(wide(), Value::Bool(false));
    drop(browser);
    app.stop();
}

/// The uploader comments on an explored position from the explore board itself (their
/// cookie); the comment shows there, for everyone, and on the turn's page with a link back. A
/// visitor gets no form, and the position before any move (the turn page's own) takes none.
#[test]
fn the_owner_comments_on_an_explored_position() {
    let app = spawn_app();
    let up = post_form(&app, "text", None, small_game(["Kai", "Lee"]).as_bytes());
    assert_eq!(up.status, 303, "{}", up.body);
    let cookie = up.header("set-cookie").split(';').next().unwrap().to_string();
    let id = up.location.unwrap().trim_start_matches("/g/").to_string();
    let answer = get(&app, &format!("/api/explore?game={id}&turn=2")).json();
    let line = line_of(&answer, &answer["moves"][0]);
    let page = format!("/g/{id}/t/2/explore?line={line}");
    let as_owner = |path: &str| request(&app, "GET", path, &[("Cookie", &cookie), ("Accept", "text/html")], b"");
    assert!(
        as_owner(&page).body.contains("class=\"comment-form\""),
        "the owner may comment"
    );
    assert!(
        !get_html(&app, &page).body.contains("comment-form"),
        "a visitor may not"
    );
    let start = format!("/g/{id}/t/2/explore");
    assert!(
        !as_owner(&start).body.contains("comment-form"),
        "no line: the turn page's own"
    );

    let body = format!(
        "line={}&back=explore&text=Better+%3Cthan%3E+the+game",
        line.replace(',', "%2C")
    );
    let headers = [
        ("Cookie", cookie.as_str()),
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Sec-Fetch-Site", "same-origin"),
        ("Accept", "text/html"),
    ];
    let written = request(
        &app,
        "POST",
        &format!("/g/{id}/t/2/annotation"),
        &headers,
        body.as_bytes(),
    );
    assert_eq!(written.status, 303, "{}", written.body);
    let back = written.location.unwrap();
    assert!(
        back.contains("/t/2/explore?line=") && back.ends_with("#comments"),
        "{back}"
    );
    let shown = get_html(&app, &page).body;
    assert!(
        shown.contains("Better &lt;than&gt; the game") || shown.contains("Better &#60;than&#62; the game"),
        "escaped"
    );
    let turn = get_html(&app, &format!("/g/{id}/t/2")).body;
    assert!(turn.contains("On a line explored from here"), "the turn page lists it");
    app.stop();
}

/// A turn's alternative is shown as the game would have stood had it been played: the
/// alternative's page and pictures play it from the game's kept position (`turn_instead`), and
/// that is what replaying the record cut there with the move gives, events, scores and board
/// alike. The BGA log's second turn follows a discard, which belongs to the turn.
#[test]
fn a_turn_played_otherwise_is_what_replaying_the_record_so_cut_gives() {
    use carcassonne_replay::replay::{Replays, turn_instead};
    let seen = |x: &dyn std::fmt::Debug| format!("{x:?}");
    let mut compared = 0;
    for path in [
        "static/games/demo-second-edition.json",
        "tests/fixtures/bga/discard.json",
    ] {
        let record = tile_demo(path);
        let (full, positions) = record.replay_keeping().unwrap();
        for n in [1, 2, full.turns.len() as u32] {
            let start = full.after(&positions, n - 1).unwrap();
            let mut on: Game = positions.before(n).unwrap().clone();
            on.draw(full.turns[n as usize - 1].mv.tile).unwrap();
            let mut moves = Vec::new();
            Position::legal_moves(&on, &mut moves);
            for played in moves.iter().step_by(7) {
                let Played::Place(mv) = played else { continue };
                let written = recorded(&on, mv);
                let RecordedMove::Place {
                    tile,
                    placement,
                    action,
                    ..
                } = written
                else {
                    unreachable!()
                };
                let step = TileStep {
                    tile: Some(tile),
                    placement,
                    action,
                };
                let built = turn_instead(&record, start, n, &step).unwrap();
                let mut cut = record.clone();
                cut.moves.truncate(record.placing(n).unwrap());
                cut.moves.push(written);
                let replayed = replay::replay_upto(&cut, None, Some(n)).unwrap();
                assert_eq!(seen(&built.turns), seen(&replayed.turns), "{path}, turn {n}");
                assert_eq!(built.final_scores, replayed.final_scores);
                assert_eq!(built.game.board().tiles(), replayed.game.board().tiles());
                compared += 1;
            }
        }
    }
    assert!(compared >= 10, "{compared} moves compared");
}

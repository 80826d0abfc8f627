//! Puzzles from an analysed game: the list, a puzzle's page that gives nothing away, the
//! answers (the solution, another placement, an impossible move, a malformed answer) and the
//! answer on request, served by the real app; and in Chromium a puzzle solved by clicking.
//! Which turns are puzzles, and how an answer is judged, is `analysis::puzzles`' rule,
//! unit-tested beside it.
//!
//! In detail:
//! - a game's puzzles before and after its analysis: the list is exactly the rule's pick, a
//!   puzzle's page shows the board before the move with a link on every square the tile fits,
//!   the tile, the scores and the tiles left but no values, and the solution, another placement
//!   (its rank and points below, not the answer) and an impossible move are each answered
//! - the answer shows on request
//! - a square's meeple steps come in board order, no meeple first and checked, whatever the
//!   analysis ranked first
//! - malformed answers are 400 and not echoed
//! - a turn that is no puzzle is 404
//! - a player's mistakes are reviewed one by one, from links on the analysis page, and each
//!   turn's best move links to its page on the board
//! - in Chromium a puzzle is solved by clicking, without page loads while choosing (the rule
//!   and the judging: unit tests in `src/analysis/puzzles.rs`)

use crate::common;

use carcassonne_replay::analysis::report::{ActionReport, StoredAnalysis, TurnReport};
use carcassonne_replay::analysis::{self, AnalysisOptions, puzzles};
use carcassonne_replay::record;
use carcassonne_replay::store::GameId;
use common::app::*;
use common::browser::Browser;
use std::time::Duration;

/// The moves of `common::STEAL` as a whole record.
fn steal() -> String {
    steal_by(["Ann", "Bob"])
}

/// The same moves by other players: another game, whose analysis is the same.
fn steal_by([a, b]: [&str; 2]) -> String {
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "{a}"}}, {{"name": "{b}"}}],
            "rules": {{"preset": "second-edition"}}, "moves": [{}]}}"#,
        common::STEAL
    )
}

/// An app whose analyses are left to other workers: the tests store their own.
fn analysis_free_app() -> TestApp {
    spawn_app_configured(|s| s.analysis_workers = 0)
}

/// A quick analysis of the game, with turn 7's placement at (0,2) made clearly best (10
/// points ahead, errors of half a point): the analysis a long run would give, stored as the
/// service stores a finished one.
fn store_analysis(app: &TestApp, id: &str) -> StoredAnalysis {
    store_analysis_with(app, id, |_| {})
}

/// [`store_analysis`], with turn 7 changed by `tweak` before it is stored.
fn store_analysis_with(app: &TestApp, id: &str, tweak: impl Fn(&mut TurnReport)) -> StoredAnalysis {
    let record = record::parse(steal().as_bytes()).unwrap().0;
    let quick = AnalysisOptions {
        playouts_per_alternative: Some(4),
        greedy_share: 0.0,
        threads: 2,
        ..AnalysisOptions::default()
    };
    let mut stored =
        StoredAnalysis::of(&analysis::analyse_game(&record, &quick, &carcassonne_replay::analysis::quiet).unwrap());
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
    tweak(turn);
    let store = app.store();
    let id: GameId = id.parse().unwrap();
    store.queue_analysis(&id, &ANY_PLACE, analysis::VERSION).unwrap();
    // The app runs no worker of its own (`analysis_free_app`): this claim is the only one.
    let claim = store.claim_analysis("test", Duration::from_secs(60)).unwrap().unwrap();
    let json = serde_json::to_string(&stored).unwrap();
    assert!(store.finish_analysis(&claim, Ok(&json), analysis::VERSION).unwrap());
    stored
}

/// A player's page links the puzzles of their own turns, missed or found. The analysis here is
/// stored without its seats' rows, as those finished before the rows kept puzzles: the next
/// start fills them.
#[test]
fn a_players_page_links_the_puzzles_of_their_own_turns() {
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    let stored = store_analysis(&app, &id);
    let turn7 = stored.turn(7).unwrap();
    assert_eq!(turn7.player, 0, "Ann's turn");
    let restarted = spawn_app_at(app.db.clone(), None);
    let mut ann = serde_json::Value::Null;
    for _ in 0..600 {
        ann = get(&restarted, "/api/players/ann").json();
        if ann["puzzle_count"] != 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let own: Vec<u32> = (puzzles::pick(&stored.turns).iter())
        .filter(|p| p.player == 0)
        .map(|p| p.turn)
        .collect();
    assert_eq!(ann["puzzle_count"].as_u64(), Some(own.len() as u64), "{ann}");
    // Ann played R elsewhere: the puzzle of turn 7 is missed, and listed first.
    let first = &ann["puzzles"][0];
    assert_eq!(
        (first["turn"].as_u64(), &first["found"]),
        (Some(7), &serde_json::json!(false)),
        "{ann}"
    );
    assert_eq!(first["url"], format!("/g/{id}/puzzle/7"));
    let page = get_html(&restarted, "/p/Ann").body;
    assert!(page.contains(&format!("href=\"/g/{id}/puzzle/7\"")), "{page}");
    let bob = get(&restarted, "/api/players/bob").json();
    assert!(
        (bob["puzzles"].as_array().unwrap().iter()).all(|z| z["turn"].as_u64().unwrap() % 2 == 0),
        "Bob's puzzles are on his turns: {bob}"
    );
}

#[test]
fn an_analysed_game_serves_its_puzzles_and_judges_answers() {
    let app = analysis_free_app();
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

    // The puzzle shows the position before the move, the tile, the scores and the tiles left,
    // and gives nothing away: each square the tile fits is a link on the board.
    let page = get(&app, &format!("/g/{id}/puzzle/7"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("class=\"board-svg\""),
        "the board before turn 7, inline"
    );
    assert!(page.body.contains(&format!("/g/{id}/tiles/R.svg")));
    let t7 = stored.turn(7).unwrap();
    let squares = page.body.matches(" data-moves=").count();
    let mut expected_squares: Vec<[i32; 2]> = t7.alternatives.iter().map(|a| a.position).collect();
    expected_squares.sort();
    expected_squares.dedup();
    assert_eq!(squares, expected_squares.len(), "a link on every square the tile fits");
    assert!(
        page.body
            .contains(&format!("href=\"/g/{id}/puzzle/7?square=0,2&amp;rotation=0\""))
    );
    assert!(page.body.contains("class=\"scoreboard\"") && page.body.contains("Tiles left"));
    assert!(!page.body.contains("The best move") && !page.body.contains("points below"));
    assert!(!page.body.contains("/t/7/alternatives"), "no link to the answers");

    // Choosing a square shows the tile there and its meeple steps, still without a verdict.
    let chosen = get(&app, &format!("/g/{id}/puzzle/7?square=0,2"));
    assert!(chosen.body.contains("class=\"pick chosen\""), "{}", chosen.body);
    assert!(chosen.body.contains("name=\"meeple\" value=\"none\""));
    assert!(!chosen.body.contains("data-verdict"));

    let solved = get(&app, &format!("/g/{id}/puzzle/7?square=0,2&rotation=0&meeple=none"));
    assert!(solved.body.contains("Solved"), "{}", solved.body);
    assert!(!solved.body.contains("pick-figure"), "no meeple, none drawn");
    // An answer with a meeple draws it on the tile.
    let deploy = chosen
        .body
        .split("name=\"meeple\" value=\"")
        .skip(1)
        .map(|v| &v[..v.find('"').unwrap()])
        .find(|v| *v != "none")
        .expect("a meeple step at (0,2)");
    let with_meeple = get(&app, &format!("/g/{id}/puzzle/7?square=0,2&rotation=0&meeple={deploy}"));
    assert!(with_meeple.body.contains("Solved") && with_meeple.body.contains("class=\"pick-figure\""));
    let other = puzzles::placements(t7)
        .into_iter()
        .find(|p| p.position != [0, 2])
        .expect("another placement");
    let [x, y] = other.position;
    let worse = get(
        &app,
        &format!(
            "/g/{id}/puzzle/7?square={x},{y}&rotation={}&meeple=none",
            other.rotation
        ),
    );
    let said = &worse.body[worse.body.find("data-verdict").expect("a verdict")..];
    let said = &said[..said.find("</p>").unwrap()];
    assert!(said.contains("points below the best"), "{said}");
    assert!(
        !said.contains("(0,2)") && !worse.body.contains("The best move"),
        "a wrong try does not give the answer away: {said}"
    );
    assert!(!worse.body.contains("class=\"pick chosen\" data-spot=\"0,2\""));
    assert!(worse.body.contains("?reveal=1"), "the reader may ask for it");
    let revealed = get(&app, &format!("/g/{id}/puzzle/7?reveal=1"));
    assert_eq!(
        revealed.body.contains("pick-figure"),
        !revealed.body.contains("turned 0°, no meeple"),
        "the solution's meeple is drawn"
    );
    assert!(
        revealed.body.contains("The best move: the tile at (0,2) turned 0°"),
        "{}",
        revealed.body
    );
    let nowhere = get(&app, &format!("/g/{id}/puzzle/7?square=40,40&rotation=90&meeple=none"));
    assert!(nowhere.body.contains("not possible"), "{}", nowhere.body);

    // A malformed answer is refused, and never echoed.
    for bad in [
        "square=abc&rotation=45",
        "square=0,2&rotation=45",
        "square=0,2&rotation=0&meeple=%3Cscript%3E",
    ] {
        let answer = get(&app, &format!("/g/{id}/puzzle/7?{bad}"));
        assert_eq!(answer.status, 400, "{bad}");
        assert!(answer.content_type.starts_with("application/problem+json"), "{bad}");
        assert!(
            !answer.body.contains("abc") && !answer.body.contains("script") && !answer.body.contains("45"),
            "{}",
            answer.body
        );
    }
    let page = get_html(&app, &format!("/g/{id}/puzzle/7?square=abc&rotation=45"));
    assert_eq!(page.status, 400);
    assert!(page.content_type.starts_with("text/html"), "browsers get a page");

    let not_one = (1..=7)
        .find(|n| !expected.contains(n))
        .expect("a turn that is no puzzle");
    let missing = get(&app, &format!("/g/{id}/puzzle/{not_one}"));
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("not a puzzle"), "{}", missing.body);
    app.stop();
}

/// Turn 7 as a clear mistake: its alternatives in value order, and the move played (R
/// elsewhere than (0,2)) losing what it is below the best.
fn a_clear_mistake(t: &mut TurnReport) {
    let played = t.played.map(|i| t.alternatives[i].clone()).expect("a move played");
    t.alternatives.sort_by(|a, b| b.value.total_cmp(&a.value));
    t.played = t.alternatives.iter().position(|a| *a == played);
    t.points_lost = Some(t.alternatives[0].value - played.value);
}

/// The analysis page links each player's mistakes and blunders to review, and each turn's best
/// move to its own page; a mistake's page asks for a better move than the one played, judges
/// answers against the best and the move played without giving the best away, shows it on
/// request, and leads to the same player's next mistake.
#[test]
fn a_players_mistakes_are_reviewed_one_by_one_and_best_moves_shown_on_the_board() {
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    assert_eq!(get(&app, &format!("/g/{id}/mistake/7")).status, 404, "no analysis yet");
    let stored = store_analysis_with(&app, &id, a_clear_mistake);
    let anns: Vec<u32> = puzzles::mistakes(&stored, &stored.chances(None), 0)
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert!(anns.contains(&7), "turn 7 lost over 10 points: {anns:?}");
    assert!(
        (puzzles::mistakes(&stored, &stored.chances(None), 1).iter()).all(|(n, _)| n % 2 == 0),
        "Bob's are on his turns"
    );

    let analysis = get_html(&app, &format!("/g/{id}/analysis")).body;
    assert!(
        analysis.contains(&format!("href=\"/g/{id}/mistake/{}\">review them", anns[0])),
        "Ann's first mistake: {analysis}"
    );
    assert!(analysis.contains(&format!("href=\"/g/{id}/mistake/7\" title=\"Find a better move\"")));
    assert!(
        analysis.contains(&format!("href=\"/g/{id}/t/7/alt/best\"")),
        "the best move on the board"
    );
    let best = get(&app, &format!("/g/{id}/t/7/alt/best"));
    assert_eq!(best.status, 302);
    let alt = get_html(&app, best.location.as_deref().expect("its page")).body;
    assert!(alt.contains("at (0,2) rotated 0°"), "{alt}");

    let page = get(&app, &format!("/g/{id}/mistake/7"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Find a better move: turn 7"), "{}", page.body);
    assert!(page.body.contains("points below the best move. What was better?"));
    assert!(!page.body.contains("The best move") && !page.body.contains("/t/7/alternatives"));
    let found = get(&app, &format!("/g/{id}/mistake/7?square=0,2&rotation=0&meeple=none"));
    assert!(
        found.body.contains("Found: that move is as good as the best"),
        "{}",
        found.body
    );
    // The worst move without a meeple, judged against the move played.
    let t7 = stored.turn(7).unwrap();
    let played = t7.alternatives[t7.played.unwrap()].value;
    let worst = (t7.alternatives.iter().rev())
        .find(|a| a.action == ActionReport::Pass)
        .expect("a move without a meeple");
    let [x, y] = worst.position;
    let again = get(
        &app,
        &format!(
            "/g/{id}/mistake/7?square={x},{y}&rotation={}&meeple=none",
            worst.rotation
        ),
    );
    let said = if worst.value > played {
        "Better than the move played, but still"
    } else {
        "No better than the move played"
    };
    let verdict = &again.body[again.body.find("data-verdict").expect("a verdict")..];
    let verdict = &verdict[..verdict.find("</p>").unwrap()];
    assert!(verdict.contains(said), "{verdict}");
    assert!(
        !verdict.contains("(0,2)") && !again.body.contains("The best move"),
        "a wrong try gives nothing away: {verdict}"
    );
    let revealed = get(&app, &format!("/g/{id}/mistake/7?reveal=1")).body;
    assert!(
        revealed.contains("The best move: the tile at (0,2) turned 0°"),
        "{revealed}"
    );
    match anns.iter().find(|&&n| n > 7) {
        Some(next) => assert!(revealed.contains(&format!("href=\"/g/{id}/mistake/{next}\">next mistake"))),
        None => assert!(!revealed.contains("next mistake")),
    }
    let not_one = (1..=7)
        .find(|n| !anns.contains(n) && n % 2 == 1)
        .expect("a turn of Ann's that lost little");
    assert_eq!(get(&app, &format!("/g/{id}/mistake/{not_one}")).status, 404);
    app.stop();
}

/// The meeple steps a puzzle offers on square (0,2) unturned, as (token, checked), in the
/// form's order; and the same square's steps as the page's script gets them.
fn meeple_steps(app: &TestApp, id: &str) -> (Vec<(String, bool)>, Vec<String>) {
    let page = get(app, &format!("/g/{id}/puzzle/7?square=0,2&rotation=0")).body;
    let form = (page.split("name=\"meeple\" value=\"").skip(1))
        .map(|v| {
            let tag = &v[..v.find('>').unwrap()];
            (v[..v.find('"').unwrap()].to_string(), tag.contains("checked"))
        })
        .collect();
    let data = page
        .split("data-spot=\"0,2\" data-moves='")
        .nth(1)
        .expect("the square's moves");
    let data = data[..data.find('\'').unwrap()].replace("&apos;", "'");
    let moves: serde_json::Value = serde_json::from_str(&data).unwrap();
    let unturned = (moves.as_array().unwrap().iter())
        .find(|m| m[0] == 0)
        .expect("the square's unturned steps");
    let script = (unturned[1].as_array().unwrap().iter())
        .map(|step| step[0].as_str().unwrap().to_string())
        .collect();
    (form, script)
}

/// A puzzle's meeple steps give the answer away neither by their order nor by the one checked:
/// two games with the same position, whose analyses rank the steps on the solution's square
/// the other way round (and list every move the other way round), offer them in the same
/// board order, no meeple first and checked.
#[test]
fn a_puzzles_meeple_steps_come_in_board_order_whatever_the_ranking() {
    let app = analysis_free_app();
    let rank_steps = |reverse: bool| {
        move |t: &mut TurnReport| {
            if reverse {
                t.alternatives.reverse();
                t.played = t.played.map(|i| t.alternatives.len() - 1 - i);
            }
            let top = t.alternatives.iter().map(|a| a.value).fold(f64::MIN, f64::max);
            let on_square = (t.alternatives.iter_mut()).filter(|a| a.position == [0, 2] && a.rotation == 0);
            // Clearly best, each step a point above the one listed before it: the last is best.
            for (i, a) in on_square.enumerate() {
                a.value = top + 10.0 + i as f64;
            }
        }
    };
    let ranked = upload_id(&app, steal().as_bytes());
    let ranked_stored = store_analysis_with(&app, &ranked, rank_steps(false));
    let other = upload_id(&app, steal_by(["Cid", "Dee"]).as_bytes());
    let other_stored = store_analysis_with(&app, &other, rank_steps(true));
    let solution = |s: &StoredAnalysis| puzzles::puzzle(s.turn(7).unwrap()).expect("turn 7 is a puzzle");
    let (a, b) = (solution(&ranked_stored), solution(&other_stored));
    assert_eq!((a.position, a.rotation), ([0, 2], 0));
    assert_eq!((b.position, b.rotation), ([0, 2], 0));
    assert_ne!(a.action, b.action, "the two analyses have other best steps");

    let (form, script) = meeple_steps(&app, &ranked);
    assert!(form.len() > 1, "a choice of steps: {form:?}");
    assert_eq!(form[0], ("none".to_string(), true), "no meeple, checked: {form:?}");
    assert_eq!(form.iter().filter(|(_, checked)| *checked).count(), 1);
    let tokens: Vec<String> = form.iter().map(|(t, _)| t.clone()).collect();
    assert_eq!(script, tokens, "the script offers them in the same order");
    assert_eq!(
        meeple_steps(&app, &other),
        (form, script),
        "the same order and default whatever the ranking"
    );
    app.stop();
}

/// With the script, a reader solves a puzzle by clicking: a square puts the tile there and
/// the same square turns it, without loading a page; "Place it" answers. A wrong try first is
/// told to try again, and the board still takes another answer.
#[test]
fn in_a_browser_a_puzzle_is_solved_by_clicking() {
    let Some(browser) = Browser::start() else { return };
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    store_analysis(&app, &id);
    browser.resize(1300, 1000);
    browser.open(&app.url(&format!("/g/{id}/puzzle/7")));
    let rotation = "return document.querySelector('#answer [name=rotation]').value;";

    // A wrong square: the tile goes there at once, and the answer says to try again.
    browser.eval("window.samePage = true;");
    let wrong = browser
        .find(".board-svg a.pick:not([data-spot='0,2'])")
        .expect("another square");
    browser.click(&wrong);
    let shown = browser.wait_for(
        "const t = document.querySelector('.board-svg .pick-tile'); \
         return !document.getElementById('answer').hidden && !t.hasAttribute('display') ? t.getAttribute('transform') : null;",
    );
    assert!(shown.is_string(), "the tile stands on the square");
    assert_eq!(browser.eval("return window.samePage === true;"), true, "no page load");
    let steps =
        browser.eval("return [...document.querySelectorAll('#answer [name=meeple]')].map(i => [i.value, i.checked]);");
    assert_eq!(
        steps[0],
        serde_json::json!(["none", true]),
        "no meeple first, checked: {steps}"
    );
    browser.click(&browser.find("#answer button").unwrap());
    assert!(browser.wait_for_url_containing("meeple="), "{}", browser.current_url());
    let said = browser.wait_for("const v = document.querySelector('[data-verdict]'); return v ? v.textContent : null;");
    assert!(said.as_str().unwrap().contains("Try again"), "{said}");

    // The right square, turned until it is unturned, then placed.
    browser.click(&browser.find(".board-svg a.pick[data-spot='0,2']").unwrap());
    for _ in 0..4 {
        if browser.eval(rotation) == "0" {
            break;
        }
        browser.click(&browser.find(".board-svg a.pick[data-spot='0,2']").unwrap());
    }
    assert_eq!(
        browser.eval(rotation),
        "0",
        "the square turns the tile through its rotations"
    );
    browser.click(&browser.find("#answer button").unwrap());
    let solved =
        browser.wait_for("const v = document.querySelector('.verdict.solved'); return v ? v.textContent : null;");
    assert!(solved.as_str().unwrap_or_default().contains("Solved"), "{solved}");
    assert!(
        browser.current_url().contains("square=0%2C2"),
        "{}",
        browser.current_url()
    );

    // On a phone the puzzle fits the width, as every page does.
    browser.resize(360, 800);
    browser.open(&app.url(&format!("/g/{id}/puzzle/7?square=0,2")));
    let sizes = browser.eval("return [document.documentElement.scrollWidth, window.innerWidth];");
    assert!(sizes[0].as_u64() <= sizes[1].as_u64(), "no sideways scroll: {sizes}");
    drop(browser);
    app.stop();
}

/// On a 360-pixel phone the squares a tile is put on are finger-sized, 44 CSS px at least, and
/// so are the meeple steps and the buttons under the board, however big the board: a puzzle's,
/// and the explore board's at turn 60 of the demo, which the screen's width would shrink to
/// squares of about 20 px. The board pans inside its frame, which opens on the tile's square,
/// and the page never scrolls sideways.
#[test]
fn on_a_360_pixel_phone_the_squares_to_put_a_tile_on_are_finger_sized() {
    let Some(browser) = Browser::start() else { return };
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    store_analysis(&app, &id);
    let demo = upload_id(&app, &common::app::demo());
    browser.resize(360, 800);
    for page in [format!("/g/{id}/puzzle/7"), format!("/g/{demo}/t/60/explore")] {
        // The tile on a square, as a reader without the script puts it there.
        browser.open(&app.url(&page));
        let square = browser.eval("return document.querySelector('.board-svg a.pick').getAttribute('href');");
        browser.open(&app.url(square.as_str().expect("a square to put the tile on")));
        let sizes = browser.eval(
            r#"const least = (css, side) => Math.min(...[...document.querySelectorAll(css)].map(e => e.getBoundingClientRect()[side]));
               const frame = document.querySelector('.board-frame').getBoundingClientRect();
               const tile = document.querySelector('.board-svg .pick.chosen rect').getBoundingClientRect();
               const shown = tile.left >= frame.left && tile.right <= frame.right && tile.top >= frame.top && tile.bottom <= frame.bottom;
               return [least('.board-svg a.pick rect', 'width'), least('#answer .meeples label', 'height'),
                       least('#answer button, #answer [data-turn]', 'height'), shown,
                       document.documentElement.scrollWidth, window.innerWidth];"#,
        );
        let n = |i: usize| sizes[i].as_f64().unwrap();
        assert!(n(0) >= 44.0, "{page}: squares of {} px", n(0));
        assert!(n(1) >= 44.0, "{page}: meeple steps {} px high", n(1));
        assert!(n(2) >= 44.0, "{page}: buttons {} px high", n(2));
        assert_eq!(sizes[3], true, "{page}: the frame opens on the tile's square: {sizes}");
        assert!(n(4) <= n(5), "{page}: the page scrolls sideways: {sizes}");
    }
    drop(browser);
    app.stop();
}

/// On a 360-pixel phone the analysis shows every turn's best move and class in view: a turn is
/// a card whose cells all lie within the screen, and the page never scrolls sideways.
#[test]
fn on_a_360_pixel_phone_the_analysis_shows_every_turns_best_move_and_class() {
    let Some(browser) = Browser::start() else { return };
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    let stored = store_analysis(&app, &id);
    browser.resize(360, 800);
    browser.open(&app.url(&format!("/g/{id}/analysis")));
    browser.wait_for("return document.readyState === 'complete';");
    let measure = || {
        browser.eval(
            r#"const rows = [...document.querySelectorAll('table.turns tbody tr')];
           const cells = rows.flatMap(tr => [...tr.querySelectorAll('td.best, td.move-class')]);
           const out = cells.filter(td => {
             const r = td.getBoundingClientRect();
             return getComputedStyle(td).display === 'none' || r.left < 0 || r.right > window.innerWidth;
           }).map(td => td.outerHTML);
           const best = [...document.querySelectorAll('td.best')].every(td => td.getBoundingClientRect().width > 100);
           return [rows.length, cells.length, out, best, document.documentElement.scrollWidth, window.innerWidth];"#,
        )
    };
    let turns = stored.turns.len() as u64;
    // Measured again for a while: under a whole suite's load the page was once measured
    // before its layout settled.
    let settled = |seen: &serde_json::Value| {
        seen[1] == 2 * turns
            && seen[2] == serde_json::json!([])
            && seen[3] == true
            && seen[4].as_u64() <= seen[5].as_u64()
    };
    let mut seen = measure();
    for _ in 0..30 {
        if settled(&seen) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        seen = measure();
    }
    assert_eq!(seen[0], turns, "a row per turn: {seen}");
    assert_eq!(seen[1], 2 * turns, "a best move and a class each: {seen}");
    assert_eq!(seen[2], serde_json::json!([]), "cells off the screen");
    assert_eq!(seen[3], true, "the best moves have room to read: {seen}");
    assert!(
        seen[4].as_u64() <= seen[5].as_u64(),
        "the page scrolls sideways: {seen}"
    );
    drop(browser);
    app.stop();
}

/// With a mouse the hints say click and point at, and offer the keys (R turns the tile, ?
/// opens the keys' help); on a touch screen they say tap, and name no key.
#[test]
fn on_a_touch_screen_the_hints_say_tap_and_name_no_keys() {
    let Some(browser) = Browser::start() else { return };
    let app = analysis_free_app();
    let id = upload_id(&app, steal().as_bytes());
    store_analysis(&app, &id);
    let pages = [
        format!("/g/{id}/t/7"),
        format!("/g/{id}/t/7/explore"),
        format!("/g/{id}/puzzle/7"),
        format!("/g/{id}/analysis"),
    ];
    let text = |page: &str| {
        browser.open(&app.url(page));
        let text = browser.eval("return document.body.innerText;");
        text.as_str().unwrap().to_string()
    };
    let help = "const b = document.querySelector('[data-help]'); return getComputedStyle(b).display;";
    browser.resize(1300, 1000);
    let pointed: Vec<String> = pages.iter().map(|p| text(p)).collect();
    assert!(
        pointed[0].contains("Point at") && pointed[1].contains("press R"),
        "{pointed:#?}"
    );
    assert!(pointed.iter().all(|t| t.contains("lick")), "{pointed:#?}");
    browser.open(&app.url(&pages[0]));
    assert_ne!(browser.eval(help), "none", "the keys' help");

    browser.touch_screen();
    browser.resize(360, 800);
    for page in &pages {
        let said = text(page);
        assert!(said.contains("Tap"), "{page}: {said}");
        for word in ["Click", "click", "Point at", "point at", "press R", "← and →"] {
            assert!(!said.contains(word), "{page}: {word:?} in {said}");
        }
    }
    browser.open(&app.url(&pages[0]));
    assert_eq!(browser.eval(help), "none", "no keys' help on a touch screen");
    drop(browser);
    app.stop();
}

//! New World as its readers meet it: pages, pictures and the GIF in the game's own words and
//! shapes (settlers by their roles, towns, trails, plains and farms, the coast, the surveyors),
//! and a notice on every page that our sample tiles are not the printed ones.
//!
//! In detail:
//! - New World as a reader meets it: example B2's last turn in words (settlers by role, the
//!   surveyors moving west and the settlers they leave behind), notes that say settlers and
//!   leave crossings out, an alternative that explains the settlers it would send home, the
//!   sample-tiles notice on every page of a game and none on the tile game's, labelled
//!   surveyors, the GIF's coast and surveyors, the embed's scores inside a 640×720 window
//!   (headless Chromium), 2 to 5 players

use crate::common;

use carcassonne_replay::engine::COAST_X;
use carcassonne_replay::engine::{Pos, Preset};
use carcassonne_replay::record::{self, GameRecord, RulesSpec};
use carcassonne_replay::render::{self, ImageFormat, Picture, RenderOptions, palette};
use carcassonne_replay::replay;
use common::app::{TestApp, get, get_html, post, spawn_app, upload_id};
use common::browser::Browser;
use serde_json::Value;
use std::path::Path;

fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The record of the rulebook's example B2, rebuilt in the first column (see its fixture).
fn example_b2() -> Vec<u8> {
    let fixture: Value =
        serde_json::from_slice(&repo_file("tests/fixtures/rules/nw_surveyors_example_b2.json")).unwrap();
    serde_json::to_vec(&fixture["record"]).unwrap()
}

fn demo() -> Vec<u8> {
    repo_file("static/games/demo-new-world.json")
}

fn parse(bytes: &[u8]) -> GameRecord {
    record::parse(bytes).unwrap().0
}

/// A page's text as a reader sees it: no markup, no inline pictures, no script, and every run
/// of white space one space.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let skipped = ["<svg", "<script", "<style"]
            .into_iter()
            .find(|tag| rest.starts_with(tag));
        let end = match skipped {
            Some(tag) => rest.find(&format!("</{}>", &tag[1..])).map(|i| i + tag.len() + 2),
            None => rest.find('>').map(|i| i + 1),
        };
        rest = &rest[end.unwrap_or(rest.len())..];
        out.push(' ');
    }
    out.push_str(rest);
    let out = out.replace("&#x27;", "'").replace("&#39;", "'");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Example B2's last turn in words: the farm, the town, the surveyors moving west and the
/// settlers they leave behind, every settler named for what it is.
#[test]
fn a_new_world_turn_speaks_new_world() {
    let app = spawn_app();
    let id = upload_id(&app, &example_b2());
    let page = get_html(&app, &format!("/g/{id}/t/15"));
    assert_eq!(page.status, 200);
    let text = visible_text(&page.body);
    for said in [
        "Blue puts a shopkeeper in the town (W)",
        "Blue scores 17: farm and its neighbours: 9 tiles × 1 + 2 surveyors × 4 (completed)",
        "Blue's farmer returns to supply",
        "A surveyor moves west from column 0 to column -1",
        "Blue's shopkeeper returns to supply",
        "A surveyor moves west from column 0 to column -1; Green's robber and Red's shopkeeper, east of the surveyors, go home",
        "a town, trail, plains or farm to see who holds it",
        "Settlers",
    ] {
        assert!(text.contains(said), "{said:?} missing from: {text}");
    }
    for word in ["meeple", "Meeple", "follower", "cloister"] {
        assert!(!text.contains(word), "{word:?} on a New World page: {text}");
    }
    // The notes of the board's features name settlers too, and leave the crossings out. A
    // feature nobody held paid nobody.
    assert!(
        page.body
            .contains("Farm of 9 tiles No settlers Completed, worth 9 points: nobody held it")
    );
    let before = get_html(&app, &format!("/g/{id}/t/14")).body;
    assert!(
        before.contains("Town of 1 tile Settlers: Red 1. Red holds it"),
        "{before}"
    );
    assert!(before.contains("Farm of 8 tiles Settlers: Blue 1. Blue holds it Worth 8 now, 9 if completed"));
    for page in [&page.body, &before] {
        assert!(!page.contains("Meeples:") && !page.contains("No meeples") && !page.contains("Crossing of"));
    }
    app.stop();
}

/// What a reader points at: the alternatives table and an alternative's page say settler, and
/// when the surveyors would send settlers home, the page says whose, since they no longer
/// count in "if it ended now".
#[test]
fn an_alternative_explains_the_settlers_the_surveyors_would_send_home() {
    let app = spawn_app();
    let id = upload_id(&app, &example_b2());
    let list = get_html(&app, &format!("/g/{id}/t/15/alternatives")).body;
    assert!(list.contains("<th>Settler</th>") && !list.contains("<th>Meeple</th>"));
    assert!(list.contains("shopkeeper in the town (W)") && list.contains("no settler"));
    let played = &list[list.find("class=\"played\"").expect("the move played is listed")..];
    let at = played.find("/alt/").unwrap() + "/alt/".len();
    let k: String = played[at..].chars().take_while(char::is_ascii_digit).collect();
    let page = visible_text(&get_html(&app, &format!("/g/{id}/t/15/alt/{k}")).body);
    assert!(page.contains("Change if the game ended now"), "{page}");
    assert!(
        page.contains(
            "Left behind A surveyor moves west from column 0 to column -1; Green's robber and Red's shopkeeper, east of the surveyors, go home: they no longer score if the game ended now"
        ),
        "{page}"
    );
    assert!(page.contains("Settlers committed"), "{page}");
    app.stop();
}

/// Queues the game's analysis and waits until it is done.
fn analyse(app: &TestApp, id: &str) {
    let queued = post(app, &format!("/g/{id}/analysis"), b"");
    assert_eq!(queued.status, 202, "{}", queued.body);
    for _ in 0..1200 {
        let status = get(app, &format!("/api/games/{id}/analysis")).json();
        match status["status"].as_str() {
            Some("done") => return,
            Some("failed") => panic!("{status}"),
            _ => std::thread::sleep(std::time::Duration::from_millis(100)),
        }
    }
    panic!("the analysis of {id} never finished");
}

/// The links of a page that start with `prefix`, in order, once each.
fn links_to(page: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rest in page.split(&format!("href=\"{prefix}")).skip(1) {
        let link = format!("{prefix}{}", &rest[..rest.find('"').unwrap()]);
        if !out.contains(&link) {
            out.push(link);
        }
    }
    out
}

/// The New World demo in New World's words where the tile game's were left over: a town or
/// trail that runs into the coast says so (not that no tile is left for the coast's square),
/// the heuristic's footnote speaks of trails, towns and farms and of settlers, the explore and
/// puzzle forms of the settler, and a player's mistakes of a trapper in the plains, never of a
/// meeple on a plains.
#[test]
fn the_new_world_demo_says_trails_towns_settlers_and_the_coast() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let coast = "it runs into the coast at (1,";
    let no_tile_at_the_coast = "no tile left can go at (1,";
    let turn = get_html(&app, &format!("/g/{id}/t/1")).body;
    assert!(
        turn.contains("Never completed: it runs into the coast at (1,2), where no tile goes"),
        "{turn}"
    );
    let alternatives = get_html(&app, &format!("/g/{id}/t/1/alternatives")).body;
    let pages: Vec<String> = (links_to(&alternatives, &format!("/g/{id}/t/1/alt/")).iter())
        .map(|alt| visible_text(&get_html(&app, alt).body))
        .collect();
    assert!(
        pages.iter().any(|p| p.contains(coast)),
        "an alternative meets the coast"
    );
    for page in pages.iter().chain([&turn]) {
        assert!(!page.contains(no_tile_at_the_coast), "{page}");
    }

    analyse(&app, &id);
    for path in [format!("/g/{id}/analysis"), format!("/g/{id}/t/12/alternatives")] {
        let text = visible_text(&get_html(&app, &path).body);
        for said in [
            "for every open trail, town or farm the move touches",
            "A completed town doubles and a completed trail or farm frees its settler",
            "settler cost: 3 × (tiles left ÷ tiles in the game) × settlers the move takes",
        ] {
            assert!(text.contains(said), "{path}: {said:?} missing from {text}");
        }
        for word in ["road", "city", "cloister", "garden", "meeple"] {
            assert!(!text.contains(word), "{path}: {word:?} in {text}");
        }
    }
    let puzzles = links_to(
        &get_html(&app, &format!("/g/{id}/puzzles")).body,
        &format!("/g/{id}/puzzle/"),
    );
    let forms = [
        format!("/g/{id}/t/12/explore"),
        puzzles.first().expect("a puzzle").clone(),
    ];
    for path in forms {
        let page = get_html(&app, &path).body;
        assert!(page.contains("<legend>The settler</legend>"), "{path}: {page}");
        assert!(!page.contains("The meeple"), "{path}");
    }
    let dora = visible_text(&get_html(&app, "/p/Dora").body);
    assert!(dora.contains("Mistakes and blunders by kind of move"), "{dora}");
    assert!(!dora.contains("meeple"), "{dora}");
    app.stop();
}

fn notice_of(app: &TestApp, path: &str) -> bool {
    let page = get_html(app, path);
    assert_eq!(page.status, 200, "{path}");
    page.body
        .contains("The our-… tiles are a sample set made for this project, not the printed New World tiles")
}

/// Every page of a game on our sample tiles says they are ours, not the printed ones; a game
/// on its record's own tiles says whose they are; the tile game's pages say nothing of it.
#[test]
fn every_new_world_page_says_the_sample_tiles_are_ours() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let pages = [
        format!("/g/{id}"),
        format!("/g/{id}/t/0"),
        format!("/g/{id}/t/12"),
        format!("/g/{id}/t/12/alternatives"),
        format!("/g/{id}/t/12/alt/0"),
        format!("/g/{id}/analysis"),
        format!("/g/{id}/puzzles"),
        format!("/embed/g/{id}/t/12"),
    ];
    for path in &pages {
        assert!(notice_of(&app, path), "{path}: no word of the sample tiles");
    }
    let own = upload_id(&app, &example_b2());
    let page = get_html(&app, &format!("/g/{own}/t/3")).body;
    assert!(page.contains("played on the tiles its record brings"), "{page}");
    let base = upload_id(&app, &common::app::demo());
    assert!(!notice_of(&app, &format!("/g/{base}/t/3")));
    assert!(
        !get_html(&app, &format!("/g/{base}/t/3"))
            .body
            .contains("class=\"notice\"")
    );
    app.stop();
}

/// The surveyors wear a label on the board: both on the coast at the start, then one each.
#[test]
fn the_surveyors_are_labelled_on_the_board() {
    let record = parse(&demo());
    let opts = RenderOptions::default();
    let svg = |turn| {
        String::from_utf8(render::draw(&record, Some(turn), Picture::Board, ImageFormat::Svg, &opts).unwrap()).unwrap()
    };
    assert!(svg(0).contains(">2 surveyors</text>"), "both on the coast at the start");
    let game = replay::replay(&record, None).unwrap().game;
    let [a, b] = game.surveyors().unwrap().columns();
    let end = svg(replay::replay(&record, None).unwrap().turns.len() as u32);
    let labels = end.matches(">surveyor</text>").count() + end.matches(">2 surveyors</text>").count();
    assert_eq!(labels, if a == b { 1 } else { 2 }, "a label per column with a surveyor");
}

/// A GIF's frames composed in order: the picture after each frame, as RGB.
fn gif_pictures(bytes: &[u8]) -> ((usize, usize), Vec<Vec<[u8; 3]>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    let mut canvas = vec![[0u8; 3]; w * h];
    let mut out = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("a frame that decodes") {
        let (left, top, fw) = (f.left as usize, f.top as usize, f.width as usize);
        for (i, px) in f.buffer.chunks_exact(4).enumerate() {
            canvas[(top + i / fw) * w + left + i % fw] = [px[0], px[1], px[2]];
        }
        out.push(canvas.clone());
    }
    ((w, h), out)
}

/// The GIF draws New World's coast east of the land, its start spaces outlined, and the
/// surveyors where they stand, frame after frame.
#[test]
fn the_gif_draws_the_coast_and_the_surveyors() {
    let record = parse(&demo());
    let px = 48usize;
    let opts = RenderOptions::default().with_size(px as u32);
    let bytes = render::draw(&record, None, Picture::Board, ImageFormat::Gif, &opts).unwrap();
    let ((w, _), pictures) = gif_pictures(&bytes);
    let full = replay::replay(&record, None).unwrap();
    let (lo, hi) = render::extent(&full.game, false);
    assert_eq!(hi.x, COAST_X, "the picture reaches the coast");
    let rgb = |c: palette::Rgb| [c.0, c.1, c.2];
    let at = |picture: &Vec<[u8; 3]>, pos: Pos, (fx, fy): (f32, f32)| {
        let x = (pos.x - lo.x) as usize * px + (fx * px as f32) as usize;
        let y = (pos.y - lo.y) as usize * px + (fy * px as f32) as usize;
        picture[y * w + x]
    };
    let first = &pictures[0];
    // Sea in the middle of every coast square, the start spaces' outline on rows 0 to 9 only.
    for y in lo.y..=hi.y {
        let coast = Pos::new(COAST_X, y);
        assert_eq!(at(first, coast, (0.5, 0.5)), rgb(palette::RIVER), "{coast}");
        let outline = at(first, coast, (0.5, 0.13)) == rgb(palette::PAPER);
        assert_eq!(outline, (0..10).contains(&y), "{coast}: start space outline");
    }
    // Both surveyors on the coast at the start, side by side at the top.
    let top = Pos::new(COAST_X, lo.y);
    assert_eq!(at(first, top, (0.3, 0.2)), rgb(palette::PAPER));
    assert_eq!(at(first, top, (0.7, 0.2)), rgb(palette::PAPER));
    // At the end they stand where the game left them.
    let last = pictures.last().unwrap();
    let [a, b] = full.game.surveyors().unwrap().columns();
    for (i, column) in [a, b].into_iter().enumerate() {
        let dx = if a == b { 0.3 + 0.4 * i as f32 } else { 0.5 };
        assert_eq!(
            at(last, Pos::new(column, lo.y), (dx, 0.2)),
            rgb(palette::PAPER),
            "column {column}"
        );
    }
    assert_ne!(
        at(last, top, (0.3, 0.2)),
        rgb(palette::PAPER),
        "the coast is left behind"
    );
}

/// The embed of a tall New World board keeps the scores in an oEmbed frame of 640 × 720: the
/// picture takes the height the navigation and the scores leave.
#[test]
fn in_a_browser_the_embed_keeps_its_scores_in_the_frame() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    browser.resize(640, 720);
    browser.open(&app.url(&format!("/embed/g/{id}/t/40")));
    // Measured once the picture has come: under load it once had no height yet.
    browser.wait_for("const i = document.querySelector('.board img'); return i.complete && i.naturalWidth > 0;");
    let fit = browser.eval(
        "const c = document.querySelector('figcaption').getBoundingClientRect();
         const img = document.querySelector('.board img').getBoundingClientRect();
         return [c.bottom, window.innerHeight, document.documentElement.scrollHeight, img.height, c.height];",
    );
    let n = |i: usize| fit[i].as_f64().unwrap();
    assert!(n(1) <= 720.0, "the window is {} px high", n(1));
    assert!(n(0) <= n(1), "the scores end at {} in a frame of {}", n(0), n(1));
    assert!(n(2) <= n(1), "the embed scrolls: {} px in {}", n(2), n(1));
    assert!(n(3) > 200.0 && n(4) > 0.0, "the board and the scores are shown: {fit}");
    app.stop();
}

/// Our sample set plays New World for 2 to 5 players, as the rulebook says.
#[test]
fn the_sample_set_plays_two_to_five_players() {
    use carcassonne_replay::selfplay::{Policy, generate};
    for players in [1, 6] {
        let refused = generate(RulesSpec::new(Preset::NewWorld), players, Policy::Random, 1)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("for 2 to 5 players"), "{refused}");
    }
    for players in 2..=5 {
        assert!(generate(RulesSpec::new(Preset::NewWorld), players, Policy::Random, 1).is_ok());
    }
}

/// Counts take the number of their noun: a record of one turn says "1 turn", and one tile
/// left to fit a square says "1 tile left fits".
#[test]
fn one_of_a_thing_is_said_in_the_singular() {
    let app = spawn_app();
    let record = br#"{"format": "carcassonne-replay/1", "game": "new-world",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "tiles": [{"name": "prairie", "count": 2, "segments": "plains N.w N.e E.n E.s S.e S.w W.s W.n animal"}],
        "moves": [{"tile": "prairie", "at": [0, 4], "rotation": 0}]}"#;
    let id = upload_id(&app, record);
    let page = get_html(&app, &format!("/g/{id}/t/1")).body;
    let text = visible_text(&page);
    assert!(text.contains(" 1 turn ·") && !text.contains("1 turns"), "{text}");
    assert!(page.contains("1 tile left fits") && !page.contains("1 tiles"), "{page}");
    app.stop();
}

//! The service over HTTP: the real app on a random port with a temporary database.
//!
//! Checked:
//! - a demo of each game kind on a new database
//! - a New World game through the API, its turn page (game name, surveyor bonus explained, no
//!   `.jcz`) and its images (surveyors drawn)
//! - a Card Game through the API (scores and hands per turn), its turn pages (the table, the
//!   round, the cards taken in words, a face-down card unnamed), round permalinks, the end
//!   page's categories and city sets, its pictures, CSV and JSON (which uploads again as the
//!   same game), its alternatives page (a row per legal action, the played one marked, each a
//!   link to the table with it played) and its background analysis, after which its analysis
//!   page names who played the samples out and links a best action on the table, and its
//!   analysis, end and turn pages show the chances graph, a chance per turn and each player's
//!   accuracy
//! - a Card Game's mistakes reviewed from the table: every legal action an answer, judged
//!   without naming the best, the best on request, malformed answers 400
//! - an illegal Card Game answered 422 with its round, turn, player and rule
//! - a Carcassonne Lab link uploaded through the API and pasted as a fragment into the form,
//!   and the "open in Carcassonne Lab" link on its pages (none for a game with garden tiles)
//! - uploads in every format through the API and the form, deduplication, every page, the JSON
//!   API and OpenAPI document, `.jcz` and CSV downloads, image ETags and 304s, a turn's
//!   alternatives and an alternative's page and image, a background analysis queued, run and
//!   stored (its page with plain tile names and one decimal), each error status as problem+json
//!   (and HTML for browsers) with nothing stored, names with HTML shown as text, games kept
//!   across a restart
//! - a database written by the previous release (`tests/fixtures/store/`) migrated and
//!   answering as that release did
//! - no final score on a mid-game turn page or in its preview
//! - the last turn's scores matching its events and the end page's final events adding up to
//!   the final scores
//! - turn 0
//! - a forged `Host` header in no link
//! - the rules label with its expansions and source
//! - 64 concurrent uploads with no 5xx
//! - every hostile record refused with a 4xx while `/livez` keeps answering
//! - the turn page's inline board (a note per feature, every open square, dead squares marked
//!   as the analysis finds them, up to three ghosts, each better than the move played and
//!   saying its value's unit and source, whose links answer, none at the start)
//! - the alternatives' close views (192 px for three 64 px squares) and a bad `view` refused
//! - once analysed, the chances graph with its axes and legend, accuracy per player and the
//!   analysis page's player, best-move, chance and class columns and its note on moves within
//!   the noise
//! - in headless Chromium the arrow keys stepping through turns to the end page, pointing
//!   at an owned road lighting it and showing its note, clicking an open square listing its
//!   fitting tiles as pictures that load, a ghost's badge opening its alternative, a dark
//!   system setting darkening the page, the inline board's backdrop and the Card Game's picture
//!   (`?theme=dark`, cached apart, a bad theme refused), and no page of either game kind (home,
//!   turns, end, alternatives, analysis, embed) wider than a 360 px window
//! - on a 360 px phone, the turn navigation in view at the foot of the page, every line of a
//!   wrapped name right of its colour dot, the board zoomed wider than its frame and back
//!   without the page scrolling sideways, the larger picture answering, and a wide table
//!   casting its scroll shadow
//! - a full analysis queue answered 503 with nothing queued
//! - a stalled upload cut off with 503
//! - `/metrics`
//! - the embed framed and no other page, oEmbed answers and discovery

use crate::common;

use carcassonne_replay::analysis;
use carcassonne_replay::web::LimitSettings;
use common::app::*;
use common::browser::Browser;
use serde_json::Value;
use std::path::Path;

#[test]
fn health_probes_answer() {
    let app = spawn_app();
    assert_eq!(get(&app, "/livez").status, 200);
    assert_eq!(get(&app, "/readyz").status, 200);
    app.stop();
}

/// The routes read a game's id as a `GameId`: an address whose id is not one names nothing,
/// and says so; a real id followed by a format still reaches that format's route, not the
/// game page's.
#[test]
fn an_address_with_no_game_id_in_it_answers_404_saying_so() {
    let app = spawn_app();
    for path in [
        "/g/zzz",
        "/g/0123456789ABCDEF/t/1",
        "/g/0123456789abcdef.zip",
        "/api/games/xyz/turns/1",
        "/embed/g/xyz/t/1",
    ] {
        let a = get(&app, path);
        assert_eq!(a.status, 404, "{path}");
        assert_eq!(a.content_type, "application/problem+json", "{path}");
        assert!(
            a.json()["detail"].as_str().unwrap().contains("is not a game id"),
            "{path}: {}",
            a.body
        );
    }
    let id = demo_id(&app);
    for (ext, content_type) in [("json", "application/json"), ("png", "image/png"), ("csv", "text/csv")] {
        let a = get(&app, &format!("/g/{id}.{ext}"));
        assert_eq!(a.status, 200, "{ext}");
        assert!(a.content_type.starts_with(content_type), "{ext}: {}", a.content_type);
    }
    app.stop();
}

#[test]
fn a_new_database_shows_a_demo_of_each_game_first() {
    let app = spawn_app();
    let home = get(&app, "/");
    assert_eq!(home.status, 200);
    assert!(home.body.contains("Ada vs Bruno vs Chloé"), "{}", home.body);
    assert!(home.body.contains("Dora vs Emil vs Farid"), "{}", home.body);
    assert!(home.body.contains("Greta vs Hugo vs Ines"), "{}", home.body);
    // Every file the page links to is served.
    for link in home.body.split("href=\"/static/").skip(1) {
        let path = &link[..link.find('"').unwrap()];
        assert_eq!(get(&app, &format!("/static/{path}")).status, 200, "{path}");
    }
    assert!(home.body.contains("<form") && home.body.contains("enctype=\"multipart/form-data\""));
    assert_eq!(app.stored_games(), 3);
    app.stop();
}

/// JCloisterZone has no tile like a record's own, so a game with custom tiles offers no
/// `.jcz` and its address answers 404 saying why (it used to link it, and answer 500).
#[test]
fn a_game_with_its_own_tiles_offers_no_jcz() {
    let app = spawn_app();
    let record = r#"{"format": "carcassonne-replay/1", "players": [{"name": "Ann"}, {"name": "Bob"}],
        "tiles": [{"name": "meadow", "count": 1, "segments": "field N.w N.e E.n E.s S.e S.w W.s W.n"}],
        "moves": [{"tile": "meadow", "at": [0, 1], "rotation": 0}]}"#;
    let id = upload_id(&app, record.as_bytes());
    let page = get_html(&app, &format!("/g/{id}/t/1"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains(".jcz"), "no .jcz link");
    let jcz = get(&app, &format!("/g/{id}.jcz"));
    assert_eq!(
        (jcz.status, jcz.content_type.as_str()),
        (404, "application/problem+json")
    );
    assert!(jcz.body.contains("the record's own tile meadow"), "{}", jcz.body);
    assert_eq!(get(&app, &format!("/g/{id}.json")).status, 200);
    app.stop();
}

#[test]
fn a_new_world_game_is_served_like_any_other() {
    use carcassonne_replay::engine::{Event, Unit};
    let app = spawn_app();
    let record = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-new-world.json")).unwrap();
    let id = upload_id(&app, &record);
    let (parsed, _) = carcassonne_replay::record::parse(&record).unwrap();
    let replayed = carcassonne_replay::replay::replay(&parsed, None).unwrap();
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["game"], "new-world");
    assert_eq!(game["final_scores"], serde_json::json!(replayed.final_scores));
    // Every surveyor bonus the replay awarded is on the turn's JSON, as a term of its score.
    let bonus_turn = replayed
        .turns
        .iter()
        .find(|t| {
            t.events
                .iter()
                .any(|e| matches!(e, Event::Scored(s) if s.terms.count(Unit::Surveyor) > 0))
        })
        .expect("the demo has a surveyor bonus");
    let turn = get(&app, &format!("/api/games/{id}/turns/{}", bonus_turn.turn)).json();
    assert_eq!(turn["scores"], serde_json::json!(bonus_turn.scores));
    let page = get_html(&app, &format!("/g/{id}/t/{}", bonus_turn.turn));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("surveyor × 4"), "the bonus is explained");
    assert!(page.body.contains("Carcassonne: The New World") && page.body.contains("New World rules"));
    assert!(!page.body.contains(".jcz"), "JCloisterZone does not play New World");
    assert_eq!(get(&app, &format!("/g/{id}.jcz")).status, 404);
    let png = get(&app, &format!("/g/{id}/t/{}.png", bonus_turn.turn));
    assert_eq!((png.status, png.content_type.as_str()), (200, "image/png"));
    let svg = get(&app, &format!("/g/{id}/t/{}.svg", bonus_turn.turn)).body;
    assert!(svg.contains("<title>surveyor</title>"), "the surveyors are drawn");
    app.stop();
}

/// A Card Game record of ours: greedy bots, 4 players.
fn card_game(seed: u64) -> String {
    use carcassonne_replay::record::cards;
    use carcassonne_replay::selfplay;
    let record = selfplay::card_game(4, selfplay::Policy::Greedy, seed).unwrap();
    cards::to_value(&record).to_string()
}

/// The colours `marker` introduces in a page or picture: `#rrggbb` after each occurrence.
fn colours_after(text: &str, marker: &str) -> Vec<carcassonne_replay::render::Rgb> {
    (text.split(marker).skip(1))
        .map(|s| carcassonne_replay::render::Rgb::parse_hex(&s[..7]).expect("a colour"))
        .collect()
}

/// A Card Game's players wear no row's colour, on its pages and in its pictures, whatever
/// colours their record brings: a follower by the blue city row is never a blue player's.
#[test]
fn a_card_games_players_wear_no_rows_colour() {
    use carcassonne_replay::render::palette::CARD_ROWS;
    let app = spawn_app();
    let mut record: Value = serde_json::from_str(&card_game(21)).unwrap();
    // The city row's own blue, Board Game Arena's red and yellow, and none.
    for (p, colour) in ["#3b6ec4", "#ff0000", "#ffa500"].into_iter().enumerate() {
        record["players"][p]["colour"] = colour.into();
    }
    let id = upload_id(&app, record.to_string().as_bytes());
    let demo = demo_card_game_id(&app);
    for id in [id, demo] {
        let turns = get(&app, &format!("/api/games/{id}")).json()["turns"].as_u64().unwrap();
        let page = get_html(&app, &format!("/g/{id}/t/{turns}")).body;
        let on_page = colours_after(&page, "class=\"swatch\" style=\"background: ");
        let table = get(&app, &format!("/g/{id}/t/{}.svg", turns - 1)).body;
        let followers = colours_after(&table, "<use href=\"#fig-meeple\" fill=\"");
        assert!(
            !on_page.is_empty() && !followers.is_empty(),
            "{id}: players and followers shown"
        );
        for c in on_page.iter().chain(&followers) {
            assert!(
                CARD_ROWS.iter().all(|row| !c.reads_as(*row)),
                "{id}: {c} reads as a row's"
            );
        }
    }
    app.stop();
}

#[test]
fn a_card_game_is_served_like_any_other() {
    use carcassonne_replay::record::{AnyRecord, parse_any};
    let app = spawn_app();
    let text = card_game(21);
    let id = upload_id(&app, text.as_bytes());
    use carcassonne_replay::engine::cards::CardEvent;
    let AnyRecord::Cards(record) = parse_any(text.as_bytes()).unwrap() else {
        panic!("a Card Game record")
    };
    let replayed = carcassonne_replay::replay::cards::replay(&record).unwrap();
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["game"], "card-game");
    assert_eq!(game["turns"], replayed.turns.len());
    assert_eq!(game["final_scores"], serde_json::json!(replayed.final_scores));
    assert_eq!(game["breakdown"][0]["total"], replayed.final_scores[0]);
    // Every turn's stored row gives back the replay's scores and hands.
    let last = replayed.turns.last().unwrap();
    let turn = get(&app, &format!("/api/games/{id}/turns/{}", last.turn)).json();
    assert_eq!(turn["scores"], serde_json::json!(last.scores));
    let events = turn["events"].as_array().unwrap();
    assert!(
        events.iter().any(|e| e["type"] == "took"),
        "the last turn scores the last round"
    );
    assert!(events.iter().any(|e| e["type"] == "scored"));
    // A turn page: the table picture, the round, and the scoring in words.
    let page = get_html(&app, &format!("/g/{id}/t/{}", last.turn));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("The Carcassonne Card Game") && page.body.contains("4 players, 6 rounds of 5 cards"));
    assert!(page.body.contains(&format!("/g/{id}/t/{}.png", last.turn)));
    assert!(page.body.contains("Round 6 of 6"), "the round is named");
    assert!(page.body.contains(" takes "), "the cards taken are said");
    assert!(!page.body.contains(".jcz"), "JCloisterZone does not play the Card Game");
    // The first turn of a round keeps its face-down card hidden.
    let first = get_html(&app, &format!("/g/{id}/t/1"));
    let face_down = (replayed.turns.iter()).position(|t| {
        t.events
            .iter()
            .any(|e| matches!(e, CardEvent::Played { face_down: true, .. }))
    });
    if let Some(i) = face_down {
        let page = get_html(&app, &format!("/g/{id}/t/{}", i + 1));
        assert!(page.body.contains("face down"), "{}", page.body);
    }
    assert_eq!(first.status, 200);
    // Round permalinks lead to the turn that scores the round.
    let round = get(&app, &format!("/g/{id}/r/2"));
    assert_eq!(round.status, 303);
    let scored_at = round.location.unwrap();
    let n: usize = scored_at.rsplit('/').next().unwrap().parse().unwrap();
    let has = |n: usize, what: fn(&CardEvent) -> bool| replayed.turns[n - 1].events.iter().any(what);
    assert!(
        has(n, |e| matches!(e, CardEvent::Took { .. })),
        "turn {n} scores the round"
    );
    assert!(
        has(n + 1, |e| matches!(e, CardEvent::Dealt { round: 2, .. })),
        "the next turn opens round 3"
    );
    assert_eq!(get(&app, &format!("/g/{id}/r/7")).status, 404);
    // The end: the breakdown by the Card Game's categories, and the city sets.
    let end = get_html(&app, &format!("/g/{id}"));
    assert_eq!(end.status, 200);
    for category in ["people", "animals", "city sets", "jokers", "wrong rows", "Cards played"] {
        assert!(
            end.body.contains(&format!("<th>{category}</th>")) || end.body.contains(&format!(">{category}</th>")),
            "{category}"
        );
    }
    assert!(end.body.contains("city sets of"), "the sets are shown");
    // Pictures and downloads.
    for path in [
        format!("/g/{id}/t/3.png"),
        format!("/g/{id}.png"),
        format!("/g/{id}/og.png"),
        format!("/g/{id}/t/3/og.png"),
    ] {
        let png = get(&app, &path);
        assert_eq!((png.status, png.content_type.as_str()), (200, "image/png"), "{path}");
    }
    let csv = get(&app, &format!("/g/{id}.csv"));
    assert!(
        csv.body
            .starts_with("turn,round,player,category,points,explanation\r\n"),
        "{}",
        csv.body
    );
    let events = replayed.turns.iter().flat_map(|t| &t.events);
    let scored = (events.chain(&replayed.final_events))
        .filter(|e| matches!(e, CardEvent::Scored { .. }))
        .count();
    assert_eq!(csv.body.lines().count(), 1 + scored, "a row per scoring");
    let json = get(&app, &format!("/g/{id}.json"));
    assert_eq!(
        post(&app, "/api/games", json.body.as_bytes()).status,
        200,
        "the download is the same game"
    );
    assert_eq!(get(&app, &format!("/g/{id}.jcz")).status, 404);
    app.stop();
}

#[test]
fn an_illegal_card_game_names_the_round_the_turn_the_player_and_the_rule() {
    let app = spawn_app();
    let mut doc: Value = serde_json::from_str(&card_game(4)).unwrap();
    // The second follower of a player in one round.
    let moves = doc["moves"].as_array_mut().unwrap();
    let at = moves.iter().position(|m| m.get("follower").is_some()).unwrap();
    let player = moves[at]["player"].clone();
    let again = moves[at + 1..].iter().position(|m| m["player"] == player).unwrap() + at + 1;
    let row = moves[at]["follower"].clone();
    moves[again] = serde_json::json!({"player": player, "follower": row});
    let before = app.stored_games();
    let answer = post(&app, "/api/games", doc.to_string().as_bytes());
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(answer.content_type.starts_with("application/problem+json"));
    let problem = answer.json();
    assert_eq!(problem["round"], 1);
    assert_eq!(problem["turn"], again + 1);
    assert_eq!(problem["player"], format!("Bot {}", player.as_u64().unwrap() + 1));
    assert!(
        problem["reason"]
            .as_str()
            .unwrap()
            .contains("follower is already placed"),
        "{problem}"
    );
    assert_eq!(app.stored_games(), before, "nothing is stored");
    app.stop();
}

#[test]
fn a_carcassonne_lab_link_uploads_and_every_fitting_game_links_back() {
    let app = spawn_app();
    let link =
        "https://www.carcassonnelab.com/#/0/0/CnRs6b/21K112b11212222132314240?players=Ann,Bob&colors=green,black";
    let id = upload_id(&app, link.as_bytes());
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["source_format"], "Carcassonne Lab link");
    assert_eq!(game["turns"], 6);
    let page = get_html(&app, &format!("/g/{id}/t/6"));
    let back = format!(
        "<a href=\"{}\" rel=\"external\">open in Carcassonne Lab</a>",
        link.replace('&', "&#38;")
    );
    assert!(page.body.contains(&back), "{}", page.body);
    // Pasted into the form, the fragment alone is the same game.
    let fragment = &link.as_bytes()[link.find('#').unwrap()..];
    let form = post_form(&app, "text", None, fragment);
    assert_eq!(form.location.as_deref(), Some(format!("/g/{id}").as_str()));
    // A game the format cannot hold (the demo has garden tiles) has no such link.
    let demo = demo_id(&app);
    assert!(!get_html(&app, &format!("/g/{demo}")).body.contains("Carcassonne Lab"));
    app.stop();
}

/// A request with `method` and extra headers; the answer's status, headers and body bytes.
fn raw(app: &TestApp, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, ureq::http::HeaderMap, Vec<u8>) {
    let mut req = ureq::http::Request::builder().method(method).uri(app.url(path));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut r = agent().run(req.body(()).unwrap()).unwrap();
    let body = r.body_mut().read_to_vec().unwrap_or_default();
    (r.status().as_u16(), r.headers().clone(), body)
}

#[test]
fn every_page_answers_head_and_is_compressed_and_guarded() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    for path in [
        "/".to_string(),
        format!("/g/{id}"),
        format!("/g/{id}/t/1"),
        format!("/g/{id}/t/1.png"),
        format!("/api/games/{id}"),
        "/livez".into(),
        "/static/style.css".into(),
    ] {
        let (status, headers, body) = raw(&app, "HEAD", &path, &[]);
        let (get_status, get_headers, _) = raw(&app, "GET", &path, &[]);
        assert_eq!((status, get_status), (200, 200), "HEAD {path}");
        assert!(body.is_empty(), "HEAD {path} sends no body");
        assert_eq!(headers.get("content-type"), get_headers.get("content-type"), "{path}");
    }
    // Pages, JSON and SVG are compressed for clients that take it; PNGs are left as they are.
    let (_, html, body) = raw(&app, "GET", &format!("/g/{id}/t/1"), &[("Accept-Encoding", "gzip")]);
    assert_eq!(html.get("content-encoding").unwrap(), "gzip");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body[..]), &mut text).unwrap();
    assert!(text.contains("Ann vs Bob"));
    let (_, br, _) = raw(&app, "GET", &format!("/api/games/{id}"), &[("Accept-Encoding", "br")]);
    assert_eq!(br.get("content-encoding").unwrap(), "br");
    let (_, png, _) = raw(&app, "GET", &format!("/g/{id}/t/1.png"), &[("Accept-Encoding", "gzip")]);
    assert_ne!(png.get("content-encoding").map(|v| v.to_str().unwrap()), Some("gzip"));
    // Every answer, errors included, carries the security headers and a request id.
    for path in ["/".to_string(), format!("/g/{id}/t/99"), "/nowhere".into()] {
        let (_, h, _) = raw(&app, "GET", &path, &[]);
        assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff", "{path}");
        assert_eq!(h.get("referrer-policy").unwrap(), "strict-origin-when-cross-origin");
        let csp = h.get("content-security-policy").unwrap().to_str().unwrap();
        assert!(
            csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
            "{csp}"
        );
        assert!(
            h.get("x-request-id")
                .is_some_and(|v| v.to_str().unwrap().parse::<u64>().is_ok())
        );
    }
    app.stop();
}

#[test]
fn a_client_over_its_limit_is_told_when_to_come_back() {
    let app = spawn_app_configured(|s| {
        s.limits = LimitSettings {
            uploads_per_minute: 2,
            analyses_per_minute: 1,
            ..LimitSettings::default()
        }
    });
    let before = app.stored_games();
    let games: Vec<String> = (0..3).map(|i| small_game(["Ann", &format!("Bob {i}")])).collect();
    assert_eq!(post(&app, "/api/games", games[0].as_bytes()).status, 201);
    assert_eq!(post(&app, "/api/games", games[1].as_bytes()).status, 201);
    let third = post(&app, "/api/games", games[2].as_bytes());
    assert_eq!(third.status, 429, "{}", third.body);
    assert!(third.content_type.starts_with("application/problem+json"));
    assert!(third.json()["detail"].as_str().unwrap().contains("too many uploads"));
    let (_, headers, _) = raw(&app, "POST", "/api/games", &[]);
    let wait: u64 = headers.get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(app.stored_games(), before + 2, "nothing over the limit is stored");
    // The form counts as an upload too; reading pages is never limited.
    assert_eq!(post_form(&app, "text", None, games[2].as_bytes()).status, 429);
    assert_eq!(get(&app, "/").status, 200);
    // One analysis request a minute here.
    let id = demo_id(&app);
    assert_eq!(post(&app, &format!("/g/{id}/analysis"), b"").status, 202);
    assert_eq!(post(&app, &format!("/g/{id}/analysis"), b"").status, 429);
    app.stop();
}

#[test]
fn a_full_analysis_queue_refuses_more_and_stores_nothing() {
    let app = spawn_app_configured(|s| s.analysis_queue = 0);
    let id = demo_id(&app);
    let a = post(&app, &format!("/g/{id}/analysis"), b"");
    assert_eq!(a.status, 503, "{}", a.body);
    assert_eq!(a.content_type, "application/problem+json");
    assert!(
        a.json()["detail"]
            .as_str()
            .unwrap()
            .contains("the analysis queue is full"),
        "{}",
        a.body
    );
    let (_, headers, _) = raw(&app, "POST", &format!("/g/{id}/analysis"), &[]);
    assert_eq!(headers.get("retry-after").unwrap(), "60");
    let status = get(&app, &format!("/api/games/{id}/analysis")).json();
    assert_eq!(status["status"], "none", "a refused request queues nothing: {status}");
    app.stop();
}

#[test]
fn a_request_that_never_finishes_is_cut_off() {
    use std::io::{Read, Write};
    let app = spawn_app_configured(|s| s.request_timeout = std::time::Duration::from_millis(300));
    // Headers in time, then a body that never comes.
    let mut conn = std::net::TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
    write!(
        conn,
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"for"
    )
    .unwrap();
    conn.set_read_timeout(Some(std::time::Duration::from_secs(20))).unwrap();
    let mut answer = vec![0; 4096];
    let n = conn.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]).to_lowercase();
    assert!(answer.starts_with("http/1.1 503"), "{answer}");
    assert!(answer.contains("took longer than"), "{answer}");
    // Cut off, it is still an answer like any other: problem+json, with the same headers.
    for header in [
        "content-type: application/problem+json",
        "x-request-id: ",
        "content-security-policy: ",
        "x-content-type-options: nosniff",
        "referrer-policy: ",
        "retry-after: ",
    ] {
        assert!(answer.contains(header), "{header} in {answer}");
    }
    app.stop();
}

/// A client that announces a body over the limit is refused at once, before it sends any of
/// it: it used to wait for the 30 s limit and get a 503.
#[test]
fn a_body_declared_over_the_limit_is_refused_before_it_comes() {
    use std::io::{Read, Write};
    let app = spawn_app();
    for (path, kind) in [
        ("/api/games", "application/json"),
        ("/games", "multipart/form-data; boundary=x"),
    ] {
        let mut conn = std::net::TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
        write!(
            conn,
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\nContent-Length: 50000000\r\n\r\n"
        )
        .unwrap();
        // Well before the 30 s limit: the answer must not wait for the body.
        conn.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        let mut answer = vec![0; 4096];
        let n = conn.read(&mut answer).expect("an answer before the time limit");
        let answer = String::from_utf8_lossy(&answer[..n]).to_lowercase();
        assert!(answer.starts_with("http/1.1 413"), "{path}: {answer}");
        assert!(answer.contains("application/problem+json"), "{path}: {answer}");
    }
    app.stop();
}

/// What actix answers itself, a query or a path it cannot parse, or a file that is not
/// there, is a problem like ours: problem+json (a page for browsers), with every header.
#[test]
fn errors_of_the_http_layer_are_problems_too() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    for (path, status) in [
        (format!("/g/{id}/t/1.png?size=-5"), 400),
        // A size out of range is refused, not drawn at another size than asked.
        (format!("/g/{id}/t/1.png?size=1000"), 400),
        (format!("/g/{id}.gif?size=200"), 400),
        (format!("/g/{id}/t/99999999999999999999999"), 404),
        ("/static/nope.css".to_string(), 404),
    ] {
        let (got, headers, body) = raw(&app, "GET", &path, &[]);
        assert_eq!(got, status, "{path}");
        assert_eq!(
            headers.get("content-type").unwrap(),
            "application/problem+json",
            "{path}"
        );
        let problem: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["status"], status, "{path}");
        for h in ["x-request-id", "content-security-policy", "x-content-type-options"] {
            assert!(headers.contains_key(h), "{path}: {h}");
        }
        let page = get_html(&app, &path);
        assert_eq!(page.status, status);
        assert!(
            page.content_type.starts_with("text/html"),
            "{path}: {}",
            page.content_type
        );
    }
    app.stop();
}

/// A query parameter that does not read is named, with what it takes, as problem+json; flags
/// read as 1 or 0 as well as true or false.
#[test]
fn a_bad_query_parameter_is_named_with_what_it_takes() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    assert_eq!(get(&app, &format!("/g/{id}/t/1.png?legend=1")).status, 200);
    assert_eq!(get(&app, &format!("/g/{id}/t/1.svg?legend=0")).status, 200);
    for (path, parameter, takes) in [
        (
            format!("/g/{id}/t/1.png?legend=maybe"),
            "legend",
            "1 or 0 (true or false)",
        ),
        (
            format!("/g/{id}/t/1.png?size=-5"),
            "size",
            "a whole number of pixels per tile",
        ),
        ("/?page=x".to_string(), "page", "a page number, from 1"),
    ] {
        let a = get(&app, &path);
        assert_eq!(a.status, 400, "{path}: {}", a.body);
        assert_eq!(a.content_type, "application/problem+json");
        let problem = a.json();
        assert_eq!(problem["parameter"], parameter, "{path}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("`{parameter}` takes {takes}")),
            "{path}: {detail}"
        );
    }
    app.stop();
}

/// Plain text that is no record is told so in words a person reads, not JSON's ("expected
/// ident at line 1 column 2").
#[test]
fn plain_text_junk_is_told_it_is_no_record() {
    let app = spawn_app();
    for junk in ["nothing", "hello, world\nsecond line"] {
        let a = post(&app, "/api/games", junk.as_bytes());
        assert_eq!(a.status, 400, "{}", a.body);
        let detail = a.json()["detail"].as_str().unwrap().to_string();
        assert!(
            detail.starts_with("this text is no game record: it is not JSON"),
            "{detail}"
        );
        assert!(!detail.contains("expected ident"), "{detail}");
    }
    app.stop();
}

/// Any web page could make its visitors' browsers queue analyses (a hidden form, posted on
/// load). A state-changing request from another site's page is refused; the site's own form,
/// and clients that come from no page (curl, scripts), are not. The upload form takes the
/// Board Game Arena bookmarklet's cross-site post, as it must.
#[test]
fn a_page_of_another_site_cannot_queue_an_analysis() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let queue = format!("/g/{id}/analysis");
    for headers in [
        [
            ("Sec-Fetch-Site", "cross-site"),
            ("Origin", "https://elsewhere.example"),
        ],
        [("Sec-Fetch-Site", "same-site"), ("Origin", "https://sub.example")],
    ] {
        let (status, _, body) = raw(&app, "POST", &queue, &headers);
        assert_eq!(status, 403, "{headers:?}: {}", String::from_utf8_lossy(&body));
    }
    let (status, _, _) = raw(&app, "POST", &queue, &[("Origin", "https://elsewhere.example")]);
    assert_eq!(
        status, 403,
        "an Origin of another site, from a browser without Sec-Fetch-Site"
    );
    assert_eq!(get(&app, &format!("/api/games/{id}/analysis")).json()["status"], "none");
    let (status, _, _) = raw(&app, "POST", &queue, &[("Sec-Fetch-Site", "same-origin")]);
    assert_eq!(status, 202, "the site's own form");
    let other = small_game(["Cy", "Di"]);
    let boundary = "b";
    let form =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n{other}\r\n--{boundary}--\r\n");
    let upload = agent()
        .post(&app.url("/games"))
        .header("Content-Type", format!("multipart/form-data; boundary={boundary}"))
        .header("Sec-Fetch-Site", "cross-site")
        .header("Origin", "https://boardgamearena.com")
        .send(form.as_bytes())
        .unwrap();
    assert_eq!(
        upload.status().as_u16(),
        303,
        "the bookmarklet's upload from BGA's page"
    );
    app.stop();
}

#[test]
fn metrics_count_requests_by_route_and_report_the_store() {
    let app = spawn_app();
    let id = demo_id(&app);
    for n in 1..=3 {
        assert_eq!(get(&app, &format!("/g/{id}/t/{n}")).status, 200);
    }
    assert_eq!(get(&app, "/no/such/page").status, 404);
    let made_up = "X".repeat(7_000);
    for n in 0..3 {
        use std::io::{Read, Write};
        let mut conn = std::net::TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
        write!(
            conn,
            "{made_up}{n} /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        conn.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    }
    let m = get(&app, "/metrics");
    assert_eq!(m.status, 200);
    assert!(
        m.content_type.starts_with("application/openmetrics-text"),
        "{}",
        m.content_type
    );
    let line = r#"carcassonne_replay_http_requests_total{method="GET",route="/g/{id}/t/{n:[0-9]+}",status="200"} 3"#;
    assert!(m.body.contains(line), "{}", m.body);
    assert!(m.body.contains(r#"route="none",status="404"} 1"#), "{}", m.body);
    assert!(!m.body.contains(&made_up), "a made-up method is no series of its own");
    assert!(m.body.contains(r#"method="other""#), "{}", m.body);
    assert!(
        m.body.contains("carcassonne_replay_games_stored 3\n"),
        "the three demos: {}",
        m.body
    );
    assert!(
        m.body.contains("carcassonne_replay_analysis_queue_depth 0\n"),
        "{}",
        m.body
    );
    assert!(
        m.body
            .contains("carcassonne_replay_http_request_duration_seconds_bucket{"),
        "{}",
        m.body
    );
    app.stop();
}

#[test]
fn a_turn_embeds_elsewhere_and_only_the_embed_may_be_framed() {
    let app = spawn_app();
    let id = demo_id(&app);
    let (status, headers, body) = raw(&app, "GET", &format!("/embed/g/{id}/t/5"), &[]);
    assert_eq!(status, 200);
    let policy = headers.get("content-security-policy").unwrap().to_str().unwrap();
    assert!(policy.contains("frame-ancestors *"), "{policy}");
    assert!(!policy.contains("'none'; base"), "{policy}");
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains(&format!("/g/{id}/t/5.")), "the board of turn 5: {body}");
    assert!(
        body.contains(&format!("href=\"/embed/g/{id}/t/6\"")),
        "next stays in the frame"
    );
    assert!(
        body.contains(&format!("{}/g/{id}/t/5", app.address)),
        "a link out to the full page"
    );
    // Every other page refuses framing.
    for path in [
        "/".to_string(),
        format!("/g/{id}/t/5"),
        format!("/g/{id}"),
        "/oembed?url=x".into(),
    ] {
        let (_, headers, _) = raw(&app, "GET", &path, &[]);
        let policy = headers.get("content-security-policy").unwrap().to_str().unwrap();
        assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
    }
    // The turn page offers the embed by oEmbed, and a link to copy.
    let page = get(&app, &format!("/g/{id}/t/5")).body;
    assert!(page.contains("type=\"application/json+oembed\""), "oEmbed discovery");
    assert!(page.contains("data-copy"), "a link to copy");
    let url = format!("{}/g/{id}/t/5", app.address);
    let o = get(
        &app,
        &format!("/oembed?url={}", url.replace(':', "%3A").replace('/', "%2F")),
    )
    .json();
    assert_eq!(o["type"], "rich");
    assert!(
        o["html"].as_str().unwrap().contains(&format!("/embed/g/{id}/t/5\"")),
        "{o}"
    );
    // A game link embeds its last turn; a link elsewhere is not ours.
    let o = get(&app, &format!("/oembed?url={}/g/{id}", app.address)).json();
    assert!(
        o["html"].as_str().unwrap().contains(&format!("/embed/g/{id}/t/")),
        "{o}"
    );
    assert_eq!(
        get(&app, &format!("/oembed?url=https://example.org/g/{id}")).status,
        404
    );
    assert_eq!(get(&app, &format!("/oembed?url={url}&format=xml")).status, 501);
    app.stop();
}

#[test]
fn a_game_plays_as_a_gif_and_a_card_game_has_none() {
    let app = spawn_app();
    let id = demo_id(&app);
    let (status, headers, body) = raw(&app, "GET", &format!("/g/{id}.gif"), &[("Accept-Encoding", "gzip")]);
    assert_eq!(status, 200);
    assert_eq!(headers.get("content-type").unwrap(), "image/gif");
    assert!(
        headers.get("content-encoding").is_none_or(|e| e == "identity"),
        "a GIF is not compressed again"
    );
    assert!(body.starts_with(b"GIF89a"));
    let tag = headers.get("etag").unwrap().to_str().unwrap().to_string();
    let (again, _, _) = raw(&app, "GET", &format!("/g/{id}.gif"), &[("If-None-Match", &tag)]);
    assert_eq!(again, 304);
    let small = raw(&app, "GET", &format!("/g/{id}.gif?size=16"), &[]).2;
    assert!(small.len() < body.len(), "size sets the pixels per tile");
    let cards = demo_card_game_id(&app);
    let a = get(&app, &format!("/g/{cards}.gif"));
    assert_eq!(a.status, 404, "{}", a.body);
    app.stop();
}

/// The Card Game demo's id, from the home page.
fn demo_card_game_id(app: &TestApp) -> String {
    let home = get(app, "/").body;
    home.split("/g/")
        .skip(1)
        .map(|s| &s[..16])
        .find(|g| get(app, &format!("/api/games/{g}")).json()["game"] == "card-game")
        .expect("a Card Game demo")
        .to_string()
}

/// The 2nd-edition demo's id, from the home page.
fn demo_id(app: &TestApp) -> String {
    let home = get(app, "/").body;
    let at = home.find("\">Ada vs Bruno vs Chloé").unwrap();
    home[at - 16..at].to_string()
}

#[test]
fn the_api_stores_a_game_once_and_says_so() {
    let app = spawn_app();
    let game = small_game(["Ann", "Bob"]);
    let first = post(&app, "/api/games", game.as_bytes());
    assert_eq!(first.status, 201, "{}", first.body);
    let id = first.json()["id"].as_str().unwrap().to_string();
    assert_eq!(first.json()["url"], format!("/g/{id}"));
    assert_eq!(first.location.as_deref(), Some(format!("/g/{id}").as_str()));
    let again = post(&app, "/api/games", game.as_bytes());
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["id"], id.as_str());
    // The same game with other white space is the same game.
    let reformatted = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&game).unwrap()).unwrap();
    assert_eq!(post(&app, "/api/games", reformatted.as_bytes()).status, 200);
    assert_eq!(app.stored_games(), 4, "the demos and this game");
    app.stop();
}

#[test]
fn a_jcz_save_and_its_native_export_share_one_link() {
    let Some(jcz) = shared_jcz() else { return };
    let app = spawn_app();
    let a = post(&app, "/api/games", &jcz);
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let native = get(&app, &format!("/g/{id}.json"));
    assert_eq!(native.status, 200);
    assert!(native.body.contains("carcassonne-replay/1"));
    let b = post(&app, "/api/games", native.body.as_bytes());
    assert_eq!((b.status, b.json()["id"].as_str()), (200, Some(id.as_str())));
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["source_format"], "JCloisterZone .jcz");
    assert_eq!(game["final_scores"], serde_json::json!([11, 11]));
    app.stop();
}

fn shared_jcz() -> Option<Vec<u8>> {
    let p = common::fixtures_dir()?.join("games/jcz/basic-c1/basic-c1-001-2p.jcz");
    Some(std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display())))
}

#[test]
fn the_upload_form_takes_a_file_or_pasted_text_and_redirects() {
    let app = spawn_app();
    let file = post_form(&app, "file", Some("game.json"), small_game(["Cleo", "Dan"]).as_bytes());
    assert_eq!(file.status, 303, "{}", file.body);
    let location = file.location.unwrap();
    assert!(location.starts_with("/g/"), "{location}");
    assert_eq!(get(&app, &location).status, 200);
    let pasted = post_form(&app, "text", None, small_game(["Eve", "Finn"]).as_bytes());
    assert_eq!(pasted.status, 303);
    let broken = post_form(&app, "text", None, b"{not json");
    assert_eq!(broken.status, 400);
    assert!(broken.content_type.starts_with("text/html"), "browsers get a page");
    assert!(broken.body.contains("not valid JSON"));
    let empty = post_form(&app, "text", None, b"   ");
    assert_eq!(empty.status, 400);
    app.stop();
}

#[test]
fn every_page_of_a_game_renders() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let game = get(&app, &format!("/g/{id}"));
    assert_eq!(game.status, 200);
    for needle in ["Final scoring", "Points by category", "Replay from the start"] {
        assert!(game.body.contains(needle), "the game page shows the result: {needle:?}");
    }
    assert_eq!(
        get(&app, &format!("/g/{id}/end")).body,
        game.body,
        "the end page is the game page"
    );
    let first = get(&app, &format!("/g/{id}/t/1"));
    assert_eq!(first.status, 200);
    for needle in [
        "Turn 1 of 71",
        "rel=\"next\"",
        &format!("href=\"/g/{id}/t/2\""),
        &format!("/g/{id}/t/1.png"),
        "Ada scores 4: city of 2 tiles × 2 (completed)",
        "<svg class=\"graph\"",
        "og:image",
        "twitter:card",
        "If it ended now",
        "Tiles left",
        "Show the result",
    ] {
        assert!(first.body.contains(needle), "turn page lacks {needle:?}");
    }
    let middle = get(&app, &format!("/g/{id}/t/35"));
    assert!(middle.body.contains("rel=\"prev\"") && middle.body.contains("rel=\"next\""));
    assert_eq!(get(&app, "/static/style.css").status, 200);
    assert_eq!(get(&app, "/static/app.js").status, 200);
    assert_eq!(get(&app, "/static/record.schema.json").status, 200);
    assert_eq!(get(&app, "/static/favicon.svg").status, 200);
    let icon = agent().get(&app.url("/favicon.ico")).call().unwrap();
    assert_eq!(
        (icon.status().as_u16(), icon.headers()["content-type"].to_str().unwrap()),
        (200, "image/png")
    );
    assert!(first.body.contains("rel=\"icon\""), "pages name their icon");
    app.stop();
}

/// The scoreboard row of a player with a score, as the pages write it.
fn score_cell(name: &str, score: i64) -> String {
    // Each name links to its player page.
    format!("{name}</a></td><td>{score}</td>")
}

const DEMO_PLAYERS: [&str; 3] = ["Ada", "Bruno", "Chloé"];

#[test]
fn a_turn_link_never_shows_the_ending() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let finals = get(&app, &format!("/api/games/{id}")).json()["final_scores"].clone();
    let at_30 = get(&app, &format!("/api/games/{id}/turns/30")).json()["scores"].clone();
    let page = get(&app, &format!("/g/{id}/t/30"));
    for (p, name) in DEMO_PLAYERS.iter().enumerate() {
        assert!(
            page.body.contains(&score_cell(name, at_30[p].as_i64().unwrap())),
            "{name}'s score after turn 30"
        );
        assert!(
            !page.body.contains(&score_cell(name, finals[p].as_i64().unwrap())),
            "{name}'s final score"
        );
    }
    for spoiler in ["Final scoring", "Points by category", "Final scores"] {
        assert!(!page.body.contains(spoiler), "turn 30 shows {spoiler:?}");
    }
    assert!(!page.body.contains("/t/31."), "no later board");
    assert!(!page.body.contains(">31. "), "no later move in the turn list");
    assert!(
        page.body.contains(&format!("/g/{id}/t/30/og.png\"")),
        "the preview is this turn's"
    );
    assert!(
        page.body.contains("After turn 30 of 71"),
        "the preview text is this turn's"
    );
    let preview = agent().get(&app.url(&format!("/g/{id}/t/30/og.png"))).call().unwrap();
    assert_eq!(preview.status(), 200);
    let final_preview = agent().get(&app.url(&format!("/g/{id}/og.png"))).call().unwrap();
    assert_ne!(
        preview.headers()["etag"],
        final_preview.headers()["etag"],
        "another image"
    );
    app.stop();
}

#[test]
fn the_last_turn_shows_its_own_scores_and_the_end_is_its_own_step() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let game = get(&app, &format!("/api/games/{id}")).json();
    let last = get(&app, &format!("/api/games/{id}/turns/71")).json()["scores"].clone();
    assert_eq!(last, serde_json::json!([35, 14, 25]), "the demo's scores after turn 71");
    assert_eq!(game["final_scores"], serde_json::json!([46, 42, 54]));
    let page = get(&app, &format!("/g/{id}/t/71"));
    for (p, name) in DEMO_PLAYERS.iter().enumerate() {
        assert!(
            page.body.contains(&score_cell(name, last[p].as_i64().unwrap())),
            "{name} after turn 71"
        );
    }
    assert!(
        page.body.contains(&format!("href=\"/g/{id}/end\" rel=\"next\"")),
        "next: the end"
    );
    let end = get(&app, &format!("/g/{id}/end"));
    for (p, name) in DEMO_PLAYERS.iter().enumerate() {
        assert!(
            end.body
                .contains(&score_cell(name, game["final_scores"][p].as_i64().unwrap()))
        );
    }
    // Every final scoring event is in words, and they add up to the difference shown.
    let listed = end.body.split("<ul class=\"events\">").nth(1).unwrap();
    let events: Vec<&str> = (listed.split("</ul>").next().unwrap())
        .split("<li>")
        .skip(1)
        .filter(|l| l.contains("at the end"))
        .collect();
    assert!(!events.is_empty());
    let mut gained = [0i64; 3];
    for e in &events {
        let points: i64 = e
            .split(" score")
            .nth(1)
            .and_then(|r| r.split([':', ' ']).nth(1))
            .unwrap()
            .parse()
            .unwrap();
        for (p, name) in DEMO_PLAYERS.iter().enumerate() {
            if e.split(':').next().unwrap().contains(name) {
                gained[p] += points;
            }
        }
    }
    for p in 0..3 {
        assert_eq!(
            last[p].as_i64().unwrap() + gained[p],
            game["final_scores"][p].as_i64().unwrap()
        );
    }
    assert!(
        end.body.contains(&format!("href=\"/g/{id}/t/71\" rel=\"prev\"")),
        "back: the last turn"
    );
    app.stop();
}

#[test]
fn turn_zero_shows_the_start() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let start = get(&app, &format!("/g/{id}/t/0"));
    assert_eq!(start.status, 200, "{}", start.body);
    assert!(start.body.contains("The game starts with D at (0,0)"), "{}", start.body);
    assert!(start.body.contains(&format!("/g/{id}/t/0.png")));
    assert!(start.body.contains(&format!("href=\"/g/{id}/t/1\" rel=\"next\"")));
    for name in DEMO_PLAYERS {
        assert!(start.body.contains(&score_cell(name, 0)));
    }
    assert_eq!(get(&app, &format!("/g/{id}/t/72")).status, 404);
    app.stop();
}

/// Sends a raw request whose `Host` and forwarding headers the client chose.
fn raw_get(app: &TestApp, path: &str, host: &str) -> String {
    use std::io::{Read, Write};
    let addr = app.address.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nX-Forwarded-Host: {host}\r\nForwarded: host={host};proto=https\r\nAccept: text/html\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn links_come_from_the_configured_address_never_the_host_header() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    for path in [format!("/g/{id}"), format!("/g/{id}/t/5"), format!("/g/{id}/t/0")] {
        let page = raw_get(&app, &path, "evil.example");
        assert!(
            page.starts_with("HTTP/1.1 200"),
            "{path}: {}",
            &page[..60.min(page.len())]
        );
        assert!(!page.contains("evil.example"), "{path} echoes the Host header");
        assert!(
            page.contains(&format!("content=\"{}/g/{id}", app.address)),
            "{path}: og:url from the configuration"
        );
    }
    app.stop();
}

#[test]
fn the_rules_label_names_the_expansions_and_the_source() {
    use carcassonne_replay::record::{RulesSpec, native};
    use carcassonne_replay::selfplay;
    let app = spawn_app();
    let mut rules = RulesSpec::new(carcassonne_replay::engine::Preset::SecondEdition);
    rules.overrides.river = Some(true);
    rules.overrides.abbot = Some(true);
    let record = selfplay::generate(rules, 2, selfplay::Policy::Greedy, 7).unwrap();
    let id = upload_id(&app, native::to_value(&record).to_string().as_bytes());
    for path in [format!("/g/{id}"), format!("/g/{id}/t/3"), "/".to_string()] {
        let page = get(&app, &path);
        assert!(
            page.body.contains("2nd edition rules with The River and The Abbot"),
            "{path}"
        );
        assert!(page.body.contains("carcassonne-replay JSON"), "{path} names the source");
    }
    app.stop();
}

#[test]
fn many_uploads_at_once_all_succeed() {
    let app = spawn_app();
    let shared = small_game(["Same", "Game"]);
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..16)
            .map(|t| {
                let (app, shared) = (&app, &shared);
                scope.spawn(move || {
                    let mut got = vec![post(app, "/api/games", shared.as_bytes()).status];
                    for i in 0..3 {
                        let game = small_game([&format!("P{t}-{i}"), "Q"]);
                        got.push(post(app, "/api/games", game.as_bytes()).status);
                    }
                    got
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|s| *s == 200 || *s == 201), "{statuses:?}");
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        1 + 16 * 3,
        "each game stored once"
    );
    assert_eq!(app.stored_games(), 4 + 16 * 3, "the three demos and every game once");
    app.stop();
}

/// An agent that gives up after a minute: a request that hangs fails the test.
fn patient_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(60)))
        .build()
        .into()
}

#[test]
fn hostile_uploads_are_refused_and_the_service_keeps_answering() {
    let app = spawn_app();
    let before = app.stored_games();
    for h in common::hostile::records() {
        let response = patient_agent()
            .post(&app.url("/api/games"))
            .header("Content-Type", "application/octet-stream")
            .send(&h.bytes[..])
            .unwrap_or_else(|e| panic!("{}: {e}", h.name));
        let a = answer(response);
        assert!((400..500).contains(&a.status), "{}: {} {}", h.name, a.status, a.body);
        assert_eq!(a.content_type, "application/problem+json", "{}", h.name);
        assert!(
            a.json()["detail"].as_str().unwrap().contains(h.says),
            "{}: {}",
            h.name,
            a.body
        );
        assert_eq!(get(&app, "/livez").status, 200, "after {}", h.name);
    }
    assert_eq!(app.stored_games(), before, "nothing hostile is stored");
    let line = post(&app, "/api/games", &common::hostile::long_line());
    assert_eq!(line.status, 201, "{}", line.body);
    let id = line.json()["id"].as_str().unwrap().to_string();
    assert_eq!(get(&app, &format!("/g/{id}/t/500")).status, 200);
    app.stop();
}

#[test]
fn the_json_api_gives_games_turns_and_the_openapi_document() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["turns"], 71);
    assert_eq!(game["game"], "carcassonne");
    assert_eq!(game["players"][2]["name"], "Chloé");
    let finals: Vec<i64> = game["final_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let turn = get(&app, &format!("/api/games/{id}/turns/1"));
    assert_eq!(turn.status, 200);
    let t = turn.json();
    assert_eq!((t["turn"].as_i64(), t["tile"].as_str()), (Some(1), Some("D")));
    assert!(t["position"].is_array() && t["rotation"].is_number(), "{t}");
    assert_eq!(t["scores"], serde_json::json!([4, 0, 0]));
    let scored = &t["events"].as_array().unwrap()[0];
    assert_eq!(
        (scored["type"].as_str(), scored["points"].as_i64()),
        (Some("scored"), Some(4))
    );
    let last = get(&app, &format!("/api/games/{id}/turns/71")).json();
    for (p, s) in last["scores"].as_array().unwrap().iter().enumerate() {
        assert!(s.as_i64().unwrap() <= finals[p]);
    }
    let openapi = get(&app, "/api/openapi.json").json();
    assert!(openapi["paths"]["/api/games"]["post"].is_object());
    assert!(openapi["paths"]["/api/games/{id}/turns/{n}"]["get"].is_object());
    assert!(openapi["paths"]["/g/{id}/analysis"]["post"].is_object());
    assert!(openapi["paths"]["/api/games/{id}/analysis"]["get"].is_object());
    app.stop();
}

/// The schema the OpenAPI document gives an answer: `method path` answering `status`, as a
/// validator that resolves the document's own references.
fn answer_schema(openapi: &Value, path: &str, method: &str, status: u16) -> jsonschema::Validator {
    let response = &openapi["paths"][path][method]["responses"][status.to_string()];
    let schema = &response["content"]["application/json"]["schema"];
    assert!(
        schema["$ref"].is_string(),
        "{method} {path} {status}: the document names no schema: {response}"
    );
    let mut root = schema.clone();
    root["components"] = openapi["components"].clone();
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("{method} {path} {status}: {e}"))
}

/// Every way the `replay --json` document of a record breaks its schema in the OpenAPI
/// document (`TileReplay` or `CardReplay`).
fn replay_json_errors(openapi: &Value, record: &Path) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["replay", "--json"])
        .arg(record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let name = if doc["game"] == "card-game" {
        "CardReplay"
    } else {
        "TileReplay"
    };
    let root = serde_json::json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": openapi["components"],
    });
    let v = jsonschema::validator_for(&root).unwrap();
    schema_errors(&v, &format!("replay --json {}", record.display()), &doc)
}

/// Every way `answer` breaks its schema, for the failure message.
fn schema_errors(v: &jsonschema::Validator, what: &str, answer: &Value) -> Vec<String> {
    (v.iter_errors(answer))
        .map(|e| format!("{what}: {e} at {}", e.instance_path()))
        .collect()
}

/// The OpenAPI document describes each JSON answer, and the `replay --json` documents, with a
/// schema of its own; real answers of every endpoint, for each game, match theirs.
#[test]
fn the_openapi_document_has_a_schema_for_every_answer_and_real_answers_match_it() {
    let app = spawn_app();
    let openapi = get(&app, "/api/openapi.json").json();
    let schemas = &openapi["components"]["schemas"];
    for name in [
        "CreatedGame",
        "GameAnswer",
        "TurnAnswer",
        "Holdings",
        "HandSizes",
        "QueuedAnswer",
        "AnalysisStatusAnswer",
        "TileReplay",
        "CardReplay",
        "Breakdown",
        "StoredEvent",
        "CardEvent",
    ] {
        assert!(schemas[name].is_object(), "no schema {name}");
    }
    let mut errors = Vec::new();

    let created = answer_schema(&openapi, "/api/games", "post", 201);
    let again = answer_schema(&openapi, "/api/games", "post", 200);
    let game = answer_schema(&openapi, "/api/games/{id}", "get", 200);
    let turn = answer_schema(&openapi, "/api/games/{id}/turns/{n}", "get", 200);
    let queued = answer_schema(&openapi, "/g/{id}/analysis", "post", 202);
    let status = answer_schema(&openapi, "/api/games/{id}/analysis", "get", 200);
    let tile_turn = serde_json::json!({"turn": 1, "player": 0, "tile": "D", "position": [0, 1]});
    assert!(
        !schema_errors(&turn, "", &tile_turn).is_empty(),
        "a turn without its rotation, meeple and snapshot matches no schema"
    );

    let small = post(&app, "/api/games", small_game(["Ann", "Bob"]).as_bytes());
    assert_eq!(small.status, 201, "{}", small.body);
    errors.extend(schema_errors(&created, "a new upload", &small.json()));
    let small = small.json()["id"].as_str().unwrap().to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games");
    for demo in ["demo-second-edition.json", "demo-new-world.json", "demo-card-game.json"] {
        let a = post(&app, "/api/games", &std::fs::read(root.join(demo)).unwrap());
        assert_eq!(a.status, 200, "the demo is stored at start: {}", a.body);
        errors.extend(schema_errors(&again, demo, &a.json()));
        let id = a.json()["id"].as_str().unwrap().to_string();
        let g = get(&app, &format!("/api/games/{id}")).json();
        errors.extend(schema_errors(&game, demo, &g));
        for n in 1..=g["turns"].as_u64().unwrap() {
            let t = get(&app, &format!("/api/games/{id}/turns/{n}")).json();
            errors.extend(schema_errors(&turn, &format!("{demo} turn {n}"), &t));
        }
        let none = get(&app, &format!("/api/games/{id}/analysis")).json();
        assert_eq!(none["status"], "none");
        errors.extend(schema_errors(&status, demo, &none));
        errors.extend(replay_json_errors(&openapi, &root.join(demo)));
    }

    let q = post(&app, &format!("/g/{small}/analysis"), b"");
    assert_eq!(q.status, 202, "{}", q.body);
    errors.extend(schema_errors(&queued, "a queued analysis", &q.json()));
    let done = loop {
        let s = get(&app, &format!("/api/games/{small}/analysis")).json();
        errors.extend(schema_errors(&status, "an analysis under way", &s));
        if s["status"] == "done" {
            break s;
        }
        assert_ne!(s["status"], "failed", "{s}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(done["result"]["players"].is_array(), "{done}");
    errors.extend(schema_errors(&status, "a done analysis", &done));
    app.stop();
    assert!(
        errors.is_empty(),
        "answers that do not match their schema:\n{}",
        errors.join("\n")
    );
}

#[test]
fn errors_are_problem_json_with_the_right_status_and_nothing_is_stored() {
    let app = spawn_app();
    let before = app.stored_games();

    let broken = post(&app, "/api/games", b"{\"format\": ");
    assert_eq!(broken.status, 400);
    assert_eq!(broken.content_type, "application/problem+json");
    assert_eq!(broken.json()["status"], 400);

    let big = vec![b' '; 50 * 1024 * 1024];
    let too_large = post(&app, "/api/games", &big);
    assert_eq!(too_large.status, 413, "{}", too_large.body);
    assert_eq!(too_large.content_type, "application/problem+json");

    let illegal = small_game(["Ann", "Bob"]).replace(
        r#""at": [0, 1], "rotation": 0, "meeple": {"feature": "cloister"}"#,
        r#""at": [5, 5], "rotation": 0"#,
    );
    let a = post(&app, "/api/games", illegal.as_bytes());
    assert_eq!(a.status, 422, "{}", a.body);
    let p = a.json();
    assert_eq!(p["turn"], 3);
    assert_eq!(p["player"], "Ann");
    assert_eq!(p["reason"], "(5,5) touches no placed tile");
    assert!(p["detail"].as_str().unwrap().starts_with("turn 3 (Ann)"));

    let unknown_tile = small_game(["Ann", "Bob"]).replace(r#""tile": "B""#, r#""tile": "Q9""#);
    assert_eq!(post(&app, "/api/games", unknown_tile.as_bytes()).status, 422);

    let missing = get(&app, "/api/games/0000000000000000");
    assert_eq!(
        (missing.status, missing.content_type.as_str()),
        (404, "application/problem+json")
    );
    assert_eq!(get(&app, "/api/games/0000000000000000/turns/1").status, 404);
    assert_eq!(get(&app, "/nowhere").status, 404);
    let page = get_html(&app, "/g/0000000000000000");
    assert_eq!(page.status, 404);
    assert!(
        page.content_type.starts_with("text/html"),
        "browsers get a friendly page"
    );
    assert!(page.body.contains("Back to the upload form"));
    let id = upload_id(&app, small_game(["Gil", "Hal"]).as_bytes());
    assert_eq!(
        get_html(&app, &format!("/g/{id}/t/4")).status,
        404,
        "the game has 3 turns"
    );

    assert_eq!(app.stored_games(), before + 1, "only the legal game was stored");
    app.stop();
}

#[test]
fn player_names_are_text_never_markup() {
    let app = spawn_app();
    let id = upload_id(
        &app,
        small_game(["<script>alert(1)</script>", "Bob & <b>Co</b>"]).as_bytes(),
    );
    for path in ["/".to_string(), format!("/g/{id}"), format!("/g/{id}/t/1")] {
        let page = get(&app, &path);
        assert!(
            !page.body.contains("<script>alert(1)</script>"),
            "{path} shows the name as markup"
        );
        assert!(!page.body.contains("<b>Co</b>"), "{path} shows the name as markup");
        assert!(
            page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;") || page.body.contains("&#60;script&#62;"),
            "{path} lost the name"
        );
    }
    app.stop();
}

#[test]
fn games_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kept.sqlite");
    let app = spawn_app_at(db.clone(), None);
    let id = upload_id(&app, small_game(["Ivy", "Jo"]).as_bytes());
    app.stop();
    let again = spawn_app_at(db, None);
    let game = get(&again, &format!("/api/games/{id}"));
    assert_eq!(game.status, 200);
    assert_eq!(game.json()["players"][0]["name"], "Ivy");
    assert_eq!(again.stored_games(), 4, "the demos are not loaded twice");
    again.stop();
    drop(dir);
}

#[test]
fn in_a_browser_the_arrow_keys_step_through_turns() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    browser.open(&app.url(&format!("/g/{id}/t/1")));
    let title = browser.call("GET", &browser.session("/title"), None);
    assert!(
        title["value"].as_str().unwrap_or_default().contains("turn 1"),
        "{title}"
    );
    const ARROW_RIGHT: &str = "\u{E014}";
    const ARROW_LEFT: &str = "\u{E012}";
    const END: &str = "\u{E010}";
    browser.press(ARROW_RIGHT);
    assert!(
        browser.wait_for_url(&format!("/g/{id}/t/2")),
        "→ should open turn 2, at {}",
        browser.current_url()
    );
    browser.press(ARROW_LEFT);
    assert!(
        browser.wait_for_url(&format!("/g/{id}/t/1")),
        "← should go back, at {}",
        browser.current_url()
    );
    browser.press(END);
    assert!(
        browser.wait_for_url(&format!("/g/{id}/t/71")),
        "End opens the last turn"
    );
    browser.press("j");
    assert!(
        browser.wait_for_url(&format!("/g/{id}/end")),
        "after the last turn comes the end of the game, at {}",
        browser.current_url()
    );
    const HOME: &str = "\u{E011}";
    browser.press(HOME);
    assert!(browser.wait_for_url(&format!("/g/{id}/t/0")), "Home opens the start");
    drop(browser);
    app.stop();
}

fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn bga_logs_and_course_games_upload_like_any_record() {
    let app = spawn_app();
    for (path, format) in [
        ("tests/fixtures/bga/discard.json", "Board Game Arena log"),
        ("static/games/course-example.txt", "course notation"),
    ] {
        let a = post(&app, "/api/games", &repo_file(path));
        assert_eq!(a.status, 201, "{path}: {}", a.body);
        let id = a.json()["id"].as_str().unwrap().to_string();
        let game = get(&app, &format!("/api/games/{id}")).json();
        assert!(
            game["source_format"].as_str().unwrap().contains(format),
            "{path}: {game}"
        );
        assert_eq!(get(&app, &format!("/g/{id}/t/1")).status, 200);
    }
    let before = app.stored_games();
    let mismatch = post(&app, "/api/games", &repo_file("tests/fixtures/bga/score-mismatch.json"));
    assert_eq!(
        mismatch.status, 422,
        "BGA's own scores disagree with ours: {}",
        mismatch.body
    );
    assert!(mismatch.json()["detail"].as_str().unwrap().starts_with("turn 1"));
    let truncated = post(&app, "/api/games", &repo_file("tests/fixtures/bga/truncated.json"));
    assert_eq!(truncated.status, 422, "{}", truncated.body);
    assert_eq!(app.stored_games(), before, "nothing is stored on error");
    app.stop();
}

#[test]
fn a_game_downloads_as_jcz_and_csv() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let jcz = get(&app, &format!("/g/{id}.jcz"));
    assert_eq!(jcz.status, 200);
    assert!(jcz.json()["setup"]["sets"].is_object(), "a JCloisterZone save");
    let again = post(&app, "/api/games", jcz.body.as_bytes());
    assert_eq!(
        (again.status, again.json()["id"].as_str()),
        (200, Some(id.as_str())),
        "the .jcz is the same game"
    );
    let csv = get(&app, &format!("/g/{id}.csv"));
    assert_eq!(csv.status, 200);
    assert!(csv.content_type.starts_with("text/csv"));
    assert!(
        csv.body.starts_with("turn,phase,player,feature"),
        "{}",
        &csv.body[..80.min(csv.body.len())]
    );
    assert!(csv.body.lines().count() > 20);
    app.stop();
}

#[test]
fn board_images_are_cached_and_revalidated_by_etag() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let path = format!("/g/{id}/t/30.png?size=48&overlay=ownership,last-move");
    let first = agent().get(&app.url(&path)).call().unwrap();
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["content-type"], "image/png");
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert!(etag.starts_with('"'), "a strong ETag: {etag}");
    assert!(
        first.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("max-age=31536000")
    );
    let mut first = first;
    let bytes = first.body_mut().read_to_vec().unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
    let second = agent().get(&app.url(&path)).call().unwrap();
    assert_eq!(
        second.headers()["etag"].to_str().unwrap(),
        etag,
        "the same image has the same ETag"
    );
    let revalidated = agent()
        .get(&app.url(&path))
        .header("If-None-Match", &etag)
        .call()
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    let other = agent()
        .get(&app.url(&format!("/g/{id}/t/31.png?size=48&overlay=ownership,last-move")))
        .call()
        .unwrap();
    assert_ne!(
        other.headers()["etag"].to_str().unwrap(),
        etag,
        "another turn is another image"
    );

    let svg = get(&app, &format!("/g/{id}/t/1.svg"));
    assert_eq!((svg.status, svg.content_type.as_str()), (200, "image/svg+xml"));
    assert!(svg.body.starts_with("<svg") || svg.body.starts_with("<?xml"));
    for path in [format!("/g/{id}.png"), format!("/g/{id}/og.png")] {
        let a = agent().get(&app.url(&path)).call().unwrap();
        assert_eq!(a.status(), 200, "{path}");
    }
    assert_eq!(get(&app, &format!("/g/{id}/t/99.png")).status, 404);
    assert_eq!(get(&app, &format!("/g/{id}/t/1.png?overlay=sparkles")).status, 400);
    app.stop();
}

#[test]
fn a_turns_alternatives_are_listed_ranked_and_each_can_be_shown() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let page = get(&app, &format!("/g/{id}/t/2/alternatives"));
    assert_eq!(page.status, 200, "{}", page.body);
    let heading = format!("what else could Bob do with <img class=\"tile\" src=\"/g/{id}/tiles/V.svg\"");
    assert!(
        page.body.contains(&heading) && page.body.contains("> V?</h1>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<strong>played</strong>"),
        "the move played is marked"
    );
    let first_alt = page
        .body
        .split(&format!("/g/{id}/t/2/alt/"))
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    let k: usize = first_alt.trim_end_matches(".png?size=16").parse().unwrap();
    let alt = get(&app, &format!("/g/{id}/t/2/alt/{k}"));
    assert_eq!(alt.status, 200, "{}", alt.body);
    assert!(alt.body.contains("Rank") && alt.body.contains("Points now"));
    let png = agent()
        .get(&app.url(&format!("/g/{id}/t/2/alt/{k}.png?size=16")))
        .call()
        .unwrap();
    assert_eq!(png.status(), 200);
    // The list's thumbnails show the square played and its neighbours, readable at 64 px.
    let close = format!("/g/{id}/t/2/alt/{k}.png?size=64&amp;view=close");
    assert!(page.body.contains(&close), "the list shows close views");
    let mut thumb = agent().get(&app.url(&close.replace("&amp;", "&"))).call().unwrap();
    let bytes = thumb.body_mut().read_to_vec().unwrap();
    let side = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((side(16), side(20)), (192, 192), "three squares of 64 px each way");
    let bad = get(&app, &format!("/g/{id}/t/2/alt/{k}.png?view=sideways"));
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(get(&app, &format!("/g/{id}/t/2/alt/9999")).status, 404);
    assert_eq!(get(&app, &format!("/g/{id}/t/9/alternatives")).status, 404);
    app.stop();
}

/// A turn page is built once and then served as it was built: gzipped, with a strong ETag,
/// revalidated (304) by a browser that holds it. It is built anew when what it shows of the
/// game's analysis changes.
#[test]
fn a_turn_page_is_served_as_built_until_the_analysis_changes_it() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let page = format!("/g/{id}/t/2");
    let gzip = [("Accept-Encoding", "gzip")];
    let (status, first, zipped) = raw(&app, "GET", &page, &gzip);
    assert_eq!(status, 200);
    assert_eq!(first.get("content-encoding").unwrap(), "gzip");
    assert_eq!(first.get("cache-control").unwrap(), "no-cache");
    let tag = first.get("etag").unwrap().to_str().unwrap().to_string();
    let (_, again, same) = raw(&app, "GET", &page, &gzip);
    assert_eq!(
        (again.get("etag").unwrap().to_str().unwrap(), &same),
        (tag.as_str(), &zipped)
    );
    let (status, _, body) = raw(
        &app,
        "GET",
        &page,
        &[("Accept-Encoding", "gzip"), ("If-None-Match", &tag)],
    );
    assert_eq!((status, body.len()), (304, 0));
    let plain = get_html(&app, &page);
    assert!(plain.body.contains("Analyse the whole game"), "{}", plain.body);

    analyse(&app, &id);
    let (status, after, _) = raw(
        &app,
        "GET",
        &page,
        &[("Accept-Encoding", "gzip"), ("If-None-Match", &tag)],
    );
    assert_eq!(status, 200, "the analysis changed the page");
    assert_ne!(after.get("etag").unwrap().to_str().unwrap(), tag);
    assert!(
        get_html(&app, &page)
            .body
            .contains("The game is analysed: see the analysis")
    );
    app.stop();
}

/// Queues a game's analysis and waits for it; the finished status.
fn analyse(app: &TestApp, id: &str) -> Value {
    let queued = post(app, &format!("/g/{id}/analysis"), b"");
    assert_eq!(queued.status, 202, "{}", queued.body);
    let mut status = Value::Null;
    for _ in 0..600 {
        status = get(app, &format!("/api/games/{id}/analysis")).json();
        if status["status"] == "done" || status["status"] == "failed" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(status["status"], "done", "{status}");
    status
}

#[test]
fn a_card_game_is_analysed_turn_by_turn_and_whole() {
    use carcassonne_replay::record::{AnyRecord, parse_any};
    let app = spawn_app();
    let text = card_game(9);
    let id = upload_id(&app, text.as_bytes());
    let AnyRecord::Cards(record) = parse_any(text.as_bytes()).unwrap() else {
        panic!("a Card Game record")
    };
    // One turn's alternatives, weighed on demand: every legal action, the played one marked.
    let position = carcassonne_replay::replay::cards::position_at(&record, 4).unwrap();
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    let page = get_html(&app, &format!("/g/{id}/t/5/alternatives"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        page.body.matches("<tr").count(),
        1 + legal.len(),
        "a row per legal action"
    );
    assert_eq!(page.body.matches("<strong>played</strong>").count(), 1);
    assert!(page.body.contains("could not see"), "the page says what is sampled");
    // Each action links to the table with it played: the explore board from the turn.
    // Each link's address, and its words up to the next tag.
    let on_table = |body: &str, n: u32| -> Vec<(String, String)> {
        let link = format!("href=\"/g/{id}/t/{n}/explore?line=");
        (body.match_indices(&link))
            .map(|(i, _)| {
                let (href, rest) = body[i + 6..].split_once('"').unwrap();
                let words = rest.split_once('>').unwrap().1.split('<').next().unwrap();
                (href.replace("&amp;", "&"), words.to_string())
            })
            .collect()
    };
    let shown = on_table(&page.body, 5);
    let mut words: Vec<String> = legal.iter().map(carcassonne_replay::replay::cards::move_text).collect();
    let mut linked: Vec<String> = shown.iter().map(|(_, w)| w.replace("&gt;", ">")).collect();
    words.sort();
    linked.sort();
    assert_eq!(linked, words, "every action is shown on the table");
    for (href, words) in &shown {
        let table = get_html(&app, href);
        assert_eq!(table.status, 200, "{href}");
        assert!(table.body.contains(words.as_str()), "{href} plays {words}");
    }
    // And how each sample is played on, as the analysis does it now: to the round's end by the
    // patient bot, then the learned evaluation; no more "played to the end" by greedy bots.
    let method = "each sample then played to the end of the round by the patient bot for every player \
                  (the greedy one, but for its follower, which waits for a row worth 32 points), then \
                  valued by the learned evaluation of the rounds to come.";
    let says_method = |body: &str| body.contains(method) && !body.contains("played to the end with every player");
    assert!(says_method(&page.body), "{}", page.body);
    // The whole game in the background, the same pages as the tile game's.
    let status = analyse(&app, &id);
    let stored = get_html(&app, &format!("/g/{id}/t/5/alternatives")).body;
    assert!(says_method(&stored), "the stored analysis's method: {stored}");
    let turns = status["result"]["turns"].as_array().unwrap();
    assert_eq!(turns.len(), record.moves.len());
    assert!(
        turns
            .iter()
            .all(|t| t["points_lost"].as_f64().is_some_and(|l| l >= 0.0))
    );
    let players = status["result"]["players"].as_array().unwrap();
    let analysed: u64 = players.iter().map(|p| p["turns"].as_u64().unwrap()).sum();
    assert_eq!(
        analysed as usize,
        record.moves.len(),
        "every turn counts for its player"
    );
    let page = get_html(&app, &format!("/g/{id}/analysis"));
    assert!(
        page.body.contains("Action played") && page.body.contains("Bot 1"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(
            "played to the end of the round by the patient bot for every player (the greedy one, but for its \
             follower, which waits for a row worth 32 points), then valued by the learned evaluation"
        ),
        "the analysis page says who played the samples out"
    );
    // A best action other than the one played is shown on the table too.
    let worse = turns.iter().find(|t| t["points_lost"].as_f64() > Some(0.0)).unwrap();
    let n = worse["turn"].as_u64().unwrap() as u32;
    assert_eq!(on_table(&page.body, n).len(), 1, "turn {n}'s best action");
    // Chances of winning, as the tile game's pages show them.
    assert!(page.body.contains("<svg class=\"graph chances\"") && page.body.contains("Accuracy"));
    let chance_cells = page.body.matches("%</td>").count();
    assert!(chance_cells >= record.moves.len(), "a chance per turn: {chance_cells}");
    let end = get(&app, &format!("/g/{id}"));
    assert!(end.body.contains("<svg class=\"graph chances\"") && end.body.contains("class=\"accuracy\""));
    let turn = get(&app, &format!("/g/{id}/t/5"));
    assert!(
        turn.body.contains("<svg class=\"graph chances\""),
        "a turn page: chances up to it"
    );
    assert_eq!(
        get(&app, &format!("/g/{id}/t/5/alt/0")).status,
        404,
        "no board to draw an alternative on"
    );
    app.stop();
}

/// A Card Game's mistakes are reviewed as a tile game's: the analysis page links them, and a
/// mistake's page shows the table before the action with the mover's hand, offers every legal
/// action as a link, judges an answer without naming the best, and names the best on request.
#[test]
fn a_card_games_mistakes_are_reviewed_from_the_table() {
    use carcassonne_replay::engine::cards::CardMove;
    use carcassonne_replay::record::{AnyRecord, Line, parse_any};
    use carcassonne_replay::replay::cards::{move_text, position_at};
    let app = spawn_app();
    let text = card_game(9);
    let id = upload_id(&app, text.as_bytes());
    let AnyRecord::Cards(record) = parse_any(text.as_bytes()).unwrap() else {
        panic!("a Card Game record")
    };
    assert_eq!(get(&app, &format!("/g/{id}/mistake/1")).status, 404, "no analysis yet");
    analyse(&app, &id);
    let analysis = get_html(&app, &format!("/g/{id}/analysis")).body;
    let link = format!("href=\"/g/{id}/mistake/");
    let n: usize = analysis
        .split(&link)
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a mistake to review")
        .parse()
        .unwrap();
    assert!(analysis.contains("review them"), "the accuracy table links the review");
    let address = format!("/g/{id}/mistake/{n}");
    let page = get_html(&app, &address);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("What was better?") && page.body.contains("<svg"));
    let mut legal = Vec::new();
    position_at(&record, n - 1).unwrap().legal_moves(&mut legal);
    assert_eq!(
        page.body.matches(&format!("href=\"{address}?action=")).count(),
        legal.len(),
        "every legal action is an answer"
    );
    let answer = |mv: &CardMove| get_html(&app, &format!("{address}?action={}", Line::<CardMove>::of(vec![*mv])));
    let played = answer(&record.moves[n - 1].mv);
    assert!(
        played.body.contains("No better than the move played"),
        "{}",
        played.body
    );
    let revealed = get_html(&app, &format!("{address}?reveal=1")).body;
    let best = revealed
        .split("The best action: ")
        .nth(1)
        .unwrap()
        .split(". ")
        .next()
        .unwrap();
    let best = best.replace("&gt;", ">");
    let best = legal
        .iter()
        .find(|m| move_text(m) == best)
        .expect("the best is a legal action");
    assert!(
        revealed.contains(&format!("/g/{id}/t/{n}/explore?line=")),
        "shown on the table"
    );
    assert!(answer(best).body.contains("Found: that move is as good as the best"));
    for bad in ["?action=purple-9,road", "?action=red-3,road~keep", "?square=0,0"] {
        let refused = get(&app, &format!("{address}{bad}"));
        assert_eq!(refused.status, 400, "{bad}");
        assert!(!refused.body.contains("purple"), "not echoed");
    }
    let calm = (1..=record.moves.len())
        .find(|k| !analysis.contains(&format!("{link}{k}\"")))
        .unwrap();
    assert_eq!(get(&app, &format!("/g/{id}/mistake/{calm}")).status, 404);
    app.stop();
}

#[test]
fn a_queued_analysis_runs_in_the_background_and_is_stored() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    assert_eq!(get(&app, &format!("/api/games/{id}/analysis")).json()["status"], "none");
    let status = analyse(&app, &id);
    let turns = status["result"]["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3);
    assert!(turns.iter().all(|t| t["played_rank"].as_u64().is_some()));
    // A move ranked first loses nothing, and a move that lost points is not too close to call.
    for t in turns {
        assert!(t["played_rank"] != 1 || t["points_lost"] == 0.0, "{t}");
        assert!(t["too_close"] == false || t["points_lost"] == 0.0, "{t}");
    }
    let page = get(&app, &format!("/g/{id}/analysis"));
    assert!(
        page.body.contains("Points lost") && page.body.contains("Average per move"),
        "{}",
        page.body
    );
    let picture =
        format!("<img class=\"tile\" src=\"/g/{id}/tiles/V.svg\" width=\"24\" height=\"24\" alt=\"\"> V</td>");
    assert!(
        page.body.contains(&picture),
        "tiles as pictures and names: {}",
        page.body
    );
    // Once analysed, the pages show chances of winning: the end page with each player's
    // accuracy, a turn page only up to its turn, the analysis page turn by turn.
    assert!(page.body.contains(">Chance after</th>") && page.body.contains("Accuracy"));
    // Turn by turn: who moved and the best move; how a loss is measured is said.
    assert!(page.body.contains("<th>Best move</th>"), "{}", page.body);
    let movers = page.body.matches("<td class=\"who\">").count();
    assert_eq!(movers, 3, "a player per turn");
    assert!(page.body.contains("less than two standard errors from the best"));
    // The chart has axes and a legend naming each line and the markers.
    let legend = &page.body[page.body.find("<ul class=\"legend\">").expect("a legend")..];
    assert!(legend.contains("Ann") && legend.contains("Bob") && legend.contains("blunder ??"));
    assert!(page.body.contains(">100%</text>") && page.body.contains(">turn</text>"));
    let end = get(&app, &format!("/g/{id}"));
    assert!(end.body.contains("<svg class=\"graph chances\""), "{}", end.body);
    for name in ["Ann", "Bob"] {
        let row = end.body.split("<table class=\"accuracy\">").nth(1).unwrap();
        let cell = row
            .split(&format!("{name}</td><td>"))
            .nth(1)
            .expect("an accuracy row per player");
        let percent: f64 = cell[..cell.find('%').unwrap()].parse().unwrap();
        assert!((0.0..=100.0).contains(&percent), "{name}: {percent}");
    }
    let first = get(&app, &format!("/g/{id}/t/1"));
    assert!(first.body.contains("graph chances") && !first.body.contains("class=\"accuracy\""));
    let values = get(&app, &format!("/g/{id}/t/1/alternatives"));
    assert!(values.body.contains(" ± "), "playout values carry their standard error");
    assert_eq!(
        first.body.matches("<polyline class=\"casing\"").count(),
        first.body.matches("<polyline class=\"line\"").count(),
        "every line cased"
    );
    assert_eq!(
        first.body.matches("<polyline class=\"line\"").count(),
        2 + 2,
        "the score graph and the chances graph, a line per player, up to turn 1"
    );
    let tile = get(&app, &format!("/g/{id}/tiles/V.svg"));
    assert_eq!((tile.status, tile.content_type.as_str()), (200, "image/svg+xml"));
    assert!(tile.body.starts_with("<svg") && tile.body.contains("width=\"48\""));
    assert_eq!(get(&app, &format!("/g/{id}/tiles/Nope.svg")).status, 404);
    assert!(
        !page.body.contains("&quot;") && !page.body.contains("&#34;"),
        "no JSON quotes"
    );
    let cells: Vec<&str> = page
        .body
        .split("<td>")
        .skip(1)
        .map(|c| c.split('<').next().unwrap())
        .collect();
    let decimals: Vec<&&str> = cells.iter().filter(|c| c.contains('.')).collect();
    assert!(!decimals.is_empty(), "points are shown");
    assert!(
        decimals
            .iter()
            .all(|c| c.split('.').nth(1).is_some_and(|d| d.len() == 1)),
        "one decimal everywhere: {decimals:?}"
    );
    // Asking again does not run it again.
    assert_eq!(post(&app, &format!("/g/{id}/analysis"), b"").status, 202);
    assert_eq!(get(&app, &format!("/api/games/{id}/analysis")).json()["status"], "done");
    app.stop();
}

/// `subset` holds nothing `whole` does not: every key of an object with the same value, arrays
/// item by item. Answers may gain fields between releases, never lose or change one.
fn missing_from(subset: &Value, whole: &Value, path: &str, out: &mut Vec<String>) {
    match (subset, whole) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => missing_from(v, w, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k} is gone")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                missing_from(v, w, &format!("{path}[{i}]"), out);
            }
        }
        _ if subset != whole => out.push(format!("{path}: was {subset}, now {whole}")),
        _ => {}
    }
}

/// `tests/fixtures/store/previous-release.sqlite` was written by the release before game kinds
/// (commit 56f7622): the demo, a JCloisterZone game with the abbot, one with the river, a Board
/// Game Arena log, the course example and a short game with its analysis done. Next to it,
/// what that release answered for each game, some of its turns and the analysis. Opened now,
/// the file is migrated and every answer is the same, apart from added fields. On
/// PostgreSQL, the same after `copy-db` moved the file there.
#[test]
fn a_database_written_by_the_previous_release_serves_the_same_games() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store");
    let expected = common::read_json(&fixtures.join("previous-release.json"));
    let app = spawn_app_on_previous_release();
    let games = expected["games"].as_array().unwrap();
    assert_eq!(app.stored_games(), games.len() as u64, "no game lost or added");
    let mut differences = Vec::new();
    let mut rerun = None;
    for g in games {
        let id = g["id"].as_str().unwrap();
        let mut check = |path: String, want: &Value| {
            let got = get(&app, &path);
            assert_eq!(got.status, 200, "{path}: {}", got.body);
            missing_from(want, &got.json(), &path, &mut differences);
        };
        check(format!("/api/games/{id}"), &g["game"]);
        for (n, turn) in g["turns"].as_object().unwrap() {
            check(format!("/api/games/{id}/turns/{n}"), turn);
            let now = get(&app, &format!("/api/games/{id}/turns/{n}")).json();
            let order = |v: &Value| -> Vec<String> {
                let keys = v.as_object().unwrap().keys();
                keys.filter(|k| turn.get(k.as_str()).is_some()).cloned().collect()
            };
            assert_eq!(
                order(&now),
                order(turn),
                "turn {n} of {id}: the fields in the same order"
            );
        }
        check(format!("/api/games/{id}/analysis"), &g["analysis"]);
        // Every turn reads, not only those kept beside the file: its rows lack members this
        // release writes (a returned meeple's feature), so a reader that expects them fails.
        let turns = get(&app, &format!("/api/games/{id}")).json()["turns"].as_u64().unwrap();
        for n in 1..=turns {
            let turn = get(&app, &format!("/api/games/{id}/turns/{n}"));
            assert_eq!(turn.status, 200, "turn {n} of {id}: {}", turn.body);
        }
        assert_eq!(get_html(&app, &format!("/g/{id}")).status, 200, "the end page of {id}");
        if g["analysis"]["status"] == "done" {
            let page = get_html(&app, &format!("/g/{id}/analysis"));
            assert_eq!(page.status, 200, "the stored analysis of {id} reads: {}", page.body);
            // It is labelled as the older analysis's, and the newer one can be run in its place.
            assert!(page.body.contains("Made by analysis version 1."), "{}", page.body);
            assert!(
                page.body
                    .contains(&format!("Run analysis version {}", analysis::VERSION))
            );
            rerun = Some(id.to_string());
        }
    }
    let id = rerun.expect("the fixture holds a finished analysis");
    let status = analyse(&app, &id);
    assert_eq!(status["result"]["version"], analysis::VERSION, "{status}");
    let page = get_html(&app, &format!("/g/{id}/analysis")).body;
    assert!(
        page.contains(&format!("Made by analysis version {}.", analysis::VERSION)) && !page.contains("Run analysis")
    );
    let again = post(&app, &format!("/g/{id}/analysis"), b"").json();
    assert_eq!(
        get(&app, &format!("/api/games/{id}/analysis")).json()["status"],
        "done",
        "{again}"
    );
    app.stop();
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn on_a_360_pixel_phone_no_page_scrolls_sideways() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = demo_id(&app);
    let cards = demo_card_game_id(&app);
    browser.resize(360, 800);
    let pages = [
        "/".to_string(),
        format!("/g/{id}/t/0"),
        format!("/g/{id}/t/30"),
        format!("/g/{id}"),
        format!("/g/{id}/t/30/alternatives"),
        format!("/g/{id}/analysis"),
        format!("/g/{cards}/t/30"),
        format!("/g/{cards}"),
        format!("/embed/g/{id}/t/30"),
        "/docs".to_string(),
        "/new".to_string(),
    ];
    // Every page of the reference too: its tables and code blocks scroll inside their own box.
    let docs = (carcassonne_replay::web::DOC_PAGES.iter()).map(|p| format!("/docs/{}", p.slug));
    let pages: Vec<String> = pages.into_iter().chain(docs).collect();
    let mut wide = Vec::new();
    // Measured once the page has loaded and laid out; on a loaded machine the first answer can
    // come mid-load, so a page counts as wide only when it still is a moment later.
    let measure = || {
        let mut sizes = Value::Null;
        for _ in 0..20 {
            sizes = browser.wait_for(
                "return document.readyState === 'complete' \
                 && [document.documentElement.scrollWidth, window.innerWidth];",
            );
            if let (Some(content), Some(viewport)) = (sizes[0].as_u64(), sizes[1].as_u64()) {
                return (content, viewport);
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("the page gave no sizes: {sizes}")
    };
    for page in &pages {
        browser.open(&app.url(page));
        let (mut content, mut viewport) = measure();
        for _ in 0..3 {
            if content <= viewport {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
            (content, viewport) = measure();
        }
        assert!(viewport <= 400, "the window is {viewport} px wide");
        if content > viewport {
            wide.push(format!("{page}: {content} px in {viewport}"));
        }
    }
    assert!(wide.is_empty(), "pages wider than the phone: {wide:#?}");
    app.stop();
}

/// On a phone: the turn navigation stays in view at the foot of the page, names keep beside
/// their colour dots when they wrap, a table wider than the screen shows a shadow where it has
/// more, and the board zooms (then pans inside its frame, never the page); without the script
/// a larger picture is a link away.
#[test]
fn on_a_phone_the_navigation_stays_names_keep_their_dots_and_the_board_zooms() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let long = "Bartholomew Maximilian von Longname";
    let id = upload_id(&app, small_game([long, "Bob"]).as_bytes());
    browser.resize(360, 800);
    browser.open(&app.url(&format!("/g/{id}/t/2")));

    browser.eval("window.scrollTo(0, document.body.scrollHeight);");
    let nav = browser.wait_for(
        "const r = document.querySelector('.turn-nav').getBoundingClientRect(); \
         return window.scrollY > 300 && r.top <= 1 && r.bottom > 20 ? [window.scrollY, r.top] : null;",
    );
    assert!(nav.is_array(), "the navigation stays at the top while the page scrolls");

    // Every line of a wrapped name starts right of its dot.
    let lines = browser.eval(
        r#"const out = [];
           for (const dot of document.querySelectorAll('.turn-list .swatch, .scoreboard .swatch')) {
             const text = dot.nextSibling; if (!text) continue;
             const range = document.createRange(); range.selectNodeContents(text);
             const right = dot.getBoundingClientRect().right;
             for (const r of range.getClientRects()) out.push(r.left - right);
           }
           return out;"#,
    );
    let gaps: Vec<f64> = lines.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    let dots = browser.eval("return document.querySelectorAll('.turn-list .swatch, .scoreboard .swatch').length;");
    assert!(
        gaps.len() as u64 > dots.as_u64().unwrap(),
        "a long name wraps: {gaps:?}"
    );
    assert!(gaps.iter().all(|&g| g >= -0.5), "no line under its dot: {gaps:?}");

    // The board zooms inside its frame and back; the page never scrolls sideways.
    let widths = "const f = document.querySelector('.board-frame'); \
                  return [f.querySelector('svg').getBoundingClientRect().width, f.clientWidth, \
                          document.documentElement.scrollWidth, window.innerWidth];";
    let before = browser.eval(widths);
    // Out from under the sticky navigation, where WebDriver would scroll it.
    browser.eval("document.querySelector('.zoom').scrollIntoView({block: 'center'});");
    browser.click(&browser.find("[data-zoom=in]").expect("zoom buttons with the script"));
    browser.click(&browser.find("[data-zoom=in]").unwrap());
    let zoomed = browser.eval(widths);
    let w = |v: &Value, i: usize| v[i].as_f64().unwrap();
    assert!(w(&zoomed, 0) > 2.0 * w(&before, 0), "{before} → {zoomed}");
    assert!(w(&zoomed, 0) > w(&zoomed, 1), "wider than its frame, which pans");
    assert!(
        w(&zoomed, 2) <= w(&zoomed, 3),
        "the page does not scroll sideways: {zoomed}"
    );
    browser.click(&browser.find("[data-zoom=fit]").unwrap());
    assert!(
        w(&browser.eval(widths), 0) <= w(&before, 0) + 0.5,
        "fit shows it whole again"
    );
    let larger = browser.eval("return document.querySelector('.zoom a').getAttribute('href');");
    let picture = get(&app, larger.as_str().unwrap());
    assert_eq!(
        (picture.status, picture.content_type.as_str()),
        (200, "image/png"),
        "{larger}"
    );

    // A table wider than the screen casts a shadow at the edge it scrolls to.
    browser.open(&app.url(&format!("/g/{id}/t/2/alternatives")));
    let cue = browser.eval(
        "const t = [...document.querySelectorAll('table')].find(t => t.scrollWidth > t.clientWidth + 1); \
         return t ? getComputedStyle(t).backgroundImage : null;",
    );
    assert!(
        cue.as_str().is_some_and(|c| c.contains("radial-gradient")),
        "a wide table and its scroll cue: {cue}"
    );
    drop(browser);
    app.stop();
}

/// A point inside the first owned road on the board, where nothing else is on top of it:
/// `[x, y, its note]` in viewport pixels.
const OWNED_ROAD_POINT: &str = r#"
for (const g of document.querySelectorAll('.board-svg .f.line')) {
  const note = g.querySelector('title').textContent;
  if (!note.includes('holds it')) continue;
  for (const path of g.querySelectorAll('path')) {
    const len = path.getTotalLength();
    for (const t of [0.5, 0.3, 0.7]) {
      path.scrollIntoView({block: 'center'});
      const p = path.getPointAtLength(len * t).matrixTransform(path.getScreenCTM());
      const hit = document.elementFromPoint(p.x, p.y);
      if (hit && hit.closest('.f') === g) return [p.x, p.y, note];
    }
  }
}
return null;"#;

/// The centre of an open square that is not dead and not under a badge: `[x, y, fits]`.
const OPEN_SPOT_POINT: &str = r#"
for (const g of document.querySelectorAll('.board-svg .spot:not(.dead)')) {
  const rect = g.querySelector('rect');
  rect.scrollIntoView({block: 'center'});
  const box = rect.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height * 0.7;
  const hit = document.elementFromPoint(x, y);
  if (hit && hit.closest('.spot') === g) return [x, y, JSON.parse(g.dataset.fits)];
}
return null;"#;

#[test]
fn in_a_browser_the_board_answers_where_it_is_pointed_at() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    browser.resize(1300, 1000);
    browser.open(&app.url(&format!("/g/{id}/t/40")));

    // Pointing at a road lights all of it and shows its holder and worth.
    let road = browser.eval(OWNED_ROAD_POINT);
    let (x, y) = (
        road[0].as_f64().expect("an owned road to point at"),
        road[1].as_f64().unwrap(),
    );
    let note = road[2].as_str().unwrap();
    assert!(
        note.contains("Worth ") && note.contains("Chance of completion"),
        "{note}"
    );
    browser.pointer_at(x, y, false);
    let shown = browser.wait_for(
        "const t = document.getElementById('board-info').textContent; return t.includes('holds it') ? t : null;",
    );
    assert_eq!(shown.as_str(), Some(note), "the panel repeats the road's note");
    let lit = browser.eval(
        "const g = document.querySelector('.board-svg .f.on'); \
         return g ? getComputedStyle(g.querySelector('path')).strokeOpacity : null;",
    );
    assert_eq!(lit.as_str(), Some("0.55"), "the road is lit while pointed at");

    // Clicking an open square lists the tiles that fit it, as pictures that load.
    let spot = browser.eval(OPEN_SPOT_POINT);
    let fits = spot[2].as_array().expect("an open square to click").len();
    assert!(fits > 0);
    browser.pointer_at(spot[0].as_f64().unwrap(), spot[1].as_f64().unwrap(), true);
    let pictures = browser.wait_for(
        "const imgs = [...document.querySelectorAll('#board-info img')]; \
         return imgs.length && imgs.every(i => i.complete && i.naturalWidth > 0) ? imgs.length : null;",
    );
    assert_eq!(
        pictures.as_u64(),
        Some(fits as u64),
        "one loaded picture per fitting tile"
    );
    let text = browser.eval("return document.getElementById('board-info').textContent;");
    assert!(text.as_str().unwrap().contains("Tiles left that fit"), "{text}");

    // A ghost's badge opens its alternative; the arrow keys still step through turns. The page
    // is opened afresh, so that the square's note just shown lies over nothing.
    browser.open(&app.url(&format!("/g/{id}/t/40")));
    let ghost = browser.find(".board-svg .badge.alternative").expect("a ghost badge");
    browser.click(&ghost);
    assert!(
        browser.wait_for_url_containing(&format!("/g/{id}/t/40/alt/")),
        "a ghost opens its alternative, at {}",
        browser.current_url()
    );
    browser.open(&app.url(&format!("/g/{id}/t/40")));
    browser.press("\u{E014}");
    assert!(browser.wait_for_url(&format!("/g/{id}/t/41")), "→ still steps on");
    drop(browser);
    app.stop();
}

/// The turn page tracks the tiles. Of every kind left, with its picture: the next player's chance of drawing one
/// next, copies ÷ tiles left, and within their next 3 draws, 1 − C(left − copies, 3) ÷
/// C(left, 3). Of every open square: each player's chance that one of their draws left fits
/// it, the same sum over the draws that fall to them (the mover draws first, then every N-th
/// tile). And every feature a dead square keeps from completion.
#[test]
fn the_turn_page_tracks_the_tiles_left_and_the_chances_of_each() {
    use carcassonne_replay::analysis::{Never, Outlook, board_features, position_spots};
    use carcassonne_replay::replay;
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let record = carcassonne_replay::record::parse(&demo()).unwrap().0;
    let none_of = |bad: u32, left: u32, draws: u32| -> f64 {
        (0..draws)
            .map(|i| f64::from(bad.saturating_sub(i)) / f64::from(left - i))
            .product()
    };
    let percent = |chance: f64| format!("{:.0}%", chance * 100.0);
    let with_dead = (1..=71)
        .find(|&n| {
            let game = replay::replay_upto(&record, None, Some(n)).unwrap().game;
            board_features(&game)
                .iter()
                .any(|f| matches!(f.outlook, Outlook::Never(Never::DeadSpot(_))))
        })
        .expect("the demo has a feature a dead square kills");
    for n in [0, 40, with_dead] {
        let game = replay::replay_upto(&record, None, Some(n)).unwrap().game;
        let body = get(&app, &format!("/g/{id}/t/{n}")).body;
        let left = game.pack_left();
        let players = record.players.len() as u32;
        let mover = u32::from(game.current_player());
        let draws = |p: u32| (0..left).filter(|k| (mover + k) % players == p).count() as u32;
        let name = &record.players[mover as usize].name;
        assert!(body.contains(&format!("{name} draws next")), "turn {n}");
        for (kind, &copies) in game.pack().iter().enumerate().filter(|(_, c)| **c > 0) {
            let tile = record
                .setup
                .catalog
                .name(carcassonne_replay::engine::TileKindId(kind as u16));
            let (copies, within) = (u32::from(copies), draws(mover).min(3));
            let row = format!(
                "<tr><td><img class=\"tile\" src=\"/g/{id}/tiles/{tile}.svg\" width=\"24\" height=\"24\" alt=\"\" loading=\"lazy\"> {tile}</td><td>{copies}</td><td>{}</td><td>{}</td></tr>",
                percent(f64::from(copies) / f64::from(left)),
                percent(1.0 - none_of(left - copies, left, within))
            );
            assert!(body.contains(&row), "turn {n}: {row}");
        }
        // A square some tile fits is a row; the dead ones are listed once, not as rows of 0%.
        let (live, dead): (Vec<_>, Vec<_>) = position_spots(&game).into_iter().partition(|s| s.fits > 0);
        for spot in live {
            let chances: String = (0..players)
                .map(|p| format!("<td>{}</td>", percent(1.0 - none_of(left - spot.fits, left, draws(p)))))
                .collect();
            let row = format!("<tr><td>{}</td><td>{}</td>{chances}</tr>", spot.pos, spot.fits);
            assert!(body.contains(&row), "turn {n}: {row}");
        }
        for spot in &dead {
            assert!(
                !body.contains(&format!("<tr><td>{}</td><td>0</td>", spot.pos)),
                "turn {n}"
            );
        }
        if !dead.is_empty() {
            let mut squares: Vec<_> = dead.iter().map(|s| s.pos).collect();
            squares.sort();
            let listed = squares.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            let said = format!(
                "{} dead (crossed out on the board: no tile left fits them): {listed}.",
                dead.len()
            );
            assert!(body.contains(&said), "turn {n}: {said}");
        }
        for f in board_features(&game) {
            if let Outlook::Never(Never::DeadSpot(at)) = f.outlook {
                let tiles = if f.tiles == 1 {
                    "1 tile".to_string()
                } else {
                    format!("{} tiles", f.tiles)
                };
                let words = format!("of {tiles} (needs {at})");
                let said = body
                    .split("Never completed, for a square no tile left can fill: ")
                    .nth(1)
                    .unwrap_or_default();
                assert!(
                    said.contains(&words),
                    "turn {n}: {words} in {}",
                    &said[..said.len().min(300)]
                );
            }
        }
    }
    app.stop();
}

/// The turn page's board is inline SVG that reads without JavaScript: a note (tooltip) on every
/// feature, every open square with the tiles that fit it, dead squares crossed out, and up to
/// three ghosts, only of placements better than the one played, each labelled with its value's
/// unit and source and linking to its alternative, beside the move played.
#[test]
fn the_turn_board_is_inline_svg_with_a_note_on_every_feature_and_square() {
    use carcassonne_replay::analysis::{Outlook, board_features, dead_spots};
    use carcassonne_replay::replay;
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let record = carcassonne_replay::record::parse(&demo()).unwrap().0;
    let with_dead = (1..=71)
        .find(|&n| !dead_spots(&replay::replay_upto(&record, None, Some(n)).unwrap().game).is_empty())
        .expect("the demo has a turn with a dead spot");
    let mut ghosted = 0;
    for n in [0, with_dead, 40, 71] {
        let game = replay::replay_upto(&record, None, Some(n)).unwrap().game;
        let page = get(&app, &format!("/g/{id}/t/{n}"));
        assert_eq!(page.status, 200);
        let body = &page.body;
        assert_eq!(
            body.matches("<svg").count(),
            2,
            "turn {n}: the board and the score graph"
        );
        assert!(body.contains("class=\"board-svg\""));
        let notes = body.matches("<g class=\"f ").count();
        assert_eq!(notes, board_features(&game).len(), "turn {n}: a note per feature");
        // A completed feature paid its holders; one nobody held paid nobody, and says so.
        let completed = board_features(&game)
            .into_iter()
            .filter(|f| f.outlook == Outlook::Complete);
        let (held, unheld): (Vec<_>, Vec<_>) = completed.partition(|f| !f.owners.is_empty());
        assert_eq!(body.matches("Completed: it paid").count(), held.len(), "turn {n}");
        assert_eq!(body.matches(": nobody held it").count(), unheld.len(), "turn {n}");
        let dead = body.matches("<g class=\"spot dead\"").count();
        assert_eq!(dead, dead_spots(&game).len(), "turn {n}: dead squares are marked");
        let open = body.matches("<g class=\"spot\" data-spot").count();
        assert_eq!(
            open + dead,
            game.board().frontier().len(),
            "turn {n}: every open square"
        );
        let ghosts: Vec<&str> = body
            .split("<a href=\"")
            .skip(1)
            .filter(|a| a.contains("class=\"badge alternative\""))
            .map(|a| &a[..a.find('"').unwrap()])
            .collect();
        if n == 0 {
            assert!(
                ghosts.is_empty() && !body.contains("badge played"),
                "the start has no move"
            );
            continue;
        }
        assert!(ghosts.len() <= 3, "turn {n}: {} ghosts", ghosts.len());
        assert!(
            body.contains("class=\"badge played\""),
            "turn {n}: the move played is marked"
        );
        // Only placements better than the one played, each with its unit and source.
        let rank_after = |text: &str, mark: &str| -> u32 {
            let at = &text[text.find(mark).unwrap() + mark.len()..];
            at[..at.find(|c: char| !c.is_ascii_digit()).unwrap()].parse().unwrap()
        };
        let played = rank_after(body, "The move played: #");
        let titles: Vec<&str> = body.split("class=\"badge alternative\"><title>").skip(1).collect();
        for title in &titles {
            let title = &title[..title.find("</title>").unwrap()];
            assert!(rank_after(title, "Alternative #") < played, "turn {n}: {title}");
            assert!(
                title.contains("Heuristic value") && title.contains("points"),
                "turn {n}: the value's unit and source: {title}"
            );
        }
        ghosted += titles.len();
        for href in ghosts {
            assert!(href.starts_with(&format!("/g/{id}/t/{n}/alt/")), "{href}");
            assert_eq!(get(&app, href).status, 200, "{href}");
        }
    }
    assert!(ghosted > 0, "some turn has a better placement to show");
    app.stop();
}

/// A turn page carries its board's layers, not its drawing: the drawing is the turn's own SVG
/// picture with the page's overlays and no backdrop, linked at the board's size, and the page's
/// own backdrop (which follows dark mode) is under it. A 72-tile board's page stays under
/// 60 KB (BGA game-a's largest, turn 61, was 106 KB with the drawing inline).
#[test]
fn a_turn_page_links_its_boards_drawing_and_stays_small() {
    let Some(fixtures) = common::fixtures_dir() else { return };
    let record = std::fs::read(fixtures.join("bga/game-a.json")).unwrap();
    let app = spawn_app();
    let id = upload_id(&app, &record);
    for n in [1, 36, 61, 71] {
        let body = get(&app, &format!("/g/{id}/t/{n}")).body;
        assert!(body.len() <= 60 * 1024, "turn {n}: {} bytes", body.len());
        let start = body[..body.find("class=\"board-svg\"").unwrap()].rfind("<svg").unwrap();
        let board = &body[start..];
        let size = |svg: &str| {
            let value = |name: &str| {
                let at = &svg[svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3..];
                at[..at.find('"').unwrap()].to_string()
            };
            (value("width"), value("height"))
        };
        let page_size = size(board);
        assert!(
            board.contains("<rect class=\"backdrop\""),
            "turn {n}: the page's backdrop"
        );
        let image = &board[board.find("<image href=\"").unwrap() + 13..];
        let href = image[..image.find('"').unwrap()].replace("&amp;", "&");
        assert_eq!(
            href,
            format!("/g/{id}/t/{n}.svg?overlay=ownership,last-move,scoring,open-spots&theme=clear")
        );
        let drawing = get(&app, &href);
        assert_eq!(drawing.status, 200, "{href}");
        assert!(!drawing.body.contains("class=\"backdrop\""), "turn {n}: no backdrop");
        assert_eq!(size(&drawing.body), page_size, "turn {n}: drawn at the board's size");
        assert_eq!(size(image), page_size, "turn {n}: shown at the board's size");
    }
    app.stop();
}

/// Dark mode reaches the pictures: on a dark system the page, the inline board's backdrop and
/// the Card Game's table picture are dark, and `?theme=` asks for either picture directly.
#[test]
fn in_a_browser_dark_mode_darkens_the_pictures_too() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let cards = demo_card_game_id(&app);
    browser.prefer_dark();
    browser.open(&app.url(&format!("/g/{id}/t/12")));
    // Read again for a while: under load a page has once been read before its colours settled.
    let dark = serde_json::json!(["rgb(23, 25, 28)", "rgb(23, 25, 28)"]);
    let read = || {
        browser.eval(
            "return [getComputedStyle(document.body).backgroundColor, \
                     getComputedStyle(document.querySelector('.board-svg .backdrop')).fill];",
        )
    };
    let mut colours = read();
    for _ in 0..40 {
        if colours == dark {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        colours = read();
    }
    assert_eq!(colours, dark);
    browser.open(&app.url(&format!("/g/{cards}/t/5")));
    let src = browser.wait_for(
        "const i = document.querySelector('.board img'); return i.complete && i.naturalWidth ? i.currentSrc : null;",
    );
    assert!(
        src.as_str()
            .unwrap()
            .ends_with(&format!("/g/{cards}/t/5.png?hands=mover&theme=dark")),
        "{src}"
    );
    drop(browser);

    let dark = agent()
        .get(&app.url(&format!("/g/{cards}/t/5.png?theme=dark")))
        .call()
        .unwrap();
    let light = agent().get(&app.url(&format!("/g/{cards}/t/5.png"))).call().unwrap();
    assert_ne!(dark.headers().get("etag"), light.headers().get("etag"), "cached apart");
    let bad = get(&app, &format!("/g/{id}/t/5.png?theme=sepia"));
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("light, dark and clear"), "{}", bad.body);
    app.stop();
}

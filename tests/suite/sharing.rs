//! Spoilers and findability, over HTTP: Card Game hands, links that share a game without its
//! result, the share menu, pasted Board Game Arena addresses, junk uploads, unlisted games and
//! their owners.

use crate::common;

use carcassonne_replay::engine::cards::{CardEvent, CardGame};
use carcassonne_replay::record::Record;
use carcassonne_replay::record::cards;
use carcassonne_replay::selfplay;
use common::app::*;
use common::browser::Browser;
use serde_json::Value;

/// A request with the headers and body a test chooses: status, headers, body.
fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, ureq::http::HeaderMap, String) {
    let mut req = ureq::http::Request::builder().method(method).uri(app.url(path));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut r = agent().run(req.body(body.to_vec()).unwrap()).unwrap();
    let text = r.body_mut().read_to_string().unwrap_or_default();
    (r.status().as_u16(), r.headers().clone(), text)
}

fn header(h: &ureq::http::HeaderMap, name: &str) -> String {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// A multipart form post from a browser on this site, with several fields.
fn post_fields(app: &TestApp, fields: &[(&str, &[u8])]) -> (u16, ureq::http::HeaderMap, String) {
    let boundary = "----sharing-test-boundary";
    let mut body = Vec::new();
    for (name, content) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={boundary}");
    send(
        app,
        "POST",
        "/games",
        &[("Content-Type", &content_type), ("Accept", "text/html")],
        &body,
    )
}

fn card_record(players: u8, seed: u64) -> Record<CardGame> {
    selfplay::card_game(players, selfplay::Policy::Greedy, seed).unwrap()
}

/// The hands a Card Game turn page lists: (name, shown, what it says).
fn hands_listed(page: &str) -> Vec<(String, bool, String)> {
    let list = page.split("<ul class=\"hands\">").nth(1).expect("a hands list");
    let list = list.split("</ul>").next().unwrap();
    list.split("<li")
        .skip(1)
        .map(|item| {
            let shown = item.starts_with(" class=\"shown\"");
            let text = item.split("</span>").nth(1).unwrap().trim_end_matches("</li>");
            let (name, cards) = text.split_once(": ").unwrap();
            (name.to_string(), shown, cards.to_string())
        })
        .collect()
}

/// The turn (1-based) of each round's face-down card, with its player and the turn whose
/// events reveal it (a follower taking it, or the end); the rounds' first turns.
struct Round {
    first: usize,
    face_down: usize,
    player: u8,
    revealed: usize,
}

fn rounds_of(record: &Record<CardGame>) -> Vec<Round> {
    let r = carcassonne_replay::replay::cards::replay(record).unwrap();
    let mut out: Vec<Round> = Vec::new();
    for t in &r.turns {
        let n = t.turn as usize;
        for e in &t.events {
            match e {
                CardEvent::Dealt { .. } => out.push(Round {
                    first: n,
                    face_down: 0,
                    player: 0,
                    revealed: usize::MAX,
                }),
                CardEvent::Played {
                    face_down: true,
                    player,
                    ..
                } => {
                    let round = out.last_mut().unwrap();
                    (round.face_down, round.player) = (n, *player);
                }
                CardEvent::Took { .. } => {
                    let round = out.last_mut().unwrap();
                    round.revealed = round.revealed.min(n);
                }
                _ => {}
            }
        }
    }
    out
}

/// "The round's face-down card can be read on the turn before it is played": a hand seen
/// before that card is down, less what its player plays openly after, names it. So no turn
/// page, in either mode, shows any hand before the round's first card lies face down, and
/// its picture is then the same whichever hands are asked for; from then on the page shows
/// the mover's hand only by default, all of them when asked. The turn's JSON never names the
/// face-down card, nor does its text; the turn that reveals it does.
#[test]
fn a_card_game_turn_shows_the_movers_hand_and_never_gives_the_face_down_card_away() {
    let app = spawn_app();
    let record = card_record(4, 21);
    let id = upload_id(&app, cards::to_value(&record).to_string().as_bytes());
    let replayed = carcassonne_replay::replay::cards::replay(&record).unwrap();
    let name = |p: u8| record.players[p as usize].name.clone();
    let rounds = rounds_of(&record);
    assert!(
        rounds.iter().any(|r| r.face_down > r.first),
        "some round opens with a follower, before any card: the case that needs care"
    );
    for round in rounds.iter().take(3) {
        for n in round.first..round.revealed.min(round.face_down + 6) {
            let mover = replayed.turns[n - 1].player;
            let default = get_html(&app, &format!("/g/{id}/t/{n}"));
            let all = get_html(&app, &format!("/g/{id}/t/{n}?hands=all"));
            let (default, all) = (hands_listed(&default.body), hands_listed(&all.body));
            let picture = |hands: &str| get(&app, &format!("/g/{id}/t/{n}.svg?hands={hands}")).body;
            if n < round.face_down {
                assert!(
                    default.iter().chain(&all).all(|h| !h.1),
                    "turn {n}: a hand shows before the round's card goes face down at turn {}",
                    round.face_down
                );
                assert_eq!(
                    picture("all"),
                    picture("mover"),
                    "turn {n}: the picture shows no hand either"
                );
                let alternatives = get_html(&app, &format!("/g/{id}/t/{n}/alternatives")).body;
                assert!(
                    alternatives.contains("<details class=\"spoiler\">"),
                    "turn {n}: the mover's whole hand waits behind a fold"
                );
                continue;
            }
            let shown: Vec<&String> = default.iter().filter(|h| h.1).map(|h| &h.0).collect();
            let holds = replayed.turns[n - 1].supply[mover as usize].hand > 0;
            assert!(
                shown.is_empty() || shown == [&name(mover)],
                "turn {n}: only the mover's hand by default: {default:?}"
            );
            assert_eq!(
                !shown.is_empty(),
                holds,
                "turn {n}: the mover's hand shows when it holds cards"
            );
            for (who, shown, said) in &default {
                if !shown {
                    assert!(
                        said.ends_with(" cards") || said.ends_with(" card"),
                        "turn {n}: {who}: {said}"
                    );
                }
            }
            let holding = all
                .iter()
                .filter(|h| h.2.ends_with("card") || h.2.ends_with("cards"))
                .count();
            assert!(
                all.iter().filter(|h| h.1).count() + holding == all.len(),
                "turn {n}: every hand that holds cards shows them when asked"
            );
        }
        let k = round.face_down;
        let turn = get(&app, &format!("/api/games/{id}/turns/{k}")).json();
        assert!(turn["move"].get("card").is_none(), "turn {k}'s JSON: {turn}");
        let played = turn["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "played")
            .unwrap();
        assert_eq!(played["face_down"], true);
        assert!(played.get("card").is_none(), "turn {k}'s event: {played}");
        let page = get_html(&app, &format!("/g/{id}/t/{k}")).body;
        assert!(page.contains("face down"), "the turn says a card went face down");
        let png = get(&app, &format!("/g/{id}/t/{k}.png"));
        assert_eq!((png.status, png.content_type.as_str()), (200, "image/png"));
        if round.revealed != usize::MAX {
            let taken = get(&app, &format!("/api/games/{id}/turns/{}", round.revealed)).json();
            assert!(
                taken["events"].as_array().unwrap().iter().any(|e| e["type"] == "took"),
                "the card is named when a follower takes it"
            );
        }
        assert!(round.player < 4);
    }
    let bad = get(&app, &format!("/g/{id}/t/3?hands=some"));
    assert_eq!(bad.status, 400, "{}", bad.body);
    app.stop();
}

/// The browser test of the issue: by default a Card Game turn page shows no other player's
/// hand; the switch shows them all, the choice holds from turn to turn, and the script
/// remembers it for a link opened later.
#[test]
fn in_a_browser_a_card_game_turn_shows_no_other_players_hand_until_asked() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let record = card_record(3, 5);
    let id = upload_id(&app, cards::to_value(&record).to_string().as_bytes());
    let round = &rounds_of(&record)[1];
    let n = round.face_down + 1;
    let replayed = carcassonne_replay::replay::cards::replay(&record).unwrap();
    let mover = &record.players[replayed.turns[n - 1].player as usize].name;
    // Waited for: under load the first ask can come before the page's list is there.
    let hands = "const l = [...document.querySelectorAll('.hands li')].map(li => [li.className === 'shown', li.textContent]); return l.length ? l : null;";
    browser.open(&app.url(&format!("/g/{id}/t/{n}")));
    let listed = browser.wait_for(hands);
    let shown: Vec<&Value> = listed.as_array().unwrap().iter().filter(|h| h[0] == true).collect();
    assert_eq!(shown.len(), 1, "{listed}");
    assert!(
        shown[0][1].as_str().unwrap().starts_with(&format!("{mover}: ")),
        "{listed}"
    );
    for other in listed.as_array().unwrap().iter().filter(|h| h[0] == false) {
        let text = other[1].as_str().unwrap();
        assert!(text.ends_with(" cards") || text.ends_with(" card"), "{text}");
    }
    let picture = browser.eval("return document.querySelector('.board img').getAttribute('src');");
    assert!(picture.as_str().unwrap().ends_with("hands=mover"), "{picture}");
    browser.click(&browser.find("[data-hands]").unwrap());
    assert!(browser.wait_for_url(&format!("/t/{n}?hands=all")));
    let every = browser.wait_for(
        "const l = [...document.querySelectorAll('.hands li')]; return l.length && l.every(li => li.className === 'shown' || / cards?$/.test(li.textContent)) && l.filter(li => li.className === 'shown').length > 1;",
    );
    assert_eq!(every, Value::Bool(true), "every hand that holds cards shows");
    browser.press("\u{E014}"); // →
    assert!(
        browser.wait_for_url(&format!("/t/{}?hands=all", n + 1)),
        "the next turn keeps the choice"
    );
    browser.open(&app.url(&format!("/g/{id}/t/{n}")));
    assert!(
        browser.wait_for_url(&format!("/t/{n}?hands=all")),
        "a plain link follows the remembered choice"
    );
    browser.click(&browser.find("[data-hands]").unwrap());
    assert!(browser.wait_for_url(&format!("/t/{n}?hands=mover")));
    browser.open(&app.url(&format!("/g/{id}/t/{n}")));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        browser.current_url().ends_with(&format!("/t/{n}")),
        "back to the mover's hand"
    );
    drop(browser);
    app.stop();
}

/// The `og:` tags of a page: (url, image, description).
fn preview_of(page: &str) -> (String, String, String) {
    let tag = |property: &str| {
        let at = page
            .find(&format!("property=\"og:{property}\" content=\""))
            .unwrap_or_else(|| panic!("og:{property}"));
        let rest = &page[at..];
        let start = rest.find("content=\"").unwrap() + 9;
        rest[start..start + rest[start..].find('"').unwrap()].to_string()
    };
    (tag("url"), tag("image"), tag("description"))
}

/// After an upload, the game page offers links for the start, for a turn and for the result;
/// each one's preview shows what it opens, and only the result's shows final scores.
#[test]
fn share_links_preview_what_they_open_and_only_the_result_gives_the_ending_away() {
    let app = spawn_app();
    let rules = carcassonne_replay::record::RulesSpec::new(carcassonne_replay::engine::Preset::SecondEdition);
    let record = selfplay::generate(rules, 2, selfplay::Policy::Greedy, 5).unwrap();
    let text = carcassonne_replay::record::native::to_value(&record).to_string();
    let (status, headers, _) = post_fields(&app, &[("text", text.as_bytes())]);
    assert_eq!(status, 303);
    let location = header(&headers, "location");
    let cookie = header(&headers, "set-cookie");
    let id = location.trim_start_matches("/g/").to_string();
    let token = cookie.split(';').next().unwrap();
    let landing = send(
        &app,
        "GET",
        &location,
        &[("Cookie", token), ("Accept", "text/html")],
        b"",
    )
    .2;
    assert!(
        landing.contains("<details class=\"share\" open>"),
        "the uploader lands on the share menu, open"
    );
    let finals = get(&app, &format!("/api/games/{id}")).json()["final_scores"].clone();
    let finals = finals.as_array().unwrap();
    let final_text = |body: &str| finals.iter().all(|s| body.contains(&format!(" {s}")));
    let base = &app.address;
    let start = format!("{base}/g/{id}/t/0");
    let result = format!("{base}/g/{id}");
    let turns = get(&app, &format!("/api/games/{id}")).json()["turns"].clone();
    let last = format!("{base}/g/{id}/t/{turns}");
    for link in [&start, &last, &result] {
        assert!(
            landing.contains(&format!("<a href=\"{link}\">")),
            "the menu links {link}"
        );
    }
    let turn_page = get_html(&app, &format!("/g/{id}/t/30")).body;
    let turn = format!("{base}/g/{id}/t/30");
    assert!(
        turn_page.contains(&format!("<a href=\"{turn}\">")),
        "a turn page offers itself"
    );
    for (link, image) in [
        (&start, format!("{base}/g/{id}/t/0/og.png")),
        (&turn, format!("{base}/g/{id}/t/30/og.png")),
        (&result, format!("{base}/g/{id}/og.png")),
    ] {
        let page = get_html(&app, link.trim_start_matches(base.as_str())).body;
        let (url, og_image, description) = preview_of(&page);
        assert_eq!(
            (&url, &og_image),
            (link, &image),
            "the preview of {link} is what it opens"
        );
        assert_eq!(
            final_text(&description),
            link == &result,
            "{link}: only the result's preview has the final scores: {description}"
        );
        let image = get(&app, og_image.trim_start_matches(base.as_str()));
        assert_eq!((image.status, image.content_type.as_str()), (200, "image/png"));
    }
    app.stop();
}

/// The last turn's "if it ended now" is the result, so it waits behind "Show the result",
/// as the end does; the turn before keeps its column.
#[test]
fn the_last_turns_if_it_ended_now_waits_behind_show_the_result() {
    let app = spawn_app();
    let id = upload_id(&app, &demo());
    let last = get_html(&app, &format!("/g/{id}/t/71")).body;
    let table = last
        .split("<table class=\"scoreboard\">")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap();
    assert!(!table.contains("If it ended now"), "the last turn's table hides it");
    let fold = last
        .split("<details class=\"spoiler\"><summary>Show the result</summary>")
        .nth(1);
    let fold = fold
        .expect("behind Show the result")
        .split("</details>")
        .next()
        .unwrap();
    assert!(
        fold.contains("Ada 46, Bruno 42, Chloé 54"),
        "the demo's final scores: {fold}"
    );
    let before = get_html(&app, &format!("/g/{id}/t/70")).body;
    assert!(before.contains("If it ended now</th>") && !before.contains("class=\"spoiler\""));
    app.stop();
}

/// Every page of a game carries a share menu: the links, this turn's PNG with its overlays,
/// the GIF, the embed's code and oEmbed, and the downloads; a Card Game has no GIF and no
/// `.jcz`. The end page offers the analysis, and once it is done the turn pages say so.
#[test]
fn every_game_page_shares_and_the_analysis_is_linked_once_done() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Lia", "Max"]).as_bytes());
    let base = &app.address;
    let turn = get_html(&app, &format!("/g/{id}/t/2")).body;
    for needle in [
        format!("{base}/g/{id}/t/2.png?overlay=ownership,last-move,scoring"),
        format!("{base}/g/{id}.gif"),
        format!("&#60;iframe src=&#34;{base}/embed/g/{id}/t/2&#34;"),
        format!("{base}/oembed?url="),
        format!("/g/{id}.json"),
        format!("/g/{id}.jcz"),
        format!("/g/{id}.csv"),
    ] {
        assert!(turn.contains(&needle), "the turn's share menu lacks {needle}");
    }
    let cards = upload_id(&app, cards::to_value(&card_record(2, 3)).to_string().as_bytes());
    let card_turn = get_html(&app, &format!("/g/{cards}/t/2")).body;
    let menu = card_turn
        .split("<details class=\"share\"")
        .nth(1)
        .unwrap()
        .split("</details>")
        .next()
        .unwrap();
    assert!(menu.contains(&format!("/g/{cards}/t/2.png?hands=mover")) && menu.contains("/embed/g/"));
    assert!(!menu.contains(".gif") && !menu.contains(".jcz"), "{menu}");
    let end = get_html(&app, &format!("/g/{id}")).body;
    assert!(
        end.contains(&format!(
            "<form method=\"post\" action=\"/g/{id}/analysis\"><button type=\"submit\">Analyse this game"
        )),
        "the end page queues the analysis"
    );
    assert!(turn.contains("Analyse the whole game"));
    let queued = post(&app, &format!("/g/{id}/analysis"), b"");
    assert_eq!(queued.status, 202, "{}", queued.body);
    let done = (0..600).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        get(&app, &format!("/api/games/{id}/analysis")).json()["status"] == "done"
    });
    assert!(done, "the analysis ends");
    let end = get_html(&app, &format!("/g/{id}")).body;
    assert!(
        end.contains(&format!("<a href=\"/g/{id}/analysis\">The analysis</a>")),
        "the end page opens it"
    );
    let turn = get_html(&app, &format!("/g/{id}/t/2")).body;
    assert!(turn.contains("The game is analysed: see the analysis") && !turn.contains("Analyse the whole game"));
    app.stop();
}

/// A pasted Board Game Arena address is not a log: the answer names the table and the
/// bookmarklet, and the form comes back with the text; any unreadable text lists the formats
/// tried.
#[test]
fn a_pasted_board_game_arena_address_names_its_table_and_the_bookmarklet() {
    let app = spawn_app();
    let address = "https://boardgamearena.com/gamereview?table=123456789";
    let (status, headers, page) = post_fields(&app, &[("text", address.as_bytes())]);
    assert_eq!(status, 400);
    assert!(header(&headers, "content-type").starts_with("text/html"));
    assert!(
        page.contains(&format!(">{address}</textarea>")),
        "the pasted text stays in the form"
    );
    assert!(
        page.contains("table 123456789") && page.contains("href=\"/bga\""),
        "{page}"
    );
    let api = post(&app, "/api/games", address.as_bytes());
    assert_eq!(
        (api.status, api.content_type.as_str()),
        (400, "application/problem+json")
    );
    let problem = api.json();
    assert_eq!(problem["table"], 123_456_789);
    assert_eq!(problem["bookmarklet"], "/bga");
    let replay = post(
        &app,
        "/api/games",
        b"https://en.boardgamearena.com/archive/replay/250101-1000/?table=42&player=9",
    );
    assert_eq!(replay.json()["table"], 42, "a replay's address too");
    let junk = "hello, this is not a game";
    let (status, _, page) = post_fields(&app, &[("text", junk.as_bytes()), ("unlisted", b"1")]);
    assert_eq!(status, 400);
    assert!(page.contains(&format!(">{junk}</textarea>")) && page.contains("name=\"unlisted\" value=\"1\" checked"));
    let error = page
        .split("class=\"upload-error\"")
        .nth(1)
        .unwrap()
        .split("</div>")
        .next()
        .unwrap();
    for format in [
        "course notation",
        "Carcassonne Lab link",
        "carcassonne-replay JSON",
        "JCloisterZone .jcz",
        "Board Game Arena log",
    ] {
        assert!(error.contains(format), "the answer names {format}: {error}");
    }
    let tried = post(&app, "/api/games", junk.as_bytes()).json();
    assert_eq!(tried["formats_tried"].as_array().map(Vec::len), Some(5), "{tried}");
    assert_eq!(app.stored_games(), 3, "nothing stored: the demos only");
    app.stop();
}

/// "A game needs at least one move", in every format.
#[test]
fn a_record_with_players_and_no_moves_is_refused() {
    let app = spawn_app();
    let mut card = card_record(2, 8);
    card.moves.clear();
    let records = [
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "A"}, {"name": "B"}], "rules": {"preset": "second-edition"}, "moves": []}"#.to_string(),
        cards::to_value(&card).to_string(),
        "players: Ann, Bob\n".to_string(),
    ];
    for record in &records {
        let a = post(&app, "/api/games", record.as_bytes());
        assert_eq!(a.status, 422, "{record}: {}", a.body);
        assert!(
            a.json()["detail"]
                .as_str()
                .unwrap()
                .contains("a game needs at least one move"),
            "{}",
            a.body
        );
    }
    assert_eq!(app.stored_games(), 3);
    app.stop();
}

/// Owner tokens: a new game's upload returns one; the same record again gets none (its first
/// uploader keeps it); only the token deletes the game or changes its listing, and only from
/// this site or no browser at all. Unlisted games are kept off the home page and reachable by
/// link; the store keeps only the token's hash.
#[test]
fn an_owner_token_unlists_and_deletes_and_nothing_else_does() {
    let app = spawn_app();
    let record = small_game(["Owen", "Pia"]);
    let up = post(&app, "/api/games?listed=false", record.as_bytes());
    assert_eq!(up.status, 201, "{}", up.body);
    let answer = up.json();
    let (id, token) = (answer["id"].as_str().unwrap(), answer["owner_token"].as_str().unwrap());
    assert_eq!(answer["listed"], false);
    let again = post(&app, "/api/games", record.as_bytes()).json();
    assert!(
        again.get("owner_token").is_none() && again["listed"] == false,
        "{again}"
    );
    assert!(!get(&app, "/").body.contains(id), "unlisted: off the home page");
    let page = get_html(&app, &format!("/g/{id}/t/1"));
    assert_eq!(page.status, 200, "reachable by its link");
    assert!(page.body.contains("<meta name=\"robots\" content=\"noindex\">"));
    let bearer = format!("Bearer {token}");
    let path = format!("/api/games/{id}");
    let json = [("Content-Type", "application/json")];
    let list = br#"{"listed": true}"#;
    assert_eq!(send(&app, "PATCH", &path, &json, list).0, 401, "no token");
    let (status, headers, _) = send(&app, "DELETE", &path, &[], b"");
    assert_eq!((status, header(&headers, "www-authenticate").as_str()), (401, "Bearer"));
    let other = format!("Bearer {}", "0".repeat(64));
    assert_eq!(
        send(&app, "DELETE", &path, &[("Authorization", &other)], b"").0,
        403,
        "another token"
    );
    let elsewhere = [("Authorization", bearer.as_str()), ("Origin", "https://evil.example")];
    assert_eq!(
        send(&app, "DELETE", &path, &elsewhere, b"").0,
        403,
        "another site's page"
    );
    let (status, _, body) = send(&app, "PATCH", &path, &[json[0], ("Authorization", &bearer)], list);
    assert_eq!(status, 200, "{body}");
    assert!(get(&app, "/").body.contains(id), "listed now");
    let home = get(&app, "/").body;
    let demo = (home.split("/g/").skip(1).map(|s| &s[..16]))
        .find(|g| *g != id)
        .unwrap();
    let unowned = send(
        &app,
        "DELETE",
        &format!("/api/games/{demo}"),
        &[("Authorization", &bearer)],
        b"",
    );
    assert_eq!(unowned.0, 403, "the demos belong to nobody: {}", unowned.2);
    let hashed = carcassonne_replay::store::OwnerToken::parse(token).unwrap().hash();
    assert_eq!(
        stored_owner_hash(&app, id),
        Some(hashed.0.to_vec()),
        "the store keeps the token's hash"
    );
    // On SQLite, the file itself: the token is nowhere in it. (On PostgreSQL, the row above.)
    if let Some(db) = app.db_file() {
        let mut files = std::fs::read(db).unwrap();
        files.extend(std::fs::read(db.with_extension("sqlite-wal")).unwrap_or_default());
        assert!(
            !files.windows(token.len()).any(|w| w == token.as_bytes()),
            "and never the token"
        );
    }
    assert_eq!(send(&app, "DELETE", &path, &[("Authorization", &bearer)], b"").0, 204);
    for gone in [
        path.clone(),
        format!("/api/games/{id}/turns/1"),
        format!("/g/{id}/t/1.png"),
        format!("/g/{id}"),
    ] {
        assert_eq!(get(&app, &gone).status, 404, "{gone} after the deletion");
    }
    app.stop();
}

/// Two nodes on one database (two apps, each with its own memory): a game its owner unlists
/// and deletes through one is off the other's home page and gone from its pages within
/// seconds, though the other had its pages in memory.
#[test]
fn a_game_deleted_through_one_node_is_soon_gone_from_the_other() {
    let a = spawn_app();
    let b = spawn_app_at(a.db.clone(), None);
    let up = post(&a, "/api/games", small_game(["Quin", "Rue"]).as_bytes()).json();
    let (id, token) = (up["id"].as_str().unwrap(), up["owner_token"].as_str().unwrap());
    let page = format!("/g/{id}/t/1");
    assert_eq!(get_html(&b, &page).status, 200, "B keeps the page now");
    assert!(get(&b, "/").body.contains(id));
    let (path, bearer) = (format!("/api/games/{id}"), format!("Bearer {token}"));
    let unlist = [("Content-Type", "application/json"), ("Authorization", &bearer)];
    assert_eq!(send(&a, "PATCH", &path, &unlist, br#"{"listed": false}"#).0, 200);
    assert_eq!(send(&a, "DELETE", &path, &[("Authorization", &bearer)], b"").0, 204);
    let gone = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        get_html(&b, &page).status == 404 && get(&b, &path).status == 404
    });
    assert!(gone, "B still serves {page} 5 s after its deletion through A");
    assert!(!get(&b, "/").body.contains(id));
    b.stop();
    a.stop();
}

/// The owner hash of a stored game, as the store reads it back.
fn stored_owner_hash(app: &TestApp, id: &str) -> Option<Vec<u8>> {
    let store = app.store();
    let row = store.game(&id.parse().unwrap()).unwrap().unwrap();
    row.owner.map(|h| h.0.to_vec())
}

/// The uploading browser keeps the token in an HttpOnly cookie for the game's pages; the game
/// page then shows it the owner's forms, which unlist and delete; another site's post is
/// refused.
#[test]
fn the_uploading_browser_unlists_and_deletes_from_the_game_page() {
    let app = spawn_app();
    let (status, headers, _) = post_fields(&app, &[("text", small_game(["Quin", "Rae"]).as_bytes())]);
    assert_eq!(status, 303);
    let id = header(&headers, "location").trim_start_matches("/g/").to_string();
    let cookie = header(&headers, "set-cookie");
    for part in ["owner=", "HttpOnly", &format!("Path=/g/{id}"), "SameSite=Lax"] {
        assert!(cookie.contains(part), "{cookie} lacks {part}");
    }
    let owner = cookie.split(';').next().unwrap();
    let (_, headers, page) = send(
        &app,
        "GET",
        &format!("/g/{id}"),
        &[("Cookie", owner), ("Accept", "text/html")],
        b"",
    );
    assert!(page.contains(&format!("action=\"/g/{id}/delete\"")) && page.contains("Unlist it"));
    assert_eq!(
        header(&headers, "cache-control"),
        "private, no-store",
        "the owner's page is no one else's"
    );
    let stranger = get_html(&app, &format!("/g/{id}")).body;
    assert!(!stranger.contains("/delete\""), "a stranger sees no owner's forms");
    let form = [
        ("Cookie", owner),
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Sec-Fetch-Site", "cross-site"),
    ];
    assert_eq!(
        send(&app, "POST", &format!("/g/{id}/delete"), &form, b"confirm=yes").0,
        403
    );
    let same_site = [form[0], form[1], ("Sec-Fetch-Site", "same-origin")];
    let (status, headers, _) = send(&app, "POST", &format!("/g/{id}/listing"), &same_site, b"listed=false");
    assert_eq!((status, header(&headers, "location")), (303, format!("/g/{id}")));
    assert!(!get(&app, "/").body.contains(&id), "unlisted");
    let page = send(
        &app,
        "GET",
        &format!("/g/{id}"),
        &[("Cookie", owner), ("Accept", "text/html")],
        b"",
    )
    .2;
    assert!(page.contains("List it on the home page"));
    assert_eq!(
        send(&app, "POST", &format!("/g/{id}/delete"), &[same_site[1]], b"").0,
        401,
        "no cookie"
    );
    let unticked = send(&app, "POST", &format!("/g/{id}/delete"), &same_site, b"");
    assert_eq!(unticked.0, 400, "the box must be ticked");
    assert_eq!(get(&app, &format!("/g/{id}")).status, 200, "still there");
    let (status, headers, _) = send(&app, "POST", &format!("/g/{id}/delete"), &same_site, b"confirm=yes");
    assert_eq!((status, header(&headers, "location").as_str()), (303, "/"));
    assert!(
        header(&headers, "set-cookie").contains("Max-Age=0"),
        "the cookie goes too"
    );
    assert_eq!(get(&app, &format!("/g/{id}")).status, 404);
    app.stop();
}

/// The home page pages through every listed game, newest first.
#[test]
fn the_home_page_pages_through_all_games() {
    let app = spawn_app();
    let ids: Vec<String> = (0..40)
        .map(|i| upload_id(&app, small_game([&format!("P{i}"), "Q"]).as_bytes()))
        .collect();
    post(&app, "/api/games?listed=false", small_game(["Hidden", "Q"]).as_bytes());
    let first = get(&app, "/").body;
    assert!(first.contains("page 1 of 2") && first.contains("href=\"/?page=2\""));
    assert!(first.contains(&ids[39]) && !first.contains(&ids[0]), "newest first");
    let second = get(&app, "/?page=2").body;
    let on = |page: &str| ids.iter().filter(|id| page.contains(id.as_str())).count();
    assert_eq!(on(&first) + on(&second), 40, "every game on one page or the other");
    assert!(second.contains("href=\"/?page=1\""), "a way back");
    assert!(
        !first.contains("Hidden") && !second.contains("Hidden"),
        "no unlisted game"
    );
    assert_eq!(get(&app, "/?page=3").status, 404);
    app.stop();
}

/// The home page's list spoils no game: without the script every score waits behind its own
/// "Show"; with it, one switch shows them all, and this browser remembers the choice.
#[test]
fn in_a_browser_the_home_page_hides_the_scores_until_one_remembered_switch_shows_them() {
    let app = spawn_app();
    let home = get_html(&app, "/").body;
    let rows = home.matches("<tr><td><a href=\"/g/").count();
    assert!(rows >= 3, "the demos are listed: {home}");
    let folded = home
        .matches("<td><details class=\"spoiler result\"><summary>Show</summary>")
        .count();
    assert_eq!(folded, rows, "every score folded, closed: {home}");
    assert!(
        home.contains("data-results-switch hidden"),
        "no switch without the script"
    );

    let Some(browser) = Browser::start() else {
        app.stop();
        return;
    };
    browser.resize(1300, 1000);
    let scores =
        "return [...document.querySelectorAll('.recent tbody td:nth-child(2)')].map(td => td.innerText.trim());";
    let seen = |what: &str| -> Vec<String> {
        let v = browser.eval(scores);
        let all: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(all.len(), rows, "{what}: {v}");
        all
    };
    let hidden = |all: &[String]| all.iter().all(|s| s == "Show");
    let shown = |all: &[String]| all.iter().all(|s| s != "Show" && s.chars().any(|c| c.is_ascii_digit()));
    browser.open(&app.url("/"));
    assert!(hidden(&seen("at first")), "{:?}", seen("at first"));
    browser.click(&browser.find("[data-results]").expect("the switch, with the script"));
    assert!(shown(&seen("switched on")), "{:?}", seen("switched on"));
    browser.open(&app.url("/"));
    assert!(shown(&seen("reloaded")), "remembered: {:?}", seen("reloaded"));
    assert_eq!(
        browser.eval("return document.querySelector('[data-results]').checked;"),
        true
    );
    browser.click(&browser.find("[data-results]").unwrap());
    assert!(hidden(&seen("switched off")));
    browser.open(&app.url("/"));
    assert!(hidden(&seen("reloaded off")), "{:?}", seen("reloaded off"));
    drop(browser);
    app.stop();
}

/// A database of the previous release opens with its games listed and owned by nobody.
#[test]
fn the_previous_releases_games_stay_listed_and_unowned() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store");
    let expected = common::read_json(&fixtures.join("previous-release.json"));
    let app = spawn_app_on_previous_release();
    let home = get(&app, "/").body;
    for g in expected["games"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        assert!(home.contains(id), "{id} is listed");
        let token = format!("Bearer {}", "1".repeat(64));
        let (status, _, body) = send(
            &app,
            "DELETE",
            &format!("/api/games/{id}"),
            &[("Authorization", &token)],
            b"",
        );
        assert_eq!(status, 403, "{body}");
        assert!(body.contains("before uploads had owners"), "{body}");
    }
    app.stop();
}

/// At 360 px the open share menu, the owner's forms and a refused upload with its text fit
/// the screen: long addresses break instead of pushing the page sideways.
#[test]
fn on_a_phone_the_share_menu_the_owners_forms_and_a_refused_upload_fit() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    browser.resize(360, 800);
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    browser.open(&app.url("/"));
    let long =
        "https://boardgamearena.com/archive/replay/250101-1000/?table=123456789&player=84512236&comments=84512236";
    browser.eval(&format!(
        "document.querySelector('textarea[name=text]').value = '{long}'; document.querySelector('form[action=\"/games\"]').submit();"
    ));
    let refused = browser.wait_for("return document.querySelector('.upload-error') !== null;");
    assert_eq!(refused, Value::Bool(true));
    assert_eq!(browser.eval(fits), Value::Bool(true), "the refused upload");
    assert_eq!(
        browser.eval("return document.querySelector('textarea[name=text]').value;"),
        Value::from(long),
        "the text stays"
    );
    browser.eval(&format!(
        "document.querySelector('textarea[name=text]').value = {}; document.querySelector('form[action=\"/games\"]').submit();",
        serde_json::to_string(&small_game(["Sam", "Tove"])).unwrap()
    ));
    assert!(browser.wait_for_url_containing("/g/"), "uploaded");
    assert_eq!(
        browser.wait_for(
            "return document.querySelector('.owner') !== null && document.querySelector('details.share').open;"
        ),
        Value::Bool(true),
        "the uploader's browser sees its forms and the links to share"
    );
    assert_eq!(
        browser.eval(fits),
        Value::Bool(true),
        "the game page with the share menu open"
    );
    drop(browser);
    app.stop();
}

//! The Board Game Arena bookmarklet (`static/bga-bookmarklet.js`, served by `/bga`), run in
//! headless Chromium against a stand-in for Board Game Arena's pages that this test serves
//! itself from the real logs in `../shared/fixtures/bga/`: the archive's answer when a table
//! is not archived yet, the archive request, the replay page's `g_gamelogs`, the upload to our
//! app and the download. And the importer reads what the bookmarklet delivers: the archive's
//! envelope gives the same game as the replay page's.
//!
//! In detail:
//! - the Board Game Arena bookmarklet run in headless Chromium on a stand-in for BGA made from
//!   `../shared/fixtures/bga/`: the archive asked, refused, the archive requested and asked
//!   again, the log uploaded and stored with BGA's players and scores
//! - the replay page's own `g_gamelogs` when there is no archive
//! - Cancel saving exactly what the archive sent
//! - a page whose CSP keeps forms home getting the file instead
//! - a page with no table told what to open
//! - `/bga` serving the bookmarklet for this site
//! - the archive envelope read as the same game as the replay page's
//! - no sideways scroll on a phone

use crate::common;

use carcassonne_replay::record::{self, Format, GameRecord};
use carcassonne_replay::replay;
use common::app::*;
use common::browser::Browser;
use common::fixtures_dir;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// game-a's table, as its packets say (`/table/t366166200`).
const TABLE_A: &str = "366166200";
/// game-b's.
const TABLE_B: &str = "374076298";
/// The request token the stand-in's pages carry and its archive insists on.
const TOKEN: &str = "stand-in-token-7f3a";

fn fixture(name: &str) -> Option<Value> {
    let path = fixtures_dir()?.join("bga").join(name);
    Some(common::read_json(&path))
}

/// The archive's envelope (B) for the game in `replay_page_log` (envelope A), as the archive
/// sends it: the packets under `data.logs` and the players' list beside them. Only the table's
/// public channel is kept: the archive is read by anyone allowed to see the table, so the
/// importer must not need the players' private channels (their draws).
fn archive_envelope(replay_page_log: &Value) -> Value {
    let packets: Vec<&Value> = replay_page_log["data"]["data"]
        .as_array()
        .expect("envelope A's packets")
        .iter()
        .filter(|p| p["channel"].as_str().is_some_and(|c| c.starts_with("/table/")))
        .collect();
    let result = packets
        .iter()
        .filter_map(|p| p["data"].as_array())
        .flatten()
        .find_map(|e| e["args"]["args"]["result"].as_array())
        .expect("the game's result");
    let players: Vec<Value> = result
        .iter()
        .map(|p| json!({"id": p["player"], "name": p["name"], "color": p["color"]}))
        .collect();
    json!({"status": 1, "data": {"logs": packets, "players": players}})
}

fn import(bytes: &[u8]) -> (GameRecord, Vec<i32>) {
    let (record, format) = record::parse(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(format, Format::Bga);
    let r = replay::replay(&record, None).unwrap_or_else(|e| panic!("{e}"));
    replay::recorded_scores(&record, &r).unwrap_or_else(|e| panic!("{e}"));
    (record, r.final_scores)
}

/// What the bookmarklet delivers from the archive reads as the same game, move for move and
/// score for score, as the replay page's `g_gamelogs` of the same table.
#[test]
fn the_archive_envelope_reads_as_the_same_game_as_the_replay_pages() {
    for (file, finals) in [("game-a.json", [96, 70]), ("game-b.json", [96, 98])] {
        let Some(page) = fixture(file) else { return };
        let archive = serde_json::to_vec(&archive_envelope(&page)).unwrap();
        let (from_page, page_finals) = import(&serde_json::to_vec(&page).unwrap());
        let (from_archive, archive_finals) = import(&archive);
        assert_eq!(from_archive.moves, from_page.moves, "{file}: moves");
        assert_eq!(from_archive.players, from_page.players, "{file}: players");
        assert_eq!(
            from_archive.setup.recorded_scores, from_page.setup.recorded_scores,
            "{file}: BGA's own scores"
        );
        assert_eq!(from_archive.resolved_rules(), from_page.resolved_rules(), "{file}");
        assert_eq!(archive_finals, finals, "{file}");
        assert_eq!(page_finals, finals, "{file}");
    }
}

// ----- the stand-in for Board Game Arena -----

/// What the stand-in serves for one table.
struct Table {
    id: &'static str,
    /// The archive's answer once the table is archived; `None`: it never is.
    archive: Option<String>,
    /// Whether the archive has the table before anyone asks for it.
    archived: bool,
    /// The log the replay page holds in `g_gamelogs`, if this page is a replay.
    page_log: Option<String>,
    /// A `Content-Security-Policy` for the page, if any.
    page_policy: Option<&'static str>,
}

impl Table {
    /// A table the archive never has and whose page holds no log; tests set what differs.
    fn new(id: &'static str) -> Table {
        Table {
            id,
            archive: None,
            archived: false,
            page_log: None,
            page_policy: None,
        }
    }
}

/// A request the stand-in answered: its path and query, and the request token it carried.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    target: String,
    token: Option<String>,
}

/// A tiny HTTP server on a random port playing Board Game Arena: any page is the table's page;
/// the archive answers "not archived" (status 0) until the archive request came, then the
/// log.
struct StandIn {
    address: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl StandIn {
    fn start(table: Table) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::new(Mutex::new(table));
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (table, log) = (shared.clone(), log.clone());
                // A connection each: Chromium opens spare ones that may never send anything.
                std::thread::spawn(move || serve(stream, &table, &log));
            }
        });
        StandIn { address, seen }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// The requests to Board Game Arena's endpoints, in order (pages and icons left out).
    fn asked(&self) -> Vec<Seen> {
        let seen = self.seen.lock().unwrap();
        seen.iter()
            .filter(|s| s.target.starts_with("/archive/archive/") || s.target.starts_with("/gamereview/"))
            .cloned()
            .collect()
    }
}

fn serve(stream: TcpStream, table: &Mutex<Table>, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(&stream);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    let mut headers = HashMap::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let token = headers.get("x-request-token").cloned();
    log.lock().unwrap().push(Seen {
        target: target.clone(),
        token: token.clone(),
    });
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let query: HashMap<&str, &str> = query.split('&').filter_map(|kv| kv.split_once('=')).collect();
    let mut table = table.lock().unwrap();
    let this_table = query.get("table") == Some(&table.id);
    let (content_type, body, policy) = match path {
        "/archive/archive/logs.html" => {
            let answer = match &table.archive {
                _ if token.as_deref() != Some(TOKEN) => bga_error("stand-in: no request token"),
                Some(log) if this_table && table.archived && query.get("translated") == Some(&"true") => log.clone(),
                _ => bga_error("stand-in: this table is not archived yet"),
            };
            ("application/json", answer, None)
        }
        "/gamereview/gamereview/requestTableArchive.html" => {
            if this_table && token.as_deref() == Some(TOKEN) {
                table.archived = true;
            }
            ("application/json", json!({"status": 1, "data": true}).to_string(), None)
        }
        "/favicon.ico" => ("text/plain", String::new(), None),
        _ => ("text/html; charset=utf-8", page_html(&table), table.page_policy),
    };
    drop(table);
    let mut head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(policy) = policy {
        head.push_str(&format!("Content-Security-Policy: {policy}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = &stream;
    let _ = out
        .write_all(head.as_bytes())
        .and_then(|_| out.write_all(body.as_bytes()));
}

/// Board Game Arena's shape for a refusal: status 0 and an error in words.
fn bga_error(words: &str) -> String {
    json!({"status": "0", "error": words, "code": 100}).to_string()
}

/// A table page: the request token in `bgaConfig`, as BGA's pages have it, and on a replay
/// the log in `g_gamelogs`.
fn page_html(table: &Table) -> String {
    let log = table.page_log.as_deref().map_or(String::new(), |log| {
        // JSON may say `</` inside a string; `<\/` means the same and cannot end the script.
        format!("var g_gamelogs = {};", log.replace("</", "<\\/"))
    });
    format!(
        "<!doctype html><html><head><title>Carcassonne (stand-in)</title>\
         <script>var bgaConfig = {{requestToken: \"{TOKEN}\"}};{log}</script></head>\
         <body><h1>Table {}</h1></body></html>",
        table.id
    )
}

// ----- running the bookmarklet -----

/// The bookmark's address, as the `/bga` page's link holds it.
fn bookmarklet_href(app: &TestApp) -> String {
    let page = get_html(app, "/bga");
    assert_eq!(page.status, 200, "{}", page.body);
    let start = page
        .body
        .find("class=\"bookmarklet\" href=\"")
        .expect("the bookmarklet link")
        + "class=\"bookmarklet\" href=\"".len();
    let end = start + page.body[start..].find('"').unwrap();
    unescape_html(&page.body[start..end])
}

/// Undoes the escaping askama applies to an attribute: `&#NN;` for `"&'<>`.
fn unescape_html(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("&#") {
        out.push_str(&rest[..at]);
        let end = at + rest[at..].find(';').expect("an entity ends with ;");
        let code: u32 = rest[at + 2..end].parse().expect("a decimal entity");
        out.push(char::from_u32(code).unwrap());
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The bookmark's address as a browser takes it from the `/bga` page's link (what dragging
/// it to the bookmarks bar keeps).
fn bookmarklet_href_in(browser: &Browser, app: &TestApp) -> String {
    browser.open(&app.url("/bga"));
    let href = browser.eval("return document.querySelector('a.bookmarklet').getAttribute('href');");
    let href = href.as_str().expect("the bookmarklet link").to_string();
    assert_eq!(href, bookmarklet_href(app), "the page's link as the browser reads it");
    href
}

/// Clicks the bookmark on the page the browser shows: the `javascript:` address is opened in
/// the page, as a bookmark does, after `confirm` is set to answer `upload`, `alert` to keep
/// what it is told, and downloads to be caught (`window.savedFile`: the file's name and text)
/// instead of written.
fn click_bookmark(browser: &Browser, href: &str, upload: bool) {
    let script = format!(
        r#"
        window.alerts = [];
        window.alert = (m) => window.alerts.push(String(m));
        window.confirm = () => {upload};
        window.savedFile = null;
        let blob = null;
        URL.createObjectURL = (b) => {{ blob = b; return "blob:caught"; }};
        HTMLAnchorElement.prototype.click = function () {{
            const name = this.download;
            blob.text().then((text) => {{ window.savedFile = {{name, text}}; }});
        }};
        location.href = {href};
        "#,
        href = serde_json::to_string(href).unwrap()
    );
    browser.eval(&script);
}

/// Waits for `done` to give something, up to a generous bound (a debug build replays the
/// upload): no timing is checked, only that it happens.
fn wait_for<T>(what: &str, mut done: impl FnMut() -> Option<T>) -> T {
    for _ in 0..1200 {
        if let Some(v) = done() {
            return v;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("waited a minute for {what}");
}

/// The game page the upload ended on: its game id.
fn uploaded_game(browser: &Browser, app: &TestApp) -> String {
    let prefix = app.url("/g/");
    let url = wait_for("the game page after the upload", || {
        let url = browser.current_url();
        url.starts_with(&prefix).then_some(url)
    });
    url[prefix.len()..].to_string()
}

fn asked_with_token(target: String) -> Seen {
    Seen {
        target,
        token: Some(TOKEN.to_string()),
    }
}

fn logs_of(table: &str) -> Seen {
    asked_with_token(format!("/archive/archive/logs.html?table={table}&translated=true"))
}

fn archive_request(table: &str) -> Seen {
    asked_with_token(format!("/gamereview/gamereview/requestTableArchive.html?table={table}"))
}

/// The main path: on the game's page, the archive says "not archived", the bookmarklet asks
/// for the archive and reads the log again, and posts it to our app, which stores the game
/// and shows it: the same game as the replay page's log uploaded directly, with BGA's final
/// scores.
#[test]
fn the_bookmarklet_uploads_the_archived_log_after_asking_for_the_archive() {
    let Some(page_log) = fixture("game-a.json") else { return };
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let href = bookmarklet_href_in(&browser, &app);
    let bga = StandIn::start(Table {
        archive: Some(archive_envelope(&page_log).to_string()),
        ..Table::new(TABLE_A)
    });
    let before = app.stored_games();
    browser.open(&bga.url(&format!("/1/carcassonne?table={TABLE_A}")));
    click_bookmark(&browser, &href, true);
    let id = uploaded_game(&browser, &app);
    assert_eq!(
        bga.asked(),
        [logs_of(TABLE_A), archive_request(TABLE_A), logs_of(TABLE_A)],
        "the log, refused; the archive request; the log again, each with the page's token"
    );
    assert_eq!(app.stored_games(), before + 1);
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["players"][0]["name"], "KokiYamaguchi", "{game}");
    assert_eq!(game["players"][1]["name"], "Kithara", "{game}");
    assert_eq!(game["final_scores"], json!([96, 70]), "the fixture's README: 96–70");
    assert!(
        game["source_format"].as_str().unwrap().contains("Board Game Arena"),
        "{game}"
    );
    let direct = post(&app, "/api/games", &serde_json::to_vec(&page_log).unwrap());
    assert_eq!(direct.status, 200, "already stored: {}", direct.body);
    assert_eq!(
        direct.json()["id"],
        id.as_str(),
        "the same game as the replay page's log"
    );
    let shown = get_html(&app, &format!("/g/{id}"));
    assert!(shown.body.contains("KokiYamaguchi"), "the game page opened");
    drop(browser);
    app.stop();
}

/// A table the archive will not give: the replay page's own `g_gamelogs` is uploaded.
#[test]
fn without_the_archive_the_replay_pages_own_log_is_uploaded() {
    let Some(page_log) = fixture("game-b.json") else { return };
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let href = bookmarklet_href_in(&browser, &app);
    let bga = StandIn::start(Table {
        page_log: Some(page_log.to_string()),
        ..Table::new(TABLE_B)
    });
    let replay = format!("/archive/replay/230505-1000/?table={TABLE_B}&player=1&comments=1");
    browser.open(&bga.url(&replay));
    click_bookmark(&browser, &href, true);
    let id = uploaded_game(&browser, &app);
    assert_eq!(
        bga.asked(),
        [logs_of(TABLE_B), archive_request(TABLE_B), logs_of(TABLE_B)],
        "the archive is tried first, and once more after asking for it"
    );
    let game = get(&app, &format!("/api/games/{id}")).json();
    assert_eq!(game["final_scores"], json!([96, 98]), "the fixture's README: 96–98");
    let direct = post(&app, "/api/games", &serde_json::to_vec(&page_log).unwrap());
    assert_eq!(
        direct.json()["id"],
        id.as_str(),
        "the same game as the log uploaded directly"
    );
    drop(browser);
    app.stop();
}

/// The file the bookmarklet saved, once it has (the stand-in page records it).
fn saved_file(browser: &Browser) -> Value {
    wait_for("the saved file", || {
        Some(browser.eval("return window.savedFile;")).filter(|v| !v.is_null())
    })
}

/// Cancel saves a file named after the table, holding exactly the text the archive sent, and
/// sends nothing to our app.
#[test]
fn cancel_saves_exactly_what_the_archive_sent_as_a_file() {
    let Some(page_log) = fixture("game-a.json") else { return };
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let href = bookmarklet_href_in(&browser, &app);
    let archive = archive_envelope(&page_log).to_string();
    let bga = StandIn::start(Table {
        archive: Some(archive.clone()),
        archived: true,
        ..Table::new(TABLE_A)
    });
    let before = app.stored_games();
    let page = bga.url(&format!("/table?table={TABLE_A}"));
    browser.open(&page);
    click_bookmark(&browser, &href, false);
    let saved = saved_file(&browser);
    assert_eq!(saved["name"], format!("bga-{TABLE_A}.json"));
    assert!(
        saved["text"] == archive.as_str(),
        "the file is the archive's answer, byte for byte"
    );
    assert_eq!(bga.asked(), [logs_of(TABLE_A)], "an archived table needs one request");
    assert_eq!(browser.current_url(), page, "the page stays");
    assert_eq!(app.stored_games(), before, "nothing uploaded");
    drop(browser);
    app.stop();
}

/// A page whose policy keeps forms on its own site stops the upload; the player is told and
/// gets the file instead.
#[test]
fn a_page_that_keeps_forms_home_gets_the_file_instead() {
    let Some(page_log) = fixture("game-a.json") else { return };
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let href = bookmarklet_href_in(&browser, &app);
    let archive = archive_envelope(&page_log).to_string();
    let bga = StandIn::start(Table {
        archive: Some(archive.clone()),
        archived: true,
        page_policy: Some("form-action 'self'"),
        ..Table::new(TABLE_A)
    });
    let before = app.stored_games();
    browser.open(&bga.url(&format!("/1/carcassonne?table={TABLE_A}")));
    click_bookmark(&browser, &href, true);
    let saved = saved_file(&browser);
    assert!(saved["text"] == archive.as_str());
    let alerts = browser.eval("return window.alerts;");
    assert!(
        alerts[0]
            .as_str()
            .unwrap_or_default()
            .contains("saved as bga-366166200.json"),
        "{alerts}"
    );
    assert_eq!(app.stored_games(), before, "nothing uploaded");
    drop(browser);
    app.stop();
}

/// Off a table's page, with no log in the page, the bookmarklet asks Board Game Arena nothing
/// and says what to open.
#[test]
fn off_a_table_it_says_what_to_open_and_asks_nothing() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let href = bookmarklet_href_in(&browser, &app);
    let bga = StandIn::start(Table::new(TABLE_A));
    browser.open(&bga.url("/welcome"));
    click_bookmark(&browser, &href, true);
    let alerts = wait_for("the bookmarklet's message", || {
        Some(browser.eval("return window.alerts;")).filter(|a| a.as_array().is_some_and(|a| !a.is_empty()))
    });
    assert!(
        alerts[0]
            .as_str()
            .unwrap()
            .contains("open a Board Game Arena table first"),
        "{alerts}"
    );
    assert!(bga.asked().is_empty(), "{:?}", bga.asked());
    drop(browser);
    app.stop();
}

/// `/bga` explains the bookmarklet and carries it, set to post to this site's public address;
/// the home page links to it.
#[test]
fn the_bga_page_carries_a_bookmarklet_for_this_site() {
    let app = spawn_app();
    let page = get_html(&app, "/bga");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"), "{}", page.content_type);
    for words in [
        "/archive/archive/logs.html?table=",
        "/gamereview/gamereview/requestTableArchive.html?table=",
        "g_gamelogs",
        "logged in",
        &format!("{}/games", app.address),
    ] {
        assert!(page.body.contains(words), "the page says {words:?}");
    }
    let href = bookmarklet_href(&app);
    let script = percent_encoding::percent_decode_str(href.strip_prefix("javascript:").expect("a javascript: link"))
        .decode_utf8()
        .unwrap();
    assert!(
        script.contains(&format!("const base = \"{}\";", app.address)),
        "{script}"
    );
    // The link is the shipped source, less its comment lines and indentation.
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/static/bga-bookmarklet.js")).unwrap();
    let expected: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    let expected = expected
        .join("\n")
        .replace("\"https://replay.example.org\"", &format!("\"{}\"", app.address));
    assert_eq!(script, expected);
    assert!(script.contains("form.action = base + \"/games\";"));
    assert!(script.contains("field.name = \"text\";"));
    let head = answer(agent().head(&app.url("/bga")).call().unwrap());
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert!(
        get_html(&app, "/").body.contains("href=\"/bga\""),
        "the home page links to it"
    );
    app.stop();
}

/// Like every page, `/bga` fits a 360 px phone, the bookmark's code included.
#[test]
fn on_a_phone_the_bga_page_does_not_scroll_sideways() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    browser.resize(360, 800);
    browser.open(&app.url("/bga"));
    browser.eval("document.querySelector('details').open = true;");
    let sizes = browser.eval("return [document.documentElement.scrollWidth, window.innerWidth];");
    let (content, viewport) = (sizes[0].as_u64().unwrap(), sizes[1].as_u64().unwrap());
    assert!(viewport <= 400, "the window is {viewport} px wide");
    assert!(content <= viewport, "{content} px in {viewport}");
    drop(browser);
    app.stop();
}

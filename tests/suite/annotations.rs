//! Annotations over HTTP: a game's owner comments on its turns, with the owner token through the
//! API or from the turn page in the uploading browser, and nobody else can; comments within
//! their limits, escaped, with their line breaks, in the turn list and on the turn page; only
//! the owner ever gets the forms; the record export carries them and gives the same game again;
//! writes are limited per client; another node shows a new comment; a database of the previous
//! release opens and takes comments.

use crate::common;

use carcassonne_replay::record::cards;
use carcassonne_replay::selfplay;
use common::app::*;
use common::browser::Browser;
use serde_json::{Value, json};

const JSON: (&str, &str) = ("Content-Type", "application/json");
const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

/// A new game of `app` (three turns), uploaded through the API: its id and owner token.
fn owned(app: &TestApp) -> (String, String) {
    owned_record(app, small_game(["Ines", "Jon"]).as_bytes())
}

fn owned_record(app: &TestApp, record: &[u8]) -> (String, String) {
    let up = post(app, "/api/games", record);
    assert_eq!(up.status, 201, "{}", up.body);
    let up = up.json();
    (
        up["id"].as_str().unwrap().into(),
        up["owner_token"].as_str().unwrap().into(),
    )
}

fn comment_path(id: &str, n: u32) -> String {
    format!("/api/games/{id}/turns/{n}/annotation")
}

/// `PUT`s a comment on turn `n` with the owner token `token`.
fn put(app: &TestApp, id: &str, n: u32, token: &str, body: Value) -> Answer {
    let bearer = format!("Bearer {token}");
    request(
        app,
        "PUT",
        &comment_path(id, n),
        &[JSON, ("Authorization", &bearer)],
        body.to_string().as_bytes(),
    )
}

/// `DELETE`s a comment on turn `n` with the owner token `token`; `body` names the line.
fn remove(app: &TestApp, id: &str, n: u32, token: &str, body: &str) -> Answer {
    let bearer = format!("Bearer {token}");
    request(
        app,
        "DELETE",
        &comment_path(id, n),
        &[JSON, ("Authorization", &bearer)],
        body.as_bytes(),
    )
}

fn turn_page(app: &TestApp, id: &str, n: u32) -> Answer {
    get_html(app, &format!("/g/{id}/t/{n}"))
}

/// The game's comments as the store reads them back: (turn, line, text).
fn stored(app: &TestApp, id: &str) -> Vec<(u32, String, String)> {
    let notes = app.store().annotations(&id.parse().unwrap()).unwrap();
    (notes.iter())
        .map(|a| (a.turn(), a.line().to_string(), a.text().to_string()))
        .collect()
}

fn note(turn: u32, line: &str, text: &str) -> (u32, String, String) {
    (turn, line.to_string(), text.to_string())
}

/// The text of the page's first comment, as sent.
fn comment_text(page: &str) -> &str {
    let marker = "<p class=\"comment-text\">";
    let start = page.find(marker).expect("a comment on the page") + marker.len();
    &page[start..start + page[start..].find("</p>").unwrap()]
}

/// HTML text as it reads: its character references resolved (those escaping writes).
fn unescaped(html: &str) -> String {
    let references = [
        ("&#60;", "<"),
        ("&#62;", ">"),
        ("&#34;", "\""),
        ("&#39;", "'"),
        ("&lt;", "<"),
        ("&gt;", ">"),
    ];
    let text = references.iter().fold(html.to_string(), |t, (r, c)| t.replace(r, c));
    text.replace("&#38;", "&").replace("&amp;", "&")
}

/// The owner writes a comment on a turn, changes it, adds one on a line explored from the turn
/// and removes both. The turn page shows each in full (its kept page changes with it) and the
/// turn list marks the turn, with the comment's start once the turn is reached.
#[test]
fn the_owner_writes_changes_and_removes_comments() {
    let app = spawn_app();
    let (id, token) = owned(&app);
    let before = turn_page(&app, &id, 2);
    assert!(!before.body.contains("id=\"comments\""), "no comment yet");
    let written = put(
        &app,
        &id,
        2,
        &token,
        json!({"text": "  Jon should have taken the city.\n "}),
    );
    assert_eq!(written.status, 200, "{}", written.body);
    assert_eq!(
        written.json(),
        json!({"turn": 2, "text": "Jon should have taken the city."})
    );
    let page = turn_page(&app, &id, 2);
    assert_eq!(comment_text(&page.body), "Jon should have taken the city.");
    assert_ne!(page.header("etag"), before.header("etag"), "the kept page changed");
    let later = turn_page(&app, &id, 3).body;
    assert!(
        later.contains("comment-mark")
            && later.contains("<small class=\"comment-start\">Jon should have taken the city.</small>"),
        "the turn list marks turn 2 with the comment's start"
    );
    let earlier = turn_page(&app, &id, 1).body;
    assert!(
        earlier.contains("comment-mark") && !earlier.contains("Jon should"),
        "a turn not reached yet is marked, and its comment waits"
    );

    assert_eq!(put(&app, &id, 2, &token, json!({"text": "Or the road."})).status, 200);
    let line = json!({"text": "This was better.", "line": "1,0,90"});
    assert_eq!(put(&app, &id, 2, &token, line).json()["line"], "1,0,90");
    let page = turn_page(&app, &id, 2).body;
    assert_eq!(comment_text(&page), "Or the road.", "changed in place");
    assert!(!page.contains("Jon should"));
    assert!(
        page.contains(&format!("href=\"/g/{id}/t/2/explore?line=1,0,90\"")) && page.contains("This was better."),
        "the line's comment links the line"
    );
    assert_eq!(
        stored(&app, &id),
        [note(2, "", "Or the road."), note(2, "1,0,90", "This was better.")]
    );

    assert_eq!(remove(&app, &id, 2, &token, "").status, 204);
    let again = remove(&app, &id, 2, &token, "");
    assert_eq!(
        (again.status, again.content_type.as_str()),
        (404, "application/problem+json")
    );
    assert!(!turn_page(&app, &id, 2).body.contains("Or the road."));
    assert_eq!(
        stored(&app, &id),
        [note(2, "1,0,90", "This was better.")],
        "the line's stays"
    );
    assert_eq!(remove(&app, &id, 2, &token, r#"{"line": "1,0,90"}"#).status, 204);
    assert!(stored(&app, &id).is_empty());
    assert!(!turn_page(&app, &id, 3).body.contains("comment-mark"));
    app.stop();
}

/// Without the owner token (none, another one, another site's page, a game nobody owns) a
/// comment is refused as problem+json, and nothing changes; a turn the game lacks is 404.
#[test]
fn only_the_owner_comments() {
    let app = spawn_app();
    let (id, token) = owned(&app);
    assert_eq!(put(&app, &id, 1, &token, json!({"text": "Mine."})).status, 200);
    let page = turn_page(&app, &id, 1);
    let path = comment_path(&id, 1);
    let defaced = json!({"text": "Defaced."}).to_string();
    let anonymous = request(&app, "PUT", &path, &[JSON], defaced.as_bytes());
    assert_eq!(
        (
            anonymous.status,
            anonymous.content_type.as_str(),
            anonymous.header("www-authenticate")
        ),
        (401, "application/problem+json", "Bearer")
    );
    let other = format!("Bearer {}", "0".repeat(64));
    let stranger = request(
        &app,
        "PUT",
        &path,
        &[JSON, ("Authorization", &other)],
        defaced.as_bytes(),
    );
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    let bearer = format!("Bearer {token}");
    let elsewhere = [JSON, ("Authorization", &bearer), ("Origin", "https://evil.example")];
    assert_eq!(request(&app, "PUT", &path, &elsewhere, defaced.as_bytes()).status, 403);
    assert_eq!(request(&app, "DELETE", &path, &[], b"").status, 401);
    assert_eq!(
        request(&app, "DELETE", &path, &[("Authorization", &other)], b"").status,
        403
    );
    assert_eq!(stored(&app, &id), [note(1, "", "Mine.")], "nothing changed");
    assert_eq!(turn_page(&app, &id, 1).header("etag"), page.header("etag"));

    let home = get(&app, "/").body;
    let demo = (home.split("/g/").skip(1).map(|s| &s[..16]))
        .find(|g| *g != id)
        .unwrap();
    let unowned = put(&app, demo, 1, &token, json!({"text": "Mine now."}));
    assert_eq!(unowned.status, 403, "the demos are nobody's: {}", unowned.body);
    let past = put(&app, &id, 4, &token, json!({"text": "After the end."}));
    assert_eq!(past.status, 404);
    assert!(
        past.json()["detail"].as_str().unwrap().contains("turns 0 to 3"),
        "{}",
        past.body
    );
    let nothing = put(&app, "0123456789abcdef", 1, &token, json!({"text": "x"}));
    assert_eq!(nothing.status, 404);
    assert!(stored(&app, demo).is_empty());
    app.stop();
}

/// A comment is 1 to 2,000 characters once trimmed, with no control character but newlines,
/// and its line at most 16 KB: past these the answer is problem+json naming the limit, and
/// nothing is stored.
#[test]
fn comments_past_their_limits_are_refused_naming_them() {
    let app = spawn_app();
    let (id, token) = owned(&app);
    let cases = [
        (json!({"text": "é".repeat(2001)}), 413, "the limit is 2000", Some(2000)),
        (json!({"text": " \n\t "}), 400, "empty", None),
        (json!({"text": "a\u{7}b"}), 400, "control character U+0007", None),
        (json!({"text": "tab\there"}), 400, "control character U+0009", None),
        (
            json!({"text": "x", "line": "1,0,90@".repeat(2400)}),
            413,
            "the limit is 16384",
            Some(16384),
        ),
        (json!({"words": "x"}), 400, "unknown field", None),
    ];
    for (body, status, words, limit) in cases {
        let refused = put(&app, &id, 1, &token, body.clone());
        assert_eq!(refused.status, status, "{body}: {}", refused.body);
        assert_eq!(refused.content_type, "application/problem+json");
        let problem = refused.json();
        assert!(problem["detail"].as_str().unwrap().contains(words), "{problem}");
        assert_eq!(problem["limit"].as_u64(), limit, "{problem}");
    }
    let bearer = format!("Bearer {token}");
    let garbled = request(
        &app,
        "PUT",
        &comment_path(&id, 1),
        &[JSON, ("Authorization", &bearer)],
        b"{text",
    );
    assert_eq!(
        (garbled.status, garbled.content_type.as_str()),
        (400, "application/problem+json")
    );
    assert!(stored(&app, &id).is_empty(), "nothing stored");
    let longest = "é".repeat(2000);
    assert_eq!(put(&app, &id, 1, &token, json!({"text": longest})).status, 200);
    assert_eq!(
        stored(&app, &id),
        [note(1, "", &longest)],
        "2,000 characters, not bytes"
    );
    app.stop();
}

/// A comment is text: markup in it shows as written, never runs, and its line breaks stay.
#[test]
fn a_comment_shows_escaped_with_its_line_breaks() {
    let app = spawn_app();
    let (id, token) = owned(&app);
    let text = "<script>alert(1)</script> & <b>bold</b>\nsecond line";
    assert_eq!(put(&app, &id, 2, &token, json!({"text": text})).status, 200);
    let page = turn_page(&app, &id, 2).body;
    assert_eq!(
        unescaped(comment_text(&page)),
        text,
        "written as it came, line break included"
    );
    assert!(!page.contains("<script>alert") && !page.contains("<b>bold"), "escaped");
    let list = turn_page(&app, &id, 3).body;
    let marker = "<small class=\"comment-start\">";
    let start = list.find(marker).unwrap() + marker.len();
    let start = &list[start..start + list[start..].find("</small>").unwrap()];
    assert_eq!(
        unescaped(start),
        "<script>alert(1)</script> & <b>bold</b>",
        "the first line"
    );
    assert!(!list.contains("<script>alert"));
    app.stop();
}

/// The uploading browser (its owner cookie) gets the comment forms on the turn page, as a
/// private answer; every other visitor, before and after, gets the page without them, another
/// game's owner included. The forms write and remove from this site only.
#[test]
fn the_uploading_browser_comments_from_the_turn_page_and_no_one_else_sees_the_form() {
    let app = spawn_app();
    let cookie_of = |names| {
        let up = post_form(&app, "text", None, small_game(names).as_bytes());
        assert_eq!(up.status, 303, "{}", up.body);
        let cookie = up.header("set-cookie").split(';').next().unwrap().to_string();
        (up.location.unwrap().trim_start_matches("/g/").to_string(), cookie)
    };
    let (id, cookie) = cookie_of(["Kai", "Lee"]);
    let (_, other_cookie) = cookie_of(["Max", "Noa"]);
    let page = format!("/g/{id}/t/1");
    let as_owner = |cookie: &str| request(&app, "GET", &page, &[("Cookie", cookie), ("Accept", "text/html")], b"");
    let form = format!("action=\"/g/{id}/t/1/annotation\"");
    let first = get_html(&app, &page);
    assert!(
        !first.body.contains(&form) && !first.body.contains("comment-form"),
        "a visitor gets no form"
    );
    for _ in 0..2 {
        let mine = as_owner(&cookie);
        assert!(mine.body.contains(&form) && mine.body.contains("<textarea name=\"text\""));
        assert_eq!(
            mine.header("cache-control"),
            "private, no-cache",
            "the owner's page is theirs"
        );
        let theirs = get_html(&app, &page);
        assert!(!theirs.body.contains(&form), "a visitor after the owner gets no form");
        assert_eq!(
            (theirs.header("cache-control"), theirs.header("etag")),
            ("no-cache", first.header("etag"))
        );
        assert!(
            !as_owner(&other_cookie).body.contains(&form),
            "nor does another game's owner"
        );
    }

    let post_comment = |cookie: &str, site: &str, body: &str| {
        let headers = [
            ("Cookie", cookie),
            FORM,
            ("Sec-Fetch-Site", site),
            ("Accept", "text/html"),
        ];
        request(
            &app,
            "POST",
            &format!("/g/{id}/t/1/annotation"),
            &headers,
            body.as_bytes(),
        )
    };
    let written = post_comment(&cookie, "same-origin", "line=&text=First+line%0D%0ASecond+%3Cline%3E");
    assert_eq!(
        (written.status, written.location.as_deref()),
        (303, Some(format!("/g/{id}/t/1#comments").as_str()))
    );
    assert_eq!(stored(&app, &id), [note(1, "", "First line\nSecond <line>")]);
    let shown = get_html(&app, &page).body;
    assert_eq!(unescaped(comment_text(&shown)), "First line\nSecond <line>");
    assert!(!shown.contains(&form));
    let forged = post_comment(&cookie, "cross-site", "line=&text=Forged");
    assert_eq!(forged.status, 403, "another site's page");
    assert_eq!(
        post_comment(&other_cookie, "same-origin", "line=&text=Theirs").status,
        403
    );
    assert_eq!(post_comment("x=y", "same-origin", "line=&text=Nobody").status, 401);
    assert_eq!(
        stored(&app, &id),
        [note(1, "", "First line\nSecond <line>")],
        "unchanged"
    );
    assert!(as_owner(&cookie).body.contains("Remove this comment"));
    let removed = post_comment(&cookie, "same-origin", "line=&remove=yes");
    assert_eq!(removed.status, 303);
    assert!(stored(&app, &id).is_empty());
    assert!(!get_html(&app, &page).body.contains("First line"));
    app.stop();
}

/// The record export carries the comments, as the schema says; uploading it again gives the
/// same game (comments are not hashed), and a new database takes them with the game, for its
/// new owner. A Card Game's record does the same. A comment on a turn the game lacks is
/// refused with the upload.
#[test]
fn the_record_export_carries_the_comments_and_gives_the_same_game_again() {
    let app = spawn_app();
    let (id, token) = owned(&app);
    assert_eq!(put(&app, &id, 1, &token, json!({"text": "Opening."})).status, 200);
    let line = json!({"text": "Better: <here>", "line": "1,0,90"});
    assert_eq!(put(&app, &id, 2, &token, line).status, 200);
    let export = get(&app, &format!("/g/{id}.json"));
    let doc: Value = serde_json::from_str(&export.body).unwrap();
    let expected = json!([{"turn": 1, "text": "Opening."}, {"turn": 2, "line": "1,0,90", "text": "Better: <here>"}]);
    assert_eq!(doc["annotations"], expected);
    assert_valid("static/record.schema.json", &doc);
    let again = post(&app, "/api/games", export.body.as_bytes());
    assert_eq!((again.status, again.json()["id"].as_str()), (200, Some(id.as_str())));

    let other = spawn_app();
    let (moved, new_token) = owned_record(&other, export.body.as_bytes());
    assert_eq!(moved, id, "the same game, with or without comments");
    assert_eq!(stored(&other, &id), stored(&app, &id), "its comments came with it");
    assert_eq!(
        unescaped(comment_text(&turn_page(&other, &id, 2).body)),
        "Better: <here>"
    );
    assert_eq!(
        put(&other, &id, 1, &new_token, json!({"text": "Mine now."})).status,
        200
    );
    assert_eq!(stored(&app, &id)[0], note(1, "", "Opening."), "each database its own");

    let card_game = cards::to_value(&selfplay::card_game(3, selfplay::Policy::Greedy, 4).unwrap()).to_string();
    let (card_id, card_token) = owned_record(&app, card_game.as_bytes());
    assert_eq!(
        put(&app, &card_id, 5, &card_token, json!({"text": "A dragon."})).status,
        200
    );
    let card_export = get(&app, &format!("/g/{card_id}.json")).body;
    let card_doc: Value = serde_json::from_str(&card_export).unwrap();
    assert_eq!(card_doc["annotations"], json!([{"turn": 5, "text": "A dragon."}]));
    assert_valid("static/card-game.schema.json", &card_doc);
    assert_eq!(owned_record(&other, card_export.as_bytes()).0, card_id);

    let mut past = doc.clone();
    past["annotations"] = json!([{"turn": 4, "text": "After the end."}]);
    let refused = post(&other, "/api/games", past.to_string().as_bytes());
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.body.contains("turn 4 is past the game's last turn, 3"),
        "{}",
        refused.body
    );
    other.stop();
    app.stop();
}

fn assert_valid(schema: &str, doc: &Value) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_slice(&std::fs::read(root.join(schema)).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// The store keeps a record's comments with its new game, writes and removes one at a time,
/// noting each change for the other processes, drops them with their game, and `copy-db`
/// copies them.
#[test]
fn the_store_keeps_comments_with_their_game() {
    use carcassonne_replay::record::Annotation;
    use carcassonne_replay::store::{Change, GameId, Store, copy, ingest};
    let (db, _dir, _pg) = fresh_database();
    let store = Store::open(db).unwrap();
    let mut record: Value = serde_json::from_str(&small_game(["Ros", "Sol"])).unwrap();
    record["annotations"] = json!([{"turn": 3, "line": "2,0,0", "text": "Later."}, {"turn": 0, "text": "Start."}]);
    let (game, new) = ingest(&store, record.to_string().as_bytes()).unwrap();
    assert!(new);
    let id = game.id;
    let read = |s: &Store| {
        let notes = s.annotations(&id).unwrap();
        notes
            .iter()
            .map(|a| (a.turn(), a.line().to_string(), a.text().to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        read(&store),
        [note(0, "", "Start."), note(3, "2,0,0", "Later.")],
        "in turn order"
    );
    let start = store.changes_since(None).unwrap();
    assert!(
        store
            .annotate(&id, &Annotation::new(3, "2,0,0", "Later still.").unwrap())
            .unwrap()
    );
    assert!(store.unannotate(&id, 0, "").unwrap());
    assert!(!store.unannotate(&id, 0, "").unwrap(), "removed already: no change");
    let gone: GameId = "0123456789abcdef".parse().unwrap();
    assert!(
        !store.annotate(&gone, &Annotation::new(1, "", "x").unwrap()).unwrap(),
        "no such game"
    );
    let changes = store.changes_since(Some(start.last)).unwrap();
    assert_eq!(changes.games, [(id, Change::Annotations), (id, Change::Annotations)]);
    assert_eq!(read(&store), [note(3, "2,0,0", "Later still.")]);

    let (target, _target_dir, _target_pg) = fresh_database();
    let target = Store::open(target).unwrap();
    let counts = copy(&store, &target, &|_| {}).unwrap();
    assert_eq!(counts.annotations, 1);
    assert_eq!(read(&target), read(&store), "copied");
    assert!(store.delete(&id).unwrap());
    assert_eq!(store.counts().unwrap().annotations, 0, "gone with their game");
}

/// Writing comments counts against a per-client limit, like uploads: past it, 429 with
/// `Retry-After`.
#[test]
fn comments_are_limited_per_client() {
    let app = spawn_app_configured(|s| s.limits.annotations_per_minute = 2);
    let (id, token) = owned(&app);
    assert_eq!(put(&app, &id, 1, &token, json!({"text": "One."})).status, 200);
    assert_eq!(put(&app, &id, 2, &token, json!({"text": "Two."})).status, 200);
    let third = put(&app, &id, 3, &token, json!({"text": "Three."}));
    assert_eq!(
        (third.status, third.content_type.as_str()),
        (429, "application/problem+json")
    );
    assert!(third.header("retry-after").parse::<u32>().unwrap() > 0);
    assert!(third.json()["detail"].as_str().unwrap().contains("too many comments"));
    assert_eq!(stored(&app, &id).len(), 2);
    app.stop();
}

/// Two nodes on one database: a comment written through one shows on the other within
/// seconds, though the other kept the turn's page.
#[test]
fn a_comment_through_one_node_soon_shows_on_the_other() {
    let a = spawn_app();
    let b = spawn_app_at(a.db.clone(), None);
    let (id, token) = owned(&a);
    assert!(
        !turn_page(&b, &id, 1).body.contains("Seen from B."),
        "B keeps the page now"
    );
    assert_eq!(put(&a, &id, 1, &token, json!({"text": "Seen from B."})).status, 200);
    let shown = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        turn_page(&b, &id, 1).body.contains("Seen from B.")
    });
    assert!(
        shown,
        "B still shows the page without the comment 5 s after it was written"
    );
    b.stop();
    a.stop();
}

/// A database of the previous release opens: its games serve as before, without comments,
/// belong to nobody (no comment on them), and new games there take comments.
#[test]
fn a_database_of_the_previous_release_opens_and_takes_comments() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store");
    let expected = common::read_json(&fixtures.join("previous-release.json"));
    let app = spawn_app_on_previous_release();
    let token = "1".repeat(64);
    for g in expected["games"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        let page = turn_page(&app, id, 1);
        assert_eq!(page.status, 200, "{id}");
        assert!(!page.body.contains("id=\"comments\""));
        let refused = put(&app, id, 1, &token, json!({"text": "x"}));
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert!(refused.body.contains("before uploads had owners"), "{}", refused.body);
    }
    let (id, token) = owned(&app);
    assert_eq!(put(&app, &id, 1, &token, json!({"text": "New here."})).status, 200);
    assert!(turn_page(&app, &id, 1).body.contains("New here."));
    app.stop();
}

/// In a browser at 360 px, the uploader writes a comment from the turn page without a script's
/// help; the comment keeps its line breaks, and neither it nor the forms push the page
/// sideways.
#[test]
fn on_a_phone_the_uploader_comments_from_the_turn_page() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    browser.resize(360, 800);
    browser.open(&app.url("/"));
    browser.eval(&format!(
        "document.querySelector('textarea[name=text]').value = {}; document.querySelector('form[action=\"/games\"]').submit();",
        serde_json::to_string(&small_game(["Olu", "Pim"])).unwrap()
    ));
    assert!(browser.wait_for_url_containing("/g/"), "uploaded");
    let id = browser.current_url().split("/g/").nth(1).unwrap()[..16].to_string();
    browser.open(&app.url(&format!("/g/{id}/t/2")));
    let text = format!("A long word: {}\nand a second line", "x".repeat(200));
    browser.eval(&format!(
        "var f = document.querySelector('form.comment-form'); f.querySelector('textarea').value = {}; f.submit();",
        serde_json::to_string(&text).unwrap()
    ));
    let shown = browser.wait_for("var c = document.querySelector('.comment-text'); return c ? c.innerText : null;");
    assert_eq!(shown, Value::from(text), "shown with its line break");
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    let wide = browser.eval("return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth).map(e => e.tagName + '.' + e.className).join(' ');");
    assert_eq!(
        browser.eval(fits),
        Value::Bool(true),
        "the comment and the forms fit: {wide}"
    );
    app.stop();
}

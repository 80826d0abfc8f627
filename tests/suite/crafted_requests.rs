//! Requests crafted to exhaust the service or mislead its pages, each answered within a bound
//! (issue 43's findings; the collections', imports' and analysis queue's are in their own
//! modules, `collections` and `analysis_queue`; the database's outage in `tests/postgres`).
//!
//! Checked:
//! - a gzip body to a `PATCH` answered `415` with `Accept-Encoding: identity`, nothing changed
//! - every route's wrong methods answered `405` with the `Allow` it takes, and its own
//!   methods never `405`; an address that is no route `404`
//! - a board 130 tiles long drawn as PNG at the default size, smaller; a size asked for that
//!   does not fit answered `422` with the size that does
//! - a record of 100,000 comments refused at once; a game takes 1,000, and no new one past them
//! - names and comments holding a bidirectional override, or only invisible characters, refused
//! - an explore page of a 6 KB line over 500 open squares under a megabyte; explore positions
//!   limited per client
//! - a body over its limit told the limit in its own units

use crate::common;

use common::app::*;
use std::io::Write;

/// Half a megabyte of gzip that inflates to 256 MB of spaces.
fn gzip_bomb() -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![b' '; 1 << 20];
    for _ in 0..256 {
        gz.write_all(&block).unwrap();
    }
    gz.finish().unwrap()
}

#[test]
fn a_compressed_body_is_refused_before_it_inflates() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let bomb = gzip_bomb();
    assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
    for (method, path) in [
        ("PATCH", format!("/api/games/{id}")),
        ("PATCH", "/api/collections/0123456789abcdef".to_string()),
        ("POST", "/api/games".to_string()),
    ] {
        let headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")];
        let a = request(&app, method, &path, &headers, &bomb);
        assert_eq!(a.status, 415, "{method} {path}: {}", a.body);
        assert_eq!(a.content_type, "application/problem+json");
        assert_eq!(a.header("accept-encoding"), "identity", "{method} {path}");
        assert!(
            a.json()["detail"]
                .as_str()
                .unwrap()
                .contains("without Content-Encoding")
        );
    }
    // `identity` is no encoding at all.
    let plain = request(
        &app,
        "POST",
        "/api/games",
        &[("Content-Encoding", "identity")],
        small_game(["Cleo", "Dan"]).as_bytes(),
    );
    assert_eq!(plain.status, 201, "{}", plain.body);
    app.stop();
}

#[test]
fn a_wrong_method_is_told_the_methods_the_address_takes() {
    let app = spawn_app();
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let routes = [
        ("/".to_string(), "GET, HEAD"),
        (format!("/g/{id}/t/1"), "GET, HEAD"),
        ("/games".to_string(), "POST"),
        ("/api/games".to_string(), "POST"),
        (format!("/api/games/{id}"), "GET, HEAD, PATCH, DELETE"),
        (format!("/g/{id}/analysis"), "GET, HEAD, POST"),
        (format!("/api/games/{id}/turns/1/annotation"), "PUT, DELETE"),
        (format!("/g/{id}/t/1/annotation"), "POST"),
        (format!("/g/{id}/delete"), "POST"),
        (format!("/g/{id}/listing"), "POST"),
        ("/api/collections".to_string(), "POST"),
        ("/collections".to_string(), "POST"),
        ("/api/collections/0123456789abcdef".to_string(), "GET, HEAD, PATCH"),
        ("/api/collections/0123456789abcdef/analysis".to_string(), "POST"),
        ("/c/0123456789abcdef/analysis".to_string(), "POST"),
        ("/c/0123456789abcdef/edit".to_string(), "POST"),
        ("/c/new".to_string(), "GET, HEAD"),
        (format!("/g/{id}/key"), "GET, HEAD, POST"),
        (format!("/g/{id}/key/new"), "POST"),
        (format!("/api/games/{id}/owner-token"), "POST"),
    ];
    for (path, allowed) in routes {
        for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] {
            let a = request(&app, method, &path, &[], b"");
            let takes = allowed.split(", ").any(|m| m == method);
            assert_eq!(a.status == 405, !takes, "{method} {path}: {} {}", a.status, a.body);
            if !takes {
                assert_eq!(a.header("allow"), allowed, "{method} {path}");
                if method != "HEAD" {
                    assert_eq!(a.content_type, "application/problem+json", "{method} {path}");
                }
            }
        }
    }
    assert_eq!(request(&app, "DELETE", "/no/such/thing", &[], b"").status, 404);
    app.stop();
}

/// A legal game whose road runs 130 tiles east of the start, on tiles of its own.
fn a_road_130_tiles_long() -> Vec<u8> {
    let moves: Vec<String> = (1..=130)
        .map(|x| format!(r#"{{"tile": "k", "at": [{x}, 0], "rotation": 0}}"#))
        .collect();
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": "Ann"}}, {{"name": "Bob"}}],
            "tiles": [{{"name": "k", "count": 200,
                "segments": "road E W; field N.w N.e E.n W.n; field E.s S.e S.w W.s"}}],
            "moves": [{}]}}"#,
        moves.join(",")
    )
    .into_bytes()
}

/// The PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[1..4], b"PNG");
    let at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (at(16), at(20))
}

#[test]
fn a_board_too_long_for_its_default_size_is_drawn_smaller_and_an_asked_size_is_refused() {
    let app = spawn_app();
    let id = upload_id(&app, &a_road_130_tiles_long());
    for path in [format!("/g/{id}.png"), format!("/g/{id}/t/130.png")] {
        let (status, headers, body) = raw_get(&app, &path);
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&body));
        assert_eq!(headers.get("content-type").unwrap(), "image/png");
        let (w, h) = png_size(&body);
        assert!(w <= 8192 && w > 8000, "{path}: {w}×{h}");
    }
    let refused = get(&app, &format!("/g/{id}.png?size=64"));
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(refused.content_type, "application/problem+json");
    assert_eq!(refused.json()["fits"], 62, "{}", refused.body);
    assert!(refused.json()["detail"].as_str().unwrap().contains("size 62 fits"));
    assert_eq!(get(&app, &format!("/g/{id}.png?size=62")).status, 200);
    app.stop();
}

/// A GET whose body is read as bytes.
fn raw_get(app: &TestApp, path: &str) -> (u16, ureq::http::HeaderMap, Vec<u8>) {
    let mut r = agent().get(&app.url(path)).call().unwrap();
    let body = r.body_mut().with_config().limit(64 << 20).read_to_vec().unwrap();
    (r.status().as_u16(), r.headers().clone(), body)
}

/// The small game with `n` comments, each on its own line of turn 1.
fn commented(n: usize) -> Vec<u8> {
    let mut record: serde_json::Value = serde_json::from_str(&small_game(["Ann", "Bob"])).unwrap();
    let comments: Vec<serde_json::Value> = (0..n)
        .map(|i| serde_json::json!({"turn": 1, "line": format!("{i},0,0"), "text": "hm"}))
        .collect();
    record["annotations"] = comments.into();
    serde_json::to_vec(&record).unwrap()
}

#[test]
fn a_record_with_a_hundred_thousand_comments_is_refused_at_once() {
    let app = spawn_app();
    let before = app.stored_games();
    let a = post(&app, "/api/games", &commented(100_000));
    assert_eq!(a.status, 422, "{}", a.body);
    let detail = a.json()["detail"].as_str().unwrap().to_string();
    assert!(
        detail.contains("100000 entries; a game holds at most 1000 comments"),
        "{detail}"
    );
    assert_eq!(app.stored_games(), before);
    // The limit itself is taken, and the API adds none past it.
    let full = post(&app, "/api/games", &commented(1000));
    assert_eq!(full.status, 201, "{}", full.body);
    let (id, token) = (
        full.json()["id"].as_str().unwrap().to_string(),
        full.json()["owner_token"].as_str().unwrap().to_string(),
    );
    let bearer = format!("Bearer {token}");
    let headers = [("Content-Type", "application/json"), ("Authorization", bearer.as_str())];
    let path = format!("/api/games/{id}/turns/1/annotation");
    let more = request(&app, "PUT", &path, &headers, br#"{"text": "one more", "line": "x"}"#);
    assert_eq!(more.status, 413, "{}", more.body);
    assert_eq!(more.json()["limit"], 1000);
    let again = request(
        &app,
        "PUT",
        &path,
        &headers,
        br#"{"text": "rewritten", "line": "7,0,0"}"#,
    );
    assert_eq!(
        again.status, 200,
        "a comment in place of one is no new one: {}",
        again.body
    );
    app.stop();
}

#[test]
fn names_and_comments_that_reorder_the_page_or_show_nothing_are_refused() {
    let app = spawn_app();
    for (names, says) in [
        (["Ann\u{202E}321", "Bob"], "bidirectional control U+202E at character 4"),
        (["Ann", "\u{200B}\u{200D}"], "shows nothing"),
    ] {
        let mut record: serde_json::Value = serde_json::from_str(&small_game(["Ann", "Bob"])).unwrap();
        record["players"] = serde_json::json!([{"name": names[0]}, {"name": names[1]}]);
        let a = post(&app, "/api/games", record.to_string().as_bytes());
        assert_eq!(a.status, 422, "{}", a.body);
        let detail = a.json()["detail"].as_str().unwrap().to_string();
        assert!(detail.contains(says), "{detail}");
    }
    let up = post(&app, "/api/games", small_game(["Ann", "Bob"]).as_bytes()).json();
    let bearer = format!("Bearer {}", up["owner_token"].as_str().unwrap());
    let headers = [("Content-Type", "application/json"), ("Authorization", bearer.as_str())];
    let path = format!("/api/games/{}/turns/1/annotation", up["id"].as_str().unwrap());
    for text in ["\u{2066}x", "\u{FEFF}\u{2060}"] {
        let body = serde_json::json!({ "text": text }).to_string();
        let a = request(&app, "PUT", &path, &headers, body.as_bytes());
        assert_eq!(a.status, 400, "{}", a.body);
        assert!(a.json()["detail"].as_str().unwrap().contains("cannot be shown"));
    }
    let c = post_json(
        &app,
        "/api/collections",
        &serde_json::json!({"name": "\u{202D}Cup", "text": "0123456789abcdef"}),
    );
    assert_eq!(c.status, 400, "{}", c.body);
    assert!(c.json()["detail"].as_str().unwrap().contains("cannot be shown"));
    app.stop();
}

/// A game of 130 road tiles named in 40 characters, and a line of 120 steps that leaves it at
/// once (so every step names its tile): a line of about 6 KB on a board of 500 open squares.
/// Each link of the page held the line whole (a 26 KB line made a page of 14.9 MB): now the
/// list links only the steps near the position, the squares link only within a budget (the
/// page's script places the tile either way), and the page stays small.
#[test]
fn a_long_explore_line_on_a_wide_board_makes_a_page_of_bounded_size() {
    let app = spawn_app();
    let name = "r".repeat(40);
    let record = String::from_utf8(a_road_130_tiles_long())
        .unwrap()
        .replace("\"k\"", &format!("\"{name}\""));
    let id = upload_id(&app, record.as_bytes());
    let line: Vec<String> = (1..=120).map(|x| format!("{name}@-{x},0,0")).collect();
    // Ending with the next tile drawn, to place.
    let line = format!("{}~{name}@", line.join("~"));
    assert!(line.len() > 5800, "{}", line.len());
    let page = get_html(&app, &format!("/g/{id}/t/1/explore?line={line}"));
    assert_eq!(page.status, 200, "{}", &page.body[..page.body.len().min(300)]);
    assert!(page.body.len() < 1_000_000, "{} bytes", page.body.len());
    assert!(
        page.body.contains("href=\"#answer\" class=\"pick"),
        "the squares answer the script"
    );
    // Step 60, far from the end, is listed without a link; the steps near the end link.
    assert!(page.body.contains("<li>Turn 60, "), "{}", page.body);
    // A short line keeps its links on every square.
    let short = get_html(&app, &format!("/g/{id}/t/1/explore?line={name}@-1,0,0~{name}@"));
    assert!(!short.body.contains("href=\"#answer\" class=\"pick"));
    assert!(short.body.contains("square="));
    app.stop();
}

/// Explore positions count against a client's limit, with or without the engine; without it
/// (`engine=0`, or `false`) they do not count against the engine's own.
#[test]
fn explore_positions_are_limited_per_client() {
    let app = spawn_app_configured(|s| s.limits.analyses_per_minute = 1);
    let id = upload_id(&app, small_game(["Ann", "Bob"]).as_bytes());
    let statuses: Vec<u16> = (0..30)
        .map(|i| {
            let path = match i % 6 {
                0 => format!("/g/{id}/t/1/explore"),
                1 => format!("/api/explore?game={id}&turn=1&engine=false"),
                _ => format!("/api/explore?game={id}&turn=1&engine=0"),
            };
            get(&app, &path).status
        })
        .collect();
    assert!(statuses[..24].iter().all(|&s| s == 200), "{statuses:?}");
    let over = get(&app, &format!("/api/explore?game={id}&turn=1&engine=false"));
    assert_eq!(over.status, 429, "{}", over.body);
    assert!(
        over.json()["detail"]
            .as_str()
            .unwrap()
            .contains("too many explore positions")
    );
    app.stop();
}

/// A body over a limit is told the limit in its own units: an import's 16 MiB, a record's
/// 4 MiB (the import's refusal said "16777216 bytes (4 MiB)").
#[test]
fn a_body_over_its_limit_is_told_the_limit_in_its_own_units() {
    use std::io::{Read, Write};
    let app = spawn_app();
    for (path, says) in [
        ("/api/collections", "16777216 bytes (16 MiB)"),
        ("/api/games", "4194304 bytes (4 MiB)"),
    ] {
        let mut conn = std::net::TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
        write!(
            conn,
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = conn.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(answer.contains(says), "{path}: {answer}");
    }
    app.stop();
}

/// A form sent in chunks, with no length said, of three fields each within a record's 4 MiB
/// but 9 MiB together: cut off as it passes the form's limit, `413`, nothing stored.
#[test]
fn a_chunked_form_over_its_limit_is_cut_off() {
    use std::io::{Read, Write};
    let app = spawn_app();
    let before = app.stored_games();
    let mut conn = std::net::TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
    let boundary = "----chunked";
    write!(
        conn,
        "POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let field = vec![b'x'; 3 << 20];
    for _ in 0..3 {
        let mut part = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n").into_bytes();
        part.extend_from_slice(&field);
        part.extend_from_slice(b"\r\n");
        // The server may answer and stop reading before the last chunk: that is the point.
        if write!(conn, "{:x}\r\n", part.len())
            .and_then(|_| conn.write_all(&part))
            .and_then(|_| conn.write_all(b"\r\n"))
            .is_err()
        {
            break;
        }
    }
    let _ = write!(conn, "{:x}\r\n--{boundary}--\r\n\r\n0\r\n\r\n", boundary.len() + 6);
    let mut answer = String::new();
    let _ = conn.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 413"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert_eq!(app.stored_games(), before);
    app.stop();
}

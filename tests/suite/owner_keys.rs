//! A game's key link: shown once after an upload, it makes another browser (a phone) the
//! game's owner; a new key revokes the old one, and every browser that held it.
//!
//! Checked:
//! - the page an upload lands on shows the key link once, and says it is shown once
//! - another browser claims the game with the key, and a wrong key is refused (403)
//! - a new key (the owner's button, or the API) leaves the old key, the old cookie and the
//!   old bearer token owning nothing
//! - in Chromium the key page takes the key from the link's fragment, which the server never
//!   sees, takes it out of the address, and a click makes the browser the owner

use crate::common::app::*;
use crate::common::browser::Browser;

/// The `name=value` of a `Set-Cookie` header of `a` for the cookie `name`.
fn cookie(a: &Answer, name: &str) -> Option<String> {
    (a.headers.get_all("set-cookie").iter())
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| v.split(';').next().unwrap().to_string())
}

/// Uploads through the form: the game's id and the answer (with its cookies).
fn upload(app: &TestApp, names: [&str; 2]) -> (String, Answer) {
    let up = post_form(app, "text", None, small_game(names).as_bytes());
    assert_eq!(up.status, 303, "{}", up.body);
    let id = up.location.clone().unwrap().trim_start_matches("/g/").to_string();
    (id, up)
}

fn claim(app: &TestApp, id: &str, key: &str) -> Answer {
    let body = format!("key={key}");
    request(
        app,
        "POST",
        &format!("/g/{id}/key"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        body.as_bytes(),
    )
}

#[test]
fn a_key_link_is_shown_once_and_makes_another_browser_the_owner() {
    let app = spawn_app();
    let (id, up) = upload(&app, ["Ann", "Bob"]);
    let owner = cookie(&up, "owner").unwrap();
    let once = cookie(&up, "owner_key_once").unwrap();
    let token = owner.trim_start_matches("owner=").to_string();
    let both = format!("{owner}; {once}");
    let first = request(
        &app,
        "GET",
        &format!("/g/{id}"),
        &[("Cookie", &both), ("Accept", "text/html")],
        b"",
    );
    let link = format!("{}/g/{id}/key#{token}", app.address);
    assert!(first.body.contains(&link), "{}", first.body);
    assert!(first.body.contains("shown this once"));
    assert_eq!(
        cookie(&first, "owner_key_once").as_deref(),
        Some("owner_key_once="),
        "the cookie goes"
    );
    assert_eq!(first.header("cache-control"), "private, no-store");
    let again = request(
        &app,
        "GET",
        &format!("/g/{id}"),
        &[("Cookie", &owner), ("Accept", "text/html")],
        b"",
    );
    assert!(!again.body.contains(&link), "shown once only");
    assert!(again.body.contains("Make a new key link"));
    // Nobody else sees it, with the once-cookie or without.
    let stranger = request(
        &app,
        "GET",
        &format!("/g/{id}"),
        &[("Cookie", &once), ("Accept", "text/html")],
        b"",
    );
    assert!(!stranger.body.contains("/key#"));

    // Another browser opens the link's page and claims the game with the key.
    let page = get_html(&app, &format!("/g/{id}/key"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Own this game in this browser") && !page.body.contains(&token));
    let claimed = claim(&app, &id, &token);
    assert_eq!(claimed.status, 303, "{}", claimed.body);
    assert_eq!(cookie(&claimed, "owner"), Some(owner.clone()));
    let wrong = claim(&app, &id, &"0".repeat(token.len()));
    assert_eq!(wrong.status, 403, "{}", wrong.body);
    assert!(wrong.body.contains("this key does not own game"));
    app.stop();
}

#[test]
fn a_new_key_revokes_the_old_one_and_every_browser_that_held_it() {
    let app = spawn_app();
    let (id, up) = upload(&app, ["Cleo", "Dan"]);
    let old = cookie(&up, "owner").unwrap();
    let old_token = old.trim_start_matches("owner=").to_string();
    let renewed = request(&app, "POST", &format!("/g/{id}/key/new"), &[("Cookie", &old)], b"");
    assert_eq!(renewed.status, 303, "{}", renewed.body);
    let new = cookie(&renewed, "owner").unwrap();
    assert_ne!(new, old);
    assert!(
        cookie(&renewed, "owner_key_once").is_some(),
        "the new link is shown, once"
    );
    assert_eq!(claim(&app, &id, &old_token).status, 403, "the old key owns nothing");
    let old_bearer = format!("Bearer {old_token}");
    let listing = |bearer: &str| {
        request(
            &app,
            "PATCH",
            &format!("/api/games/{id}"),
            &[("Authorization", bearer), ("Content-Type", "application/json")],
            br#"{"listed": false}"#,
        )
    };
    assert_eq!(listing(&old_bearer).status, 403);
    let new_bearer = format!("Bearer {}", new.trim_start_matches("owner="));
    assert_eq!(listing(&new_bearer).status, 200);
    // The API makes one too, for the bearer of the token.
    let api = request(
        &app,
        "POST",
        &format!("/api/games/{id}/owner-token"),
        &[("Authorization", &new_bearer)],
        b"",
    );
    assert_eq!(api.status, 200, "{}", api.body);
    let token = api.json()["owner_token"].as_str().unwrap().to_string();
    assert!(
        api.json()["key_url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/g/{id}/key#{token}"))
    );
    assert_eq!(listing(&new_bearer).status, 403, "the token before is revoked");
    assert_eq!(listing(&format!("Bearer {token}")).status, 200);
    app.stop();
}

#[test]
fn in_a_browser_the_key_page_takes_the_key_from_the_link() {
    let Some(browser) = Browser::start() else { return };
    let app = spawn_app();
    let (id, up) = upload(&app, ["Eve", "Fay"]);
    let token = cookie(&up, "owner").unwrap().trim_start_matches("owner=").to_string();
    browser.open(&app.url(&format!("/g/{id}/key#{token}")));
    let filled = browser.wait_for("return document.querySelector('[data-key-form] input[name=key]').value;");
    assert_eq!(filled.as_str(), Some(token.as_str()));
    assert!(
        !browser.current_url().contains('#'),
        "the key leaves the address: {}",
        browser.current_url()
    );
    // A click claims it: the game's page then shows this browser its owner's part.
    let button = browser.find("[data-key-form] button").unwrap();
    browser.click(&button);
    assert!(browser.wait_for_url(&format!("/g/{id}")));
    let owner = browser.wait_for(
        "return document.querySelector('section.owner h2') && document.querySelector('section.owner h2').textContent;",
    );
    assert_eq!(owner.as_str(), Some("Your upload"));
    app.stop();
}

//! Owner keys: a game's owner token as a link, `/g/{id}/key#TOKEN`, that makes any browser
//! (a phone, a second computer) the game's owner too, and a new token that revokes every
//! other.
//!
//! The token rides in the link's fragment, which browsers never send: it reaches no log and no
//! `Referer`. The key page's script copies it into the form that claims the game (pasted by
//! hand without the script), and the claim sets the owner cookie as an upload does. The link
//! is shown once, on the page an upload (or a new key) lands on: a short-lived cookie,
//! [`KEY_ONCE`], says it is due, and the page that shows it removes it. A new key gives the
//! game a new owner hash: the old link, and every browser holding the old token, own it no
//! more.

use super::owners::{authorise, owner_cookie, presented, see_other, site_cookie};
use crate::store::{GameId, OwnerToken, Ownership};
use crate::web::origin::same_origin;
use crate::web::problem::Problem;
use crate::web::{AppState, blocking, links};
use actix_web::cookie::Cookie;
use actix_web::cookie::time::Duration;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::{Deserialize, Serialize};

/// The cookie that says a game's page is to show its key link, once.
pub const KEY_ONCE: &str = "owner_key_once";

/// The cookie an upload or a new key sets beside the owner's: for the game's pages, ten
/// minutes, never read by a script.
pub fn key_once(state: &AppState, id: GameId) -> Cookie<'static> {
    site_cookie(state, (KEY_ONCE, "1".into()), links::game(id), Duration::minutes(10))
}

/// Game `id`'s key link for `token`.
fn key_link(state: &AppState, id: GameId, token: &OwnerToken) -> String {
    format!("{}/g/{id}/key#{token}", state.public_url)
}

/// The key link to show on a request for game `id`'s page, when one is due and the request is
/// its owner's; with the cookie that ends it, for the answer to carry.
pub fn due(req: &HttpRequest, state: &AppState, id: GameId) -> Option<(String, Cookie<'static>)> {
    req.cookie(KEY_ONCE)?;
    let token = presented(req)?;
    let mut gone = key_once(state, id);
    gone.make_removal();
    Some((key_link(state, id, &token), gone))
}

#[derive(Template, WebTemplate)]
#[template(path = "key.html")]
pub struct KeyPage {
    id: GameId,
    title: String,
}

/// The page a key link opens: what the key does, and the form that claims the game.
#[route("/g/{id}/key", method = "GET", method = "HEAD")]
pub async fn page(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let title = blocking(move || Ok(state.load_any(&id)?.row().players.join(" vs "))).await?;
    let page = KeyPage { id, title }.render().map_err(Problem::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-robots-tag", "noindex"))
        .body(page))
}

#[derive(Deserialize)]
pub struct Claim {
    key: String,
}

/// The key page's form: the key, checked, becomes this browser's owner cookie.
#[post("/g/{id}/key")]
pub async fn claim(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    form: web::Form<Claim>,
) -> Result<HttpResponse, Problem> {
    same_origin(&req, &state.public_url)?;
    state.limits.annotation(req.peer_addr().map(|a| a.ip()))?;
    let id = id.into_inner();
    let st = state.clone();
    let owner = blocking(move || Ok(st.load_any(&id)?.row().owner)).await?;
    // The key, or the whole link pasted: what follows its `#`.
    let key = form.key.rsplit('#').next().unwrap_or_default().trim();
    let token = OwnerToken::parse(key)
        .filter(|t| Ownership::of(owner, t) == Ownership::Owner)
        .ok_or_else(|| {
            Problem::new(
                StatusCode::FORBIDDEN,
                "Not this game's key",
                format!("this key does not own game {id}: it is mistyped, or its owner made a new key since"),
            )
        })?;
    Ok(see_other(&links::game(id))
        .cookie(owner_cookie(&state, &id, &token))
        .finish())
}

/// The owner's button: a new key, which this browser keeps and the page shows once; the old
/// key and every other browser's cookie own the game no more.
#[post("/g/{id}/key/new")]
pub async fn form_new(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let token = new_key(&req, &state, id).await?;
    Ok(see_other(&links::game(id))
        .cookie(owner_cookie(&state, &id, &token))
        .cookie(key_once(&state, id))
        .finish())
}

/// A game's new owner token.
#[derive(Serialize, utoipa::ToSchema)]
pub struct NewToken {
    owner_token: String,
    /// The key link: it makes any browser that opens it (and clicks) the game's owner.
    key_url: String,
}

/// Replaces a game's owner token: the old one, its key link and every browser holding it own
/// the game no more. Send the current token as `Authorization: Bearer TOKEN`.
#[utoipa::path(post, path = "/api/games/{id}/owner-token", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "The new owner token and its key link", body = NewToken),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[post("/api/games/{id}/owner-token")]
pub async fn api_new(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let token = new_key(&req, &state, id).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(NewToken {
            key_url: key_link(&state, id, &token),
            owner_token: token.to_string(),
        }))
}

async fn new_key(req: &HttpRequest, state: &web::Data<AppState>, id: GameId) -> Result<OwnerToken, Problem> {
    state.limits.annotation(req.peer_addr().map(|a| a.ip()))?;
    let game = authorise(req, state, id).await?;
    let was = game
        .row()
        .owner
        .ok_or_else(|| Problem::internal("an authorised game has an owner"))?;
    let token = OwnerToken::new().map_err(Problem::internal)?;
    let (st, hash) = (state.clone(), token.hash());
    blocking(move || {
        let changed = st.store.set_owner(&id, &was, &hash)?;
        st.forget(&id);
        match changed {
            true => Ok(()),
            false => Err(Problem::new(
                StatusCode::CONFLICT,
                "Key changed",
                format!("game {id}'s key changed, or the game went, while this one was made: nothing changed"),
            )),
        }
    })
    .await?;
    tracing::info!("game {id} has a new owner key");
    Ok(token)
}

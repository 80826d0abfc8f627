//! What a game's owner may do: delete it, or list it and take it off the lists (and comment on
//! its turns, `annotations`). The owner is whoever holds the token its upload returned: API
//! clients send it as a bearer token; the uploading browser keeps it in an HttpOnly cookie
//! scoped to the game's pages ([`owner_cookie`]), which the forms on the game page send back.

use crate::store::{GameId, OwnerHash, OwnerToken, Ownership};
use crate::web::game::GamePages;
use crate::web::origin::same_origin;
use crate::web::problem::Problem;
use crate::web::{AppState, blocking, links};
use actix_web::cookie::time::Duration;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, delete, patch, post, web};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// The cookie that holds a game's owner token in its uploader's browser.
const COOKIE: &str = "owner";

/// The cookie an upload from a browser sets: sent only to the game's own pages
/// (`Path=/g/{id}`), never readable by a script (`HttpOnly`), not on other sites' posts
/// (`SameSite=Lax`), over HTTPS only when the site is served so, and kept a year.
pub fn owner_cookie(state: &AppState, id: &GameId, token: &OwnerToken) -> Cookie<'static> {
    owner_cookie_at(state, links::game(*id), token)
}

/// The owner cookie of the pages under `path` (a game's, a collection's).
pub fn owner_cookie_at(state: &AppState, path: String, token: &OwnerToken) -> Cookie<'static> {
    site_cookie(state, (COOKIE, token.to_string()), path, Duration::days(365))
}

/// A cookie of this site's for the pages under `path`, kept `age`: never readable by a
/// script, not on other sites' posts, over HTTPS only when the site is served so.
pub fn site_cookie(
    state: &AppState,
    (name, value): (&'static str, String),
    path: String,
    age: Duration,
) -> Cookie<'static> {
    Cookie::build(name, value)
        .path(path)
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.public_url.starts_with("https://"))
        .max_age(age)
        .finish()
}

/// The token a request presents: `Authorization: Bearer …`, else the game's cookie.
pub fn presented(req: &HttpRequest) -> Option<OwnerToken> {
    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match bearer {
        Some(token) => OwnerToken::parse(token),
        None => OwnerToken::parse(req.cookie(COOKIE)?.value()),
    }
}

/// Whether a request's token (`presented`) is the owner's of a game whose owner hash is
/// `owner`: the game page then shows the owner's forms.
pub fn is_owner(token: Option<&OwnerToken>, owner: Option<OwnerHash>) -> bool {
    token.is_some_and(|t| Ownership::of(owner, t) == Ownership::Owner)
}

/// Checks that the request may change game `id`: from this site (or no browser at all), with
/// the game's owner token. Answers the game.
pub(super) async fn authorise(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    id: GameId,
) -> Result<Arc<dyn GamePages>, Problem> {
    let token = presented_here(req, state)?;
    let st = state.clone();
    let game = blocking(move || st.load_any(&id)).await?;
    check_owner(id, game.row().owner, &token)?;
    Ok(game)
}

/// The owner token of a request that changes a game: from this site (or no browser at all),
/// with a token.
pub(super) fn presented_here(req: &HttpRequest, state: &AppState) -> Result<OwnerToken, Problem> {
    same_origin(req, &state.public_url)?;
    presented(req).ok_or_else(|| {
        Problem::new(
            StatusCode::UNAUTHORIZED,
            "Owner token needed",
            "send the token the upload returned, as `Authorization: Bearer TOKEN`",
        )
    })
}

/// Whether `token` owns game `id`, whose owner hash is `owner`: 403 if not.
pub(super) fn check_owner(id: GameId, owner: Option<OwnerHash>, token: &OwnerToken) -> Result<(), Problem> {
    match Ownership::of(owner, token) {
        Ownership::Owner => Ok(()),
        Ownership::NotOwner => Err(Problem::new(
            StatusCode::FORBIDDEN,
            "Not the owner",
            format!("this token is not game {id}'s owner token"),
        )),
        Ownership::Unowned => Err(Problem::new(
            StatusCode::FORBIDDEN,
            "Not the owner",
            format!("game {id} was stored before uploads had owners: nobody can change it here"),
        )),
    }
}

async fn delete_game(state: &web::Data<AppState>, id: GameId) -> Result<(), Problem> {
    let st = state.clone();
    blocking(move || {
        let deleted = st.store.delete(&id)?;
        st.forget(&id);
        tracing::info!("game {id} deleted by its owner");
        found(deleted, id)
    })
    .await
}

async fn set_listed(state: &web::Data<AppState>, id: GameId, listed: bool) -> Result<(), Problem> {
    let st = state.clone();
    blocking(move || {
        let changed = st.store.set_listed(&id, listed)?;
        st.forget(&id);
        found(changed, id)
    })
    .await
}

/// A game deleted since it was authorised is gone: 404.
pub(super) fn found(there: bool, id: GameId) -> Result<(), Problem> {
    match there {
        true => Ok(()),
        false => Err(Problem::not_found(format!("no game with id {id}"))),
    }
}

/// Deletes a game, its turns and its analysis. Send the owner token the upload returned as
/// `Authorization: Bearer TOKEN`.
#[utoipa::path(delete, path = "/api/games/{id}", params(("id" = String, Path, description = "Game id")),
    responses((status = 204, description = "Deleted"),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[delete("/api/games/{id}")]
pub async fn api_delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    authorise(&req, &state, id).await?;
    delete_game(&state, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct Listing {
    /// Whether the game is on the home page's list.
    listed: bool,
}

/// Lists a game on the home page, or takes it off every list (its link still works). Send
/// the owner token the upload returned as `Authorization: Bearer TOKEN`.
#[utoipa::path(patch, path = "/api/games/{id}", params(("id" = String, Path, description = "Game id")),
    request_body(content = Listing, content_type = "application/json"),
    responses((status = 200, description = "{id, url, listed}"),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[patch("/api/games/{id}")]
pub async fn api_listing(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    body: web::Json<Listing>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    authorise(&req, &state, id).await?;
    set_listed(&state, id, body.listed).await?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "url": links::game(id), "listed": body.listed})))
}

#[derive(Deserialize)]
pub struct Confirmation {
    confirm: Option<String>,
}

/// The game page's delete button, its box ticked: back to the home page, the cookie dropped.
#[post("/g/{id}/delete")]
pub async fn form_delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    form: web::Form<Confirmation>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    authorise(&req, &state, id).await?;
    if form.confirm.as_deref() != Some("yes") {
        return Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "Not confirmed",
            "tick the box to delete the game for good",
        ));
    }
    delete_game(&state, id).await?;
    let mut gone = Cookie::build(COOKIE, "").path(links::game(id)).finish();
    gone.make_removal();
    Ok(see_other("/").cookie(gone).finish())
}

/// The game page's listing buttons: back to the game page.
#[post("/g/{id}/listing")]
pub async fn form_listing(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    form: web::Form<Listing>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    authorise(&req, &state, id).await?;
    set_listed(&state, id, form.listed).await?;
    Ok(see_other(&links::game(id)).finish())
}

pub(super) fn see_other(to: &str) -> actix_web::HttpResponseBuilder {
    let mut r = HttpResponse::SeeOther();
    r.insert_header((header::LOCATION, to.to_string()));
    r
}

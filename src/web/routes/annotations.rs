//! A game's owner comments on its turns ([`Annotation`]): through the API with the owner
//! token, or from the turn page's forms in the uploading browser (its owner cookie, from this
//! site only), as the owner's other changes (`owners`). Every write counts against the
//! client's limit, and has every node forget the game's pages (`Change::Annotations`).

use super::owners::{authorise, found, see_other};
use crate::record::Annotation;
use crate::store::GameId;
use crate::web::game::GamePages;
use crate::web::problem::Problem;
use crate::web::{AppState, blocking, links};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, delete, put, web};
use serde::Deserialize;
use std::sync::Arc;

/// A request's body at most: a line (16 KB), a comment (2,000 characters, up to 4 bytes each
/// and 6 when escaped in JSON or 12 in a form) and the rest.
const MAX_BODY_BYTES: usize = 64 * 1024;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Comment {
    /// The comment: at most 2,000 characters once trimmed, newlines kept, no other control
    /// character.
    text: String,
    /// The line explored from the turn that it is on, in the explore board's notation; absent
    /// or empty for the turn as played.
    #[serde(default)]
    line: String,
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Which {
    /// The line whose comment goes; absent or empty for the turn as played.
    #[serde(default)]
    line: String,
}

/// Writes the comment on turn `n` (on the line it names, if any), in place of the one there.
/// Send the owner token the upload returned as `Authorization: Bearer TOKEN`.
#[utoipa::path(put, path = "/api/games/{id}/turns/{n}/annotation",
    params(("id" = String, Path, description = "Game id"), ("n" = u32, Path, description = "Turn, from 0 (the start)")),
    request_body(content = Comment, content_type = "application/json"),
    responses((status = 200, description = "{turn, line, text}: the comment as stored (trimmed; `line` absent for the turn)"),
              (status = 400, description = "An empty comment, a control character, or a body that is not the JSON asked for", content_type = "application/problem+json"),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game or turn", content_type = "application/problem+json"),
              (status = 413, description = "A comment over 2,000 characters, a line over 16 KB, or a new comment on a game holding 1,000; `limit` says how many", content_type = "application/problem+json"),
              (status = 429, description = "Too many comments from this client", content_type = "application/problem+json")))]
#[put("/api/games/{id}/turns/{n}/annotation")]
pub async fn api_put(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let game = owned_turn(&req, &state, id, n).await?;
    let comment: Comment = super::json_body(&req, body, (MAX_BODY_BYTES, "a comment's body"))
        .await?
        .ok_or_else(|| {
            Problem::new(
                StatusCode::BAD_REQUEST,
                "Unreadable body",
                "send the comment as JSON: {\"text\": …, \"line\": …}",
            )
        })?;
    let annotation = Annotation::new(n, &comment.line, &comment.text)?;
    write(&state, game.as_ref(), annotation.clone()).await?;
    Ok(HttpResponse::Ok().json(annotation))
}

/// Removes the comment on turn `n`, or on the line the body names. Send the owner token the
/// upload returned as `Authorization: Bearer TOKEN`.
#[utoipa::path(delete, path = "/api/games/{id}/turns/{n}/annotation",
    params(("id" = String, Path, description = "Game id"), ("n" = u32, Path, description = "Turn, from 0 (the start)")),
    request_body(content = Option<Which>, content_type = "application/json"),
    responses((status = 204, description = "Removed"),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game or turn, or no comment there", content_type = "application/problem+json"),
              (status = 429, description = "Too many comments from this client", content_type = "application/problem+json")))]
#[delete("/api/games/{id}/turns/{n}/annotation")]
pub async fn api_delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    owned_turn(&req, &state, id, n).await?;
    let which: Which = super::json_body(&req, body, (MAX_BODY_BYTES, "a comment's body"))
        .await?
        .unwrap_or_default();
    remove(&state, id, n, which.line).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize)]
pub struct CommentForm {
    #[serde(default)]
    text: String,
    #[serde(default)]
    line: String,
    /// Present: the comment goes.
    remove: Option<String>,
    /// `explore`: the form is the explore board's, which the answer goes back to.
    back: Option<String>,
}

/// The turn page's comment forms: back to the turn's comments.
async fn form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    form: web::Form<CommentForm>,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let game = owned_turn(&req, &state, id, n).await?;
    let form = form.into_inner();
    match form.remove {
        Some(_) => remove(&state, id, n, form.line.clone()).await?,
        None => write(&state, game.as_ref(), Annotation::new(n, &form.line, &form.text)?).await?,
    }
    let page = match form.back.as_deref() {
        Some("explore") => links::explore(id, n, &form.line, None),
        _ => links::turn(id, n),
    };
    Ok(see_other(&format!("{page}#comments")).finish())
}

/// The forms' address, `/g/{id}/t/{n}/annotation`, taking bodies up to [`MAX_BODY_BYTES`].
pub fn form_resource() -> actix_web::Resource {
    web::resource("/g/{id}/t/{n:[0-9]+}/annotation")
        .app_data(web::FormConfig::default().limit(MAX_BODY_BYTES))
        .route(web::post().to(form))
        .default_service(web::to(super::no_route))
}

/// Checks, in this order, that the client is within its limit, that the request may change game
/// `id` (`owners::authorise`), and that the game has a turn `n`: the game, as read.
async fn owned_turn(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    id: GameId,
    n: u32,
) -> Result<Arc<dyn GamePages>, Problem> {
    state.limits.annotation(req.peer_addr().map(|a| a.ip()))?;
    let game = authorise(req, state, id).await?;
    let last = game.row().turns;
    if n > last {
        return Err(Problem::not_found(format!("game {id} has turns 0 to {last}, not {n}")));
    }
    Ok(game)
}

/// Writes a comment in place of the one on its turn and line, or as a new one while the game
/// holds fewer than [`Annotation::MAX_PER_GAME`]. (Two new ones written at once may pass the
/// limit by one: the limit bounds a page, not a count that must be exact.)
async fn write(state: &web::Data<AppState>, game: &dyn GamePages, annotation: Annotation) -> Result<(), Problem> {
    let held = game.annotations();
    let new = !held
        .iter()
        .any(|a| (a.turn(), a.line()) == (annotation.turn(), annotation.line()));
    if new && held.len() >= Annotation::MAX_PER_GAME {
        let mut p = Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Too many comments",
            format!(
                "game {} holds {} comments, the most a game holds: remove one to write another",
                game.row().id,
                held.len()
            ),
        );
        p.extensions
            .insert("limit".into(), serde_json::json!(Annotation::MAX_PER_GAME));
        p.extensions.insert("unit".into(), serde_json::json!("comments"));
        return Err(p);
    }
    let (st, id) = (state.clone(), game.row().id);
    blocking(move || {
        let written = st.store.annotate(&id, &annotation)?;
        st.forget_annotations(&id);
        found(written, id)
    })
    .await
}

async fn remove(state: &web::Data<AppState>, id: GameId, n: u32, line: String) -> Result<(), Problem> {
    let st = state.clone();
    blocking(move || {
        if st.store.unannotate(&id, n, &line)? {
            st.forget_annotations(&id);
            return Ok(());
        }
        let on = if line.is_empty() { "" } else { " on that line" };
        Err(Problem::not_found(format!("turn {n} of game {id} has no comment{on}")))
    })
    .await
}

//! The JSON API: upload a record, read a game and its turns, and the OpenAPI document.

use super::read_limited;
use crate::record::MAX_RECORD_BYTES;
use crate::replay::cards;
use crate::replay::json::TileReplay;
use crate::store::snapshot::StoredEvent;
use crate::store::{GameId, ingest};
use crate::web::game::api::{CreatedGame, GameAnswer, HandSizes, Holdings, TurnAnswer};
use crate::web::problem::Problem;
use crate::web::query::{Query, UploadQuery};
use crate::web::{AppState, blocking, links};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "carcassonne-replay",
        description = "Upload Carcassonne game records and read their replays. Errors are RFC 9457 problem+json. \
                       The schemas `TileReplay` and `CardReplay` describe what `replay --json` prints."
    ),
    // The turn answer's parts: its schema is written out inline, per game.
    components(schemas(TileReplay, cards::ReplayJson, Holdings, cards::Action, HandSizes, StoredEvent, cards::EventJson)),
    paths(
        create_game,
        get_game,
        get_turn,
        super::live::start,
        super::live::play,
        super::live::take_back,
        super::owners::api_delete,
        super::owners::api_listing,
        super::annotations::api_put,
        super::annotations::api_delete,
        super::explore::api,
        super::analysis::queue,
        super::analysis::api_status,
        super::collections::api_create,
        super::collections::api_get,
        super::collections::api_edit,
        super::collections::api_analyse,
        super::players::api
    )
)]
pub struct ApiDoc;

/// Upload a record, its format detected from the content: native JSON (any game), a JCloisterZone
/// .jcz save, a Board Game Arena log, the course notation or a Carcassonne Lab link. A new game
/// comes with its `owner_token`, which deletes it or changes its listing: keep it, it is shown
/// once and never stored.
#[utoipa::path(
    post,
    path = "/api/games",
    params(("listed" = Option<bool>, Query, description = "false keeps the game off the home page and every list (default true)")),
    request_body(content = String, description = "The record, at most 4 MiB", content_type = "application/json"),
    responses(
        (status = 201, description = "Stored, with the game's owner token", body = CreatedGame),
        (status = 200, description = "The same game was already stored: no token (it stays its first uploader's)", body = CreatedGame),
        (status = 400, description = "The body is not a readable record", content_type = "application/problem+json"),
        (status = 413, description = "The body is over 4 MiB", content_type = "application/problem+json"),
        (status = 422, description = "The record is illegal; `turn`, `player`, `move` and `reason` say where and why", content_type = "application/problem+json"),
    )
)]
#[post("/api/games")]
pub async fn create_game(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: Query<UploadQuery>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    super::declared_length_within(&req, MAX_RECORD_BYTES)?;
    let bytes = read_limited(body, MAX_RECORD_BYTES, "Unreadable body").await?;
    let listed = query.listed();
    let up = blocking(move || Ok(ingest::upload(&state.store, &bytes, listed)?)).await?;
    let id = up.game.id;
    let url = links::game(id);
    let doc = CreatedGame {
        id,
        url: url.clone(),
        listed: up.listed,
        owner_token: up.token.as_ref().map(ToString::to_string),
    };
    let mut answer = match &up.token {
        Some(_) => HttpResponse::Created(),
        None => HttpResponse::Ok(),
    };
    // The token is the game's key: no cache keeps it.
    Ok(answer
        .insert_header((header::LOCATION, url))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(doc))
}

/// A game: players, rules, final scores and each player's breakdown.
#[utoipa::path(get, path = "/api/games/{id}", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = GameAnswer), (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[route("/api/games/{id}", method = "GET", method = "HEAD")]
pub async fn get_game(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<web::Json<GameAnswer>, Problem> {
    let id = id.into_inner();
    blocking(move || Ok(web::Json(state.load_any(&id)?.api_game()))).await
}

/// One turn, from the stored snapshot: the move, its events with score breakdowns, every
/// player's score, supplies and region ownership.
#[utoipa::path(get, path = "/api/games/{id}/turns/{n}",
    params(("id" = String, Path, description = "Game id"), ("n" = u32, Path, description = "Turn, from 1")),
    responses((status = 200, description = "The turn", body = TurnAnswer), (status = 404, description = "No such game or turn", content_type = "application/problem+json")))]
#[route("/api/games/{id}/turns/{n}", method = "GET", method = "HEAD")]
pub async fn get_turn(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
) -> Result<web::Json<TurnAnswer>, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || {
        let no_turn = || Problem::not_found(format!("game {id} has no turn {n}"));
        let snapshots = state.snapshots(&id)?.ok_or_else(no_turn)?;
        Ok(web::Json(TurnAnswer::of(&snapshots, n).ok_or_else(no_turn)?))
    })
    .await
}

#[route("/api/openapi.json", method = "GET", method = "HEAD")]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(ApiDoc::openapi().to_pretty_json().unwrap_or_default())
}

//! Games recorded at the table (`store::live`): started with no moves, then a move at a time by
//! its owner, each numbered so that a move sent twice (a phone that lost its answer) is
//! recorded once.

use super::owners::{check_owner, presented_here};
use crate::record::MAX_RECORD_BYTES;
use crate::store::{GameId, GameRow, Ingested, LiveRecord, OwnerToken, record_live, replayed, start_live};
use crate::web::game::api::{LiveAnswer, LiveGameCreated, TurnAnswer};
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::{AppState, blocking, links};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, delete, post, web};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// A move's body is one entry of a record's moves, and its number: far under this.
const MAX_MOVE_BYTES: usize = 16 * 1024;

/// Starts a game recorded at the table: a native record's members but its moves (`game`,
/// `players`, and the rest the game starts with: `rules` and `tiles`, or the Card Game's
/// `dealer` and `face_up`). A player's `color` may be spelled so. The answer's `token` records
/// its moves: keep it, it is shown once and never stored.
#[utoipa::path(post, path = "/api/games/live",
    params(("listed" = Option<bool>, Query, description = "false keeps the game off the home page and every list (default true)")),
    request_body(content = Object, description = "A native record without `moves`", content_type = "application/json"),
    responses((status = 201, description = "Started", body = LiveGameCreated),
              (status = 400, description = "Not a JSON object", content_type = "application/problem+json"),
              (status = 422, description = "Not the start of a record of a game (or it has moves), or an illegal setup", content_type = "application/problem+json"),
              (status = 429, description = "Too many uploads from this client", content_type = "application/problem+json")))]
#[post("/api/games/live")]
pub async fn start(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: Query<super::api::UploadQuery>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    let start: Map<String, Value> = super::json_body(&req, body, (MAX_RECORD_BYTES, "a record"))
        .await?
        .ok_or_else(|| unreadable("send the game's start as a JSON object: {\"game\", \"players\", …}"))?;
    let record = LiveRecord::start(start)?;
    let listed = query.listed();
    let (g, token) = blocking(move || Ok(start_live(&state.store, &record, listed)?)).await?;
    let url = links::game(g.id);
    let doc = LiveGameCreated {
        id: g.id,
        url: url.clone(),
        token: token.to_string(),
    };
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, url))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(doc))
}

/// A move to record: its number (one more than the moves recorded so far) and the move, an
/// entry of a native record's `moves`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NumberedMove {
    turn: u32,
    #[serde(rename = "move")]
    #[schema(value_type = Object)]
    mv: Value,
}

/// Records the next move of a live game. Send the owner token as `Authorization: Bearer
/// TOKEN`. The same move sent again with the same number (its answer was lost) is recorded
/// once, and answered `200` as before.
#[utoipa::path(post, path = "/api/games/{id}/moves", params(("id" = String, Path, description = "Game id")),
    request_body(content = NumberedMove, content_type = "application/json"),
    responses((status = 201, description = "Recorded", body = LiveAnswer),
              (status = 200, description = "The last move, sent again: recorded before", body = LiveAnswer),
              (status = 400, description = "Not a numbered move", content_type = "application/problem+json"),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json"),
              (status = 409, description = "Not the next move's number (`next_turn` says which is), or the game is not live", content_type = "application/problem+json"),
              (status = 422, description = "An illegal move; `turn`, `player`, `move` and `reason` say where and why", content_type = "application/problem+json"),
              (status = 429, description = "Too many moves from this client", content_type = "application/problem+json")))]
#[post("/api/games/{id}/moves")]
pub async fn play(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    state.limits.live_move(req.peer_addr().map(|a| a.ip()))?;
    let token = presented_here(&req, &state)?;
    let NumberedMove { turn, mv } = super::json_body(&req, body, (MAX_MOVE_BYTES, "a move"))
        .await?
        .ok_or_else(|| unreadable("send the move as JSON: {\"turn\": N, \"move\": {…}}"))?;
    let (status, answer) = blocking(move || {
        let (row, record) = owned_game(&state, id, &token)?;
        let next = record.len() as u32 + 1;
        // The last move's answer may have been lost when it ended the game: asked again, it is
        // answered as it was.
        if turn + 1 == next && turn > 0 {
            return Ok((StatusCode::OK, repeated(&row, &record, mv)?));
        }
        still_live(&row)?;
        if turn != next {
            return Err(not_next(id, next, turn));
        }
        let before = row.turns as usize;
        let g = written(&state, &row, &record.with(mv))?;
        Ok((StatusCode::CREATED, answer(&g, turn, before)))
    })
    .await?;
    Ok(HttpResponse::build(status).json(answer))
}

/// Takes back the last move of a live game. Send the owner token as `Authorization: Bearer
/// TOKEN`.
#[utoipa::path(delete, path = "/api/games/{id}/moves/last", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "Taken back", body = LiveAnswer),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the game's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json"),
              (status = 409, description = "No move to take back, or the game is not live", content_type = "application/problem+json"),
              (status = 429, description = "Too many moves from this client", content_type = "application/problem+json")))]
#[delete("/api/games/{id}/moves/last")]
pub async fn take_back(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    state.limits.live_move(req.peer_addr().map(|a| a.ip()))?;
    let token = presented_here(&req, &state)?;
    let answer = blocking(move || {
        let (row, record) = owned_game(&state, id, &token)?;
        still_live(&row)?;
        if record.is_empty() {
            return Err(Problem::new(
                StatusCode::CONFLICT,
                "No move to take back",
                format!("game {id} has no move yet"),
            ));
        }
        let g = written(&state, &row, &record.without_last())?;
        Ok(answer(&g, record.len() as u32 - 1, g.snapshots.len()))
    })
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// Game `id` as stored now (not as this process may keep it), owned by `token`, with its record.
fn owned_game(state: &AppState, id: GameId, token: &OwnerToken) -> Result<(GameRow, LiveRecord), Problem> {
    let row = (state.store.game(&id)?).ok_or_else(|| Problem::not_found(format!("no game with id {id}")))?;
    check_owner(id, row.owner, token)?;
    let record = LiveRecord::of(&row).map_err(Problem::from)?;
    Ok((row, record))
}

/// 409 unless the game is live: over, or uploaded whole, it takes no moves.
fn still_live(row: &GameRow) -> Result<(), Problem> {
    let id = row.id;
    let why = match (row.live, row.finished) {
        (true, _) => return Ok(()),
        (false, true) => format!("game {id} is over: it takes no more moves"),
        (false, false) => format!("game {id} was uploaded whole, not recorded at the table"),
    };
    Err(Problem::new(StatusCode::CONFLICT, "Not a live game", why))
}

/// Writes a live game's new record; 409 when another move was recorded first.
fn written(state: &AppState, row: &GameRow, record: &LiveRecord) -> Result<Ingested, Problem> {
    let g = record_live(&state.store, row, record)?;
    state.forget(&row.id);
    g.ok_or_else(|| {
        Problem::new(
            StatusCode::CONFLICT,
            "Another move came first",
            format!("game {} changed while this move was checked: read it again", row.id),
        )
    })
}

/// The last move sent again: answered as it was when it was recorded, if it is the same move;
/// else 409, since that number is taken.
fn repeated(row: &GameRow, record: &LiveRecord, mv: Value) -> Result<LiveAnswer, Problem> {
    let turn = record.len() as u32;
    let before = replayed(&record.without_last())?;
    let again = replayed(&record.without_last().with(mv))?;
    if again.canonical != row.record {
        return Err(not_next(row.id, turn + 1, turn));
    }
    Ok(answer(&again, turn, before.snapshots.len()))
}

/// What a live game answers after move `turn`, which found `before` turns.
fn answer(g: &Ingested, turn: u32, before: usize) -> LiveAnswer {
    let played = (g.snapshots.len() > before).then(|| TurnAnswer::of(&g.snapshots, g.snapshots.len() as u32));
    LiveAnswer {
        turn,
        next_turn: turn + 1,
        live: !g.finished,
        finished: g.finished,
        scores: g.final_scores.clone(),
        played: played.flatten(),
    }
}

fn not_next(id: GameId, next: u32, sent: u32) -> Problem {
    let mut p = Problem::new(
        StatusCode::CONFLICT,
        "Not the next move",
        format!("move {sent} of game {id} is not the next: the next is move {next}"),
    );
    p.extensions.insert("next_turn".into(), json!(next));
    p
}

fn unreadable(detail: &'static str) -> Problem {
    Problem::new(StatusCode::BAD_REQUEST, "Unreadable body", detail)
}

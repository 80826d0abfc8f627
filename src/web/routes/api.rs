//! The JSON API: upload a record, read a game and its turns, and the OpenAPI document.

use super::read_limited;
use crate::engine::{GameKind, Position};
use crate::record::{MAX_RECORD_BYTES, PlayerInfo};
use crate::replay::cards::{CardEventJson, CardMoveJson, CardReplayJson};
use crate::replay::json::{Breakdown, PlayerName, TileMove, breakdowns};
use crate::replay::{self, Replay};
use crate::store::snapshot::{StoredEvent, StoredMove};
use crate::store::{GameId, GameRow, TurnRow, ingest};
use crate::web::problem::Problem;
use crate::web::{AppState, Loaded, blocking};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use serde::Serialize;
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "carcassonne-replay",
        description = "Upload Carcassonne game records and read their replays. Errors are RFC 9457 problem+json. \
                       The schemas `TileReplay` and `CardReplay` describe what `replay --json` prints."
    ),
    components(schemas(crate::replay::json::TileReplay, CardReplayJson)),
    paths(
        create_game,
        get_game,
        get_turn,
        super::owners::api_delete,
        super::owners::api_listing,
        super::analysis::queue,
        super::analysis::api_status
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
    query: web::Query<UploadQuery>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    super::declared_length_within(&req, MAX_RECORD_BYTES)?;
    let bytes = read_limited(body, MAX_RECORD_BYTES, "Unreadable body").await?;
    let listed = query.listed.unwrap_or(true);
    let up = blocking(move || Ok(ingest::upload(&state.store, &bytes, listed)?)).await?;
    let id = up.game.id;
    let url = format!("/g/{id}");
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
    Ok(answer.insert_header((header::LOCATION, url)).json(doc))
}

/// A stored upload: its id, its page and whether it is listed; the owner token only to the
/// upload that stored it.
#[derive(Serialize, ToSchema)]
pub struct CreatedGame {
    #[schema(value_type = String)]
    id: GameId,
    /// The game's page.
    url: String,
    listed: bool,
    /// Deletes the game or changes its listing: shown once, never stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    owner_token: Option<String>,
}

#[derive(serde::Deserialize)]
pub struct UploadQuery {
    listed: Option<bool>,
}

/// A game: players, rules, final scores and each player's breakdown.
#[utoipa::path(get, path = "/api/games/{id}", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = GameAnswer), (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[route("/api/games/{id}", method = "GET", method = "HEAD")]
pub async fn get_game(state: web::Data<AppState>, id: web::Path<String>) -> Result<web::Json<GameAnswer>, Problem> {
    let id: GameId = id.parse()?;
    blocking(move || {
        let g = state.load_any(&id)?;
        let doc = match &g {
            Loaded::Tiles(t) => {
                let full = replay::replay(&t.record, None).map_err(Problem::internal)?;
                GameAnswer {
                    rules: full.rules().preset.name(),
                    rules_label: Some(crate::record::rules_spec::label(full.rules())),
                    ..GameAnswer::new(g.kind(), &t.record.players, &full, &t.row)
                }
            }
            Loaded::Cards(c) => {
                let full = replay::cards::replay(&c.record).map_err(Problem::internal)?;
                GameAnswer {
                    winners: Some(full.game.winners()),
                    ..GameAnswer::new(g.kind(), &c.record.players, &full, &c.row)
                }
            }
        };
        Ok(web::Json(doc))
    })
    .await
}

/// A game: its players, rules and result, then where it is and how it came.
#[derive(Serialize, ToSchema)]
pub struct GameAnswer {
    players: Vec<PlayerName>,
    /// The rulebook's name (the Card Game has one, `card-game`).
    rules: &'static str,
    /// The tile games: the rules in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_label: Option<String>,
    finished: bool,
    final_scores: Vec<i32>,
    /// The Card Game: who won, ties included.
    #[serde(skip_serializing_if = "Option::is_none")]
    winners: Option<Vec<u8>>,
    breakdown: Vec<Breakdown>,
    #[schema(value_type = String)]
    id: GameId,
    /// `carcassonne`, `new-world` or `card-game`.
    game: &'static str,
    url: String,
    /// The record, as native JSON.
    record_url: String,
    /// The format it was uploaded in.
    source_format: String,
    created_at: String,
    turns: u32,
}

impl GameAnswer {
    /// What every game says; the rules named by the game's kind.
    fn new<P: Position>(kind: GameKind, players: &[PlayerInfo], full: &Replay<P>, row: &GameRow) -> GameAnswer {
        GameAnswer {
            players: PlayerName::all(players),
            rules: kind.name(),
            rules_label: None,
            finished: full.finished,
            final_scores: full.final_scores.clone(),
            winners: None,
            breakdown: breakdowns(&full.breakdown),
            id: row.id,
            game: kind.name(),
            url: format!("/g/{}", row.id),
            record_url: format!("/g/{}.json", row.id),
            source_format: row.source_format.clone(),
            created_at: row.created_at.clone(),
            turns: row.turns,
        }
    }
}

/// One turn, from the stored snapshot: the move, its events with score breakdowns, every
/// player's score, supplies and region ownership.
#[utoipa::path(get, path = "/api/games/{id}/turns/{n}",
    params(("id" = String, Path, description = "Game id"), ("n" = u32, Path, description = "Turn, from 1")),
    responses((status = 200, description = "The turn", body = TurnAnswer), (status = 404, description = "No such game or turn", content_type = "application/problem+json")))]
#[route("/api/games/{id}/turns/{n}", method = "GET", method = "HEAD")]
pub async fn get_turn(
    state: web::Data<AppState>,
    path: web::Path<(String, u32)>,
) -> Result<web::Json<TurnAnswer>, Problem> {
    let (id, n) = path.into_inner();
    let id: GameId = id.parse()?;
    blocking(move || {
        let (kind, t) = state
            .store
            .turn(&id, n)?
            .ok_or_else(|| Problem::not_found(format!("game {id} has no turn {n}")))?;
        Ok(web::Json(match kind {
            GameKind::CardGame => TurnAnswer::Cards(card_turn(t)?),
            GameKind::Carcassonne | GameKind::NewWorld => TurnAnswer::Tiles(tile_turn(t)?),
        }))
    })
    .await
}

/// A turn of either kind of game.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum TurnAnswer {
    Tiles(TileTurnAnswer),
    Cards(CardTurnAnswer),
}

/// A tile-game turn: the move, then its snapshot. The snapshot's own JSON (the scores, the
/// events, the ownership) is sent as it was stored, so that games stored by earlier releases
/// read as they always did.
#[derive(Serialize, ToSchema)]
pub struct TileTurnAnswer {
    turn: u32,
    player: u8,
    #[serde(flatten)]
    mv: TileMove,
    /// Every player's score after the turn.
    #[schema(value_type = Vec<i32>)]
    scores: Value,
    /// What happened besides the move: discards, scores with their numbers, returns.
    #[schema(value_type = Vec<StoredEvent>)]
    events: Value,
    /// Followers in each player's supply.
    followers: Vec<u8>,
    abbot_in_supply: Vec<bool>,
    /// Per player, features with their meeples: city, road, field, cloister, garden.
    #[schema(value_type = Vec<Vec<u16>>)]
    ownership: Value,
}

/// A Card Game turn: the action, its events, the scores and the number of cards in each
/// player's hand after it. A card played face down is not named, as on the table: the turn
/// whose follower takes it names it.
#[derive(Serialize, ToSchema)]
pub struct CardTurnAnswer {
    turn: u32,
    player: u8,
    #[serde(rename = "move")]
    mv: CardMoveJson,
    #[schema(value_type = Vec<i32>)]
    scores: Value,
    events: Vec<CardEventJson>,
    hands: Vec<u8>,
    follower_to_place: Vec<bool>,
}

fn stored_json(s: &str) -> Value {
    serde_json::from_str::<Value>(s).unwrap_or(Value::Null)
}

fn tile_turn(t: TurnRow) -> Result<TileTurnAnswer, Problem> {
    let mv: StoredMove = serde_json::from_str(&t.mv).map_err(Problem::internal)?;
    let supply: Vec<[u8; 2]> = serde_json::from_str(&t.supply).unwrap_or_default();
    Ok(TileTurnAnswer {
        turn: t.turn,
        player: t.player,
        mv: mv.into(),
        scores: stored_json(&t.scores),
        events: stored_json(&t.events),
        followers: supply.iter().map(|s| s[0]).collect(),
        abbot_in_supply: supply.iter().map(|s| s[1] == 1).collect(),
        ownership: stored_json(&t.ownership),
    })
}

fn card_turn(t: TurnRow) -> Result<CardTurnAnswer, Problem> {
    let supply: Vec<[u8; 2]> = serde_json::from_str(&t.supply).map_err(Problem::internal)?;
    let mut mv: CardMoveJson = serde_json::from_str(&t.mv).map_err(Problem::internal)?;
    let mut events: Vec<CardEventJson> = serde_json::from_str(&t.events).map_err(Problem::internal)?;
    if let Some(CardEventJson::Played { card, .. }) = events.iter_mut().find(|e| e.hides_card()) {
        *card = None;
        if let CardMoveJson::Play { card, .. } = &mut mv {
            *card = None;
        }
    }
    Ok(CardTurnAnswer {
        turn: t.turn,
        player: t.player,
        mv,
        scores: stored_json(&t.scores),
        events,
        hands: supply.iter().map(|s| s[0]).collect(),
        follower_to_place: supply.iter().map(|s| s[1] == 1).collect(),
    })
}

#[route("/api/openapi.json", method = "GET", method = "HEAD")]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(ApiDoc::openapi().to_pretty_json().unwrap_or_default())
}

//! Games recorded at the table (`store::live`): started with no moves, then a move at a time by
//! its owner, each numbered so that a move sent twice (a phone that lost its answer) is
//! recorded once.

use super::owners::{check_owner, owner_cookie, presented_here};
use crate::engine::cards::CardGame;
use crate::record::MAX_RECORD_BYTES;
use crate::record::Record;
use crate::record::{TileLine, native};
use crate::render::palette::{CARD_PLAYER_COLOURS, PLAYER_COLOURS, PlayerColour};
use crate::store::{GameId, GameRow, Ingested, LiveRecord, OwnerToken, record_live, replayed, start_live};
use crate::web::game::api::{LiveAnswer, LiveGameCreated, TurnAnswer};
use crate::web::game::explore::{self, bad_line};
use crate::web::game::record_cards::{ActionForm, RecordCardsPage};
use crate::web::loaded::{Loaded, Stored};
use crate::web::origin::same_origin;
use crate::web::problem::Problem;
use crate::web::query::{Query, UploadQuery};
use crate::web::{AppState, blocking, links};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, delete, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

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
    query: Query<UploadQuery>,
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
    let answer = blocking(move || taken_back(&state, id, &token)).await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// Takes back the last move of live game `id`, owned by `token`.
fn taken_back(state: &AppState, id: GameId, token: &OwnerToken) -> Result<LiveAnswer, Problem> {
    let (row, record) = owned_game(state, id, token)?;
    still_live(&row)?;
    if record.is_empty() {
        return Err(Problem::new(
            StatusCode::CONFLICT,
            "No move to take back",
            format!("game {id} has no move yet"),
        ));
    }
    let g = written(state, &row, &record.without_last())?;
    Ok(answer(&g, record.len() as u32 - 1, g.snapshots.len()))
}

/// The explore board's move to record: the turn it was explored from, the move's number
/// (discards count), and the line of one step played there, or a tile that fits nowhere to
/// discard.
#[derive(Deserialize)]
pub struct RecordForm {
    from: u32,
    number: u32,
    #[serde(default)]
    line: String,
    #[serde(default)]
    discard: String,
}

/// The owner's form under the explore board of a live game's next turn: records the move
/// played there, then shows its turn, with what it scored; or records a discard, then asks for
/// the tile drawn again.
#[post("/g/{id}/moves")]
pub async fn form_play(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    form: web::Form<RecordForm>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    state.limits.live_move(req.peer_addr().map(|a| a.ip()))?;
    let token = presented_here(&req, &state)?;
    let RecordForm {
        from,
        number,
        line,
        discard,
    } = form.into_inner();
    let discards = !discard.is_empty();
    blocking(move || {
        let (row, record) = owned_game(&state, id, &token)?;
        // A placement sent again names the turn it made; anything else, the next turn.
        let again = from == row.turns && !discards;
        if from != row.turns + 1 && !again {
            return Err(moved_on(from, row.turns + 1));
        }
        let mv = match discards {
            true => json!({"discard": discard}),
            false => tile_move(&state, &row, from, &line)?,
        };
        from_page(&state, (&row, &record), (number, record.len() as u32 + 1), mv)
    })
    .await?;
    Ok(see_other(match discards {
        true => links::explore(id, from, "", None),
        false => links::turn(id, from),
    }))
}

/// Records `mv`, move `number` of a live game whose next is `next`, as a page sent it. The last
/// move sent again (a phone that lost its answer, or sent it again once back online) is
/// recorded once: it is answered as recorded. Whether the game is over.
fn from_page(
    state: &AppState,
    (row, record): (&GameRow, &LiveRecord),
    (number, next): (u32, u32),
    mv: Value,
) -> Result<bool, Problem> {
    if number + 1 == next && number > 0 {
        repeated(row, record, mv)?;
        return Ok(row.finished);
    }
    still_live(row)?;
    if number != next {
        return Err(moved_on(number, next));
    }
    Ok(written(state, row, &record.with(mv))?.finished)
}

/// The page that records a live Card Game's next action, for its owner.
#[route("/g/{id}/record", method = "GET", method = "HEAD")]
pub async fn cards_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<RecordCardsPage, Problem> {
    let id = id.into_inner();
    let token = presented_here(&req, &state)?;
    blocking(move || {
        let g = live_card_game(&state, id, &token)?;
        g.record_page(&state)
    })
    .await
}

/// The Card Game's recording form: records the action, then asks for the next one, or shows
/// the end once the game is over.
#[post("/g/{id}/record")]
pub async fn cards_play(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    form: web::Form<ActionForm>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    state.limits.live_move(req.peer_addr().map(|a| a.ip()))?;
    let token = presented_here(&req, &state)?;
    let finished = blocking(move || {
        let (row, record) = owned_game(&state, id, &token)?;
        let next = record.len() as u32 + 1;
        from_page(&state, (&row, &record), (form.number, next), form.to_move()?)
    })
    .await?;
    Ok(see_other(if finished {
        links::end(id)
    } else {
        links::record_cards(id)
    }))
}

/// Live Card Game `id`, owned by `token`, as its pages read it.
fn live_card_game(state: &AppState, id: GameId, token: &OwnerToken) -> Result<Arc<Stored<Record<CardGame>>>, Problem> {
    let (row, _) = owned_game(state, id, token)?;
    still_live(&row)?;
    let card_game = |loaded| match loaded {
        Loaded::Cards(g) => Ok(g),
        Loaded::Tiles(_) => Err(Problem::not_found(format!(
            "game {id} places tiles: its moves are recorded on the explore board of its next turn"
        ))),
    };
    card_game(kept_as_stored(state, &row)?)
}

/// The game stored as `row`, as this process keeps it: loaded again when another process
/// recorded a move since this one kept it.
fn kept_as_stored(state: &AppState, row: &GameRow) -> Result<Loaded, Problem> {
    let loaded = state.loaded(&row.id)?;
    let record = match &loaded {
        Loaded::Tiles(g) => &g.row.record,
        Loaded::Cards(g) => &g.row.record,
    };
    if *record == row.record {
        return Ok(loaded);
    }
    state.forget(&row.id);
    state.loaded(&row.id)
}

fn moved_on(from: u32, next: u32) -> Problem {
    let why = format!("this page records move {from}, but the game's next is {next}: reload it, and record from there");
    Problem::new(StatusCode::CONFLICT, "The game moved on", why)
}

/// The game page's form: takes back a live game's last move, and shows the game.
#[post("/g/{id}/moves/last")]
pub async fn form_take_back(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    state.limits.live_move(req.peer_addr().map(|a| a.ip()))?;
    let token = presented_here(&req, &state)?;
    blocking(move || taken_back(&state, id, &token)).await?;
    Ok(see_other(links::game(id)))
}

/// The move a line of one step makes, played from turn `from` of the tile game stored as
/// `row`, as an entry of a native record's moves. It is played from the kept position: the
/// record is replayed once, when the move is stored.
fn tile_move(state: &AppState, row: &GameRow, from: u32, line: &str) -> Result<Value, Problem> {
    let Loaded::Tiles(g) = kept_as_stored(state, row)? else {
        let why = "the Card Game's moves are recorded through the API for now (POST /api/games/{id}/moves)";
        return Err(Problem::not_found(why));
    };
    let line = TileLine::parse(line, &g.record.setup.catalog).map_err(|e| bad_line(e.to_string()))?;
    let explored = explore::explored(&g, from, &line)?;
    if explored.facts.played.len() != 1 {
        return Err(bad_line("a move is recorded one at a time: the line has one step"));
    }
    let mut whole = native::to_value(&explored.facts.record);
    let last = whole["moves"].as_array_mut().and_then(|moves| moves.pop());
    last.ok_or_else(|| Problem::internal("the line's record has no moves"))
}

fn see_other(to: String) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish()
}

/// The games the page starts, with the rules each is played under.
const STARTS: [(&str, &str); 7] = [
    ("second-edition", "Carcassonne, second edition"),
    ("second-edition-river", "Carcassonne, second edition, with The River"),
    ("second-edition-abbot", "Carcassonne, second edition, with The Abbot"),
    (
        "second-edition-river-abbot",
        "Carcassonne, second edition, with The River and The Abbot",
    ),
    ("classic-2000", "Carcassonne, the 2000 rules"),
    ("new-world", "Carcassonne: The New World, on our sample tiles"),
    ("card-game", "The Carcassonne Card Game"),
];

/// The cards the Card Game's dealer turns up before the first round.
const FACE_UP: usize = 10;

/// Players a game at the table may have.
const MAX_SEATS: usize = 5;

#[derive(Template, WebTemplate)]
#[template(path = "new.html")]
pub struct NewGamePage {
    starts: &'static [(&'static str, &'static str)],
    seats: std::ops::RangeInclusive<usize>,
    /// The Card Game's start: a select per card turned up, each offering every kind of card.
    face_up: std::ops::RangeInclusive<usize>,
    cards: Vec<String>,
    rows: [&'static str; 4],
    /// The colours a player may take, by game: none reads as a colour the game's pictures
    /// give a meaning (the board's, the Card Game's rows).
    palettes: [(&'static str, &'static [PlayerColour]); 2],
}

/// The colours players may choose, by game.
const PALETTES: [(&str, &[PlayerColour]); 2] = [
    ("Carcassonne and The New World", &PLAYER_COLOURS),
    ("The Card Game", &CARD_PLAYER_COLOURS),
];

/// The page that starts a game recorded at the table.
#[route("/new", method = "GET", method = "HEAD")]
pub async fn new_page() -> NewGamePage {
    let mut cards = crate::engine::cards::deck();
    cards.dedup();
    NewGamePage {
        starts: &STARTS,
        seats: 1..=MAX_SEATS,
        face_up: 1..=FACE_UP,
        cards: cards.iter().map(ToString::to_string).collect(),
        rows: crate::engine::cards::Colour::ALL.map(|c| c.word()),
        palettes: PALETTES,
    }
}

/// The start page's form: the game, its players in their order, and its listing.
#[derive(Deserialize)]
pub struct StartForm {
    game: String,
    #[serde(default)]
    unlisted: Option<String>,
    #[serde(flatten)]
    seats: std::collections::HashMap<String, String>,
}

impl StartForm {
    /// The start of the record the form asks for, or 400 saying what is wrong.
    fn start(&self) -> Result<Map<String, Value>, Problem> {
        let (preset, river, abbot) = match self.game.as_str() {
            "second-edition" => ("second-edition", false, false),
            "second-edition-river" => ("second-edition", true, false),
            "second-edition-abbot" => ("second-edition", false, true),
            "second-edition-river-abbot" => ("second-edition", true, true),
            "classic-2000" => ("classic-2000", false, false),
            "new-world" => ("new-world", false, false),
            "card-game" => return self.card_game_start(self.players(&CARD_PLAYER_COLOURS)?),
            _ => return Err(bad_start("choose one of the games listed")),
        };
        let players = self.players(&PLAYER_COLOURS)?;
        let mut rules = json!({"preset": preset});
        if river {
            rules["river"] = json!(true);
        }
        if abbot {
            rules["abbot"] = json!(true);
        }
        let mut opening = Map::new();
        opening.insert("players".into(), players);
        opening.insert("rules".into(), rules);
        if preset == "new-world" {
            opening.insert("game".into(), json!("new-world"));
            let tiles = crate::selfplay::new_world_sample().1;
            let tiles = tiles
                .iter()
                .map(|t| json!({"name": t.name, "count": t.count, "segments": t.segments}));
            opening.insert("tiles".into(), tiles.collect());
        }
        Ok(opening)
    }
}

impl StartForm {
    /// The players named, in their order, each with the colour chosen from the game's
    /// `palette`; 400 unless two at least, or for a colour not the game's or taken twice.
    fn players(&self, palette: &[PlayerColour]) -> Result<Value, Problem> {
        let mut players = Vec::new();
        for i in 1..=MAX_SEATS {
            let field = |name: &str| self.seats.get(&format!("{name}{i}")).map_or("", |v| v.trim());
            let name = field("player");
            if name.is_empty() {
                continue;
            }
            let mut player = json!({"name": name});
            let colour = field("colour");
            if !colour.is_empty() {
                let Some(c) = palette.iter().find(|c| c.rgb.to_string() == colour) else {
                    return Err(bad_start(&format!(
                        "{name}'s colour is not one of this game's: choose from its list"
                    )));
                };
                if players.iter().any(|p: &Value| p["colour"] == colour) {
                    return Err(bad_start(&format!(
                        "two players are {}: choose another for {name}",
                        c.name
                    )));
                }
                player["colour"] = json!(colour);
            }
            players.push(player);
        }
        if players.len() < 2 {
            return Err(bad_start("a game needs two players at least: name them in their order"));
        }
        Ok(Value::Array(players))
    }

    /// A Card Game's start: its players, the first dealer (`dealer`, a seat from 1), and the
    /// cards turned up (`up1`…`up10`), each beside its row (`row1`…, else its own colour's).
    fn card_game_start(&self, players: Value) -> Result<Map<String, Value>, Problem> {
        let field = |name: String| self.seats.get(&name).map(|v| v.trim()).unwrap_or_default();
        let dealer = field("dealer".into()).parse::<u8>().ok().filter(|&d| d >= 1);
        let dealer = dealer.ok_or_else(|| bad_start("choose who deals first"))?;
        let face_up = (1..=FACE_UP)
            .map(|i| {
                let card = field(format!("up{i}"));
                let own = crate::engine::cards::Card::parse(card).and_then(|c| c.colour());
                let row = match (field(format!("row{i}")), own) {
                    ("", Some(colour)) => colour.word(),
                    ("", None) => {
                        return Err(bad_start(&format!(
                            "card {i} turned up: a joker goes beside any row, choose it"
                        )));
                    }
                    (row, _) => row,
                };
                Ok(json!({"card": card, "row": row}))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut opening = Map::new();
        opening.insert("game".into(), json!("card-game"));
        opening.insert("players".into(), players);
        opening.insert("dealer".into(), json!(dealer - 1));
        opening.insert("face_up".into(), Value::Array(face_up));
        Ok(opening)
    }
}

fn bad_start(why: &str) -> Problem {
    Problem::new(StatusCode::BAD_REQUEST, "Bad start", why)
}

/// Starts a game from the page's form: the browser keeps its owner token in the game's cookie,
/// and goes to record the first move.
#[post("/new")]
pub async fn form_start(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<StartForm>,
) -> Result<HttpResponse, Problem> {
    same_origin(&req, &state.public_url)?;
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    let record = LiveRecord::start(form.start()?)?;
    let listed = form.unlisted.is_none();
    let st = state.clone();
    let (g, token) = blocking(move || Ok(start_live(&st.store, &record, listed)?)).await?;
    let mut answer = HttpResponse::SeeOther();
    answer.cookie(owner_cookie(&state, &g.id, &token));
    let first = links::record_next(g.id, 0u32, form.game != "card-game");
    Ok(answer
        .insert_header((header::LOCATION, first))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
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

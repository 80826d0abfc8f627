//! HTML pages: the upload form with recent games, and the replay of a game turn by turn.

use crate::record::MAX_RECORD_BYTES;
use crate::replay::{self, Replay};
use crate::store::ingest;
use crate::web::problem::Problem;
use crate::web::view::{self, BreakdownRow, PlayerView, TurnLink};
use crate::web::{AppState, LoadedGame};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{Either, HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;

pub struct GameListItem {
    pub id: String,
    pub players: String,
    pub scores: String,
    pub preset: String,
    pub turns: u32,
    pub created_at: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "index.html")]
struct IndexPage {
    games: Vec<GameListItem>,
}

#[get("/")]
pub async fn index(state: web::Data<AppState>) -> Either<IndexPage, HttpResponse> {
    let rows = match state.store.recent(30) {
        Ok(rows) => rows,
        Err(e) => return Either::Right(Problem::from(e).html()),
    };
    let games = rows
        .into_iter()
        .map(|g| GameListItem {
            players: g.players.join(" vs "),
            scores: g
                .final_scores
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("–"),
            id: g.id,
            preset: g.preset,
            turns: g.turns,
            created_at: g.created_at.replace('T', " ").trim_end_matches('Z').to_string(),
        })
        .collect();
    Either::Left(IndexPage { games })
}

/// The upload form: a file or pasted text. Answers 303 to the game page.
#[post("/games")]
pub async fn upload(state: web::Data<AppState>, form: Multipart) -> HttpResponse {
    match read_form(form).await.and_then(|bytes| store_upload(&state, &bytes)) {
        Ok(id) => HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("/g/{id}")))
            .finish(),
        Err(p) => p.html(),
    }
}

fn store_upload(state: &AppState, bytes: &[u8]) -> Result<String, Problem> {
    let (g, _) = ingest::ingest(&state.store, bytes)?;
    Ok(g.id)
}

/// The first non-empty of the `file` and `text` fields, at most 4 MiB.
async fn read_form(mut form: Multipart) -> Result<Vec<u8>, Problem> {
    let mut chosen = Vec::new();
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| {
            Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Unreadable form",
                e.to_string(),
            )
        })?;
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| {
                Problem::new(
                    actix_web::http::StatusCode::BAD_REQUEST,
                    "Unreadable form",
                    e.to_string(),
                )
            })?;
            if bytes.len() + chunk.len() > MAX_RECORD_BYTES {
                return Err(Problem::too_large(MAX_RECORD_BYTES));
            }
            bytes.extend_from_slice(&chunk);
        }
        if chosen.is_empty() && !bytes.iter().all(u8::is_ascii_whitespace) {
            chosen = bytes;
        }
    }
    if chosen.is_empty() {
        return Err(Problem::new(
            actix_web::http::StatusCode::BAD_REQUEST,
            "Nothing uploaded",
            "choose a file or paste a record",
        ));
    }
    Ok(chosen)
}

#[derive(Template, WebTemplate)]
#[template(path = "turn.html")]
struct TurnPage {
    id: String,
    title: String,
    description: String,
    page_url: String,
    og_image: String,
    preset: String,
    turn: u32,
    last: u32,
    prev: Option<u32>,
    next: Option<u32>,
    move_text: String,
    players: Vec<PlayerView>,
    has_abbot: bool,
    events: Vec<String>,
    remaining: Vec<(String, u8)>,
    tiles_left: u32,
    /// Empty squares next to the board with how many tiles left fit each, fewest first.
    spots: Vec<(String, u32)>,
    dead_spots: Vec<String>,
    graph: String,
    finished: bool,
    breakdown: Vec<BreakdownRow>,
    final_events: Vec<String>,
    turn_links: Vec<TurnLink>,
}

/// The game page: its last turn, with the final scoring.
#[get("/g/{id:[0-9a-f]{16}}")]
pub async fn game(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Either<TurnPage, HttpResponse> {
    page(state.load(&id).and_then(|g| {
        let last = g.row.turns.max(1);
        turn_page(&req, g, last)
    }))
}

#[get("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}")]
pub async fn turn(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, u32)>,
) -> Either<TurnPage, HttpResponse> {
    let (id, n) = path.into_inner();
    page(state.load(&id).and_then(|g| turn_page(&req, g, n)))
}

/// A page, or the friendly error page in its place.
fn page<T>(result: Result<T, Problem>) -> Either<T, HttpResponse> {
    match result {
        Ok(p) => Either::Left(p),
        Err(p) => Either::Right(p.html()),
    }
}

fn turn_page(req: &HttpRequest, g: LoadedGame, n: u32) -> Result<TurnPage, Problem> {
    let info = req.connection_info();
    build_turn_page(&format!("{}://{}", info.scheme(), info.host()), g, n)
}

/// The HTML of a turn page, as the server sends it; `base` is the site's address for the
/// absolute links of social previews. The bench times this.
pub fn render_turn_page(state: &AppState, base: &str, id: &str, n: u32) -> Result<String, Problem> {
    let page = build_turn_page(base, state.load(id)?, n)?;
    page.render().map_err(Problem::internal)
}

fn build_turn_page(base: &str, g: LoadedGame, n: u32) -> Result<TurnPage, Problem> {
    let LoadedGame { row, record } = g;
    let last = row.turns;
    if n == 0 || n > last {
        return Err(Problem::not_found(format!(
            "game {} has turns 1 to {last}, not {n}",
            row.id
        )));
    }
    let full: Replay = replay::replay(&record, None).map_err(Problem::internal)?;
    let at = replay::replay_upto(&record, None, Some(n)).map_err(Problem::internal)?;
    let snapshot = &full.turns[n as usize - 1];
    let title = row.players.join(" vs ");
    let scores: Vec<String> = full.final_scores.iter().map(|s| s.to_string()).collect();
    let names = &record.players;
    Ok(TurnPage {
        page_url: format!("{base}/g/{}/t/{n}", row.id),
        og_image: format!("{base}/g/{}/og.png", row.id),
        description: format!(
            "Carcassonne, {} rules, final score {}. Step through every turn and see where every point came from.",
            row.preset,
            scores.join("–")
        ),
        preset: row.preset.clone(),
        turn: n,
        last,
        prev: (n > 1).then(|| n - 1),
        next: (n < last).then(|| n + 1),
        move_text: format!(
            "{} placed {} at {} rotated {}°",
            names[snapshot.player as usize].name,
            record.catalog.name(snapshot.tile),
            snapshot.placement.pos,
            snapshot.placement.rotation
        ),
        players: view::players_at(&record, &at),
        has_abbot: full.rules.abbot,
        events: view::event_sentences(&record, &snapshot.events),
        remaining: view::remaining_tiles(&record.catalog, &at.game),
        tiles_left: at.game.pack_left(),
        spots: spots_by_fit(&at.game),
        dead_spots: crate::analysis::dead_spots(&at.game)
            .iter()
            .map(|p| p.to_string())
            .collect(),
        graph: view::score_graph(&record, &full, &row.id, n),
        finished: full.finished,
        breakdown: view::breakdown_rows(&record, &full),
        final_events: view::event_sentences(&record, &full.final_events),
        turn_links: view::turn_links(&record, &full, n),
        id: row.id,
        title,
    })
}

/// The open spots after a turn, the hardest to fill first.
fn spots_by_fit(position: &crate::engine::Game) -> Vec<(String, u32)> {
    let mut spots = crate::analysis::position_spots(position);
    spots.sort_by_key(|s| (s.fits, s.pos));
    spots.into_iter().map(|s| (s.pos.to_string(), s.fits)).collect()
}

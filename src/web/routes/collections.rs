//! Collections: create one from many games at once (`POST /api/collections`, or the form at
//! `/c/new`), read it (`/c/{id}`, `/api/collections/{id}`), queue the analysis of all its games,
//! and, with the token it was created with, rename it, add games and take games out.
//!
//! An import runs in the background (`store::collection::import`), writing its progress to the
//! collection's row: a browser goes at once to the collection's page, which shows "412 of 850"
//! and reloads itself until the import is done; an API client waits for the answer up to
//! [`IMPORT_WAIT`] (any import of a few hundred lines), else gets `202` and reads the progress
//! from the collection's JSON. Rendering the answer inside the request would hold it past the
//! request time limit for the largest imports, and streaming would leave API clients a
//! half-written JSON document to parse.

use super::owners::{is_owner, owner_cookie_at, presented, see_other};
use super::read_limited;
use crate::record::MAX_RECORD_BYTES;
use crate::store::collection::{self, ImportStatus, Imported, MAX_IMPORT_LINES};
use crate::store::{
    AnalysisStatus, CollectedGame, CollectionId, CollectionName, CollectionRow, ImportLine, ImportState, ImportedGame,
    LineError, NewGame, OwnerToken, Ownership, QueueAnswer,
};
use crate::web::collection_view::{self, Meeting, PER_PAGE, Standing};
use crate::web::origin::same_origin;
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::{AppState, blocking, links};
use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, patch, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long an API import is waited for before the answer is `202` and its progress.
pub const IMPORT_WAIT: Duration = Duration::from_secs(20);
/// Games a collection holds at most: each page of it reads them all to rank the standings.
pub const MAX_COLLECTION_GAMES: usize = 10_000;
/// An import's body at most: 2000 Lab links of about 2 KB, or a few hundred records.
pub const MAX_IMPORT_BYTES: usize = 16 * 1024 * 1024;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCollection {
    /// 1 to 100 characters.
    name: String,
    /// One game per line: a Carcassonne Lab link, a Board Game Arena log, a record on one
    /// line, or a stored game's id.
    text: String,
    /// false keeps the imported games off the home page and every list (default true).
    listed: Option<bool>,
}

/// What an import answers.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CreatedCollection {
    #[schema(value_type = String)]
    id: CollectionId,
    url: String,
    /// Renames the collection and adds or removes games; shown once, never stored. It also
    /// owns the games the import stored new.
    #[serde(skip_serializing_if = "Option::is_none")]
    owner_token: Option<String>,
    /// The games stored or added, by line.
    games: Vec<ImportedGame>,
    /// The lines refused, each with why: the first 100.
    errors: Vec<LineError>,
    /// How many lines were refused in all.
    refused: u32,
    /// Lines read of the lines sent: less when the import goes on in the background (`202`).
    done: u32,
    total: u32,
}

/// Create a collection from many games: JSON `{name, text}` with a game per line, or a
/// multipart form with `name`, the games as files (`file`, any number) and/or `text`. Each
/// game is stored as an upload is; a line that is no game is reported with its line number
/// and the rest are stored.
#[utoipa::path(post, path = "/api/collections",
    request_body(content = NewCollection, content_type = "application/json"),
    responses(
        (status = 201, description = "Created and imported, with the owner token and each refused line", body = CreatedCollection),
        (status = 202, description = "Created; the import goes on (read its progress at the `url`'s JSON, `/api/collections/{id}`)", body = CreatedCollection),
        (status = 400, description = "No name, or no line", content_type = "application/problem+json"),
        (status = 413, description = "Over 16 MiB or 2000 lines", content_type = "application/problem+json"),
        (status = 429, description = "Too many imports from this client", content_type = "application/problem+json"),
    ))]
#[post("/api/collections")]
pub async fn api_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let request = read_request(&req, &state, body).await?;
    let token = OwnerToken::new().map_err(Problem::internal)?;
    let (id, total, waited) = create(&state, request, &token).await?;
    Ok(import_answer(id, total, waited, Some(&token)))
}

/// The form at `/c/new`: to the collection's page at once, where the import's progress shows,
/// with the owner token in a cookie for the collection's pages.
#[post("/collections")]
pub async fn form_create(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let request = read_request(&req, &state, body).await?;
    let token = OwnerToken::new().map_err(Problem::internal)?;
    let (id, _, _) = create(&state, request, &token).await?;
    let cookie = owner_cookie_at(&state, links::collection(id), &token);
    Ok(see_other(&links::collection(id)).cookie(cookie).finish())
}

/// An import as sent: the name (for a new collection), the lines, and the listing.
struct ImportRequest {
    name: Option<String>,
    lines: Vec<ImportLine>,
    listed: bool,
}

/// Reads an import from JSON or a multipart form, charging the client an upload and an import.
/// The body is read here; it is parsed and cut into lines on the blocking pool.
async fn read_request(req: &HttpRequest, state: &AppState, body: web::Payload) -> Result<ImportRequest, Problem> {
    same_origin(req, &state.public_url)?;
    let client = req.peer_addr().map(|a| a.ip());
    state.limits.import(client)?;
    state.limits.upload(client)?;
    super::declared_length_within(req, MAX_IMPORT_BYTES)?;
    let multipart =
        (req.headers().get(header::CONTENT_TYPE)).is_some_and(|c| c.as_bytes().starts_with(b"multipart/form-data"));
    if multipart {
        let form = read_form(super::multipart_within(req, body, MAX_IMPORT_BYTES)).await?;
        return blocking(move || form.request()).await;
    }
    let bytes = read_limited(body, MAX_IMPORT_BYTES, "Unreadable body").await?;
    blocking(move || {
        let json: NewCollection = serde_json::from_slice(&bytes)
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Unreadable body", e.to_string()))?;
        Ok(ImportRequest {
            name: Some(json.name),
            lines: import_lines(&json.text, Vec::new())?,
            listed: json.listed.unwrap_or(true),
        })
    })
    .await
}

/// The import's lines: the text's, then the files', numbered after the text's; refused past
/// [`MAX_IMPORT_LINES`] or when one is over a record's size.
fn import_lines(text: &str, files: Vec<(Option<String>, Vec<u8>)>) -> Result<Vec<ImportLine>, Problem> {
    let mut lines = collection::lines(text, files.len())?;
    let after = lines.last().map_or(0, |l| l.line);
    lines.extend((files.into_iter().zip(after + 1..)).map(|((file, bytes), line)| ImportLine { line, file, bytes }));
    match lines.iter().find(|l| l.bytes.len() > MAX_RECORD_BYTES) {
        Some(long) => Err(Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Game too large",
            format!("line {}: over {MAX_RECORD_BYTES} bytes", long.line),
        )),
        None => Ok(lines),
    }
}

/// A multipart import as read: its fields, not yet cut into lines.
struct ImportForm {
    name: Option<String>,
    text: String,
    files: Vec<(Option<String>, Vec<u8>)>,
    listed: bool,
}

impl ImportForm {
    fn request(self) -> Result<ImportRequest, Problem> {
        Ok(ImportRequest {
            name: self.name,
            lines: import_lines(&self.text, self.files)?,
            listed: self.listed,
        })
    }
}

/// The form's `name`, `text`, `unlisted` and any number of files, up to [`MAX_IMPORT_BYTES`]
/// in all and [`MAX_IMPORT_LINES`] files.
async fn read_form(mut form: Multipart) -> Result<ImportForm, Problem> {
    let unreadable = |e| super::unreadable_form(e, MAX_IMPORT_BYTES);
    let mut read = ImportForm {
        name: None,
        text: String::new(),
        files: Vec::new(),
        listed: true,
    };
    let mut left = MAX_IMPORT_BYTES;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(unreadable)?;
        let field_name = field.name().unwrap_or_default().to_string();
        let file = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_string);
        // Past what is left, the import as a whole is over its limit.
        let bytes = (super::read_field(&mut field, left, MAX_IMPORT_BYTES).await).map_err(|p| match p.status {
            StatusCode::PAYLOAD_TOO_LARGE => Problem::too_large(MAX_IMPORT_BYTES),
            _ => p,
        })?;
        left = left.saturating_sub(bytes.len());
        match field_name.as_str() {
            "name" => read.name = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "text" => read.text = String::from_utf8_lossy(&bytes).into_owned(),
            "unlisted" => read.listed = bytes.is_empty(),
            _ if bytes.iter().all(u8::is_ascii_whitespace) => {}
            _ if read.files.len() == MAX_IMPORT_LINES => return Err(collection::TooManyLines.into()),
            _ => read.files.push((file, bytes)),
        }
    }
    Ok(read)
}

/// Creates the collection and starts its import; the import's outcome if it ended within
/// [`IMPORT_WAIT`].
async fn create(
    state: &web::Data<AppState>,
    request: ImportRequest,
    token: &OwnerToken,
) -> Result<(CollectionId, u32, Option<Imported>), Problem> {
    let name = CollectionName::parse(request.name.as_deref().unwrap_or_default())
        .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad name", e.to_string()))?;
    if request.lines.is_empty() {
        return Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "No games",
            "send one game per line (or files)",
        ));
    }
    let row = CollectionRow {
        id: CollectionId::random()?,
        name,
        owner: token.hash(),
        created_at: crate::store::now(),
        import: ImportState::start(request.lines.len() as u32),
    };
    let (id, import) = (row.id, row.import.clone());
    let st = state.clone();
    blocking(move || Ok(st.store.create_collection(&row)?)).await?;
    let new = NewGame {
        listed: request.listed,
        owner: Some(token.hash()),
    };
    let total = import.total;
    let waited = start_import(state, id, import, request.lines, new).await?;
    Ok((id, total, waited))
}

/// Runs an import on a thread of its own (it outlives the request), and waits for it up to
/// [`IMPORT_WAIT`].
async fn start_import(
    state: &web::Data<AppState>,
    id: CollectionId,
    before: ImportState,
    lines: Vec<ImportLine>,
    new: NewGame,
) -> Result<Option<Imported>, Problem> {
    let (tx, rx) = std::sync::mpsc::channel();
    let (store, gate) = (state.store.clone(), state.imports.clone());
    std::thread::Builder::new()
        .name("import".into())
        .spawn(move || {
            let _turn = gate.enter(|| {
                if let Err(e) = store.import_progress(&id, &before.clone().renewed()) {
                    tracing::warn!("renewing the waiting import of collection {id}: {e}");
                }
            });
            let outcome = collection::import(&store, &id, before, &lines, new);
            if let Err(e) = &outcome {
                tracing::error!("importing into collection {id}: {e}");
            }
            let _ = tx.send(outcome);
        })
        .map_err(Problem::internal)?;
    blocking(move || match rx.recv_timeout(IMPORT_WAIT) {
        Ok(outcome) => Ok(Some(outcome?)),
        Err(_) => Ok(None),
    })
    .await
}

fn import_answer(id: CollectionId, total: u32, waited: Option<Imported>, token: Option<&OwnerToken>) -> HttpResponse {
    let url = links::collection(id);
    let (status, imported, done) = match waited {
        Some(imported) => (StatusCode::CREATED, imported, total),
        None => (StatusCode::ACCEPTED, Imported::default(), 0),
    };
    HttpResponse::build(status)
        .insert_header((header::LOCATION, url.clone()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(CreatedCollection {
            id,
            url,
            owner_token: token.map(ToString::to_string),
            games: imported.games,
            errors: imported.errors.first,
            refused: imported.errors.refused,
            done,
            total,
        })
}

/// A collection as `/api/collections/{id}` gives it: a page of its standings (with the head
/// to head of that page's players) and a page of its games, [`PER_PAGE`] of each at most.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CollectionAnswer {
    #[schema(value_type = String)]
    id: CollectionId,
    name: String,
    url: String,
    created_at: String,
    /// The import's progress: lines read of lines sent, and the lines refused.
    import: ImportProgress,
    /// The games in the collection, of which `games` is page `games_page` of `games_pages`.
    game_count: u32,
    games_page: u32,
    games_pages: u32,
    games: Vec<GameLine>,
    /// The players in the standings, of which `standings` is page `standings_page` of
    /// `standings_pages`.
    player_count: u32,
    standings_page: u32,
    standings_pages: u32,
    standings: Vec<Standing>,
    /// The pairs of this page's players who met, the higher placed first.
    head_to_head: Vec<Meeting>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportProgress {
    /// `stopped`: the import ended before its last line (the server stopped, or it failed);
    /// the lines after `done` were not read, and may be added again.
    status: ImportStatus,
    done: u32,
    total: u32,
    /// The lines the last import refused, each with why: the first 100.
    errors: Vec<LineError>,
    /// How many lines the last import refused in all.
    refused: u32,
}

/// A game of a collection.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GameLine {
    id: String,
    url: String,
    players: Vec<String>,
    final_scores: Vec<i32>,
    finished: bool,
    /// The rulebook's name (`second-edition`, `card-game`, …).
    rules: String,
    turns: u32,
    /// queued, running, done or failed; absent before any was asked for.
    analysis: Option<&'static str>,
}

/// Which page of the standings and of the games, from 1 (the first by default).
#[derive(Deserialize, Default, Clone, Copy)]
pub struct Pages {
    standings_page: Option<u32>,
    games_page: Option<u32>,
}

/// Page `asked` (from 1) of `count` items, as a range of them, and how many pages there are;
/// 404 past the last (an empty list has its one, empty, page).
fn paged(asked: Option<u32>, count: usize, what: &str) -> Result<(u32, u32, std::ops::Range<usize>), Problem> {
    let pages = count.div_ceil(PER_PAGE).max(1) as u32;
    let n = asked.unwrap_or(1);
    if n == 0 || n > pages {
        return Err(Problem::not_found(format!(
            "the {what} have pages 1 to {pages}, not {n}"
        )));
    }
    let start = (n as usize - 1) * PER_PAGE;
    Ok((n, pages, start..(start + PER_PAGE).min(count)))
}

/// Everything the page and the JSON show, from three queries: the collection, its games, and
/// their seats' accuracies.
fn read(state: &AppState, id: &CollectionId, pages: Pages) -> Result<(CollectionRow, CollectionAnswer), Problem> {
    let row = stored(state, id)?;
    let games = state.store.collection_games(id)?;
    let table = collection_view::standings(&games);
    let (standings_page, standings_pages, players) = paged(pages.standings_page, table.standings.len(), "standings")?;
    let (games_page, games_pages, listed) = paged(pages.games_page, games.len(), "games")?;
    let (standings, head_to_head) = table.page(players);
    let answer = CollectionAnswer {
        id: *id,
        name: row.name.as_str().to_string(),
        url: links::collection(*id),
        created_at: row.created_at.clone(),
        import: ImportProgress {
            status: row.import.status(),
            done: row.import.done,
            total: row.import.total,
            errors: row.import.errors.first.clone(),
            refused: row.import.errors.refused,
        },
        game_count: games.len() as u32,
        games_page,
        games_pages,
        games: games[listed].iter().map(game_line).collect(),
        player_count: table.standings.len() as u32,
        standings_page,
        standings_pages,
        standings: standings.to_vec(),
        head_to_head,
    };
    Ok((row, answer))
}

fn game_line(g: &CollectedGame) -> GameLine {
    GameLine {
        id: g.id.to_string(),
        url: links::game(g.id),
        players: g.players.clone(),
        final_scores: g.final_scores.clone(),
        finished: g.finished,
        rules: g.preset.clone(),
        turns: g.turns,
        analysis: g.analysis.as_ref().map(|a| match a {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running { .. } => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed(_) => "failed",
        }),
    }
}

/// A collection's games, standings and head to head, its import's progress, and its
/// players' accuracy once games are analysed: a page of each.
#[utoipa::path(get, path = "/api/collections/{id}",
    params(("id" = String, Path, description = "Collection id"),
           ("standings_page" = Option<u32>, Query, description = "The page of the standings, from 1 (100 players a page)"),
           ("games_page" = Option<u32>, Query, description = "The page of the games, from 1 (100 games a page)")),
    responses((status = 200, description = "The collection", body = CollectionAnswer),
              (status = 404, description = "No such collection, or a page past the last", content_type = "application/problem+json")))]
#[route("/api/collections/{id}", method = "GET", method = "HEAD")]
pub async fn api_get(
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
    pages: Query<Pages>,
) -> Result<web::Json<CollectionAnswer>, Problem> {
    let (id, pages) = (id.into_inner(), pages.into_inner());
    blocking(move || Ok(web::Json(read(&state, &id, pages)?.1))).await
}

/// The page as a stranger gets it, rendered: what `bench collection` times.
pub fn render_page(state: &AppState, id: &CollectionId) -> Result<String, Problem> {
    let (_, c) = read(state, id, Pages::default())?;
    CollectionPage::new(c, false, None).render().map_err(Problem::internal)
}

#[derive(Template, WebTemplate)]
#[template(path = "collection.html")]
pub struct CollectionPage {
    c: CollectionAnswer,
    owner: bool,
    /// After the analysis button: how many were queued, and how many the full queue left.
    queued: Option<(u32, u32)>,
    /// The head to head as a table, when the page's players are few enough for one: a cell
    /// per pair, row against column.
    matrix: Option<Vec<Vec<String>>>,
}

/// Players a page shows the head to head of as a table; past them, as a list of who met.
const MATRIX_PLAYERS: usize = 12;

impl CollectionPage {
    fn new(c: CollectionAnswer, owner: bool, queued: Option<(u32, u32)>) -> CollectionPage {
        let matrix = (c.standings.len() <= MATRIX_PLAYERS).then(|| head_to_head_cells(&c.standings, &c.head_to_head));
        CollectionPage {
            c,
            owner,
            queued,
            matrix,
        }
    }

    fn scores(&self, g: &GameLine) -> String {
        let scores: Vec<String> = g.final_scores.iter().map(ToString::to_string).collect();
        scores.join("–")
    }

    fn accuracy(&self, s: &Standing) -> String {
        s.accuracy.map_or("–".into(), |a| format!("{a:.0}%"))
    }

    /// "+12", "−5", "0".
    fn difference(&self, s: &Standing) -> String {
        match s.point_difference {
            d if d > 0 => format!("+{d}"),
            d if d < 0 => format!("−{}", -d),
            _ => "0".into(),
        }
    }

    fn rules(&self, g: &GameLine) -> String {
        collection_view::rules_name(&g.rules)
    }

    fn created(&self) -> String {
        collection_view::day(&self.c.created_at)
    }

    /// The address of another page of the standings, the games' page kept.
    fn standings_link(&self, n: u32) -> String {
        format!("{}?standings_page={n}&games_page={}", self.c.url, self.c.games_page)
    }

    /// The address of another page of the games, the standings' page kept.
    fn games_link(&self, n: u32) -> String {
        format!("{}?standings_page={}&games_page={n}", self.c.url, self.c.standings_page)
    }

    fn importing(&self) -> bool {
        self.c.import.status == ImportStatus::Running
    }

    fn stopped(&self) -> bool {
        self.c.import.status == ImportStatus::Stopped
    }

    fn any_accuracy(&self) -> bool {
        self.c.standings.iter().any(|s| s.accuracy.is_some())
    }
}

/// Row `i` against column `j` of a page's players: their record, empty where they never met.
fn head_to_head_cells(players: &[Standing], met: &[Meeting]) -> Vec<Vec<String>> {
    let at = |name: &str| players.iter().position(|s| s.name == name);
    let mut cells = vec![vec![String::new(); players.len()]; players.len()];
    for m in met {
        if let (Some(i), Some(j)) = (at(&m.player), at(&m.opponent)) {
            cells[i][j] = m.record.text();
            cells[j][i] = m.record.reversed().text();
        }
    }
    cells
}

/// The page's query: which pages, and what the analysis button queued. (Not `Pages`
/// flattened: a flattened query reads numbers as text, and refuses them.)
#[derive(Deserialize)]
pub struct PageQuery {
    queued: Option<u32>,
    waiting: Option<u32>,
    standings_page: Option<u32>,
    games_page: Option<u32>,
}

/// A collection's page: a page of its standings, head to head and games, its players'
/// accuracy; the import's progress while it runs (the page reloads itself); the owner's forms.
#[route("/c/{id}", method = "GET", method = "HEAD")]
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
    q: Query<PageQuery>,
) -> Result<CollectionPage, Problem> {
    let (id, q) = (id.into_inner(), q.into_inner());
    let token = presented(&req);
    let pages = Pages {
        standings_page: q.standings_page,
        games_page: q.games_page,
    };
    let (row, c) = blocking(move || read(&state, &id, pages)).await?;
    let owner = is_owner(token.as_ref(), Some(row.owner));
    Ok(CollectionPage::new(
        c,
        owner,
        q.queued.map(|n| (n, q.waiting.unwrap_or(0))),
    ))
}

#[route("/c/new", method = "GET", method = "HEAD")]
pub async fn new_page() -> Result<NewCollectionPage, Problem> {
    Ok(NewCollectionPage {
        max_lines: MAX_IMPORT_LINES,
    })
}

#[derive(Template, WebTemplate)]
#[template(path = "collection_new.html")]
pub struct NewCollectionPage {
    max_lines: usize,
}

/// What queueing a collection's analyses did.
#[derive(Serialize, utoipa::ToSchema)]
pub struct QueuedGames {
    /// Queued now.
    queued: u32,
    /// Queued, running or done already.
    already: u32,
    /// Not queued: the analysis queue was full, or this client held its share of it (a
    /// quarter of its places). Ask again once some are done.
    waiting: u32,
}

/// Queues the analysis of every game of a collection, in its order, until the analysis queue
/// is full or the client holds its share of it: the games left wait for another request.
#[utoipa::path(post, path = "/api/collections/{id}/analysis", params(("id" = String, Path, description = "Collection id")),
    responses((status = 202, description = "How many were queued, and how many wait for room", body = QueuedGames),
              (status = 403, description = "A page of another site asked", content_type = "application/problem+json"),
              (status = 404, description = "No such collection", content_type = "application/problem+json")))]
#[post("/api/collections/{id}/analysis")]
pub async fn api_analyse(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
) -> Result<HttpResponse, Problem> {
    let q = analyse(&req, &state, id.into_inner()).await?;
    Ok(HttpResponse::Accepted().json(q))
}

/// The page's analysis button: back to the page, which says what was queued.
#[post("/c/{id}/analysis")]
pub async fn form_analyse(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let q = analyse(&req, &state, id).await?;
    Ok(see_other(&format!(
        "{}?queued={}&waiting={}",
        links::collection(id),
        q.queued,
        q.waiting
    ))
    .finish())
}

async fn analyse(req: &HttpRequest, state: &web::Data<AppState>, id: CollectionId) -> Result<QueuedGames, Problem> {
    same_origin(req, &state.public_url)?;
    state.limits.analysis(req.peer_addr().map(|a| a.ip()))?;
    let (st, requester) = (state.clone(), crate::web::limits::requester(req));
    blocking(move || {
        let jobs = (st.jobs.as_ref()).ok_or_else(|| Problem::unavailable("this server runs no analyses", 3600))?;
        stored(&st, &id)?;
        let mut q = QueuedGames {
            queued: 0,
            already: 0,
            waiting: 0,
        };
        for g in st.store.collection_games(&id)? {
            if q.waiting > 0 {
                q.waiting += 1;
                continue;
            }
            match jobs.request(&st.store, &g.id, &requester)? {
                QueueAnswer::Queued => q.queued += 1,
                QueueAnswer::Already => q.already += 1,
                QueueAnswer::Full { .. } | QueueAnswer::OverShare { .. } => q.waiting += 1,
            }
            st.analysis_seen.forget(&g.id);
        }
        Ok(q)
    })
    .await
}

/// What the owner changes: any of a new name, games to add (ids, or lines to import as at
/// creation), and games to take out (ids).
#[derive(Deserialize, Default, utoipa::ToSchema)]
pub struct Edit {
    name: Option<String>,
    /// One game per line: a stored game's id, a Lab link, a log or a record.
    add: Option<String>,
    /// Ids of the games to take out.
    #[serde(default)]
    remove: Vec<String>,
    listed: Option<bool>,
}

/// Rename a collection, add games and take games out. Send the owner token the creation
/// returned as `Authorization: Bearer TOKEN`.
#[utoipa::path(patch, path = "/api/collections/{id}", params(("id" = String, Path, description = "Collection id")),
    request_body(content = Edit, content_type = "application/json"),
    responses((status = 200, description = "Changed, with the lines added and refused", body = CreatedCollection),
              (status = 202, description = "Changed; the added lines' import goes on", body = CreatedCollection),
              (status = 401, description = "No owner token", content_type = "application/problem+json"),
              (status = 403, description = "Not the collection's owner token, or a request from another site", content_type = "application/problem+json"),
              (status = 404, description = "No such collection", content_type = "application/problem+json")))]
#[patch("/api/collections/{id}")]
pub async fn api_edit(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    // The owner first: a stranger's body is never read.
    let row = authorise(&req, &state, id).await?;
    super::declared_length_within(&req, MAX_IMPORT_BYTES)?;
    let bytes = read_limited(body, MAX_IMPORT_BYTES, "Unreadable body").await?;
    let body: Edit = blocking(move || {
        serde_json::from_slice(&bytes)
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Unreadable body", e.to_string()))
    })
    .await?;
    let (total, waited) = edit(&req, &state, row, body).await?;
    let mut answer = import_answer(id, total, waited, None);
    if answer.status() == StatusCode::CREATED {
        *answer.status_mut() = StatusCode::OK;
    }
    Ok(answer)
}

/// The owner's forms on the collection's page (rename, add, remove): back to the page.
#[post("/c/{id}/edit")]
pub async fn form_edit(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
    form: web::Form<EditForm>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let row = authorise(&req, &state, id).await?;
    let form = form.into_inner();
    let edit_of = Edit {
        name: form.name,
        add: form.add,
        remove: form.remove.into_iter().collect(),
        listed: None,
    };
    edit(&req, &state, row, edit_of).await?;
    Ok(see_other(&links::collection(id)).finish())
}

#[derive(Deserialize)]
pub struct EditForm {
    name: Option<String>,
    add: Option<String>,
    remove: Option<String>,
}

/// Renames, removes and adds, in that order, in the collection `row` its owner asked to
/// change (`authorise`).
async fn edit(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    row: CollectionRow,
    edit: Edit,
) -> Result<(u32, Option<Imported>), Problem> {
    let id = row.id;
    let name = (edit.name.as_deref())
        .map(CollectionName::parse)
        .transpose()
        .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad name", e.to_string()))?;
    let remove = (edit.remove.iter())
        .map(|r| r.trim().parse())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad game id", format!("{e}")))?;
    let add = edit.add.unwrap_or_default();
    let lines = blocking(move || import_lines(&add, Vec::new())).await?;
    // The import's progress is written only when lines come: a rename or a removal leaves a
    // running import's count alone.
    let adding = match lines.len() as u32 {
        0 => None,
        _ if row.import.status() == ImportStatus::Running => {
            return Err(Problem::new(
                StatusCode::CONFLICT,
                "Import running",
                format!(
                    "collection {id} is still importing ({} of {} lines read): add games once it is done",
                    row.import.done, row.import.total
                ),
            ));
        }
        n => {
            state.limits.import(req.peer_addr().map(|a| a.ip()))?;
            let st = state.clone();
            let held = blocking(move || Ok(st.store.collection_games(&id)?.len())).await?;
            if held + n as usize > MAX_COLLECTION_GAMES {
                return Err(Problem::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Collection full",
                    format!("collection {id} holds {held} games; a collection holds at most {MAX_COLLECTION_GAMES}"),
                ));
            }
            Some(row.import.adding(n))
        }
    };
    let (st, recorded) = (state.clone(), adding.clone());
    blocking(move || {
        if let Some(name) = name {
            st.store.rename_collection(&id, &name)?;
        }
        st.store.remove_from_collection(&id, &remove)?;
        if let Some(progress) = recorded {
            st.store.import_progress(&id, &progress)?;
        }
        Ok(())
    })
    .await?;
    let Some(before) = adding else {
        return Ok((0, Some(Imported::default())));
    };
    let (total, new) = (
        lines.len() as u32,
        NewGame {
            listed: edit.listed.unwrap_or(true),
            owner: Some(row.owner),
        },
    );
    let waited = start_import(state, id, before, lines, new).await?;
    Ok((total, waited))
}

/// A stored collection; 404 for none.
fn stored(state: &AppState, id: &CollectionId) -> Result<CollectionRow, Problem> {
    (state.store.collection(id)?).ok_or_else(|| Problem::not_found(format!("no collection with id {id}")))
}

/// The collection, when the request holds its owner token and comes from this site.
async fn authorise(req: &HttpRequest, state: &web::Data<AppState>, id: CollectionId) -> Result<CollectionRow, Problem> {
    same_origin(req, &state.public_url)?;
    let token = presented(req).ok_or_else(|| {
        Problem::new(
            StatusCode::UNAUTHORIZED,
            "Owner token needed",
            "send the token the collection's creation returned, as `Authorization: Bearer TOKEN`",
        )
    })?;
    let st = state.clone();
    let row = blocking(move || stored(&st, &id)).await?;
    match Ownership::of(Some(row.owner), &token) {
        Ownership::Owner => Ok(row),
        _ => Err(Problem::new(
            StatusCode::FORBIDDEN,
            "Not the owner",
            format!("this token is not collection {id}'s owner token"),
        )),
    }
}

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
use crate::store::collection::{self, ImportStatus, Imported};
use crate::store::{
    AnalysisStatus, CollectedGame, CollectionId, CollectionName, CollectionRow, ImportLine, ImportState, ImportedGame,
    LineError, NewGame, OwnerToken, Ownership, QueueAnswer,
};
use crate::web::collection_view::{self, HeadToHead, Standing};
use crate::web::origin::same_origin;
use crate::web::problem::Problem;
use crate::web::{AppState, blocking, links};
use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, get, patch, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long an API import is waited for before the answer is `202` and its progress.
pub const IMPORT_WAIT: Duration = Duration::from_secs(20);
/// Lines (or files) one request may import: a season of a club, the 850 games of a
/// community's tournaments with room to spare.
pub const MAX_IMPORT_LINES: usize = 2000;
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
    /// The lines refused, each with why.
    errors: Vec<LineError>,
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
async fn read_request(req: &HttpRequest, state: &AppState, body: web::Payload) -> Result<ImportRequest, Problem> {
    same_origin(req, &state.public_url)?;
    let client = req.peer_addr().map(|a| a.ip());
    state.limits.import(client)?;
    state.limits.upload(client)?;
    super::declared_length_within(req, MAX_IMPORT_BYTES)?;
    let multipart =
        (req.headers().get(header::CONTENT_TYPE)).is_some_and(|c| c.as_bytes().starts_with(b"multipart/form-data"));
    let request = if multipart {
        read_form(Multipart::new(req.headers(), body)).await?
    } else {
        let bytes = read_limited(body, MAX_IMPORT_BYTES, "Unreadable body").await?;
        let json: NewCollection = serde_json::from_slice(&bytes)
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Unreadable body", e.to_string()))?;
        ImportRequest {
            name: Some(json.name),
            lines: collection::lines(&json.text),
            listed: json.listed.unwrap_or(true),
        }
    };
    within_limits(&request.lines)?;
    Ok(request)
}

/// At most [`MAX_IMPORT_LINES`] lines, each at most a record's size.
fn within_limits(lines: &[ImportLine]) -> Result<(), Problem> {
    if lines.len() > MAX_IMPORT_LINES {
        return Err(Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Too many games",
            format!(
                "{} games sent; one import takes at most {MAX_IMPORT_LINES}: send the rest as another import",
                lines.len()
            ),
        ));
    }
    match lines.iter().find(|l| l.bytes.len() > MAX_RECORD_BYTES) {
        Some(long) => Err(Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Game too large",
            format!("line {}: over {MAX_RECORD_BYTES} bytes", long.line),
        )),
        None => Ok(()),
    }
}

/// The form's `name`, `text`, `unlisted` and any number of files, numbered after the text's
/// lines.
async fn read_form(mut form: Multipart) -> Result<ImportRequest, Problem> {
    let unreadable =
        |e: actix_multipart::MultipartError| Problem::new(StatusCode::BAD_REQUEST, "Unreadable form", e.to_string());
    let (mut name, mut text, mut files, mut listed) = (None, String::new(), Vec::new(), true);
    let mut left = MAX_IMPORT_BYTES;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(unreadable)?;
        let field_name = field.name().unwrap_or_default().to_string();
        let file = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_string);
        let bytes = read_limited(&mut field, left, "Unreadable form").await?;
        left = left.saturating_sub(bytes.len());
        match field_name.as_str() {
            "name" => name = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "text" => text = String::from_utf8_lossy(&bytes).into_owned(),
            "unlisted" => listed = bytes.is_empty(),
            _ if bytes.iter().all(u8::is_ascii_whitespace) => {}
            _ => files.push((file, bytes)),
        }
    }
    let mut lines = collection::lines(&text);
    let after = lines.last().map_or(0, |l| l.line);
    lines.extend((files.into_iter().zip(after + 1..)).map(|((file, bytes), line)| ImportLine { line, file, bytes }));
    Ok(ImportRequest { name, lines, listed })
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
        .json(CreatedCollection {
            id,
            url,
            owner_token: token.map(ToString::to_string),
            games: imported.games,
            errors: imported.errors,
            done,
            total,
        })
}

/// A collection as `/api/collections/{id}` gives it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CollectionAnswer {
    #[schema(value_type = String)]
    id: CollectionId,
    name: String,
    url: String,
    created_at: String,
    /// The import's progress: lines read of lines sent, and the lines refused.
    import: ImportProgress,
    games: Vec<GameLine>,
    standings: Vec<Standing>,
    head_to_head: HeadToHead,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportProgress {
    /// `stopped`: the import ended before its last line (the server stopped, or it failed);
    /// the lines after `done` were not read, and may be added again.
    status: ImportStatus,
    done: u32,
    total: u32,
    errors: Vec<LineError>,
}

/// A game of a collection.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GameLine {
    id: String,
    url: String,
    players: Vec<String>,
    final_scores: Vec<i32>,
    finished: bool,
    rules: String,
    turns: u32,
    /// queued, running, done or failed; absent before any was asked for.
    analysis: Option<&'static str>,
}

/// Everything the page and the JSON show, from three queries: the collection, its games, and
/// their seats' accuracies.
fn read(state: &AppState, id: &CollectionId) -> Result<(CollectionRow, CollectionAnswer), Problem> {
    let row = stored(state, id)?;
    let games = state.store.collection_games(id)?;
    let (standings, head_to_head) = collection_view::standings(&games);
    let answer = CollectionAnswer {
        id: *id,
        name: row.name.as_str().to_string(),
        url: links::collection(*id),
        created_at: row.created_at.clone(),
        import: ImportProgress {
            status: row.import.status(),
            done: row.import.done,
            total: row.import.total,
            errors: row.import.errors.clone(),
        },
        games: games.iter().map(game_line).collect(),
        standings,
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
/// players' accuracy once games are analysed.
#[utoipa::path(get, path = "/api/collections/{id}", params(("id" = String, Path, description = "Collection id")),
    responses((status = 200, description = "The collection", body = CollectionAnswer),
              (status = 404, description = "No such collection", content_type = "application/problem+json")))]
#[route("/api/collections/{id}", method = "GET", method = "HEAD")]
pub async fn api_get(
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
) -> Result<web::Json<CollectionAnswer>, Problem> {
    let id = id.into_inner();
    blocking(move || Ok(web::Json(read(&state, &id)?.1))).await
}

/// The page as a stranger gets it, rendered: what `bench --collection` times.
pub fn render_page(state: &AppState, id: &CollectionId) -> Result<String, Problem> {
    let (_, c) = read(state, id)?;
    let shown = CollectionPage {
        owner: false,
        queued: None,
        c,
    };
    shown.render().map_err(Problem::internal)
}

#[derive(Template, WebTemplate)]
#[template(path = "collection.html")]
pub struct CollectionPage {
    c: CollectionAnswer,
    owner: bool,
    /// After the analysis button: how many were queued, and how many the full queue left.
    queued: Option<(u32, u32)>,
}

impl CollectionPage {
    fn scores(&self, g: &GameLine) -> String {
        let scores: Vec<String> = g.final_scores.iter().map(ToString::to_string).collect();
        scores.join("–")
    }

    fn accuracy(&self, s: &Standing) -> String {
        s.accuracy.map_or("–".into(), |a| format!("{a:.0}%"))
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

#[derive(Deserialize)]
pub struct PageQuery {
    queued: Option<u32>,
    waiting: Option<u32>,
}

/// A collection's page: its games, standings, head to head and accuracy; the import's
/// progress while it runs (the page reloads itself); the owner's forms.
#[route("/c/{id}", method = "GET", method = "HEAD")]
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CollectionId>,
    q: web::Query<PageQuery>,
) -> Result<CollectionPage, Problem> {
    let id = id.into_inner();
    let token = presented(&req);
    let (row, c) = blocking(move || read(&state, &id)).await?;
    Ok(CollectionPage {
        owner: is_owner(token.as_ref(), Some(row.owner)),
        queued: q.queued.map(|n| (n, q.waiting.unwrap_or(0))),
        c,
    })
}

#[get("/c/new")]
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
    /// Not queued: the analysis queue was full. Ask again once it has room.
    waiting: u32,
}

/// Queues the analysis of every game of a collection, in its order, until the analysis queue
/// is full (its bound holds): the games left wait for another request.
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
    let st = state.clone();
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
            match jobs.request(&st.store, &g.id)? {
                QueueAnswer::Queued => q.queued += 1,
                QueueAnswer::Already => q.already += 1,
                QueueAnswer::Full { .. } => q.waiting += 1,
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
    body: web::Json<Edit>,
) -> Result<HttpResponse, Problem> {
    let id = id.into_inner();
    let (total, waited) = edit(&req, &state, id, body.into_inner()).await?;
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
    let form = form.into_inner();
    let edit_of = Edit {
        name: form.name,
        add: form.add,
        remove: form.remove.into_iter().collect(),
        listed: None,
    };
    edit(&req, &state, id, edit_of).await?;
    Ok(see_other(&links::collection(id)).finish())
}

#[derive(Deserialize)]
pub struct EditForm {
    name: Option<String>,
    add: Option<String>,
    remove: Option<String>,
}

/// Checks the owner, then renames, removes and adds, in that order.
async fn edit(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    id: CollectionId,
    edit: Edit,
) -> Result<(u32, Option<Imported>), Problem> {
    let row = authorise(req, state, id).await?;
    let name = (edit.name.as_deref())
        .map(CollectionName::parse)
        .transpose()
        .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad name", e.to_string()))?;
    let remove = (edit.remove.iter())
        .map(|r| r.trim().parse())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, "Bad game id", format!("{e}")))?;
    let lines = collection::lines(edit.add.as_deref().unwrap_or_default());
    within_limits(&lines)?;
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

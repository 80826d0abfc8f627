//! HTML pages: the upload form with recent games, and the replay of a game turn by turn.

use crate::engine::GameKind;
use crate::record::MAX_RECORD_BYTES;
use crate::render::cards::Hands;
use crate::store::{GameId, GameRow, PLAYERS_SEARCHED, ingest};
use crate::web::game::turn::{Detail, TurnPage};
use crate::web::problem::{Problem, wants_html};
use crate::web::query::Query;
use crate::web::search::{Found, Named, PER_PAGE, SearchForm, found, rules_names};
use crate::web::state::{Analysis, TurnKey};
use crate::web::{AppState, annotation_view, blocking, links};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;

pub struct GameListItem {
    pub id: GameId,
    pub players: Vec<String>,
    pub scores: String,
    pub rules: String,
    pub source: String,
    pub turns: u32,
    pub created_at: String,
    /// Recorded at the table and not over yet.
    pub live: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "index.html")]
struct IndexPage {
    games: Vec<GameListItem>,
    /// This page of the list, from 1, and how many there are.
    page: u64,
    pages: u64,
    form: UploadForm,
    /// The search as asked, to show it again and to keep it in the pages' links.
    search: SearchForm,
    /// Listed games the search matches (all listed games without one).
    matches: u64,
    /// The name typed is a whole name: the games are its players' alone.
    whole_name: bool,
    named: Named,
}

/// What the upload form holds: empty, or after a refused upload the text pasted, the listing
/// chosen and why it was refused.
#[derive(Default)]
struct UploadForm {
    text: String,
    unlisted: bool,
    error: Option<UploadError>,
}

/// Why an upload was refused, as its problem said.
struct UploadError {
    title: &'static str,
    detail: String,
    /// Whether a Board Game Arena address was pasted instead of a log, and the table's number
    /// when it names one.
    bga: bool,
    table: Option<u64>,
}

impl UploadError {
    fn of(p: &Problem) -> UploadError {
        UploadError {
            title: p.title,
            detail: p.detail.clone(),
            bga: p.extensions.contains_key("bookmarklet"),
            table: p.extensions.get("table").and_then(|v| v.as_u64()),
        }
    }
}

#[derive(serde::Deserialize)]
pub struct IndexQuery {
    page: Option<u64>,
    #[serde(flatten)]
    search: SearchForm,
}

/// The upload form, and the listed games newest first, a page at a time (`?page=2`), or those
/// a search matches (`?q=NAME&kind=…&rules=…&from=…&until=…`).
#[route("/", method = "GET", method = "HEAD")]
pub async fn index(state: web::Data<AppState>, q: Query<IndexQuery>) -> Result<IndexPage, Problem> {
    let IndexQuery { page, search } = q.into_inner();
    blocking(move || index_page(&state, page.unwrap_or(1), UploadForm::default(), search)).await
}

/// The home page with a search, as HTML, what `/?q=…` answers (for the bench).
pub fn render_search(state: &AppState, search: SearchForm, page: u64) -> Result<String, Problem> {
    index_page(state, page, UploadForm::default(), search)?
        .render()
        .map_err(Problem::internal)
}

fn index_page(state: &AppState, page: u64, form: UploadForm, search: SearchForm) -> Result<IndexPage, Problem> {
    let Found {
        rows,
        matches,
        whole_name,
        named,
    } = found(state, &search.search()?, page)?;
    Ok(IndexPage {
        games: rows.into_iter().map(list_item).collect(),
        page,
        pages: matches.div_ceil(u64::from(PER_PAGE)).max(1),
        form,
        search,
        matches,
        whole_name,
        named,
    })
}

pub fn list_item(g: GameRow) -> GameListItem {
    let mut item = GameListItem {
        players: g.players.clone(),
        scores: g
            .final_scores
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("–"),
        rules: g.preset.clone(),
        source: g.source_format.clone(),
        id: g.id,
        turns: g.turns,
        created_at: g.created_at.replace('T', " ").trim_end_matches('Z').to_string(),
        live: g.live,
    };
    if let Some(rules) = crate::web::loaded::listed_rules(&g) {
        item.rules = rules;
    }
    item
}

/// The upload form: a file or pasted text, listed or not. Answers 303 to the game page, and
/// a new game's owner token in a cookie for its pages (`owners::owner_cookie`). A refused
/// upload gives a browser the form again, with the text it pasted and why it was refused.
#[post("/games")]
pub async fn upload(req: HttpRequest, state: web::Data<AppState>, body: web::Payload) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    super::declared_length_within(&req, MAX_FORM_BYTES)?;
    let fields = read_form(super::multipart_within(&req, body, MAX_FORM_BYTES)).await?;
    let listed = !fields.unlisted;
    let st = state.clone();
    let stored = match fields.chosen() {
        Ok(bytes) => blocking(move || Ok(ingest::upload(&st.store, &bytes, listed)?)).await,
        Err(p) => Err(p),
    };
    match stored {
        Ok(up) => {
            let id = up.game.id;
            let mut answer = HttpResponse::SeeOther();
            answer.insert_header((header::LOCATION, links::game(id)));
            if let Some(token) = &up.token {
                answer.cookie(super::owners::owner_cookie(&state, &id, token));
                answer.cookie(super::keys::key_once(&state, id));
            }
            Ok(answer.finish())
        }
        Err(p) if wants_html(&req) && p.status.is_client_error() => {
            let form = UploadForm {
                text: fields.text,
                unlisted: fields.unlisted,
                error: Some(UploadError::of(&p)),
            };
            let page = blocking(move || index_page(&state, 1, form, SearchForm::default())).await?;
            let html = page.render().map_err(Problem::internal)?;
            Ok(HttpResponse::build(p.status)
                .content_type("text/html; charset=utf-8")
                .body(html))
        }
        Err(p) => Err(p),
    }
}

/// The upload form's fields.
struct UploadFields {
    file: Vec<u8>,
    text: String,
    unlisted: bool,
}

impl UploadFields {
    /// The file, else the pasted text.
    fn chosen(&self) -> Result<Vec<u8>, Problem> {
        let blank = |b: &[u8]| b.iter().all(u8::is_ascii_whitespace);
        if !blank(&self.file) {
            return Ok(self.file.clone());
        }
        if !blank(self.text.as_bytes()) {
            return Ok(self.text.clone().into_bytes());
        }
        Err(Problem::new(
            actix_web::http::StatusCode::BAD_REQUEST,
            "Nothing uploaded",
            "choose a file or paste a record",
        ))
    }
}

/// The upload form at most: two fields of a record each, and the form's own framing.
const MAX_FORM_BYTES: usize = 2 * MAX_RECORD_BYTES + 64 * 1024;

/// The form's `file`, `text` and `unlisted` fields; a file or text at most 4 MiB.
async fn read_form(mut form: Multipart) -> Result<UploadFields, Problem> {
    let mut fields = UploadFields {
        file: Vec::new(),
        text: String::new(),
        unlisted: false,
    };
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| super::unreadable_form(e, MAX_FORM_BYTES))?;
        let name = field.name().unwrap_or_default().to_string();
        let bytes = super::read_field(&mut field, MAX_RECORD_BYTES, MAX_FORM_BYTES).await?;
        match name.as_str() {
            "text" => fields.text = String::from_utf8_lossy(&bytes).into_owned(),
            "unlisted" => fields.unlisted = !bytes.is_empty(),
            _ => fields.file = bytes,
        }
    }
    Ok(fields)
}

/// The game link: its result, after final scoring.
#[route("/g/{id}", method = "GET", method = "HEAD")]
pub async fn game(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    end_page(req, state, id.into_inner()).await
}

/// The end of the game: final scoring as its own step after the last turn.
#[route("/g/{id}/end", method = "GET", method = "HEAD")]
pub async fn end(req: HttpRequest, state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    end_page(req, state, id.into_inner()).await
}

/// The end page; its uploader's browser also gets the owner's forms, in an answer no cache
/// may share.
async fn end_page(req: HttpRequest, state: web::Data<AppState>, id: GameId) -> Result<HttpResponse, Problem> {
    let token = super::owners::presented(&req);
    let key = super::keys::due(&req, &state, id);
    let mut page = blocking(move || {
        let g = state.load_any(&id)?;
        let mut page = g.end_page(&state)?;
        annotation_view::mark(&mut page.turn_links, g.annotations());
        page.owner = super::owners::is_owner(token.as_ref(), g.row().owner);
        page.share.open = page.owner;
        Ok(page)
    })
    .await?;
    let mut answer = HttpResponse::Ok();
    answer.content_type("text/html; charset=utf-8");
    if page.owner {
        answer.insert_header((header::CACHE_CONTROL, "private, no-store"));
    }
    // The key link, once: shown to its owner, its cookie gone with this answer.
    if let Some((link, gone)) = key.filter(|_| page.owner) {
        page.owner_key = Some(link);
        answer.cookie(gone);
    }
    let html = page.render().map_err(Problem::internal)?;
    Ok(answer.body(html))
}

#[derive(serde::Deserialize)]
pub struct TurnQuery {
    /// The Card Game: `all` shows every hand, `mover` (the default) the mover's only.
    hands: Option<String>,
}

impl TurnQuery {
    fn hands(&self) -> Result<Hands, Problem> {
        self.hands.as_deref().map_or(Ok(Hands::Mover), |word| {
            Hands::parse(word)
                .map_err(|e| Problem::new(actix_web::http::StatusCode::BAD_REQUEST, "Bad query", e.to_string()))
        })
    }
}

/// Turn n: the game as it stood after that turn, and nothing later (turn 0: the start).
/// Built once per [`TurnKey`] and served from the page cache after.
///
/// A request with the game's owner token (its uploader's cookie, or a bearer token) gets the
/// page with the forms that write comments: kept under its own key, picked only once the token
/// is checked, and sent as private. Every other request gets the page everyone gets.
#[route("/g/{id}/t/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn turn(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: Query<TurnQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let hands = q.hands()?;
    let key = move |analysis, owner| TurnKey {
        id,
        turn: n,
        hands,
        analysis,
        owner,
    };
    let token = super::owners::presented(&req);
    // A page kept, of the analysis state read last, is sent from here: it waits for no
    // database query, and for none of the pages being built on the blocking pool. When that
    // state is due to be read again, it is read in the background, for the next request
    // (another process may have changed it: a worker, another node).
    if token.is_none()
        && let Some((seen, due)) = state.analysis_seen.last(&id)
        && let Some(page) = state.pages.get(&key(seen, false))
    {
        if due {
            // Taken as true a while longer meanwhile, so that only this request reads it.
            state.analysis_seen.put(id, seen);
            let state = state.clone();
            actix_web::rt::spawn(blocking(move || Analysis::of(&state, &id)));
        }
        return Ok(page.answer(&req));
    }
    let (page, owner) = blocking(move || {
        let owner = token.is_some() && super::owners::is_owner(token.as_ref(), state.load_any(&id)?.row().owner);
        let analysis = (state.analysis_seen.get(&id)).map_or_else(|| Analysis::of(&state, &id), Ok)?;
        let page = state.pages.get_or_build(key(analysis, owner), || {
            let mut page = turn_page(&state, &id, n, Detail::Full, hands)?;
            page.owner = owner;
            page.render().map_err(Problem::internal)
        })?;
        Ok((page, owner))
    })
    .await?;
    Ok(match owner {
        true => page.answer_private(&req),
        false => page.answer(&req),
    })
}

/// Turn `n`'s page, with its comments; a Card Game's shows the hands `hands` says.
pub(super) fn turn_page(
    state: &AppState,
    id: &GameId,
    n: u32,
    detail: Detail,
    hands: Hands,
) -> Result<TurnPage, Problem> {
    let g = state.load_any(id)?;
    let mut page = g.turn_page(state, n, detail, hands)?;
    page.comments = annotation_view::on_turn(*id, g.annotations(), n);
    annotation_view::mark(&mut page.turn_links, g.annotations());
    Ok(page)
}

/// The HTML of a turn page, as the server sends it. The bench times this.
pub fn render_turn_page(state: &AppState, id: &GameId, n: u32) -> Result<String, Problem> {
    turn_page(state, id, n, Detail::Full, Hands::Mover)?
        .render()
        .map_err(Problem::internal)
}

/// A round of a game played in rounds (the Card Game): its last turn, where it is scored.
#[route("/g/{id}/r/{k:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn round(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u8)>,
    q: Query<TurnQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, k) = path.into_inner();
    let query = links::hands_query(q.hands()?);
    let scored_at = blocking(move || state.load_rounds(&id)?.round_turn(k)).await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, links::turn(id, scored_at) + query))
        .finish())
}

//! HTML pages: the upload form with recent games, and the replay of a game turn by turn.

use crate::analysis;
use crate::analysis::cards::CardGameReport;
use crate::analysis::win_chance::TurnChance;
use crate::engine::{GameKind, Position, cards, category};
use crate::record::cards::CardRecord;
use crate::record::{AnyRecord, MAX_RECORD_BYTES, PlayerInfo, rules_spec};
use crate::render;
use crate::render::PlayerColours;
use crate::render::cards::Hands;
use crate::replay::{self, Replay, Turn};
use crate::store::{AnalysisStatus, GameId, GameRow, ingest};
use crate::web::chance_view::{self, ChancesView};
use crate::web::problem::{Problem, wants_html};
use crate::web::share_view::{ShareInput, ShareView};
use crate::web::view::{
    self, BoardView, BreakdownRow, CardTurnView, GamePart, GraphView, PlayerView, TileTurnView, TurnLink,
};
use crate::web::{AppState, Loaded, LoadedCards, LoadedGame, blocking};
use crate::web::{board_view, card_view, what_if};
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use futures_util::StreamExt;

pub struct GameListItem {
    pub id: GameId,
    pub players: String,
    pub scores: String,
    pub rules: String,
    pub source: String,
    pub turns: u32,
    pub created_at: String,
}

/// Games a page of the home page lists.
const PER_PAGE: u32 = 30;

#[derive(Template, WebTemplate)]
#[template(path = "index.html")]
struct IndexPage {
    games: Vec<GameListItem>,
    /// This page of the list, from 1, and how many there are.
    page: u64,
    pages: u64,
    form: UploadForm,
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
}

/// The upload form, and the listed games newest first, a page at a time (`?page=2`).
#[route("/", method = "GET", method = "HEAD")]
pub async fn index(state: web::Data<AppState>, q: web::Query<IndexQuery>) -> Result<IndexPage, Problem> {
    let page = q.page.unwrap_or(1);
    blocking(move || index_page(&state, page, UploadForm::default())).await
}

fn index_page(state: &AppState, page: u64, form: UploadForm) -> Result<IndexPage, Problem> {
    let pages = state.store.count_listed()?.div_ceil(u64::from(PER_PAGE)).max(1);
    if page == 0 || page > pages {
        return Err(Problem::not_found(format!(
            "the list of games has pages 1 to {pages}, not {page}"
        )));
    }
    let rows = state.store.listed((page - 1) * u64::from(PER_PAGE), PER_PAGE)?;
    Ok(IndexPage {
        games: rows.into_iter().map(list_item).collect(),
        page,
        pages,
        form,
    })
}

fn list_item(g: GameRow) -> GameListItem {
    GameListItem {
        players: g.players.join(" vs "),
        scores: g
            .final_scores
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("–"),
        rules: match crate::record::parse_any(g.record.as_bytes()) {
            Ok(AnyRecord::Tiles(r, _)) => rules_spec::label(&r.resolved_rules()),
            Ok(AnyRecord::Cards(r)) => format!("Card Game, {}", cards_rules(&r)),
            Err(_) => g.preset,
        },
        source: g.source_format,
        id: g.id,
        turns: g.turns,
        created_at: g.created_at.replace('T', " ").trim_end_matches('Z').to_string(),
    }
}

/// The upload form: a file or pasted text, listed or not. Answers 303 to the game page, and
/// a new game's owner token in a cookie for its pages (`owners::owner_cookie`). A refused
/// upload gives a browser the form again, with the text it pasted and why it was refused.
#[post("/games")]
pub async fn upload(req: HttpRequest, state: web::Data<AppState>, form: Multipart) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    super::declared_length_within(&req, MAX_FORM_BYTES)?;
    let fields = read_form(form).await?;
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
            answer.insert_header((header::LOCATION, format!("/g/{id}")));
            if let Some(token) = &up.token {
                answer.cookie(super::owners::owner_cookie(&state, &id, token));
            }
            Ok(answer.finish())
        }
        Err(p) if wants_html(&req) && p.status.is_client_error() => {
            let form = UploadForm {
                text: fields.text,
                unlisted: fields.unlisted,
                error: Some(UploadError::of(&p)),
            };
            let page = blocking(move || index_page(&state, 1, form)).await?;
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
        let mut field = field.map_err(|e| {
            Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Unreadable form",
                e.to_string(),
            )
        })?;
        let name = field.name().unwrap_or_default().to_string();
        let bytes = super::read_limited(&mut field, MAX_RECORD_BYTES, "Unreadable form").await?;
        match name.as_str() {
            "text" => fields.text = String::from_utf8_lossy(&bytes).into_owned(),
            "unlisted" => fields.unlisted = !bytes.is_empty(),
            _ => fields.file = bytes,
        }
    }
    Ok(fields)
}

/// What every page of a game shows at the top.
pub struct GameHead {
    pub id: GameId,
    pub title: String,
    /// The rules in words, expansions included.
    pub rules: String,
    /// The format the record was uploaded in.
    pub source: String,
    /// Turns (placed tiles) in the game.
    pub last: u32,
    /// The game's name ("Carcassonne: The New World").
    pub kind: &'static str,
    /// Whether JCloisterZone plays this game, so a `.jcz` download is offered.
    pub jcz: bool,
    /// Whether the game has a board, so its turns animate as a GIF.
    pub board: bool,
    /// The scoreboard's column of what players hold back, and its tooltip.
    pub held_label: &'static str,
    pub held_title: &'static str,
    /// The breakdown's two counts per player.
    pub count_labels: [&'static str; 2],
    /// The game as a Carcassonne Lab link, when it fits the format.
    pub lab: Option<String>,
    /// What New World's pages say of the tiles (`view::tiles_notice`).
    pub tiles_notice: Option<&'static str>,
    /// What a reader may point at on the board: "a city, road, field or cloister".
    pub features: &'static str,
    /// Whether the game is on the home page's list; an unlisted one asks search engines not
    /// to index it either.
    pub listed: bool,
    /// Where the whole-game analysis stands, for the links to it.
    pub analysis: Analysis,
}

/// Where a game's whole-game analysis stands, as its pages link it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Analysis {
    NotAsked,
    /// Queued or running.
    Waiting,
    Done,
    Failed,
}

impl Analysis {
    /// The analysis state in the store, noted for [`AppState::analysis_seen`].
    fn of(state: &AppState, id: &GameId) -> Result<Analysis, Problem> {
        let analysis = match state.store.analysis_status(id)? {
            None => Analysis::NotAsked,
            Some(AnalysisStatus::Queued | AnalysisStatus::Running { .. }) => Analysis::Waiting,
            Some(AnalysisStatus::Done) => Analysis::Done,
            Some(AnalysisStatus::Failed(_)) => Analysis::Failed,
        };
        state.analysis_seen.put(*id, analysis);
        Ok(analysis)
    }

    pub fn done(&self) -> bool {
        *self == Analysis::Done
    }
}

impl GameHead {
    fn new(row: &GameRow, kind: GameKind, rules: String) -> GameHead {
        let (held_label, held_title, count_labels) = match kind {
            GameKind::CardGame => (
                "Hand",
                "Cards in hand, and the follower while it is still to place this round",
                ["Cards played", "Cards taken"],
            ),
            GameKind::Carcassonne => ("Meeples", "Followers in supply", ["Tiles", "Meeples used"]),
            GameKind::NewWorld => ("Settlers", "Settlers in supply", ["Tiles", "Settlers used"]),
        };
        GameHead {
            id: row.id,
            title: row.players.join(" vs "),
            rules,
            source: row.source_format.clone(),
            last: row.turns,
            kind: kind.title(),
            jcz: kind == GameKind::Carcassonne,
            board: kind != GameKind::CardGame,
            held_label,
            held_title,
            count_labels,
            lab: None,
            tiles_notice: None,
            features: replay::words::features_to_point_at(kind),
            listed: row.listed,
            analysis: Analysis::NotAsked,
        }
    }

    pub(crate) fn of(state: &AppState, g: &LoadedGame) -> Result<GameHead, Problem> {
        Ok(GameHead {
            lab: crate::record::lab::to_link(&g.record).ok(),
            jcz: crate::export::jcz::unsupported(&g.record).is_none(),
            tiles_notice: view::tiles_notice(&g.record),
            analysis: Analysis::of(state, &g.row.id)?,
            ..GameHead::new(&g.row, g.record.game, rules_spec::label(&g.record.resolved_rules()))
        })
    }

    fn of_cards(state: &AppState, g: &LoadedCards) -> Result<GameHead, Problem> {
        Ok(GameHead {
            analysis: Analysis::of(state, &g.row.id)?,
            ..GameHead::new(&g.row, GameKind::CardGame, cards_rules(&g.record))
        })
    }

    /// The share menu of a page of this game showing `turn` (`None`: the end), whose picture
    /// is `png` and whose preview is titled `title`.
    fn share(&self, state: &AppState, at: Option<u32>, png: &str, title: &str) -> ShareView {
        ShareView::new(&ShareInput {
            base: &state.public_url,
            id: self.id,
            turn: at,
            last: self.last,
            png,
            board: self.board,
            jcz: self.jcz,
            lab: self.lab.as_deref(),
            title,
        })
    }
}

/// The Card Game's rules in words: "3 players, 8 rounds of 5 cards".
fn cards_rules(record: &CardRecord) -> String {
    let players = record.players.len() as u8;
    let (hand, rounds) = cards::rules::hands(players).unwrap_or_default();
    format!("{players} players, {rounds} rounds of {hand} cards")
}

/// A link preview (Open Graph and Twitter card) and the canonical address.
pub struct Preview {
    pub title: String,
    pub description: String,
    pub url: String,
    pub image: String,
    /// The oEmbed answer for `url`, for discovery.
    pub oembed: String,
}

impl Preview {
    fn new(base: &str, title: String, description: String, path: String, image: String) -> Preview {
        let url = format!("{base}{path}");
        let encoded = percent_encoding::utf8_percent_encode(&url, percent_encoding::NON_ALPHANUMERIC);
        Preview {
            title,
            description,
            oembed: format!("{base}/oembed?url={encoded}"),
            url,
            image,
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "turn.html")]
pub(super) struct TurnPage {
    pub(super) game: GameHead,
    pub(super) preview: Preview,
    pub(super) turn: u32,
    pub(super) prev: Option<u32>,
    /// What the links to other turns carry: the Card Game's `?hands=all` while every hand is
    /// shown, so the choice holds from turn to turn without a script.
    nav_query: &'static str,
    /// The next turn's page, or after the last turn the end page.
    next_url: String,
    share: ShareView,
    /// The last turn's "if it ended now" is the result: it waits behind "show the result".
    hide_if_ended: bool,
    pub(super) board: BoardView,
    pub(super) players: Vec<PlayerView>,
    events: Vec<String>,
    part: GamePart,
    graph: GraphView,
    /// Chances of winning, when the game's analysis is done (the tile games).
    chances: Option<ChancesView>,
    turn_links: Vec<TurnLink>,
}

#[derive(Template, WebTemplate)]
#[template(path = "end.html")]
struct EndPage {
    game: GameHead,
    preview: Preview,
    share: ShareView,
    /// Whether the browser asking uploaded the game (it holds the owner token's cookie): the
    /// page then offers to unlist it or delete it, and opens the share menu.
    owner: bool,
    /// The turn list's links carry nothing here.
    nav_query: &'static str,
    hide_if_ended: bool,
    players: Vec<PlayerView>,
    finished: bool,
    board: BoardView,
    /// Final scoring.
    events: Vec<String>,
    /// The breakdown's columns: the words of the game's categories.
    categories: Vec<&'static str>,
    breakdown: Vec<BreakdownRow>,
    graph: GraphView,
    chances: Option<ChancesView>,
    turn_links: Vec<TurnLink>,
}

/// The game link: its result, after final scoring.
#[route("/g/{id:[0-9a-f]{16}}", method = "GET", method = "HEAD")]
pub async fn game(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    end_page(req, state, id.into_inner()).await
}

/// The end of the game: final scoring as its own step after the last turn.
#[route("/g/{id:[0-9a-f]{16}}/end", method = "GET", method = "HEAD")]
pub async fn end(req: HttpRequest, state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    end_page(req, state, id.into_inner()).await
}

/// The end page; its uploader's browser also gets the owner's forms, in an answer no cache
/// may share.
async fn end_page(req: HttpRequest, state: web::Data<AppState>, id: GameId) -> Result<HttpResponse, Problem> {
    let token = super::owners::presented(&req);
    let page = blocking(move || {
        let g = state.load_any(&id)?;
        let owner = super::owners::is_owner(token.as_ref(), g.row().owner);
        let mut page = match g {
            Loaded::Tiles(g) => build_end_page(&state, g)?,
            Loaded::Cards(g) => build_card_end_page(&state, g)?,
        };
        page.owner = owner;
        page.share.open = page.owner;
        Ok(page)
    })
    .await?;
    let html = page.render().map_err(Problem::internal)?;
    let mut answer = HttpResponse::Ok();
    answer.content_type("text/html; charset=utf-8");
    if page.owner {
        answer.insert_header((header::CACHE_CONTROL, "private, no-store"));
    }
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
            Hands::parse(word).map_err(|e| Problem::new(actix_web::http::StatusCode::BAD_REQUEST, "Bad query", e))
        })
    }
}

/// Turn n: the game as it stood after that turn, and nothing later (turn 0: the start).
/// Built once per [`TurnKey`] and served from the page cache after.
#[route("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn turn(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: web::Query<TurnQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let hands = q.hands()?;
    let key = move |analysis| TurnKey {
        id,
        turn: n,
        hands,
        analysis,
    };
    // A page kept, of an analysis state read lately, is sent from here: it waits for no
    // database query, and for none of the pages being built on the blocking pool.
    if let Some(page) = (state.analysis_seen.get(&id)).and_then(|seen| state.pages.get(&key(seen))) {
        return Ok(page.answer(&req));
    }
    let page = blocking(move || {
        let analysis = Analysis::of(&state, &id)?;
        state.pages.get_or_build(key(analysis), || {
            (turn_page(&state, &id, n, Detail::Full, hands)?.render()).map_err(Problem::internal)
        })
    })
    .await?;
    Ok(page.answer(&req))
}

/// What a turn page shows besides its game and turn: everything it may differ by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnKey {
    pub id: GameId,
    turn: u32,
    hands: Hands,
    /// The chances, the ghosts' values and the links to the analysis change with it.
    analysis: Analysis,
}

/// How much of a turn page to build: the embed shows the board's picture, the scores and the
/// navigation only, so it skips the inline board, its alternatives and the chances.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Detail {
    Full,
    Framed,
}

/// Turn `n`'s page; a Card Game's shows the hands `hands` says.
pub(super) fn turn_page(
    state: &AppState,
    id: &GameId,
    n: u32,
    detail: Detail,
    hands: Hands,
) -> Result<TurnPage, Problem> {
    match state.load_any(id)? {
        Loaded::Tiles(g) => build_turn_page(state, g, n, detail),
        Loaded::Cards(g) => build_card_turn_page(state, g, n, hands),
    }
}

/// The HTML of a turn page, as the server sends it. The bench times this.
pub fn render_turn_page(state: &AppState, id: &GameId, n: u32) -> Result<String, Problem> {
    turn_page(state, id, n, Detail::Full, Hands::Mover)?
        .render()
        .map_err(Problem::internal)
}

/// A round of a game played in rounds (the Card Game): its last turn, where it is scored.
#[route("/g/{id:[0-9a-f]{16}}/r/{k:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn round(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u8)>,
    q: web::Query<TurnQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, k) = path.into_inner();
    let query = hands_query(q.hands()?);
    let scored_at = blocking(move || {
        let Loaded::Cards(g) = state.load_any(&id)? else {
            return Err(Problem::not_found(format!("game {id} is not played in rounds")));
        };
        let full = replay::cards::replay(&g.record).map_err(Problem::internal)?;
        let rounds = replay::cards::rounds(&full.turns);
        let last = rounds.iter().rposition(|&r| r == k);
        last.map(|i| i as u32 + 1).ok_or_else(|| {
            let played = rounds.last().copied().unwrap_or(0);
            Problem::not_found(format!("game {id} has rounds 1 to {played}, not {k}"))
        })
    })
    .await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/g/{id}/t/{scored_at}{query}")))
        .finish())
}

/// What a turn link carries for `hands`: nothing for the default.
fn hands_query(hands: Hands) -> &'static str {
    match hands {
        Hands::Mover => "",
        Hands::All => "?hands=all",
    }
}

fn scores_text(players: &[PlayerInfo], scores: &[i32]) -> String {
    let parts: Vec<String> = (players.iter().zip(scores))
        .map(|(p, s)| format!("{} {s}", p.name))
        .collect();
    parts.join(", ")
}

/// The link preview of turn `n`: that turn's picture and scores, never the ending.
fn turn_preview(state: &AppState, head: &GameHead, n: u32, players: &[PlayerInfo], scores: &[i32]) -> Preview {
    let (base, id, last) = (&state.public_url, &head.id, head.last);
    Preview::new(
        base,
        format!("{} · turn {n} of {last}", head.title),
        format!(
            "{}, {}. After turn {n} of {last}: {}.",
            head.kind,
            head.rules,
            scores_text(players, scores)
        ),
        format!("/g/{id}/t/{n}"),
        format!("{base}/g/{id}/t/{n}/og.png"),
    )
}

/// The link preview of the game's result.
fn end_preview(state: &AppState, head: &GameHead, finished: bool, players: &[PlayerInfo], scores: &[i32]) -> Preview {
    let (base, id) = (&state.public_url, &head.id);
    let outcome = outcome(finished);
    Preview::new(
        base,
        format!("{} · {outcome}", head.title),
        format!(
            "{}, {}, {outcome}: {}. Step through every turn and see where every point came from.",
            head.kind,
            head.rules,
            scores_text(players, scores)
        ),
        format!("/g/{id}"),
        format!("{base}/g/{id}/og.png"),
    )
}

fn outcome(finished: bool) -> &'static str {
    if finished {
        "final score"
    } else {
        "the record stops before the end"
    }
}

/// The score graph of a turn page: the turns up to it.
fn turn_graph<P: Position>(
    head: &GameHead,
    players: &[PlayerInfo],
    at: &[Turn<P>],
    colours: &PlayerColours,
) -> GraphView {
    let input = view::GraphInput {
        id: &head.id,
        turns: at,
        total_turns: head.last,
        final_scores: None,
        current: at.len() as u32,
    };
    GraphView {
        title: "Scores so far",
        svg: view::score_graph(players, &input, colours),
    }
}

/// The score graph of the end page: every turn, and final scoring as a last step.
fn end_graph<P: Position>(
    head: &GameHead,
    players: &[PlayerInfo],
    full: &Replay<P>,
    colours: &PlayerColours,
) -> GraphView {
    let input = view::GraphInput {
        id: &head.id,
        turns: &full.turns,
        total_turns: head.last,
        final_scores: full.finished.then_some(full.final_scores.as_slice()),
        current: head.last + u32::from(full.finished),
    };
    GraphView {
        title: "Scores over the game",
        svg: view::score_graph(players, &input, colours),
    }
}

/// The turn after `n`'s page (its link carrying `query`), or after the last turn the end page.
fn next_url(head: &GameHead, n: u32, query: &str) -> String {
    if n < head.last {
        format!("/g/{}/t/{}{query}", head.id, n + 1)
    } else {
        format!("/g/{}/end", head.id)
    }
}

fn no_such_turn(head: &GameHead, n: u32) -> Problem {
    Problem::not_found(format!("game {} has turns 0 to {}, not {n}", head.id, head.last))
}

/// The end page's picture: the board (tile games) or the table (the Card Game).
fn end_board(finished: bool, src: String, what: &str) -> BoardView {
    BoardView {
        svg: None,
        src,
        alt: format!("The {what} at the end of the game"),
        caption: if finished {
            format!("The {what} after final scoring")
        } else {
            format!("The {what} after the last turn recorded")
        },
    }
}

fn build_turn_page(state: &AppState, g: LoadedGame, n: u32, detail: Detail) -> Result<TurnPage, Problem> {
    let head = GameHead::of(state, &g)?;
    let record = &g.record;
    if n > head.last {
        return Err(no_such_turn(&head, n));
    }
    let at = replay::replay_upto(record, None, Some(n)).map_err(Problem::internal)?;
    let colours = render::colours(record);
    let snapshot = n.checked_sub(1).and_then(|i| at.turns.get(i as usize));
    let (move_text, events) = match snapshot {
        Some(t) => (
            format!(
                "{} placed {} at {} rotated {}°",
                record.players[t.player as usize].name,
                record.catalog.name(t.mv.tile),
                t.mv.placement.pos,
                t.mv.placement.rotation
            ),
            view::event_sentences(record, &t.events),
        ),
        None => (
            "The start, before the first turn".to_string(),
            view::start_sentences(record, &at.game),
        ),
    };
    let id = &head.id;
    let (board, chances) = match detail {
        Detail::Full => (
            Some(inline_board(state, &g, &at, n)?),
            game_chances(state, id, Some(n))?,
        ),
        Detail::Framed => (None, Vec::new()),
    };
    let mut played = view::tile_turns_played(record, &at.turns, &colours);
    chance_view::mark_classes(&mut played, &chances);
    let preview = turn_preview(state, &head, n, &record.players, &at.game.scores());
    let src = format!("/g/{id}/t/{n}.png?overlay=ownership,last-move,scoring");
    Ok(TurnPage {
        share: head.share(state, Some(n), &src, &preview.title),
        preview,
        turn: n,
        prev: n.checked_sub(1),
        nav_query: "",
        next_url: next_url(&head, n, ""),
        hide_if_ended: n == head.last,
        board: BoardView {
            svg: board,
            src,
            alt: format!("The board after turn {n}: {move_text}"),
            caption: move_text,
        },
        players: view::players_at(record, &at.game, false, &colours),
        events,
        part: GamePart::Tiles(tile_turn_view(record, &at.game)),
        graph: turn_graph(&head, &record.players, &at.turns, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, false),
        turn_links: view::turn_links(played, head.last, Some(n)),
        game: head,
    })
}

/// The chances of a tile game's finished analysis up to turn `upto` (all with `None`); none
/// before it is done.
fn game_chances(state: &AppState, id: &GameId, upto: Option<u32>) -> Result<Vec<TurnChance>, Problem> {
    Ok(state
        .finished_analysis(id)?
        .map(|stored| chance_view::chances(&stored, upto))
        .unwrap_or_default())
}

/// The chances of a Card Game's finished analysis; none before it is done.
fn card_chances(state: &AppState, g: &LoadedCards) -> Result<Vec<TurnChance>, Problem> {
    Ok(match what_if::stored_analysis::<CardGameReport>(state, &g.row.id)? {
        Some((AnalysisStatus::Done, Some(report))) => {
            analysis::cards::turn_chances(&report, g.record.moves.len() as u32)
        }
        _ => Vec::new(),
    })
}

/// Turn `n`'s board to point at, with the drawn tile's best alternatives as ghosts.
fn inline_board(state: &AppState, g: &LoadedGame, at: &Replay, n: u32) -> Result<String, Problem> {
    let alternatives = match n {
        0 => None,
        _ => Some(what_if::turn_alternatives(state, g, n)?),
    };
    let alternatives = alternatives.as_ref().map(|a| (&a.report, a.listed.as_slice()));
    Ok(board_view::turn_board(&g.record, at, &g.row.id, alternatives))
}

fn build_end_page(state: &AppState, g: LoadedGame) -> Result<EndPage, Problem> {
    let head = GameHead::of(state, &g)?;
    let record = &g.record;
    let full = replay::replay(record, None).map_err(Problem::internal)?;
    let colours = render::colours(record);
    let id = &head.id;
    let chances = game_chances(state, id, None)?;
    let mut played = view::tile_turns_played(record, &full.turns, &colours);
    chance_view::mark_classes(&mut played, &chances);
    let preview = end_preview(state, &head, full.finished, &record.players, &full.final_scores);
    let src = format!("/g/{id}.png?overlay=ownership,scoring");
    Ok(EndPage {
        share: head.share(state, None, &src, &preview.title),
        preview,
        owner: false,
        nav_query: "",
        hide_if_ended: false,
        players: view::players_at(record, &full.game, full.finished, &colours),
        finished: full.finished,
        board: end_board(full.finished, src, "board"),
        events: view::event_sentences(record, &full.final_events),
        categories: category::words(full.game.categories()),
        breakdown: view::breakdown_rows(record, &full, &colours),
        graph: end_graph(&head, &record.players, &full, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, true),
        turn_links: view::turn_links(played, head.last, None),
        game: head,
    })
}

fn build_card_turn_page(state: &AppState, g: LoadedCards, n: u32, hands: Hands) -> Result<TurnPage, Problem> {
    let head = GameHead::of_cards(state, &g)?;
    let record = &g.record;
    if n > head.last {
        return Err(no_such_turn(&head, n));
    }
    let full = replay::cards::replay(record).map_err(Problem::internal)?;
    // The table as move n left it: the next round is not dealt yet (`render::cards`).
    let position = replay::cards::upto(record, n as usize).map_err(Problem::internal)?.game;
    let at = &full.turns[..n as usize];
    let mover = at.last().map(|t| t.player);
    let colours = render::cards::colours(record);
    let (move_text, events) = match at.last() {
        Some(t) => (
            format!(
                "{}: {}",
                record.players[t.player as usize].name,
                card_view::move_brief(t)
            ),
            card_view::event_sentences(record, &t.events),
        ),
        None => (
            "The start, before the first card".to_string(),
            card_view::start_sentences(record),
        ),
    };
    let in_round = replay::cards::rounds(at).last().copied().unwrap_or(1);
    let id = &head.id;
    let mut chances = card_chances(state, &g)?;
    chances.retain(|c| c.turn <= n);
    let nav_query = hands_query(hands);
    let preview = turn_preview(state, &head, n, &record.players, &Position::scores(&position));
    let src = format!("/g/{id}/t/{n}.png?hands={}", hands.word());
    Ok(TurnPage {
        share: head.share(state, Some(n), &src, &preview.title),
        preview,
        turn: n,
        prev: n.checked_sub(1),
        nav_query,
        next_url: next_url(&head, n, nav_query),
        hide_if_ended: n == head.last,
        board: BoardView {
            svg: None,
            src,
            alt: format!("The table after turn {n}: {move_text}"),
            caption: move_text,
        },
        players: card_view::players_at(record, &position, false, &colours),
        events,
        part: GamePart::Cards(CardTurnView {
            round: format!("Round {in_round} of {}", position.rounds()),
            round_link: format!("/g/{id}/r/{in_round}{nav_query}"),
            unseen: position.unseen().len(),
            hands: card_view::hands_at(record, &position, mover, hands, &colours),
            hands_wait: card_view::hands_wait(&position),
            hands_switch: hands_switch(record, id, n, hands, mover),
        }),
        graph: turn_graph(&head, &record.players, at, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, false),
        turn_links: card_view::turn_links(record, (at, &full.turns), &chances, Some(n), &colours),
        game: head,
    })
}

/// The link that switches a Card Game turn page to the other way of showing hands, and its
/// words.
fn hands_switch(record: &CardRecord, id: &GameId, n: u32, hands: Hands, mover: Option<u8>) -> (String, String) {
    match hands {
        Hands::Mover => ("Show all hands".into(), format!("/g/{id}/t/{n}?hands=all")),
        Hands::All => {
            let words = match mover {
                Some(p) => format!("Show only {}'s hand", record.players[p as usize].name),
                None => "Hide the hands".into(),
            };
            (words, format!("/g/{id}/t/{n}?hands=mover"))
        }
    }
}

fn build_card_end_page(state: &AppState, g: LoadedCards) -> Result<EndPage, Problem> {
    let head = GameHead::of_cards(state, &g)?;
    let record = &g.record;
    let full = replay::cards::replay(record).map_err(Problem::internal)?;
    let colours = render::cards::colours(record);
    let id = &head.id;
    let chances = card_chances(state, &g)?;
    let preview = end_preview(state, &head, full.finished, &record.players, &full.final_scores);
    let src = format!("/g/{id}.png");
    Ok(EndPage {
        share: head.share(state, None, &src, &preview.title),
        preview,
        owner: false,
        nav_query: "",
        hide_if_ended: false,
        players: card_view::players_at(record, &full.game, full.finished, &colours),
        finished: full.finished,
        board: end_board(full.finished, src, "table"),
        events: card_view::event_sentences(record, &full.final_events),
        categories: category::words(full.game.categories()),
        breakdown: card_view::breakdown_rows(record, &full, &colours),
        graph: end_graph(&head, &record.players, &full, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, true),
        turn_links: card_view::turn_links(record, (&full.turns, &full.turns), &chances, None, &colours),
        game: head,
    })
}

/// The pack and the open spots after a turn, the hardest spot to fill first; the fit counts
/// are found once for both the spots and the dead ones.
fn tile_turn_view(record: &crate::record::GameRecord, position: &crate::engine::Game) -> TileTurnView {
    let mut spots = analysis::position_spots(position);
    spots.sort_by_key(|s| (s.fits, s.pos));
    TileTurnView {
        remaining: view::remaining_tiles(&record.catalog, position),
        tiles_left: position.pack_left(),
        dead_spots: spots
            .iter()
            .filter(|s| s.fits == 0)
            .map(|s| s.pos.to_string())
            .collect(),
        spots: spots.into_iter().map(|s| (s.pos.to_string(), s.fits)).collect(),
    }
}

//! HTML pages: the upload form with recent games, and the replay of a game turn by turn.

use crate::analysis;
use crate::analysis::cards::CardGameReport;
use crate::analysis::win_chance::TurnChance;
use crate::engine::{GameKind, Position, cards};
use crate::record::cards::CardRecord;
use crate::record::{AnyRecord, MAX_RECORD_BYTES, PlayerInfo, rules_spec};
use crate::render;
use crate::render::PlayerColours;
use crate::replay::{self, Replay, Turn};
use crate::store::{AnalysisStatus, GameId, GameRow, ingest};
use crate::web::chance_view::{self, ChancesView};
use crate::web::problem::Problem;
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

#[derive(Template, WebTemplate)]
#[template(path = "index.html")]
struct IndexPage {
    games: Vec<GameListItem>,
}

#[route("/", method = "GET", method = "HEAD")]
pub async fn index(state: web::Data<AppState>) -> Result<IndexPage, Problem> {
    blocking(move || {
        Ok(IndexPage {
            games: recent_games(&state)?,
        })
    })
    .await
}

fn recent_games(state: &AppState) -> Result<Vec<GameListItem>, Problem> {
    let rows = state.store.recent(30)?;
    Ok(rows
        .into_iter()
        .map(|g| GameListItem {
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
        })
        .collect())
}

/// The upload form: a file or pasted text. Answers 303 to the game page.
#[post("/games")]
pub async fn upload(req: HttpRequest, state: web::Data<AppState>, form: Multipart) -> Result<HttpResponse, Problem> {
    state.limits.upload(req.peer_addr().map(|a| a.ip()))?;
    let bytes = read_form(form).await?;
    let id = blocking(move || Ok(ingest::ingest(&state.store, &bytes)?.0.id)).await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/g/{id}")))
        .finish())
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
        let bytes = super::read_limited(&mut field, MAX_RECORD_BYTES, "Unreadable form").await?;
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
    /// The scoreboard's column of what players hold back, and its tooltip.
    pub held_label: &'static str,
    pub held_title: &'static str,
    /// The breakdown's two counts per player.
    pub count_labels: [&'static str; 2],
    /// The game as a Carcassonne Lab link, when it fits the format.
    pub lab: Option<String>,
}

impl GameHead {
    fn new(row: &GameRow, kind: GameKind, rules: String) -> GameHead {
        let (held_label, held_title, count_labels) = match kind {
            GameKind::CardGame => (
                "Hand",
                "Cards in hand, and the follower while it is still to place this round",
                ["Cards played", "Cards taken"],
            ),
            GameKind::Carcassonne | GameKind::NewWorld => ("Meeples", "Followers in supply", ["Tiles", "Meeples used"]),
        };
        GameHead {
            id: row.id,
            title: row.players.join(" vs "),
            rules,
            source: row.source_format.clone(),
            last: row.turns,
            kind: kind.title(),
            jcz: kind == GameKind::Carcassonne,
            held_label,
            held_title,
            count_labels,
            lab: None,
        }
    }

    pub(crate) fn of(g: &LoadedGame) -> GameHead {
        GameHead {
            lab: crate::record::lab::to_link(&g.record).ok(),
            ..GameHead::new(&g.row, g.record.game, rules_spec::label(&g.record.resolved_rules()))
        }
    }

    fn of_cards(g: &LoadedCards) -> GameHead {
        GameHead::new(&g.row, GameKind::CardGame, cards_rules(&g.record))
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
    /// The next turn's page, or after the last turn the end page.
    next_url: String,
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
    players: Vec<PlayerView>,
    finished: bool,
    board: BoardView,
    /// Final scoring.
    events: Vec<String>,
    /// The breakdown's columns: the game's categories.
    categories: &'static [&'static str],
    breakdown: Vec<BreakdownRow>,
    graph: GraphView,
    chances: Option<ChancesView>,
    turn_links: Vec<TurnLink>,
}

/// The game link: its result, after final scoring.
#[route("/g/{id:[0-9a-f]{16}}", method = "GET", method = "HEAD")]
pub async fn game(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<EndPage, Problem> {
    end_page(state, id.into_inner()).await
}

/// The end of the game: final scoring as its own step after the last turn.
#[route("/g/{id:[0-9a-f]{16}}/end", method = "GET", method = "HEAD")]
pub async fn end(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<EndPage, Problem> {
    end_page(state, id.into_inner()).await
}

async fn end_page(state: web::Data<AppState>, id: GameId) -> Result<EndPage, Problem> {
    blocking(move || match state.load_any(&id)? {
        Loaded::Tiles(g) => build_end_page(&state, g),
        Loaded::Cards(g) => build_card_end_page(&state, g),
    })
    .await
}

/// Turn n: the game as it stood after that turn, and nothing later (turn 0: the start).
#[route("/g/{id:[0-9a-f]{16}}/t/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn turn(state: web::Data<AppState>, path: web::Path<(GameId, u32)>) -> Result<TurnPage, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || turn_page(&state, &id, n, Detail::Full)).await
}

/// How much of a turn page to build: the embed shows the board's picture, the scores and the
/// navigation only, so it skips the inline board, its alternatives and the chances.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Detail {
    Full,
    Framed,
}

pub(super) fn turn_page(state: &AppState, id: &GameId, n: u32, detail: Detail) -> Result<TurnPage, Problem> {
    match state.load_any(id)? {
        Loaded::Tiles(g) => build_turn_page(state, g, n, detail),
        Loaded::Cards(g) => build_card_turn_page(state, g, n),
    }
}

/// The HTML of a turn page, as the server sends it. The bench times this.
pub fn render_turn_page(state: &AppState, id: &GameId, n: u32) -> Result<String, Problem> {
    turn_page(state, id, n, Detail::Full)?
        .render()
        .map_err(Problem::internal)
}

/// A round of a game played in rounds (the Card Game): its last turn, where it is scored.
#[route("/g/{id:[0-9a-f]{16}}/r/{k:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn round(state: web::Data<AppState>, path: web::Path<(GameId, u8)>) -> Result<HttpResponse, Problem> {
    let (id, k) = path.into_inner();
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
        .insert_header((header::LOCATION, format!("/g/{id}/t/{scored_at}")))
        .finish())
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

/// The turn after `n`'s page, or after the last turn the end page.
fn next_url(head: &GameHead, n: u32) -> String {
    if n < head.last {
        format!("/g/{}/t/{}", head.id, n + 1)
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
    let head = GameHead::of(&g);
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
    Ok(TurnPage {
        preview: turn_preview(state, &head, n, &record.players, &at.game.scores()),
        turn: n,
        prev: n.checked_sub(1),
        next_url: next_url(&head, n),
        board: BoardView {
            svg: board,
            src: format!("/g/{id}/t/{n}.png?overlay=ownership,last-move,scoring"),
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
    let head = GameHead::of(&g);
    let record = &g.record;
    let full = replay::replay(record, None).map_err(Problem::internal)?;
    let colours = render::colours(record);
    let id = &head.id;
    let chances = game_chances(state, id, None)?;
    let mut played = view::tile_turns_played(record, &full.turns, &colours);
    chance_view::mark_classes(&mut played, &chances);
    Ok(EndPage {
        preview: end_preview(state, &head, full.finished, &record.players, &full.final_scores),
        players: view::players_at(record, &full.game, full.finished, &colours),
        finished: full.finished,
        board: end_board(full.finished, format!("/g/{id}.png?overlay=ownership,scoring"), "board"),
        events: view::event_sentences(record, &full.final_events),
        categories: full.game.categories(),
        breakdown: view::breakdown_rows(record, &full, &colours),
        graph: end_graph(&head, &record.players, &full, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, true),
        turn_links: view::turn_links(played, head.last, None),
        game: head,
    })
}

fn build_card_turn_page(state: &AppState, g: LoadedCards, n: u32) -> Result<TurnPage, Problem> {
    let head = GameHead::of_cards(&g);
    let record = &g.record;
    if n > head.last {
        return Err(no_such_turn(&head, n));
    }
    let full = replay::cards::replay(record).map_err(Problem::internal)?;
    let position = replay::cards::position_at(record, n as usize).map_err(Problem::internal)?;
    let at = &full.turns[..n as usize];
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
    Ok(TurnPage {
        preview: turn_preview(state, &head, n, &record.players, &Position::scores(&position)),
        turn: n,
        prev: n.checked_sub(1),
        next_url: next_url(&head, n),
        board: BoardView {
            svg: None,
            src: format!("/g/{id}/t/{n}.png"),
            alt: format!("The table after turn {n}: {move_text}"),
            caption: move_text,
        },
        players: card_view::players_at(record, &position, false, &colours),
        events,
        part: GamePart::Cards(CardTurnView {
            round: format!("Round {in_round} of {}", position.rounds()),
            round_link: format!("/g/{id}/r/{in_round}"),
            unseen: position.unseen().len(),
        }),
        graph: turn_graph(&head, &record.players, at, &colours),
        chances: ChancesView::new(id, &record.players, &chances, head.last, &colours, false),
        turn_links: card_view::turn_links(record, (at, &full.turns), &chances, Some(n), &colours),
        game: head,
    })
}

fn build_card_end_page(state: &AppState, g: LoadedCards) -> Result<EndPage, Problem> {
    let head = GameHead::of_cards(&g);
    let record = &g.record;
    let full = replay::cards::replay(record).map_err(Problem::internal)?;
    let colours = render::cards::colours(record);
    let id = &head.id;
    let chances = card_chances(state, &g)?;
    Ok(EndPage {
        preview: end_preview(state, &head, full.finished, &record.players, &full.final_scores),
        players: card_view::players_at(record, &full.game, full.finished, &colours),
        finished: full.finished,
        board: end_board(full.finished, format!("/g/{id}.png"), "table"),
        events: card_view::event_sentences(record, &full.final_events),
        categories: full.game.categories(),
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

//! The explore board: a line played on from a turn of a stored game, from its kept position
//! (`replay::explore_tiles_from`, `replay::explore_cards_from`), the
//! position it reaches, the moves the reader may make there, and the engine's opinion of it
//! (`analysis::tile_opinion`, `analysis::card_opinion`), as a page and as JSON (`/api/explore`). One implementation per game
//! (`tiles`, `cards`) fills a game-neutral [`Explored`]; the page and the answer are built from
//! it here.
//!
//! A page is a step: the line is parsed, played and drawn, without the engine. The engine's
//! answer is kept by position; a page shows it when it is kept, and otherwise offers a link
//! that asks for it (`think=1`), which the page's script follows in the background.

pub(crate) mod cards;
pub(crate) mod engine;
mod tiles;

use crate::record::{Annotation, PlayerInfo};
use crate::replay::ExploreError;
use crate::store::{GameId, GameRow};
use crate::web::AppState;
use crate::web::game::GameHead;
use crate::web::links;
use crate::web::problem::Problem;
use crate::web::view::PlayerView;
use actix_web::http::StatusCode;
use askama::Template;
use askama_web::WebTemplate;
use serde::Serialize;
use std::net::IpAddr;
use std::sync::Arc;

pub(super) use cards::{card_answer, card_page};
pub use engine::{EngineAnswer, GhostAt, then};
pub use tiles::explored;
pub(super) use tiles::{tile_answer, tile_page};

/// What the reader asked of the explore board, parsed at the edge (`routes::explore`).
#[derive(Clone, Debug, Default)]
pub struct Asked {
    /// The line, in notation (`record::TileLine`, `record::Line<CardMove>`); parsed by the game's own reader.
    pub line: String,
    /// How many of the line's steps the position is after; all when `None`.
    pub at: Option<usize>,
    /// Where the reader put the drawn tile and turned it, before choosing the meeple.
    pub square: Option<crate::engine::Pos>,
    pub rotation: Option<u16>,
    /// Think now if the engine has no answer kept for the position.
    pub think: bool,
    /// Who asks, for the engine's rate limit.
    pub client: Option<IpAddr>,
    /// Whether the request comes from the game's owner (its token or its cookie), who may
    /// comment on the position.
    pub owner: bool,
}

/// What one game's explore fills in: the position and what the reader may do there.
pub struct Explored {
    /// The line as the notation writes it, whole, and the steps shown.
    pub line: String,
    pub at: usize,
    pub steps: Vec<LineStep>,
    /// The player to move; `None` once the game is over.
    pub mover: Option<u8>,
    pub players: Vec<PlayerView>,
    pub over: bool,
    pub engine: Option<Arc<EngineAnswer>>,
    /// Whether the position has a move for the engine to think about (a tile drawn, or the
    /// Card Game's move due).
    pub engine_due: bool,
    /// The position's line as a comment names it (`record::Annotation`): up to the step shown,
    /// with the tile drawn if the line names it.
    pub comment_line: String,
}

/// A step of the line: its turn, its player and its move in words, as played.
#[derive(Clone)]
pub struct LineStep {
    pub turn: u32,
    pub words: String,
    /// The game's own move, as recorded.
    pub played: bool,
}

/// The engine's answer for the position `key` of game `row` from turn `n`: kept, or, when
/// `think` asks for it, thought now by `think_now` (within the client's engine limit) and
/// kept. None for a live game: its players may be the readers, so the engine says nothing of
/// a game in play (as lichess analyses no game in play).
pub fn engine_answer(
    state: &AppState,
    (row, n, key): (&GameRow, u32, &str),
    asked: &Asked,
    think_now: impl FnOnce() -> Result<EngineAnswer, Problem>,
) -> Result<Option<Arc<EngineAnswer>>, Problem> {
    if row.live {
        return Ok(None);
    }
    let k = (row.id, n, key.to_string());
    if let Some(hit) = state.thoughts.lock().ok().and_then(|mut t| t.get(&k).cloned()) {
        return Ok(Some(hit));
    }
    if !asked.think {
        return Ok(None);
    }
    state.limits.thought(asked.client)?;
    let answer = Arc::new(think_now()?);
    if let Ok(mut t) = state.thoughts.lock() {
        t.put(k, Arc::clone(&answer));
    }
    Ok(Some(answer))
}

/// The explore page of game `id` from turn `n` as HTML, for `bench`: what the page's route
/// does, without the request.
pub fn render_page(state: &AppState, id: &GameId, n: u32, asked: &Asked) -> Result<String, Problem> {
    state
        .load_any(id)?
        .explore_page(state, n, asked)?
        .render()
        .map_err(Problem::internal)
}

/// A line the reader wrote that cannot be read or played: 400, saying which step and why.
pub fn bad_line(detail: impl Into<String>) -> Problem {
    Problem::new(StatusCode::BAD_REQUEST, "Bad line", detail)
}

/// A line that cannot be played: 404 for a turn the game lacks, 400 for a step the rules
/// refuse, naming it and its player (one of `players`).
pub fn explore_problem(e: &ExploreError, players: &[PlayerInfo]) -> Problem {
    match e {
        ExploreError::NoSuchTurn { .. } => Problem::not_found(e.to_string()),
        ExploreError::Record(_) => Problem::internal(e),
        ExploreError::Step { .. } => bad_line(e.describe(players)),
    }
}

/// How far along the line to show: `asked`, or all of it; past its end is refused.
pub fn position_at(asked: Option<usize>, len: usize) -> Result<usize, Problem> {
    match asked {
        Some(at) if at > len => Err(bad_line(format!("the line has {len} steps; at is at most {len}"))),
        Some(at) => Ok(at),
        None => Ok(len),
    }
}

/// A step of the line, as the page lists it: linked when it is near the position (or the
/// line's first or last), as each link holds the line whole.
pub struct StepView {
    pub turn: u32,
    pub words: String,
    pub href: Option<String>,
    pub current: bool,
    pub played: bool,
}

/// The links that walk the line: to its start, a step back, a step on, its end.
pub struct LineNav {
    pub first: String,
    pub prev: Option<String>,
    pub next: Option<String>,
    pub last: String,
}

/// What the page shows that only one game has.
pub enum ExplorePart {
    Tiles(Box<tiles::View>),
    Cards(cards::View),
}

#[derive(Template, WebTemplate)]
#[template(path = "explore.html")]
pub struct ExplorePage {
    game: GameHead,
    /// The turn explored from, and the turn the position is before.
    from: u32,
    turn: u32,
    line: String,
    steps: Vec<StepView>,
    nav: LineNav,
    mover: Option<String>,
    players: Vec<PlayerView>,
    hide_if_ended: bool,
    over: bool,
    part: ExplorePart,
    engine: Option<Arc<EngineAnswer>>,
    /// The address that asks the engine, when it has no answer kept and there is a move due.
    think: Option<String>,
    /// This position's address, and its answer in JSON.
    permalink: String,
    api: String,
    /// The owner's comments on this position, and the line they are on; whether the owner
    /// asks (then a form writes one).
    comments: Vec<String>,
    comment_line: String,
    owner: bool,
    /// A live tile game's owner at its next turn: what may be recorded there.
    record: Option<Recording>,
}

/// What a live tile game's owner may record on the explore board of its next turn.
pub struct Recording {
    /// The move's number: one more than the record's moves, discards included.
    number: u32,
    /// The line of the one step played, to record; none yet: a tile drawn that fits nowhere
    /// may be discarded.
    line: Option<String>,
}

impl ExplorePage {
    /// The page of `e`, a position explored from turn `from` of a game with the owner's
    /// `annotations`; `owner` says whether the owner asks.
    pub fn new(
        game: GameHead,
        (from, annotations, owner): (u32, &[Annotation], bool),
        e: Explored,
        part: ExplorePart,
    ) -> ExplorePage {
        let id = game.id;
        let len = e.steps.len();
        let at_link = |k: usize| links::explore(id, from, &e.line, (k < len).then_some(k));
        let here = at_link(e.at);
        let steps = (e.steps.into_iter().enumerate())
            .map(|(i, s)| StepView {
                turn: s.turn,
                words: s.words,
                href: linked(i + 1, e.at, len).then(|| at_link(i + 1)),
                current: i + 1 == e.at,
                played: s.played,
            })
            .collect();
        let name = |p: u8| e.players.get(usize::from(p)).map(|v| v.name.clone());
        let moves = match &part {
            ExplorePart::Tiles(t) if owner && game.live && from == game.last + 1 => Some(t.moves),
            _ => None,
        };
        let record = moves.and_then(|moves| {
            let line = match (len, e.at) {
                (0, _) => None,
                (1, 1) => Some(e.line.clone()),
                _ => return None,
            };
            Some(Recording {
                number: moves + 1,
                line,
            })
        });
        ExplorePage {
            record,
            from,
            turn: from + e.at as u32,
            nav: LineNav {
                first: at_link(0),
                prev: (e.at > 0).then(|| at_link(e.at - 1)),
                next: (e.at < len).then(|| at_link(e.at + 1)),
                last: at_link(len),
            },
            mover: e.mover.and_then(name),
            think: (e.engine.is_none() && e.engine_due && !game.live)
                .then(|| format!("{here}{}think=1", if here.contains('?') { '&' } else { '?' })),
            api: links::api_explore(id, from, &e.line, (e.at < len).then_some(e.at)),
            permalink: here,
            // A comment with no line is on the turn as played, which is not this position.
            comments: (annotations.iter())
                .filter(|a| a.turn() == from && !e.comment_line.is_empty() && a.line() == e.comment_line)
                .map(|a| a.text().to_string())
                .collect(),
            owner: owner && !e.comment_line.is_empty(),
            comment_line: e.comment_line,
            line: e.line,
            steps,
            players: e.players,
            hide_if_ended: false,
            over: e.over,
            part,
            engine: e.engine,
            game,
        }
    }
}

/// Steps either side of the position whose entries in the page's list link their position.
const LINKED_STEPS: usize = 10;

/// Whether the list links step `k` (from 1) of a line of `len` steps, at step `at`.
fn linked(k: usize, at: usize, len: usize) -> bool {
    k == 1 || k == len || k.abs_diff(at) <= LINKED_STEPS
}

/// The explore board's answer in JSON: the position a line reaches, the moves due there, and
/// the engine's opinion.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ExploreAnswer {
    pub game: String,
    /// The turn explored from.
    pub turn: u32,
    /// The line as the notation writes it, and how many of its steps the position is after.
    pub line: String,
    pub at: usize,
    /// The line up to this position, which a move's or a choice's `step` follows: its whole
    /// line is `before`, `~` and the step (the step alone when `before` is empty). Not
    /// written out for each move: a long line times hundreds of moves made answers of
    /// megabytes.
    pub before: String,
    /// How many of the line's first steps are the game's own moves.
    pub followed: usize,
    pub position: PositionAnswer,
    /// Every legal move; none when a tile is to be chosen or the game is over.
    pub moves: Vec<MoveAnswer>,
    /// The tiles the reader may choose to draw, once a line has left the game's moves.
    pub choices: Vec<TileChoiceAnswer>,
    /// The engine's answer; none when no move is due.
    pub engine: Option<EngineAnswer>,
    /// The page of this position.
    pub url: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct PositionAnswer {
    /// The turn the position is before.
    pub turn: u32,
    /// The player to move (from 0) and their name; none once the game is over.
    pub player: Option<u8>,
    pub player_name: Option<String>,
    pub scores: Vec<i32>,
    /// The scores if the game ended now (the scores themselves once it is over).
    pub if_ended: Vec<i32>,
    pub over: bool,
    /// The tile drawn, to place (tile games).
    pub drawn: Option<String>,
    /// Tiles left in the pack, the drawn one among them (tile games).
    pub tiles_left: Option<u32>,
}

impl ExploreAnswer {
    /// The whole line of a move's or a choice's `step`.
    pub fn line_of(&self, step: &str) -> String {
        then(&self.before, step)
    }
}

/// A legal move as a line step (it follows the answer's `before`).
#[derive(Serialize, utoipa::ToSchema)]
pub struct MoveAnswer {
    pub step: String,
}

/// A tile the reader may choose to draw, and its step (`tile@`, following the answer's
/// `before`).
#[derive(Serialize, utoipa::ToSchema)]
pub struct TileChoiceAnswer {
    pub tile: String,
    pub copies: u8,
    pub step: String,
}

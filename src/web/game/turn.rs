//! The turn page and the end page, and what every game's builds them from: the link previews,
//! the score graphs, the navigation.

use super::GameHead;
use crate::analysis::win_chance::TurnChance;
use crate::engine::Position;
use crate::engine::category;
use crate::record::{Annotation, PlayerInfo};
use crate::render::PlayerColours;
use crate::replay::{Replay, Turn};
use crate::web::annotation_view::CommentView;
use crate::web::chance_view::ChancesView;
use crate::web::links;
use crate::web::problem::Problem;
use crate::web::share_view::ShareView;
use crate::web::state::Analysis;
use crate::web::state::AppState;
use crate::web::view::{self, BoardView, BreakdownRow, GameWords, GraphView, PlayerView, TurnLink};
use askama::Template;
use askama_web::WebTemplate;

/// What a turn page shows that only one game has: the tile tracker, or the Card Game's table.
pub enum GamePart {
    Tiles(crate::web::tracker_view::Tracker),
    Cards(crate::web::card_view::TablePart),
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
pub struct TurnPage {
    pub game: GameHead,
    pub preview: Preview,
    pub turn: u32,
    pub prev: Option<u32>,
    /// What the links to other turns carry: the Card Game's `?hands=all` while every hand is
    /// shown, so the choice holds from turn to turn without a script.
    pub nav_query: &'static str,
    /// The next turn's page, or after the last turn the end page.
    pub next_url: String,
    pub share: ShareView,
    /// The last turn's "if it ended now" is the result: it waits behind "show the result".
    pub hide_if_ended: bool,
    pub board: BoardView,
    pub players: Vec<PlayerView>,
    pub events: Vec<String>,
    pub part: GamePart,
    pub graph: GraphView,
    /// Chances of winning, when the game's analysis is done.
    pub chances: Option<ChancesView>,
    pub turn_links: Vec<TurnLink>,
    /// The owner's comments on this turn (`annotation_view`).
    pub comments: Vec<CommentView>,
    /// Whether the request holds the game's owner token: the page then has the forms that
    /// write and remove comments, and is the owner's only.
    pub owner: bool,
}

impl TurnPage {
    /// Whether the turn as played has a comment.
    pub fn commented(&self) -> bool {
        self.comments.iter().any(|c| c.line.is_empty())
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "end.html")]
pub struct EndPage {
    pub game: GameHead,
    pub preview: Preview,
    pub share: ShareView,
    /// Whether the browser asking uploaded the game (it holds the owner token's cookie): the
    /// page then offers to unlist it or delete it, and opens the share menu.
    pub owner: bool,
    /// The owner's key link, once, right after the upload or a new key
    /// (`routes::owners::key_once`).
    pub owner_key: Option<String>,
    /// The turn list's links carry nothing here.
    pub nav_query: &'static str,
    pub hide_if_ended: bool,
    pub players: Vec<PlayerView>,
    pub finished: bool,
    pub board: BoardView,
    /// Final scoring.
    pub events: Vec<String>,
    /// The breakdown's columns: the words of the game's categories.
    pub categories: Vec<&'static str>,
    pub breakdown: Vec<BreakdownRow>,
    pub graph: GraphView,
    pub chances: Option<ChancesView>,
    pub turn_links: Vec<TurnLink>,
}

/// How much of a turn page to build: the embed shows the board's picture, the scores and the
/// navigation only, so it skips the inline board, its alternatives and the chances.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Full,
    Framed,
}

fn scores_text(players: &[PlayerInfo], scores: &[i32]) -> String {
    let parts: Vec<String> = (players.iter().zip(scores))
        .map(|(p, s)| format!("{} {s}", p.name))
        .collect();
    parts.join(", ")
}

/// The link preview of turn `n`: that turn's picture and scores, never the ending.
pub fn turn_preview(base: &str, head: &GameHead, n: u32, players: &[PlayerInfo], scores: &[i32]) -> Preview {
    let last = head.last;
    Preview::new(
        base,
        format!("{} · turn {n} of {last}", head.title),
        format!(
            "{}, {}. After turn {n} of {last}: {}.",
            head.kind,
            head.rules,
            scores_text(players, scores)
        ),
        links::turn(head.id, n),
        links::preview_png(base, head.id, Some(n)),
    )
}

/// The link preview of the game's result.
pub fn end_preview(base: &str, head: &GameHead, finished: bool, players: &[PlayerInfo], scores: &[i32]) -> Preview {
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
        links::game(head.id),
        links::preview_png(base, head.id, None),
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
pub fn turn_graph<P: Position>(
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
pub fn end_graph<P: Position>(
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
pub fn next_url(head: &GameHead, n: u32, query: &str) -> String {
    if n < head.last {
        links::turn(head.id, n + 1) + query
    } else {
        links::end(head.id)
    }
}

/// Turn `n` is past the game's last.
pub fn no_such_turn(head: &GameHead, n: u32) -> Problem {
    Problem::not_found(format!("game {} has turns 0 to {}, not {n}", head.id, head.last))
}

/// What a turn page shows that each game finds its own way: the position as turn `n` left
/// it and the turns that reached it, the chances of its analysis up to it, its picture (inline
/// to point at, or the address of one), what the turn list's links carry, the game's own part
/// and its turn list.
pub struct TurnInput<'a, P: Position> {
    pub n: u32,
    pub position: &'a P,
    pub reached: &'a [Turn<P>],
    pub chances: &'a [TurnChance],
    pub picture: (Option<String>, String),
    pub nav_query: &'static str,
    pub part: GamePart,
    pub turn_links: Vec<TurnLink>,
}

/// Turn `n`'s page of any game: the move, its events, the scores and the game's own part.
pub fn turn_page<G: GameWords>(state: &AppState, g: &G, head: GameHead, at: TurnInput<G::Position>) -> TurnPage {
    let (n, position) = (at.n, at.position);
    let (players, colours) = (g.players(), g.colours());
    let (caption, events) = match at.reached.last() {
        Some(t) => (g.move_sentence(t), g.event_sentences(&t.events)),
        None => (g.start().to_string(), g.start_sentences(position)),
    };
    let (svg, src) = at.picture;
    let preview = turn_preview(&state.public_url, &head, n, players, &position.scores());
    TurnPage {
        share: head.share(state, Some(n), &src, &preview.title),
        preview,
        turn: n,
        prev: n.checked_sub(1),
        nav_query: at.nav_query,
        next_url: next_url(&head, n, at.nav_query),
        hide_if_ended: n == head.last,
        board: BoardView {
            svg,
            src,
            alt: format!("The {} after turn {n}: {caption}", g.picture_word()),
            caption,
        },
        players: g.players_at(position, false, &colours),
        events,
        part: at.part,
        graph: turn_graph(&head, players, at.reached, &colours),
        chances: ChancesView::new(&head.id, players, at.chances, head.last, &colours, false),
        turn_links: at.turn_links,
        comments: Vec::new(),
        owner: false,
        game: head,
    }
}

/// What an end page shows that each game finds its own way: the game replayed to its end, the
/// chances of its analysis, its picture's address and its turn list.
pub struct EndInput<'a, P: Position> {
    pub full: &'a Replay<P>,
    pub chances: &'a [TurnChance],
    pub picture: String,
    pub turn_links: Vec<TurnLink>,
}

/// The end page of any game: final scoring as its own step after the last turn.
pub fn end_page<G: GameWords>(state: &AppState, g: &G, head: GameHead, end: EndInput<G::Position>) -> EndPage {
    let full = end.full;
    let (players, colours) = (g.players(), g.colours());
    let preview = end_preview(&state.public_url, &head, full.finished, players, &full.final_scores);
    EndPage {
        share: head.share(state, None, &end.picture, &preview.title),
        preview,
        owner: false,
        owner_key: None,
        nav_query: "",
        hide_if_ended: false,
        players: g.players_at(&full.game, full.finished, &colours),
        finished: full.finished,
        board: end_board(full.finished, end.picture, g.picture_word()),
        events: g.event_sentences(&full.final_events),
        categories: category::words(full.game.categories()),
        breakdown: g.breakdown_rows(full, &colours),
        graph: end_graph(&head, players, full, &colours),
        chances: ChancesView::new(&head.id, players, end.chances, head.last, &colours, true),
        turn_links: end.turn_links,
        game: head,
    }
}

/// The end page's picture: the board (tile games) or the table (the Card Game).
pub fn end_board(finished: bool, src: String, what: &str) -> BoardView {
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

//! A stored game as the web shows it, whatever the game: [`GamePages`] builds its pages' view
//! models (turn, end, analysis and alternatives pages) and its API answers, with one
//! implementation per game (`tiles`: Carcassonne and New World; `cards`: the Card Game).
//!
//! [`annotated`] is the one place the web tells the games apart: it parses a stored record and
//! puts it with its row as its own game's type ([`Loaded`]). Handlers of every game hold a
//! `dyn GamePages` and never ask which game it is; those for what only the tile games have
//! take `Loaded::Tiles`, and answer another game 404.

pub(crate) mod analysis;
pub(crate) mod api;
mod cards;
pub(crate) mod explore;
mod tiles;
pub(crate) mod turn;

use crate::engine::GameKind;
use crate::export::Export;
use crate::record::cards::CardRecord;
use crate::record::{Annotation, AnyRecord, GameRecord, RecordError};
use crate::render::Drawable;
use crate::render::cards::Hands;
use crate::store::{AnalysisStatus, GameId, GameRow, TurnRow};
use crate::web::AppState;
use crate::web::problem::Problem;
use crate::web::share_view::{ShareInput, ShareView};
use actix_web::Either;
use analysis::{AlternativesPage, AnalysisPage, CardAlternativesPage};
use std::sync::Arc;
use turn::{Detail, EndPage, TurnPage};

/// A stored game: its row, and its record parsed as its game's type (`GameRecord`,
/// `CardRecord`).
#[derive(Clone)]
pub struct Stored<R> {
    pub row: GameRow,
    pub record: R,
}

/// Why a stored game does not replay under this release's rules, in the record's words
/// (naming the turn, the player and the rule).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// What the pages and the API need of a stored game; one implementation per game.
pub trait GamePages: Send + Sync {
    fn row(&self) -> &GameRow;

    fn kind(&self) -> GameKind;

    /// The rules in words, expansions included, as the game's pages say them under its name.
    fn rules(&self) -> String;

    /// The rules as the list of games says them, where no game's name is shown.
    fn listed_rules(&self) -> String {
        self.rules()
    }

    /// The record, to draw.
    fn drawable(&self) -> &dyn Drawable;

    /// Whether the record replays under this release's rules: a game an earlier release
    /// stored may hold a move this one refuses. The reason, naming the turn, if not.
    fn replays(&self) -> Result<(), Refused>;

    /// The record, to write out, with its annotations.
    fn exports(&self) -> &dyn Export;

    /// The owner's comments on the game's turns, by turn (`annotated`).
    fn annotations(&self) -> &[Annotation];

    /// Turn `n`'s page; a Card Game's shows the hands `hands` says.
    fn turn_page(&self, state: &AppState, n: u32, detail: Detail, hands: Hands) -> Result<TurnPage, Problem>;

    /// The end page: final scoring as its own step after the last turn.
    fn end_page(&self, state: &AppState) -> Result<EndPage, Problem>;

    /// The whole-game analysis: its progress, then each turn's played move against the best.
    fn analysis_page(&self, state: &AppState) -> Result<AnalysisPage, Problem>;

    /// Turn `n`'s alternatives, sorted as `sort` says where the game offers a choice.
    fn alternatives_page(
        &self,
        state: &AppState,
        n: u32,
        sort: Option<String>,
    ) -> Result<Either<AlternativesPage, CardAlternativesPage>, Problem>;

    /// The analysis' status for the API, and its summary when done.
    fn analysis_status(&self, state: &AppState) -> Result<api::AnalysisStatusAnswer, Problem>;

    /// What the API says of the game beyond its row: players, rules, final scores and each
    /// player's breakdown.
    fn api_game(&self) -> Result<api::GameAnswer, Problem>;

    /// The explore board from before turn `n`, with the line `asked` states played.
    fn explore_page(&self, state: &AppState, n: u32, asked: &explore::Asked) -> Result<explore::ExplorePage, Problem>;

    /// The explore board's position as JSON; the engine thinks if it has not.
    fn explore_answer(
        &self,
        state: &AppState,
        n: u32,
        asked: &explore::Asked,
    ) -> Result<explore::ExploreAnswer, Problem>;

    /// The turn that scores round `k`, in a game played in rounds.
    fn round_turn(&self, k: u8) -> Result<u32, Problem> {
        let _ = k;
        let id = self.row().id;
        Err(Problem::not_found(format!("game {id} is not played in rounds")))
    }
}

/// A stored game as its own game's type: what the pages of every game take ([`Loaded::pages`]),
/// and what only the tile games have (a board, placements to weigh, puzzles) take.
#[derive(Clone)]
pub enum Loaded {
    Tiles(Arc<Stored<GameRecord>>),
    Cards(Arc<Stored<CardRecord>>),
}

impl Loaded {
    /// The game, for the pages every game has.
    pub fn pages(&self) -> Arc<dyn GamePages> {
        match self {
            Loaded::Tiles(g) => g.clone(),
            Loaded::Cards(g) => g.clone(),
        }
    }
}

/// A stored game, its record parsed as its own game's type, without its annotations.
pub fn read(row: GameRow) -> Result<Loaded, RecordError> {
    annotated(row, Vec::new())
}

/// A stored game, its record parsed as its own game's type, with its annotations (the store
/// keeps them apart from the record, which never changes): the one place the web tells the
/// games apart.
pub fn annotated(row: GameRow, annotations: Vec<Annotation>) -> Result<Loaded, RecordError> {
    let mut parsed = crate::record::parse_any(row.record.as_bytes())?;
    crate::record::dispatch!(&mut parsed, record => record.annotations = annotations);
    Ok(match parsed {
        AnyRecord::Tiles(record, _) => Loaded::Tiles(Arc::new(Stored { row, record })),
        AnyRecord::Cards(record) => Loaded::Cards(Arc::new(Stored { row, record })),
    })
}

/// A stored turn as the API gives it, read back as its game stored it
/// (`store::ingest::Storable`).
pub fn api_turn(kind: GameKind, t: TurnRow) -> Result<api::TurnAnswer, Problem> {
    match kind {
        GameKind::CardGame => api::card_turn(t),
        GameKind::Carcassonne | GameKind::NewWorld => api::tile_turn(t),
    }
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
    /// What the game calls the figure a move places: "meeple", "settler".
    pub figure: &'static str,
    /// Whether the game is on the home page's list; an unlisted one asks search engines not
    /// to index it either.
    pub listed: bool,
    /// Where the whole-game analysis stands, for the links to it.
    pub analysis: Analysis,
}

/// What a game's head says that depends on the game: its words for what players hold back,
/// and its downloads.
pub struct HeadWords {
    pub held_label: &'static str,
    pub held_title: &'static str,
    pub count_labels: [&'static str; 2],
    pub jcz: bool,
    pub board: bool,
}

impl GameHead {
    /// The head of `game`'s pages, in its `words`, its analysis read from the store.
    pub fn new(state: &AppState, game: &dyn GamePages, words: HeadWords) -> Result<GameHead, Problem> {
        let (row, kind) = (game.row(), game.kind());
        Ok(GameHead {
            id: row.id,
            title: row.players.join(" vs "),
            rules: game.rules(),
            source: row.source_format.clone(),
            last: row.turns,
            kind: kind.title(),
            jcz: words.jcz,
            board: words.board,
            held_label: words.held_label,
            held_title: words.held_title,
            count_labels: words.count_labels,
            lab: None,
            tiles_notice: None,
            features: crate::replay::words::features_to_point_at(kind),
            figure: crate::replay::words::figures(kind).0,
            listed: row.listed,
            analysis: Analysis::of(state, &row.id)?,
        })
    }

    /// The share menu of a page of this game showing `turn` (`None`: the end), whose picture
    /// is `png` and whose preview is titled `title`.
    pub fn share(&self, state: &AppState, at: Option<u32>, png: &str, title: &str) -> ShareView {
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
    pub fn of(state: &AppState, id: &GameId) -> Result<Analysis, Problem> {
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

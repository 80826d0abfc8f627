//! A stored game as the web shows it, whatever the game: [`GamePages`] builds its pages' view
//! models (turn, end, analysis and alternatives pages, the explore board) and its API answers.
//! Each game gives five hooks ([`GameHooks`]: `tiles` for Carcassonne and New World, `cards`
//! for the Card Game); the rest is written once. The turn and end pages those hooks build are
//! written once too (`turn`), from what each game finds its own way and its words
//! (`view::GameWords`); so are the alternatives page (`analysis`), from the game's columns and
//! cells, the analysis page, from the game's stored analysis ([`Analysed`]), and the API's game
//! (`api`), from its replay (`replay::Replays`).
//!
//! Handlers of every game hold a `dyn GamePages` ([`AppState::load_any`]) and never ask which
//! game it is; those for what only the tile games have take a tile game
//! ([`AppState::load`]), and those for rounds a Card Game (`AppState::load_rounds`); they
//! answer another game 404. The web tells the games apart once, as it parses a stored game
//! ([`crate::web::loaded`]).

pub(crate) mod analysis;
pub(crate) mod api;
mod card_review;
mod cards;
pub(crate) mod explore;
mod head;
pub(crate) mod record_cards;
mod tiles;
pub(crate) mod turn;

use crate::analysis::win_chance::TurnChance;
use crate::export::Export;
use crate::render::Drawable;
use crate::render::cards::Hands;
use crate::store::{GameId, GameRow, Storable};
use crate::web::loaded::{Loaded, Stored, StoredGame};
use crate::web::problem::Problem;
use crate::web::state::AppState;
use crate::web::view::GameWords;
use analysis::{AlternativesPage, Analysed, AnalysisPage};
use std::sync::Arc;
use turn::{Detail, EndPage, TurnPage};

pub use card_review::{ReviewAsk, ReviewPage};
pub use head::{GameHead, HeadWords};

/// What a game's pages find their own way: one implementation per game (`tiles`: Carcassonne
/// and New World; `cards`: the Card Game). The rest of [`GamePages`] is written once, from the
/// game's words (`view::GameWords`), its replay (`replay::Replays`) and its stored analysis
/// ([`Analysed`]).
pub trait GameHooks: StoredGame {
    /// Turn `n`'s page; a Card Game's shows the hands `hands` says.
    fn turn_page(&self, state: &AppState, n: u32, detail: Detail, hands: Hands) -> Result<TurnPage, Problem>;

    /// The end page: final scoring as its own step after the last turn.
    fn end_page(&self, state: &AppState) -> Result<EndPage, Problem>;

    /// Turn `n`'s alternatives, sorted as `sort` says where the game offers a choice.
    fn alternatives_page(&self, state: &AppState, n: u32, sort: Option<String>) -> Result<AlternativesPage, Problem>;

    /// The explore board from before turn `n`, with the line `asked` states played.
    fn explore_page(&self, state: &AppState, n: u32, asked: &explore::Asked) -> Result<explore::ExplorePage, Problem>;

    /// The explore board's position as JSON; the engine thinks if it has not.
    fn explore_answer(
        &self,
        state: &AppState,
        n: u32,
        asked: &explore::Asked,
    ) -> Result<explore::ExploreAnswer, Problem>;
}

/// What the pages and the API need of a stored game, whatever the game: what handlers hold.
/// Beyond its game's hooks, it is written once, for every game.
pub trait GamePages: GameHooks {
    /// The whole-game analysis: its progress, then each turn's played move against the best.
    fn analysis_page(&self, state: &AppState) -> Result<AnalysisPage, Problem>;

    /// The analysis' status for the API, and its summary when done.
    fn analysis_status(&self, state: &AppState) -> Result<api::AnalysisStatusAnswer, Problem>;

    /// What the API says of the game beyond its row: players, rules, final scores and each
    /// player's breakdown.
    fn api_game(&self) -> api::GameAnswer;
}

impl<R> GamePages for Stored<R>
where
    R: GameWords + Storable + Drawable + Export + Analysed,
    Stored<R>: GameHooks,
{
    fn analysis_page(&self, state: &AppState) -> Result<AnalysisPage, Problem> {
        analysis::analysis_page::<R::Report>(state, self)
    }

    fn analysis_status(&self, state: &AppState) -> Result<api::AnalysisStatusAnswer, Problem> {
        analysis::status_answer::<R::Report>(state, &self.row.id)
    }

    fn api_game(&self) -> api::GameAnswer {
        api::GameAnswer::of(self)
    }
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

/// Loading a stored game whatever the game is written here, beside [`GamePages`], which it
/// returns; the games themselves are kept in [`AppState`].
impl AppState {
    /// A stored game, parsed, whatever the game.
    pub fn load_any(&self, id: &GameId) -> Result<Arc<dyn GamePages>, Problem> {
        Ok(self.loaded(id)?.pages())
    }

    /// A stored game of any kind, waiting for the store only when this process does not keep
    /// it: a hot game is answered on the async thread, without a trip to the blocking pool.
    pub async fn load_any_async(&self, id: GameId) -> Result<Arc<dyn GamePages>, Problem> {
        if let Some(kept) = self.kept(&id) {
            return Ok(kept.pages());
        }
        let state = self.clone();
        crate::web::blocking(move || state.load_any(&id)).await
    }
}

/// The chances of a game's finished analysis up to turn `upto` (every turn with `None`); none
/// before it is done.
pub(crate) fn game_chances(state: &AppState, row: &GameRow, upto: Option<u32>) -> Result<Vec<TurnChance>, Problem> {
    Ok((state.finished_analysis(&row.id, row.kind)?)
        .map(|a| a.chances(upto))
        .unwrap_or_default())
}

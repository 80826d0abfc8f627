//! The web service: thin handlers that parse the request, call the library and render a
//! template. `startup` builds the app; `routes` holds one module per resource.

pub mod card_view;
pub mod jobs;
pub mod limits;
pub mod metrics;
pub mod middleware;
pub mod problem;
pub mod routes;
pub mod startup;
pub mod view;

use crate::engine::GameKind;
use crate::record::cards::CardRecord;
use crate::record::{AnyRecord, GameRecord};
use crate::store::{GameId, GameRow, Store};
use problem::Problem;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// The site's public address (`serve --public-url`), for the absolute links of canonical
    /// URLs and link previews. Never taken from a request's `Host` header, which the client
    /// chooses.
    pub public_url: String,
    /// Hot board images, by ETag.
    pub renders: std::sync::Arc<routes::images::RenderCache>,
    /// The background analysis queue; `None` where nothing runs analyses (the bench).
    pub jobs: Option<jobs::Jobs>,
    /// Per-client limits on uploads and analysis requests.
    pub limits: std::sync::Arc<limits::Limits>,
    /// How long a request may take (`startup::time_limit`).
    pub request_timeout: std::time::Duration,
    /// What `/metrics` reports.
    pub metrics: std::sync::Arc<metrics::Metrics>,
    /// Games read recently, parsed.
    games: std::sync::Arc<GameCache>,
}

/// Parsed games by id. A stored game never changes (its id is its content's hash), so a page
/// of a game read recently needs no query, no inflating and no parsing.
struct GameCache(std::sync::Mutex<lru::LruCache<GameId, Loaded>>);

impl Default for GameCache {
    fn default() -> Self {
        GameCache(std::sync::Mutex::new(lru::LruCache::new(
            std::num::NonZeroUsize::new(256).expect("256 is not zero"),
        )))
    }
}

/// A stored tile game, parsed back into a record.
#[derive(Clone)]
pub struct LoadedGame {
    pub row: GameRow,
    pub record: GameRecord,
}

/// A stored Card Game, parsed back into a record.
#[derive(Clone)]
pub struct LoadedCards {
    pub row: GameRow,
    pub record: CardRecord,
}

/// A stored game of any kind.
#[derive(Clone)]
pub enum Loaded {
    Tiles(LoadedGame),
    Cards(LoadedCards),
}

impl Loaded {
    pub fn row(&self) -> &GameRow {
        match self {
            Loaded::Tiles(g) => &g.row,
            Loaded::Cards(g) => &g.row,
        }
    }

    pub fn kind(&self) -> GameKind {
        match self {
            Loaded::Tiles(g) => g.record.game,
            Loaded::Cards(_) => GameKind::CardGame,
        }
    }
}

impl AppState {
    pub fn new(store: Store, public_url: &str) -> AppState {
        AppState {
            store,
            public_url: public_url.trim_end_matches('/').to_string(),
            renders: Default::default(),
            jobs: None,
            limits: Default::default(),
            request_timeout: startup::REQUEST_TIMEOUT,
            metrics: Default::default(),
            games: Default::default(),
        }
    }

    /// A stored game of any kind.
    pub fn load_any(&self, id: &GameId) -> Result<Loaded, Problem> {
        if let Some(hit) = self.games.0.lock().ok().and_then(|mut c| c.get(id).cloned()) {
            return Ok(hit);
        }
        let loaded = self.read_game(id)?;
        if let Ok(mut c) = self.games.0.lock() {
            c.put(*id, loaded.clone());
        }
        Ok(loaded)
    }

    fn read_game(&self, id: &GameId) -> Result<Loaded, Problem> {
        let row = self
            .store
            .game(id)?
            .ok_or_else(|| Problem::not_found(format!("no game with id {id}")))?;
        Ok(
            match crate::record::parse_any(row.record.as_bytes()).map_err(Problem::internal)? {
                AnyRecord::Tiles(record, _) => Loaded::Tiles(LoadedGame { row, record }),
                AnyRecord::Cards(record) => Loaded::Cards(LoadedCards { row, record }),
            },
        )
    }

    /// A stored tile game, for what only the tile games have (a board, placements to weigh):
    /// a Card Game answers 404, saying so.
    pub fn load(&self, id: &GameId) -> Result<LoadedGame, Problem> {
        match self.load_any(id)? {
            Loaded::Tiles(g) => Ok(g),
            Loaded::Cards(_) => Err(Problem::not_found(format!(
                "game {id} is {}: this address is for the tile games",
                GameKind::CardGame.title()
            ))),
        }
    }
}

/// Runs blocking work (SQLite, replays, renders, exports) on the blocking thread pool, so the
/// async workers stay free to answer other requests, `/livez` among them, however heavy one
/// request is.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    actix_web::web::block(work).await.map_err(Problem::internal)?
}

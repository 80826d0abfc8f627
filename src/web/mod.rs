//! The web service: thin handlers that parse the request, call the library and render a
//! template. `startup` builds the app; `routes` holds one module per resource.

pub mod jobs;
pub mod problem;
pub mod routes;
pub mod startup;
pub mod view;

use crate::record::GameRecord;
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
}

/// A stored game, parsed back into a record.
pub struct LoadedGame {
    pub row: GameRow,
    pub record: GameRecord,
}

impl AppState {
    pub fn new(store: Store, public_url: &str) -> AppState {
        AppState {
            store,
            public_url: public_url.trim_end_matches('/').to_string(),
            renders: Default::default(),
            jobs: None,
        }
    }

    pub fn load(&self, id: &GameId) -> Result<LoadedGame, Problem> {
        let row = self
            .store
            .game(id)?
            .ok_or_else(|| Problem::not_found(format!("no game with id {id}")))?;
        let (record, _) = crate::record::parse(row.record.as_bytes()).map_err(Problem::internal)?;
        Ok(LoadedGame { row, record })
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

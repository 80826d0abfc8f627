//! What every handler shares ([`AppState`]): the store, and what is kept of it in memory
//! (parsed games, finished analyses, stored snapshots, sent pages and drawn pictures), with
//! the rules for forgetting it when a game changes here or in another process.

use super::changes;
use super::game::explore::engine::{self, Thoughts};
use super::import_gate::ImportGate;
use super::limits::{self, Limits};
use super::loaded::{self, Loaded, Stored};
use super::metrics::Metrics;
use super::page_cache::{self, PageCache, RenderCache};
use super::player_stats::StatsCache;
use super::problem::Problem;
use crate::analysis::AnyReport;
use crate::engine::GameKind;
use crate::engine::cards::CardGame;
use crate::record::GameRecord;
use crate::record::Record;
use crate::render::cards::Hands;
use crate::store::{AnalysisStatus, AnySnapshots, Change, GameId, Store};
use std::sync::Arc;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// The site's public address (`serve --public-url`), for the absolute links of canonical
    /// URLs and link previews. Never taken from a request's `Host` header, which the client
    /// chooses.
    pub public_url: String,
    /// Hot board images, by ETag.
    pub renders: Arc<RenderCache>,
    /// Turn pages as sent.
    pub pages: Arc<PageCache<TurnKey>>,
    /// Each game's analysis state as last read, for [`ANALYSIS_SEEN_FOR`]: a kept page of that
    /// state is sent without asking the store again.
    pub analysis_seen: Arc<Seen<Analysis>>,
    /// The background analysis queue; `None` where nothing runs analyses (the bench).
    pub jobs: Option<crate::queue::Jobs>,
    /// Reads what other processes changed (`changes`); `None` in the copy it tells.
    changes: Option<Arc<changes::Watch>>,
    /// Per-client limits on uploads and analysis requests.
    pub limits: Arc<Limits>,
    /// How long a request may take (`middleware::time_limit`).
    pub request_timeout: std::time::Duration,
    /// What `/metrics` reports.
    pub metrics: Arc<Metrics>,
    /// The games read last ([`GAMES_KEPT`]), parsed, with their annotations.
    games: Arc<Recent<Loaded>>,
    /// The 16 finished analyses read last, parsed: a turn page reads one turn of them, or
    /// their chances. Fewer than games: a 72-turn analysis holds every alternative of every turn.
    analyses: Arc<Recent<Arc<AnyReport>>>,
    /// Every stored snapshot of the 256 games whose turns the API read last: they never
    /// change, so a turn is answered without a query.
    snapshots: Arc<Recent<Arc<AnySnapshots>>>,
    /// The explore board engine's answers, by position.
    pub thoughts: Arc<Thoughts>,
    /// The turns of this node's collection imports.
    pub imports: Arc<ImportGate>,
    /// Players' statistics as last read.
    pub player_stats: Arc<StatsCache>,
}

/// What was read recently, parsed, by game id. A stored game never changes (its id is its
/// content's hash), nor does a finished analysis, so a page read again needs no query, no
/// inflating and no parsing.
struct Recent<V>(std::sync::Mutex<Kept<V>>);

/// The values, and how many times one was forgotten (`Recent::put_unless_forgotten`).
struct Kept<V> {
    values: lru::LruCache<GameId, V>,
    forgets: u64,
}

impl<V: Clone> Recent<V> {
    fn get(&self, id: &GameId) -> Option<V> {
        self.0.lock().ok().and_then(|mut c| c.values.get(id).cloned())
    }

    fn put(&self, id: GameId, value: V) {
        if let Ok(mut c) = self.0.lock() {
            c.values.put(id, value);
        }
    }

    /// Where the forgetting stands, before a value is read from the store.
    fn forgets(&self) -> u64 {
        self.0.lock().map_or(0, |c| c.forgets)
    }

    /// Keeps a value read from the store since [`Recent::forgets`] said `forgets`, unless a
    /// value was forgotten meanwhile: it may have been read before the change that had it
    /// forgotten, and would then be kept stale.
    fn put_unless_forgotten(&self, id: GameId, value: V, forgets: u64) {
        if let Ok(mut c) = self.0.lock()
            && c.forgets == forgets
        {
            c.values.put(id, value);
        }
    }

    fn forget(&self, id: &GameId) {
        if let Ok(mut c) = self.0.lock() {
            c.values.pop(id);
            c.forgets += 1;
        }
    }
}

impl<V> Recent<V> {
    fn new(capacity: usize) -> Recent<V> {
        let capacity = std::num::NonZeroUsize::new(capacity).expect("a cache holds something");
        Recent(std::sync::Mutex::new(Kept {
            values: lru::LruCache::new(capacity),
            forgets: 0,
        }))
    }
}

/// How long an analysis state read from the store is taken as still true: a page may show an
/// analysis as waiting this long after another process (a worker, another node) finished it,
/// and one request more (the turn pages read it again in the background).
pub const ANALYSIS_SEEN_FOR: std::time::Duration = std::time::Duration::from_secs(2);

/// Values by game id, each taken as true for [`ANALYSIS_SEEN_FOR`] after it was read.
pub struct Seen<V>(Recent<(V, std::time::Instant)>);

impl<V: Copy> Seen<V> {
    pub fn new(capacity: usize) -> Seen<V> {
        Seen(Recent::new(capacity))
    }

    pub fn get(&self, id: &GameId) -> Option<V> {
        let (value, read) = self.0.get(id)?;
        (read.elapsed() < ANALYSIS_SEEN_FOR).then_some(value)
    }

    /// The value read last, however long ago, and whether it is time to read it again.
    pub fn last(&self, id: &GameId) -> Option<(V, bool)> {
        let (value, read) = self.0.get(id)?;
        Some((value, read.elapsed() >= ANALYSIS_SEEN_FOR))
    }

    pub fn put(&self, id: GameId, value: V) {
        self.0.put(id, (value, std::time::Instant::now()));
    }

    /// Forgets what was read: this process changed it.
    pub fn forget(&self, id: &GameId) {
        self.0.forget(id);
    }
}

/// How many loaded games are kept. Each keeps every turn's position, so that pages never
/// replay: about 0.5 MB for a 72-tile game (0.05 MB without them, measured on the demo game),
/// so 96 games hold about 50 MB at most.
const GAMES_KEPT: usize = 96;

impl AppState {
    pub fn new(store: Store, public_url: &str) -> AppState {
        AppState {
            store,
            public_url: public_url.trim_end_matches('/').to_string(),
            renders: Default::default(),
            pages: Arc::new(PageCache::new(page_cache::PAGE_CACHE_BYTES)),
            analysis_seen: Arc::new(Seen::new(4096)),
            jobs: None,
            changes: None,
            limits: Default::default(),
            request_timeout: limits::REQUEST_TIMEOUT,
            metrics: Default::default(),
            games: Arc::new(Recent::new(GAMES_KEPT)),
            analyses: Arc::new(Recent::new(16)),
            snapshots: Arc::new(Recent::new(256)),
            thoughts: engine::thoughts(),
            imports: Default::default(),
            player_stats: Default::default(),
        }
    }

    /// A stored game this process keeps, without asking the store.
    pub fn kept(&self, id: &GameId) -> Option<Loaded> {
        self.games.get(id)
    }

    /// A stored game as its own game's type, kept once read.
    pub fn loaded(&self, id: &GameId) -> Result<Loaded, Problem> {
        if let Some(hit) = self.kept(id) {
            return Ok(hit);
        }
        let forgets = self.games.forgets();
        let loaded = self.read_game(id)?;
        self.games.put_unless_forgotten(*id, loaded.clone(), forgets);
        Ok(loaded)
    }

    /// Drops what is kept of a game its owner changed (its listing) or deleted: the parsed
    /// game, its analysis, and every picture drawn (they are few, and a deletion is rare).
    pub fn forget(&self, id: &GameId) {
        self.games.forget(id);
        self.snapshots.forget(id);
        self.analyses.forget(id);
        self.renders.clear();
        self.pages.forget(|k| k.id == *id);
        self.analysis_seen.forget(id);
        self.player_stats.clear();
    }

    /// A game's stored snapshots (`None` for no such game): kept here, read in one query the
    /// first time.
    pub fn snapshots(&self, id: &GameId) -> Result<Option<Arc<AnySnapshots>>, Problem> {
        if let Some(kept) = self.snapshots.get(id) {
            return Ok(Some(kept));
        }
        let Some(read) = self.store.snapshots(id)? else {
            return Ok(None);
        };
        let read = Arc::new(read);
        self.snapshots.put(*id, Arc::clone(&read));
        Ok(Some(read))
    }

    /// Drops what is kept of a game whose annotations changed: the game (it is kept with
    /// them) and its pages. Its pictures show no comment.
    pub fn forget_annotations(&self, id: &GameId) {
        self.games.forget(id);
        self.pages.forget(|k| k.id == *id);
    }

    /// Has this process forget what it kept of a game that another process changed: all of it
    /// after its owner's change or a move on a live game, its analysis and pages after a new
    /// analysis, the game and its pages after a comment.
    fn changed(&self, id: &GameId, what: Change) {
        match what {
            Change::Owner | Change::Moves => self.forget(id),
            Change::Analysis => {
                self.analyses.forget(id);
                self.analysis_seen.forget(id);
                self.pages.forget(|k| k.id == *id);
                self.player_stats.clear();
            }
            Change::Annotations => self.forget_annotations(id),
        }
    }

    /// Starts reading what other processes change on the store, for this state and its copies.
    /// The reading thread holds a copy without the queue or the reader, so that dropping the
    /// last copy the handlers hold stops them all.
    pub fn watch_changes(&mut self) {
        let told = AppState {
            jobs: None,
            changes: None,
            ..self.clone()
        };
        self.changes = Some(Arc::new(changes::Watch::start(self.store.clone(), move |id, what| {
            told.changed(id, what)
        })));
    }

    /// A game's whole-game analysis once it is done, read as a game of `kind`'s.
    pub fn finished_analysis(&self, id: &GameId, kind: GameKind) -> Result<Option<Arc<AnyReport>>, Problem> {
        if let Some(hit) = self.analyses.get(id) {
            return Ok(Some(hit));
        }
        // A page read the analysis's state a moment ago (its head does): not done, it is taken
        // as not done for as long as the page takes it so, without asking the store again.
        if self.analysis_seen.get(id).is_some_and(|a| !a.done()) {
            return Ok(None);
        }
        let Some((AnalysisStatus::Done, Some(json))) = self.store.analysis(id)? else {
            return Ok(None);
        };
        let parsed = Arc::new(AnyReport::parse(kind, &json).map_err(Problem::internal)?);
        self.analyses.put(*id, Arc::clone(&parsed));
        Ok(Some(parsed))
    }

    fn read_game(&self, id: &GameId) -> Result<Loaded, Problem> {
        let row = self
            .store
            .game(id)?
            .ok_or_else(|| Problem::not_found(format!("no game with id {id}")))?;
        // An earlier release accepted a record that this one refuses (a custom tile that leaves
        // half-edges out, a follower on a feature its tile joined to an occupied one): the game
        // stays stored, and says why it is not shown.
        let withdrawn = |e: String| {
            Problem::new(
                actix_web::http::StatusCode::GONE,
                "Game withdrawn",
                format!(
                    "game {id} was stored by an earlier release, which accepted a record this release refuses: {e}"
                ),
            )
        };
        loaded::annotated(row, self.store.annotations(id)?).map_err(|e| withdrawn(e.0))
    }

    /// A stored tile game, for what only the tile games have (a board, placements to weigh):
    /// another game answers 404, saying so.
    pub fn load(&self, id: &GameId) -> Result<Arc<Stored<GameRecord>>, Problem> {
        match self.loaded(id)? {
            Loaded::Tiles(game) => Ok(game),
            Loaded::Cards(_) => Err(Problem::not_found(format!(
                "game {id} is {}: this address is for the tile games",
                GameKind::CardGame.title()
            ))),
        }
    }

    /// A stored game played in rounds (the Card Game), for what only such games have.
    pub fn load_rounds(&self, id: &GameId) -> Result<Arc<Stored<Record<CardGame>>>, Problem> {
        match self.loaded(id)? {
            Loaded::Cards(game) => Ok(game),
            Loaded::Tiles(_) => Err(Problem::not_found(format!("game {id} is not played in rounds"))),
        }
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

/// What a turn page shows besides its game and turn: everything it may differ by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnKey {
    pub id: GameId,
    pub turn: u32,
    pub hands: Hands,
    /// The chances, the ghosts' values and the links to the analysis change with it.
    pub analysis: Analysis,
    /// The owner's page, with the forms that write comments.
    pub owner: bool,
}

/// Runs blocking work (SQLite, replays, renders, exports) on the blocking thread pool, so the
/// async workers stay free to answer other requests, `/livez` among them, however heavy one
/// request is.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    actix_web::web::block(work).await.map_err(Problem::internal)?
}

//! Storage: games, their per-turn snapshots and their analyses, in one of two databases behind
//! one interface ([`Backend`]): an embedded SQLite file (`sqlite`), the default, or a PostgreSQL
//! server that many nodes share (`postgres`). Each applies its own migrations at start. A game
//! and all its snapshots are written in one transaction or not at all.
//!
//! The store's calls block: the web handlers make them inside `web::blocking`, never on an async
//! thread (the PostgreSQL store runs its own runtime and waits on it).

pub(crate) mod collection;
mod copy;
mod id;
pub(crate) mod ingest;
pub(crate) mod live;
mod owner;
pub(crate) mod players;
mod postgres;
pub(crate) mod snapshot;
mod sqlite;
mod supply;

use crate::engine::GameKind;
use crate::record::Annotation;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

pub use collection::{
    CollectedGame, CollectionId, CollectionName, CollectionRow, ImportLine, ImportState, ImportedGame, LineError,
};
pub use copy::{CopyError, copy};
pub use id::{GameId, NotAGameId};
pub use ingest::{IllegalAt, IngestError, Ingested, Storable, canonical_id, ingest, prepare, upload};
pub use live::{LiveRecord, record_live, replayed, start_live};
pub use owner::{OwnerHash, OwnerToken, Ownership};
pub use players::{
    Matched, Missing, PLAYERS_SEARCHED, PlayerStats, Search, Seat, SeatAnalysis, SeatPuzzle, TileRecord, TileScore,
    Typed, Who, Whose, match_key,
};
pub use snapshot::{AnySnapshots, Snapshot};
pub use sqlite::{BackupError, backup};
pub use supply::StoredSupply;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database pool: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("database migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    #[error("database pool: {0}")]
    PostgresPool(#[from] deadpool_postgres::PoolError),
    #[error("database address: {0}")]
    PostgresConfig(#[from] deadpool_postgres::CreatePoolError),
    #[error("database: a stored record does not inflate: {0}")]
    Inflate(std::io::Error),
    #[error("database: {0}")]
    Corrupt(String),
    #[error("database: {0}")]
    Snapshot(#[from] snapshot::SnapshotError),
    #[error("starting the database's runtime: {0}")]
    Runtime(std::io::Error),
    #[error("reading the random source: {0}")]
    Random(#[from] std::io::Error),
}

impl StoreError {
    /// Whether the database is out of reach for now (down, restarting, out of connections, or
    /// busy past the pool's wait) rather than refusing what was asked: the web answers `503`
    /// with `Retry-After` for these, `500` for the rest.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Pool(_) => true,
            StoreError::PostgresPool(deadpool_postgres::PoolError::Backend(e)) | StoreError::Postgres(e) => {
                postgres_unavailable(e)
            }
            StoreError::PostgresPool(_) => true,
            StoreError::Sqlite(e) => matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            ),
            _ => false,
        }
    }
}

/// A PostgreSQL error that says the server is out of reach: the connection closed or never
/// opened, or the server refusing connections for now (SQLSTATE classes 08 and 57P, 53300).
fn postgres_unavailable(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            let code = code.code();
            code.starts_with("08") || code.starts_with("57P") || code == "53300"
        }
        // No SQLSTATE: the connection's own failure (refused, reset, timed out) comes from
        // the socket; a value that would not convert is our mistake.
        None => std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>()),
    }
}

/// A stored game, as listed and as loaded.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: GameId,
    pub kind: GameKind,
    pub record: String,
    pub source_format: String,
    pub players: Vec<String>,
    pub preset: String,
    pub turns: u32,
    pub finished: bool,
    pub final_scores: Vec<i32>,
    pub created_at: String,
    /// Whether the game is on the home page's list; an unlisted game is reached by its link.
    pub listed: bool,
    /// The hash of its owner token; `None` for games stored before owners, and the demos.
    pub owner: Option<OwnerHash>,
    /// Recorded at the table and not over yet: its owner adds moves (`Backend::write_live`).
    pub live: bool,
}

impl GameRow {
    /// The row of a new upload, stamped now.
    pub fn of(g: &Ingested, new: NewGame) -> GameRow {
        GameRow {
            id: g.id,
            kind: g.kind,
            record: g.canonical.clone(),
            source_format: g.format.name().to_string(),
            players: g.players.clone(),
            preset: g.rules.to_string(),
            turns: g.snapshots.len() as u32,
            finished: g.finished,
            final_scores: g.final_scores.clone(),
            created_at: now(),
            listed: new.listed,
            owner: new.owner,
            live: false,
        }
    }
}

/// How a new upload is stored: listed or not, and whose it is.
#[derive(Clone, Copy, Debug)]
pub struct NewGame {
    pub listed: bool,
    pub owner: Option<OwnerHash>,
}

impl NewGame {
    /// Listed and owned by nobody: the demos, the benches, games loaded from the command line.
    pub const PUBLIC: NewGame = NewGame {
        listed: true,
        owner: None,
    };
}

/// What storing a game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Written now, as asked.
    New,
    /// The same game was stored before; it keeps its owner and its listing.
    Already { listed: bool },
}

/// An analysis a worker holds: the game, how many times it has been started since it was asked
/// for (this start included), and the lease's token, which every later write must give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub id: GameId,
    pub starts: u32,
    pub token: String,
}

/// Where a game's background analysis stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    Queued,
    Running { done: u32, total: u32 },
    Done,
    Failed(String),
}

/// One stored snapshot as the database keeps it, its JSON columns as text; read as a
/// [`snapshot::Snapshot`].
#[derive(Clone, Debug)]
pub struct TurnRow {
    pub turn: u32,
    pub player: u8,
    /// The move in the game's notation (`snapshot::Notation`).
    pub mv: String,
    pub events: String,
    pub scores: String,
    /// Per player, a [`StoredSupply`].
    pub supply: String,
    pub ownership: String,
}

impl AnalysisStatus {
    /// From the stored columns: status, done, total and error.
    fn from_columns(status: &str, done: u32, total: u32, error: Option<String>) -> AnalysisStatus {
        match status {
            "queued" => AnalysisStatus::Queued,
            "running" => AnalysisStatus::Running { done, total },
            "done" => AnalysisStatus::Done,
            _ => AnalysisStatus::Failed(error.unwrap_or_default()),
        }
    }

    /// The stored columns: status, done, total and error.
    fn columns(&self) -> (&'static str, u32, u32, Option<&str>) {
        match self {
            AnalysisStatus::Queued => ("queued", 0, 0, None),
            AnalysisStatus::Running { done, total } => ("running", *done, *total, None),
            AnalysisStatus::Done => ("done", 0, 0, None),
            AnalysisStatus::Failed(why) => ("failed", 0, 0, Some(why)),
        }
    }
}

/// A game's analysis row as `copy-db` moves it: everything but the lease, which belongs to a
/// worker on the old database (a job running there is claimed at once on the new one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    pub status: AnalysisStatus,
    pub result: Option<String>,
    pub version: Option<u32>,
    pub starts: u32,
    pub updated_at: String,
    pub queued_at: Option<String>,
}

/// How the analysis queue stands, for every node alike: it is read from the database.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueState {
    /// Analyses queued or running.
    pub waiting: u64,
    /// Seconds since the longest-waiting queued analysis was asked for: it grows when the
    /// workers fall behind (or none runs).
    pub oldest_seconds: u64,
    /// Running analyses whose lease ran out: their worker died, and no worker has taken them
    /// over yet.
    pub lapsed: u64,
}

/// Seconds from an RFC 3339 time the store wrote (`queued_at`) to now; 0 for none.
fn seconds_since(written: Option<&str>) -> u64 {
    let then = written.and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
    then.map_or(0, |t| (chrono::Utc::now() - t.to_utc()).num_seconds().max(0) as u64)
}

/// How many rows a database holds, table by table: what `copy-db` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub snapshots: u64,
    pub analyses: u64,
    pub annotations: u64,
    pub collections: u64,
}

/// What a database does for the service. Each method is one transaction; none panics on bad
/// rows, which come back as [`StoreError`].
pub trait Backend: Send + Sync {
    /// How many games are stored.
    fn count(&self) -> Result<u64, StoreError>;
    /// How many games, snapshots, analyses and annotations are stored.
    fn counts(&self) -> Result<Counts, StoreError>;
    /// Can the database answer a query?
    fn ping(&self) -> Result<(), StoreError>;
    /// Writes a game, its snapshots, its annotations and its seats (`players::seats`) in one
    /// transaction. A game with the same id stored before, even by another node a moment ago,
    /// is left as it is, its owner, listing and annotations included.
    fn write_game(
        &self,
        game: &GameRow,
        turns: &[TurnRow],
        annotations: &[Annotation],
        seats: &[Seat],
    ) -> Result<Stored, StoreError>;
    /// Writes a live game's new state, a move recorded or taken back: its record, turns, end
    /// and scores, its snapshots in place of the stored ones, and its seats once it is over (a
    /// live game has none, so that a game left unfinished counts in nobody's statistics). Its
    /// analysis, of the moves before, is dropped. One transaction, noted as a change. Written
    /// only while the stored game is live and its record is still `was`, the one the move was
    /// checked against: false, and nothing written, when another move came first.
    fn write_live(&self, game: &GameRow, was: &str, turns: &[TurnRow], seats: &[Seat]) -> Result<bool, StoreError>;
    /// Writes what a game's seats miss, in one transaction: every row of the seats when it has
    /// none, else their tile rows when it has none. False when nothing was missing, or there is
    /// no such game.
    fn write_seats(&self, id: &GameId, seats: &[Seat]) -> Result<bool, StoreError>;
    /// Games stored after `after` (by their sequence number) missing `what`, oldest first, with
    /// that number: what [`Store::fill_players`] walks.
    fn games_missing(&self, what: Missing, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError>;
    /// A game's Board Game Arena player ids by seat, for `copy-db`.
    fn bga_ids(&self, id: &GameId) -> Result<Vec<Option<u64>>, StoreError>;
    /// Listed games the search matches, newest first: `limit` of them after skipping `offset`.
    fn search(&self, search: &Search, offset: u64, limit: u32) -> Result<Vec<GameRow>, StoreError>;
    /// How many listed games the search matches.
    fn count_search(&self, search: &Search) -> Result<u64, StoreError>;
    /// The first `limit` names `typed` matches, ranked (`players::names_like`).
    fn names_like(&self, typed: &Typed, limit: u32) -> Result<Vec<Matched>, StoreError>;
    /// Match keys of stored seats after `after`, in order, whose names the search's index
    /// lacks: what [`Store::fill_name_index`] walks.
    fn unindexed_names(&self, after: &str, limit: u32) -> Result<Vec<String>, StoreError>;
    /// Indexes these names (match keys) for the search, those indexed already left as they are.
    fn index_names(&self, keys: &[String]) -> Result<(), StoreError>;
    /// Writes what a game's finished analysis says of each seat, in place of what was written
    /// before. False when the game has no seats.
    fn write_seat_analyses(&self, id: &GameId, seats: &[SeatAnalysis]) -> Result<bool, StoreError>;
    /// Games whose finished analysis has no seat rows yet, after `after`, oldest first.
    fn analysed_without_seats(&self, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError>;
    /// A player's results over their listed games, or over those against `against`.
    fn player_stats(&self, who: &Who, against: Option<&Who>) -> Result<PlayerStats, StoreError>;
    fn game(&self, id: &GameId) -> Result<Option<GameRow>, StoreError>;
    /// Every game's id, listed or not, oldest first: `limit` of them after skipping `offset`.
    fn game_ids(&self, offset: u64, limit: u32) -> Result<Vec<GameId>, StoreError>;
    /// Lists a game or takes it off the lists. False when there is no such game.
    fn set_listed(&self, id: &GameId, listed: bool) -> Result<bool, StoreError>;
    /// Gives a game owned by `was` a new owner hash, so that only the new token owns it (its
    /// owner's new key). False when there is no such game, or its owner changed since `was`
    /// was read (two new keys at once: the one that lost must not undo the other).
    fn set_owner(&self, id: &GameId, was: &OwnerHash, owner: &OwnerHash) -> Result<bool, StoreError>;
    /// Deletes a game with its snapshots, its analysis and its annotations. False when there is
    /// no such game.
    fn delete(&self, id: &GameId) -> Result<bool, StoreError>;
    /// Every snapshot of a game, in turn order, with the kind of game they are of (which says
    /// how to read their JSON); `None` when no game of that id has any.
    fn turns(&self, id: &GameId) -> Result<Option<(GameKind, Vec<TurnRow>)>, StoreError>;
    /// Queues a game's analysis by analysis version `version`, unless it is queued, running,
    /// or done already by that version or a later one (a failed one, or one done by an older
    /// version, is queued again), or `capacity` analyses are waiting or running: the queue is
    /// bounded here, in the database, so that a restart keeps the bound and the queue alike,
    /// and every node shares them.
    fn queue_analysis(&self, id: &GameId, place: &QueuePlace, version: u32) -> Result<QueueAnswer, StoreError>;
    /// How the analysis queue stands, for the metrics.
    fn queue(&self) -> Result<QueueState, StoreError>;
    /// Claims the analysis that has waited longest, for `lease`: a queued one, or a running one
    /// whose worker's lease ran out (it stopped, or died). The claim counts a start. `owner`
    /// names the worker in the row, for whoever reads it. `None` when nothing waits.
    fn claim_analysis(&self, owner: &str, lease: Duration) -> Result<Option<Claim>, StoreError>;
    /// Records a held analysis's progress and extends its lease by `lease`. False when the lease
    /// is no longer the claim's (another worker took the job over, or it was asked for again):
    /// nothing is written then.
    fn analysis_progress(&self, claim: &Claim, done: u32, total: u32, lease: Duration) -> Result<bool, StoreError>;
    /// Ends a held analysis: its JSON result by analysis version `version`, or why it failed.
    /// False, and nothing written, when the lease is no longer the claim's.
    fn finish_analysis(&self, claim: &Claim, result: Result<&str, &str>, version: u32) -> Result<bool, StoreError>;
    /// Gives a held analysis back to the queue, at its old place, when its worker stops on
    /// purpose: the start it took is not counted against it. False when the lease is no
    /// longer the claim's.
    fn release_analysis(&self, claim: &Claim) -> Result<bool, StoreError>;
    /// The status of a game's analysis, and its result when done.
    fn analysis(&self, id: &GameId) -> Result<Option<(AnalysisStatus, Option<String>)>, StoreError> {
        Ok(self.stored_analysis(id)?.map(|a| (a.status, a.result)))
    }
    /// Where a game's analysis stands, without reading its result.
    fn analysis_status(&self, id: &GameId) -> Result<Option<AnalysisStatus>, StoreError>;
    /// A game's whole analysis row, for `copy-db`.
    fn stored_analysis(&self, id: &GameId) -> Result<Option<StoredAnalysis>, StoreError>;
    /// Writes a game's analysis row as another database held it, unless the game has one
    /// already. False when it had, or there is no such game.
    fn write_analysis(&self, id: &GameId, analysis: &StoredAnalysis) -> Result<bool, StoreError>;
    /// Bytes the database uses, for the storage measurement.
    fn size_bytes(&self) -> Result<u64, StoreError>;
    /// The games changed after change `after` (deletions, listings, finished analyses,
    /// annotations), in order, and the last change's number; with `None`, only the last
    /// change's number. What `delete`, `set_listed`, `finish_analysis`, `annotate` and
    /// `unannotate` change is noted in the same transaction.
    fn changes_since(&self, after: Option<i64>) -> Result<Changes, StoreError>;
    /// A game's annotations, by turn, the turn as played before the lines explored from it.
    fn annotations(&self, id: &GameId) -> Result<Vec<Annotation>, StoreError>;
    /// Writes an annotation, in place of the one on its turn and line if any. False when there
    /// is no such game.
    fn annotate(&self, id: &GameId, annotation: &Annotation) -> Result<bool, StoreError>;
    /// Removes the annotation on turn `turn` and line `line`. False when there is none.
    fn unannotate(&self, id: &GameId, turn: u32, line: &str) -> Result<bool, StoreError>;
    /// Writes a new collection, empty, its import's progress as `c.import` says.
    fn create_collection(&self, c: &CollectionRow) -> Result<(), StoreError>;
    /// Every collection's id, oldest first: `limit` of them after skipping `offset`.
    fn collection_ids(&self, offset: u64, limit: u32) -> Result<Vec<CollectionId>, StoreError>;
    /// A collection, without its games.
    fn collection(&self, id: &CollectionId) -> Result<Option<CollectionRow>, StoreError>;
    /// Renames a collection. False when there is no such collection.
    fn rename_collection(&self, id: &CollectionId, name: &CollectionName) -> Result<bool, StoreError>;
    /// Adds stored games at the end of a collection, in their order: those it holds already,
    /// and ids of no stored game, are passed over. How many were added.
    fn add_to_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError>;
    /// Takes games out of a collection (they stay stored). How many were in it.
    fn remove_from_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError>;
    /// Records how far a collection's imports got: lines read of all asked, and those refused.
    fn import_progress(&self, id: &CollectionId, import: &ImportState) -> Result<(), StoreError>;
    /// A collection's games in its order, each as its summary row with its analysis's status,
    /// in one query (never a record).
    fn collection_games(&self, id: &CollectionId) -> Result<Vec<CollectedGame>, StoreError>;
}

/// What changed about a stored game, for the processes that keep it in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Deleted, listed or unlisted by its owner.
    Owner,
    /// Its analysis finished, done or failed.
    Analysis,
    /// Its owner wrote or removed a comment.
    Annotations,
    /// A move was recorded on it, or taken back, while it was live.
    Moves,
}

impl Change {
    fn name(self) -> &'static str {
        match self {
            Change::Owner => "owner",
            Change::Analysis => "analysis",
            Change::Annotations => "annotations",
            Change::Moves => "moves",
        }
    }

    fn from_name(name: &str) -> Result<Change, StoreError> {
        match name {
            "owner" => Ok(Change::Owner),
            "analysis" => Ok(Change::Analysis),
            "annotations" => Ok(Change::Annotations),
            "moves" => Ok(Change::Moves),
            other => Err(StoreError::Corrupt(format!("unknown change {other:?}"))),
        }
    }
}

/// Changes read in order, and the number of the last one: where the next read starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub last: i64,
    pub games: Vec<(GameId, Change)>,
}

/// Changes kept in the database: a reader that falls further behind (a process stopped for a
/// while) starts again with nothing in memory anyway.
const KEPT_CHANGES: i64 = 1000;

/// Where the games are kept: a SQLite file, or a PostgreSQL server by its `postgres://` URL.
/// What `--db` takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    File(PathBuf),
    Postgres(String),
}

impl FromStr for Database {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Database::Postgres(s.to_string())
        } else {
            Database::File(PathBuf::from(s))
        })
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::File(path)
    }
}

impl From<&std::path::Path> for Database {
    fn from(path: &std::path::Path) -> Database {
        Database::File(path.to_path_buf())
    }
}

/// The file's path, or the server's URL without its password: what logs and errors show.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&postgres::without_password(url)),
        }
    }
}

/// The store the service uses: a [`Backend`] shared by every thread. Its methods are the
/// backend's.
#[derive(Clone)]
pub struct Store(Arc<dyn Backend>);

impl std::ops::Deref for Store {
    type Target = dyn Backend;

    fn deref(&self) -> &(dyn Backend + 'static) {
        &*self.0
    }
}

impl Store {
    /// Opens the database, creating a SQLite file if needed, and brings its schema up to date.
    pub fn open(db: impl Into<Database>) -> Result<Store, StoreError> {
        Ok(match db.into() {
            Database::File(path) => Store(Arc::new(sqlite::Sqlite::open(&path)?)),
            Database::Postgres(url) => Store(Arc::new(postgres::Postgres::connect(&url)?)),
        })
        .and_then(|store| {
            let filled = store.fill_players()?;
            if filled > 0 {
                tracing::info!("{filled} games stored before player pages got their player rows");
            }
            let indexed = store.fill_name_index()?;
            if indexed > 0 {
                tracing::info!("{indexed} names stored before the search by part of a name were indexed");
            }
            Ok(store)
        })
    }

    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.count()? == 0)
    }

    /// Writes an upload and its snapshots in one transaction, stamped now (see
    /// [`Backend::write_game`]).
    pub fn insert(&self, g: &Ingested, new: NewGame) -> Result<Stored, StoreError> {
        let row = GameRow::of(g, new);
        let seats = players::game_seats(&row, &g.snapshots, &g.bga_ids);
        self.write_game(&row, &g.snapshots.rows(), &g.annotations, &seats)
    }

    /// Gives the games stored before the players table their seats, from their stored rows,
    /// each game in its own transaction. It walks the games without seats once, oldest first:
    /// once every game has them the walk finds none at once, and a start stopped halfway goes
    /// on where it stopped. A game whose rows do not read is logged and left without seats.
    /// How many games got their seats.
    pub fn fill_players(&self) -> Result<u64, StoreError> {
        let mut filled = 0;
        for what in [Missing::Seats, Missing::Tiles] {
            let mut after = 0;
            loop {
                let batch = self.games_missing(what, after, 500)?;
                let Some(&(last, _)) = batch.last() else {
                    break;
                };
                for (_, id) in batch {
                    match self.seats_from_rows(&id) {
                        Ok(seats) => filled += u64::from(self.write_seats(&id, &seats)?),
                        Err(e) => tracing::warn!(game = %id, "no player rows for this game: {e}"),
                    }
                }
                after = last;
            }
        }
        Ok(filled)
    }

    /// Indexes the names stored before the search by part of a name ([`players`]' module doc),
    /// walking them once in order, a batch a transaction: once every name is indexed the walk
    /// finds none at once. How many names it indexed.
    pub fn fill_name_index(&self) -> Result<u64, StoreError> {
        let (mut indexed, mut after) = (0, String::new());
        loop {
            let keys = self.unindexed_names(&after, 500)?;
            let Some(last) = keys.last() else {
                return Ok(indexed);
            };
            after = last.clone();
            self.index_names(&keys)?;
            indexed += keys.len() as u64;
        }
    }

    /// A stored game's seats, from its rows (without Board Game Arena ids: the stored record
    /// has none).
    fn seats_from_rows(&self, id: &GameId) -> Result<Vec<Seat>, StoreError> {
        let game = self
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt(format!("game {id} went away")))?;
        let turns = self.turns(id)?.map(|(_, rows)| rows).unwrap_or_default();
        Ok(players::game_seats(&game, &AnySnapshots::read(game.kind, &turns)?, &[]))
    }

    /// A game's snapshots, typed; `None` for a game without any.
    pub fn snapshots(&self, id: &GameId) -> Result<Option<AnySnapshots>, StoreError> {
        let Some((kind, rows)) = self.turns(id)? else {
            return Ok(None);
        };
        Ok(Some(AnySnapshots::read(kind, &rows)?))
    }
}

/// What asking for an analysis did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAnswer {
    /// Queued now: the worker should take it.
    Queued,
    /// Queued, running or done already.
    Already,
    /// Refused: this many analyses are waiting or running, the queue's capacity.
    Full { waiting: u64 },
    /// Refused: the one who asked holds this many of the queue's places, their whole share.
    OverShare { held: u64 },
}

/// The bounds an analysis is queued within: the queue's places in all, who asks, and how
/// many places one asker may hold.
#[derive(Clone, Copy, Debug)]
pub struct QueuePlace<'a> {
    pub capacity: u64,
    pub requester: &'a str,
    pub share: u64,
}

/// The version of analyses stored before versions were recorded (the column is NULL).
pub const FIRST_ANALYSIS_VERSION: u32 = 1;

/// Whether an analysis with this stored status and version (`found`, `None` for none) is to be
/// queued for analysis version `version`: when there is none, it failed, or it was done by an
/// older version.
fn wants_queueing(found: Option<(String, Option<u32>)>, version: u32) -> bool {
    let outdated = |made: Option<u32>| made.unwrap_or(FIRST_ANALYSIS_VERSION) < version;
    found.is_none_or(|(status, made)| status == "failed" || (status == "done" && outdated(made)))
}

/// A game's snapshot rows, each read with its game's kind, as the kind and the rows; `None`
/// for none.
fn of_one_kind(rows: Vec<(GameKind, TurnRow)>) -> Option<(GameKind, Vec<TurnRow>)> {
    let kind = rows.first()?.0;
    Some((kind, rows.into_iter().map(|(_, row)| row).collect()))
}

/// What an annotation's line is keyed by: its SHA-256 (a line runs to 16 KB, too long for an
/// index).
fn line_key(line: &str) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(line.as_bytes()).to_vec()
}

/// A game's annotations as stored (turn, line, text), read back in their order: by turn, the
/// turn as played first. A row the store holds is checked again: a corrupt one is an error,
/// and one that shows nothing (`Annotation::stored`) is left out.
fn annotations_of(rows: Vec<(u32, String, String)>) -> Result<Vec<Annotation>, StoreError> {
    let mut read = Vec::with_capacity(rows.len());
    for (turn, line, text) in rows {
        match Annotation::stored(turn, &line, &text) {
            Ok(Some(a)) => read.push(a),
            Ok(None) => tracing::warn!("an annotation on turn {turn} shows nothing: left out"),
            Err(e) => return Err(StoreError::Corrupt(format!("annotation on turn {turn}: {e}"))),
        }
    }
    read.sort_by(|a, b| (a.turn(), a.line()).cmp(&(b.turn(), b.line())));
    Ok(read)
}

/// A new lease's token: 16 random bytes in hex.
fn lease_token() -> Result<String, StoreError> {
    Ok(owner::random_bytes::<16>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Records are stored deflated: JSON text shrinks about four times, and a game's row then
/// fits in one database page instead of spilling into overflow pages.
fn deflate(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).expect("writing to memory does not fail");
    e.finish().expect("writing to memory does not fail")
}

fn inflate(bytes: &[u8]) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(bytes).read_to_string(&mut text)?;
    Ok(text)
}

/// Timestamps are RFC 3339 text written by us, in UTC, so that both databases read them back
/// the same.
pub(crate) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

//! SQLite storage: games and their per-turn snapshots. The schema lives in `migrations/` and is
//! applied at start. A game and all its snapshots are written in one transaction or not at all.

mod id;
pub(crate) mod ingest;
mod owner;
pub(crate) mod snapshot;
mod supply;

use crate::engine::GameKind;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use std::path::Path;
use std::time::Duration;

pub use id::{GameId, NotAGameId};
pub use ingest::{IllegalAt, IngestError, Ingested, Storable, canonical_id, ingest, prepare, upload};
pub use owner::{OwnerHash, OwnerToken, Ownership};
pub use supply::StoredSupply;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database pool: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("database migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("reading the random source for an owner token: {0}")]
    Random(#[from] std::io::Error),
}

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_games.sql")),
        M::up(include_str!("../../migrations/0002_analyses.sql")),
        M::up(include_str!("../../migrations/0003_game_kinds.sql")),
        M::up(include_str!("../../migrations/0004_owners.sql")),
        M::up(include_str!("../../migrations/0005_analysis_starts.sql")),
        M::up(include_str!("../../migrations/0006_analysis_versions.sql")),
        M::up(include_str!("../../migrations/0007_analysis_leases.sql")),
    ])
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

/// One stored snapshot; the JSON columns are kept as text.
#[derive(Clone, Debug)]
pub struct TurnRow {
    pub turn: u32,
    pub player: u8,
    /// The move in the game's notation (the tile game's is `snapshot::StoredMove`).
    pub mv: String,
    pub events: String,
    pub scores: String,
    /// Per player, a [`StoredSupply`].
    pub supply: String,
    pub ownership: String,
}

#[derive(Clone)]
pub struct Store {
    pool: Pool<SqliteConnectionManager>,
}

impl Store {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let manager = SqliteConnectionManager::file(path).with_init(|c| {
            // WAL lets pages read while an upload writes; the timeout waits out short locks.
            c.execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; \
                 PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
            )
        });
        let pool = Pool::builder().max_size(8).build(manager)?;
        let mut conn = pool.get()?;
        migrations().to_latest(&mut conn)?;
        Ok(Store { pool })
    }

    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.count()? == 0)
    }

    /// How many games are stored.
    pub fn count(&self) -> Result<u64, StoreError> {
        let conn = self.pool.get()?;
        let n: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Can the database answer a query?
    pub fn ping(&self) -> Result<(), StoreError> {
        let conn = self.pool.get()?;
        conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    /// Writes a game and its snapshots in one transaction. A game with the same id stored
    /// before is left as it is, its owner and listing included.
    pub fn insert(&self, g: &Ingested, new: NewGame) -> Result<Stored, StoreError> {
        let mut conn = self.pool.get()?;
        // Immediate: the write lock is taken up front, so concurrent uploads queue on the busy
        // timeout. A deferred transaction would read first and then fail to upgrade its lock
        // ("database is locked") whenever another upload wrote in between.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let listed: Option<bool> = tx
            .query_row("SELECT listed FROM games WHERE id = ?1", [&g.id], |r| r.get(0))
            .optional()?;
        if let Some(listed) = listed {
            return Ok(Stored::Already { listed });
        }
        tx.execute(
            "INSERT INTO games (id, kind, record, source_format, players, preset, turns, finished, final_scores, created_at, listed, owner_hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                g.id,
                g.kind.name(),
                deflate(&g.canonical),
                g.format.name(),
                serde_json::to_string(&g.players).unwrap_or_default(),
                g.rules,
                g.rows.len() as i64,
                g.finished,
                serde_json::to_string(&g.final_scores).unwrap_or_default(),
                now(),
                new.listed,
                new.owner.map(|h| h.0.to_vec()),
            ],
        )?;
        let seq = tx.last_insert_rowid();
        {
            let mut stmt = tx.prepare(
                "INSERT INTO snapshots (game, turn, player, move, events, scores, supply, ownership)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            for row in &g.rows {
                stmt.execute(params![
                    seq,
                    row.turn,
                    row.player,
                    row.mv,
                    row.events,
                    row.scores,
                    row.supply,
                    row.ownership
                ])?;
            }
        }
        tx.commit()?;
        Ok(Stored::New)
    }

    pub fn game(&self, id: &GameId) -> Result<Option<GameRow>, StoreError> {
        let conn = self.pool.get()?;
        Ok(conn
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                [id],
                game_row,
            )
            .optional()?)
    }

    /// Listed games, newest first: `limit` of them after skipping `offset`.
    pub fn listed(&self, offset: u64, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE listed = 1 ORDER BY created_at DESC, seq DESC LIMIT ?1 OFFSET ?2"
        ))?;
        let rows = stmt.query_map(params![limit, offset as i64], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many games are listed.
    pub fn count_listed(&self) -> Result<u64, StoreError> {
        let conn = self.pool.get()?;
        let n: i64 = conn.query_row("SELECT count(*) FROM games WHERE listed = 1", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Lists a game or takes it off the lists. False when there is no such game.
    pub fn set_listed(&self, id: &GameId, listed: bool) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        Ok(conn.execute("UPDATE games SET listed = ?2 WHERE id = ?1", params![id, listed])? > 0)
    }

    /// Deletes a game with its snapshots and its analysis. False when there is no such game.
    pub fn delete(&self, id: &GameId) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        // The snapshots and the analysis go with it: their foreign keys cascade.
        Ok(conn.execute("DELETE FROM games WHERE id = ?1", [id])? > 0)
    }

    /// One snapshot, with the kind of game it is in (which says how to read its JSON).
    pub fn turn(&self, id: &GameId, turn: u32) -> Result<Option<(GameKind, TurnRow)>, StoreError> {
        let conn = self.pool.get()?;
        Ok(conn
            .query_row(
                "SELECT s.turn, s.player, s.move, s.events, s.scores, s.supply, s.ownership, g.kind
                 FROM snapshots s JOIN games g ON g.seq = s.game WHERE g.id = ?1 AND s.turn = ?2",
                params![id, turn],
                |r| {
                    let row = TurnRow {
                        turn: r.get(0)?,
                        player: r.get(1)?,
                        mv: r.get(2)?,
                        events: r.get(3)?,
                        scores: r.get(4)?,
                        supply: r.get(5)?,
                        ownership: r.get(6)?,
                    };
                    Ok((kind(r, 7)?, row))
                },
            )
            .optional()?)
    }

    /// Queues a game's analysis by analysis version `version`, unless it is queued, running,
    /// or done already by that version or a later one (a failed one, or one done by an older
    /// version, is queued again), or `capacity` analyses are waiting or running: the queue is
    /// bounded here, in the database, so that a restart keeps the bound and the queue alike.
    pub fn queue_analysis(&self, id: &GameId, capacity: u64, version: u32) -> Result<QueueAnswer, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: Option<(String, Option<u32>)> = tx
            .query_row(
                "SELECT a.status, a.version FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let outdated = |made: Option<u32>| made.unwrap_or(FIRST_ANALYSIS_VERSION) < version;
        if found.is_some_and(|(status, made)| status != "failed" && !(status == "done" && outdated(made))) {
            return Ok(QueueAnswer::Already);
        }
        let waiting = count_waiting(&tx)?;
        if waiting >= capacity {
            return Ok(QueueAnswer::Full { waiting });
        }
        tx.execute(
            "INSERT INTO analyses (game, status, updated_at, queued_at)
             SELECT seq, 'queued', ?2, ?2 FROM games WHERE id = ?1
             ON CONFLICT (game) DO UPDATE SET status = 'queued', done = 0, error = NULL, starts = 0,
               updated_at = ?2, queued_at = ?2, lease_owner = NULL, lease_token = NULL, lease_until = NULL",
            params![id, now()],
        )?;
        tx.commit()?;
        Ok(QueueAnswer::Queued)
    }

    /// Analyses queued or running.
    pub fn analyses_waiting(&self) -> Result<u64, StoreError> {
        count_waiting(&*self.pool.get()?)
    }

    /// Claims the analysis that has waited longest, for `lease`: a queued one, or a running one
    /// whose worker's lease ran out (it stopped, or died). The claim counts a start. `owner`
    /// names the worker in the row, for whoever reads it. `None` when nothing waits.
    pub fn claim_analysis(&self, owner: &str, lease: Duration) -> Result<Option<Claim>, StoreError> {
        let token: String = owner::random_bytes::<16>()?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let now_ms = unix_ms();
        let conn = self.pool.get()?;
        // One statement: SQLite runs it under the write lock, so two workers never claim one job.
        let claimed = conn
            .query_row(
                "UPDATE analyses SET status = 'running', starts = starts + 1, lease_owner = ?1,
                   lease_token = ?2, lease_until = ?3 + ?4, updated_at = ?5
                 WHERE game = (SELECT game FROM analyses
                               WHERE status = 'queued'
                                  OR (status = 'running' AND (lease_until IS NULL OR lease_until < ?3))
                               ORDER BY queued_at, game LIMIT 1)
                 RETURNING starts, (SELECT id FROM games WHERE seq = analyses.game)",
                params![owner, token, now_ms, lease.as_millis() as i64, now()],
                |r| Ok((r.get::<_, u32>(0)?, r.get::<_, GameId>(1)?)),
            )
            .optional()?;
        Ok(claimed.map(|(starts, id)| Claim { id, starts, token }))
    }

    /// Records a held analysis's progress and extends its lease by `lease`. False when the lease
    /// is no longer the claim's (another worker took the job over, or it was asked for again):
    /// nothing is written then.
    pub fn analysis_progress(&self, claim: &Claim, done: u32, total: u32, lease: Duration) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        let changed = conn.execute(
            "UPDATE analyses SET done = ?3, total = ?4, lease_until = ?5, updated_at = ?6
             WHERE game = (SELECT seq FROM games WHERE id = ?1) AND status = 'running' AND lease_token = ?2",
            params![
                claim.id,
                claim.token,
                done,
                total,
                unix_ms() + lease.as_millis() as i64,
                now()
            ],
        )?;
        Ok(changed == 1)
    }

    /// Ends a held analysis: its JSON result by analysis version `version`, or why it failed.
    /// False, and nothing written, when the lease is no longer the claim's.
    pub fn finish_analysis(&self, claim: &Claim, result: Result<&str, &str>, version: u32) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        let (status, blob, error) = match result {
            Ok(json) => ("done", Some(deflate(json)), None),
            Err(e) => ("failed", None, Some(e)),
        };
        let changed = conn.execute(
            "UPDATE analyses SET status = ?3, result = ?4, error = ?5, done = total, updated_at = ?6, version = ?7,
               lease_owner = NULL, lease_token = NULL, lease_until = NULL
             WHERE game = (SELECT seq FROM games WHERE id = ?1) AND status = 'running' AND lease_token = ?2",
            params![claim.id, claim.token, status, blob, error, now(), version],
        )?;
        Ok(changed == 1)
    }

    /// The status of a game's analysis, and its result when done.
    pub fn analysis(&self, id: &GameId) -> Result<Option<(AnalysisStatus, Option<String>)>, StoreError> {
        let conn = self.pool.get()?;
        let row = conn
            .query_row(
                "SELECT a.status, a.done, a.total, a.error, a.result FROM analyses a
                 JOIN games g ON g.seq = a.game WHERE g.id = ?1",
                [id],
                |r| {
                    let blob: Option<Vec<u8>> = r.get(4)?;
                    Ok((analysis_status(r)?, blob.map(|b| inflate(&b)).transpose()?))
                },
            )
            .optional()?;
        Ok(row)
    }

    /// Where a game's analysis stands, without reading its result.
    pub fn analysis_status(&self, id: &GameId) -> Result<Option<AnalysisStatus>, StoreError> {
        let conn = self.pool.get()?;
        Ok(conn
            .query_row(
                "SELECT a.status, a.done, a.total, a.error FROM analyses a
                 JOIN games g ON g.seq = a.game WHERE g.id = ?1",
                [id],
                analysis_status,
            )
            .optional()?)
    }

    /// Bytes the database file uses, for the storage measurement.
    pub fn size_bytes(&self) -> Result<u64, StoreError> {
        let conn = self.pool.get()?;
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok((pages * size) as u64)
    }
}

/// Records are stored deflated: JSON text shrinks about four times, and a game's row then
/// fits in one database page instead of spilling into overflow pages.
fn deflate(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).expect("writing to memory does not fail");
    e.finish().expect("writing to memory does not fail")
}

fn inflate(bytes: &[u8]) -> rusqlite::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(bytes)
        .read_to_string(&mut text)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Blob, Box::new(e)))?;
    Ok(text)
}

/// Copies the database at `db` to a new file `to`, consistently, while the service may be
/// writing: SQLite's online backup in one step, which reads one snapshot (in WAL mode the
/// service's writers go on meanwhile). The copy is written beside `to` and renamed into place,
/// so `to` is never a half-written database.
pub fn backup(db: &Path, to: &Path) -> Result<(), BackupError> {
    if to.exists() {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    if !db.exists() {
        return Err(BackupError::NoDatabase(db.to_path_buf()));
    }
    let source = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    source.busy_timeout(std::time::Duration::from_secs(5))?;
    let partial = to.with_extension("partial");
    // The copy's own integrity check: "ok", or what is wrong.
    let copy = || -> Result<String, rusqlite::Error> {
        let mut dest = rusqlite::Connection::open(&partial)?;
        let backup = rusqlite::backup::Backup::new(&source, &mut dest)?;
        // Every page in one step: one snapshot. A writer holding the lock is waited out.
        while backup.step(-1)? != rusqlite::backup::StepResult::Done {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(backup);
        dest.query_row("PRAGMA integrity_check", [], |r| r.get(0))
    };
    match copy() {
        Ok(check) if check == "ok" => std::fs::rename(&partial, to).map_err(|e| BackupError::Io(to.to_path_buf(), e)),
        outcome => {
            let _ = std::fs::remove_file(&partial);
            Err(outcome.map_or_else(BackupError::from, BackupError::Damaged))
        }
    }
}

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} exists already; name a new file")]
    Exists(std::path::PathBuf),
    #[error("no database at {0}")]
    NoDatabase(std::path::PathBuf),
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the copy fails SQLite's integrity check: {0}")]
    Damaged(String),
    #[error("{0}: {1}")]
    Io(std::path::PathBuf, std::io::Error),
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
}

fn count_waiting(conn: &rusqlite::Connection) -> Result<u64, StoreError> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM analyses WHERE status IN ('queued', 'running')",
        [],
        |r| r.get(0),
    )?;
    Ok(n as u64)
}

/// Milliseconds since the Unix epoch: leases run on the clock of the host that holds the file.
fn unix_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The game kind in column `i`.
fn kind(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<GameKind> {
    let name: String = r.get(i)?;
    GameKind::from_name(&name).ok_or_else(|| {
        let e = format!("unknown game kind {name:?}");
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e.into())
    })
}

/// An analysis' status from its row's first four columns: status, done, total, error.
fn analysis_status(r: &rusqlite::Row<'_>) -> rusqlite::Result<AnalysisStatus> {
    let status: String = r.get(0)?;
    Ok(match status.as_str() {
        "queued" => AnalysisStatus::Queued,
        "running" => AnalysisStatus::Running {
            done: r.get(1)?,
            total: r.get(2)?,
        },
        "done" => AnalysisStatus::Done,
        _ => AnalysisStatus::Failed(r.get::<_, Option<String>>(3)?.unwrap_or_default()),
    })
}

/// The version of analyses stored before versions were recorded (the column is NULL).
pub const FIRST_ANALYSIS_VERSION: u32 = 1;

/// The columns [`game_row`] reads, in its order.
const GAME_COLUMNS: &str =
    "id, record, source_format, players, preset, turns, finished, final_scores, created_at, kind, listed, owner_hash";

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let players: String = r.get(3)?;
    let scores: String = r.get(7)?;
    let record: Vec<u8> = r.get(1)?;
    Ok(GameRow {
        id: r.get(0)?,
        kind: kind(r, 9)?,
        record: inflate(&record)?,
        source_format: r.get(2)?,
        players: serde_json::from_str(&players).unwrap_or_default(),
        preset: r.get(4)?,
        turns: r.get(5)?,
        finished: r.get(6)?,
        final_scores: serde_json::from_str(&scores).unwrap_or_default(),
        created_at: r.get(8)?,
        listed: r.get(10)?,
        owner: r
            .get::<_, Option<Vec<u8>>>(11)?
            .and_then(|h| <[u8; 32]>::try_from(h).ok())
            .map(OwnerHash),
    })
}

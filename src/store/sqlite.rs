//! The embedded store: one SQLite file, the default. Its schema is `migrations/*.sql`, applied
//! at open by `rusqlite_migration`; SQLite's own file lock makes that safe when several
//! processes open one file at once. Leases run on the clock of the host that holds the file.

use super::collection::{self, SeatAccuracy, errors_json, errors_of, lease_of};
use super::players::{
    self, AnalysedGame, GamePuzzle, Matched, Missing, Param, PlayerStats, Query, Search, Seat, SeatAnalysis,
    SeatPuzzle, TileRecord, TileScore, Typed, Who,
};
use super::{
    AnalysisStatus, Backend, Change, Changes, Claim, CollectedGame, CollectionId, CollectionName, CollectionRow,
    Counts, GameId, GameRow, ImportState, KEPT_CHANGES, OwnerHash, QueueAnswer, QueuePlace, QueueState, StoreError,
    Stored, StoredAnalysis, TurnRow, annotations_of, deflate, inflate, lease_token, line_key, now, seconds_since,
    wants_queueing,
};
use crate::engine::GameKind;
use crate::record::Annotation;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use std::path::Path;
use std::time::Duration;

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_games.sql")),
        M::up(include_str!("../../migrations/0002_analyses.sql")),
        M::up(include_str!("../../migrations/0003_game_kinds.sql")),
        M::up(include_str!("../../migrations/0004_owners.sql")),
        M::up(include_str!("../../migrations/0005_analysis_starts.sql")),
        M::up(include_str!("../../migrations/0006_analysis_versions.sql")),
        M::up(include_str!("../../migrations/0007_analysis_leases.sql")),
        M::up(include_str!("../../migrations/0008_game_changes.sql")),
        M::up(include_str!("../../migrations/0009_annotations.sql")),
        M::up(include_str!("../../migrations/0010_players.sql")),
        M::up(include_str!("../../migrations/0011_collections.sql")),
        M::up(include_str!("../../migrations/0012_puzzles_tiles_imports.sql")),
        M::up(include_str!("../../migrations/0013_name_parts.sql")),
        M::up(include_str!("../../migrations/0014_analysis_requesters.sql")),
        M::up(include_str!("../../migrations/0015_accuracy_from_points_lost.sql")),
        M::up(include_str!("../../migrations/0016_live_games.sql")),
    ])
}

pub(super) struct Sqlite {
    pool: Pool<SqliteConnectionManager>,
}

impl Sqlite {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub(super) fn open(path: &Path) -> Result<Sqlite, StoreError> {
        // One connection first: a file that cannot be opened says so at once, where the pool
        // would retry for its whole timeout.
        let mut first = rusqlite::Connection::open(path)?;
        init(&first)?;
        migrations().to_latest(&mut first)?;
        let manager = SqliteConnectionManager::file(path).with_init(|c| init(c));
        let pool = Pool::builder().max_size(8).build(manager)?;
        Ok(Sqlite { pool })
    }
}

impl Sqlite {
    /// Runs `write` in a transaction, and when it changed a row, notes the change of game `id`
    /// there too (`Backend::changes_since`). True when it changed a row.
    fn changing(
        &self,
        id: &GameId,
        what: Change,
        write: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<usize>,
    ) -> Result<bool, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let changed = write(&tx)? > 0;
        if changed {
            note_change(&tx, id, what)?;
        }
        tx.commit()?;
        Ok(changed)
    }
}

/// Notes in `tx` that game `id` changed (`Backend::changes_since`), keeping the latest
/// [`KEPT_CHANGES`].
fn note_change(tx: &rusqlite::Transaction, id: &GameId, what: Change) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO game_changes (game, what) VALUES (?1, ?2)",
        params![id, what.name()],
    )?;
    tx.execute(
        "DELETE FROM game_changes WHERE seq <= ?1",
        [tx.last_insert_rowid() - KEPT_CHANGES],
    )?;
    Ok(())
}

/// Writes a game's snapshots.
fn insert_turns(tx: &rusqlite::Transaction, game: i64, turns: &[TurnRow]) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO snapshots (game, turn, player, move, events, scores, supply, ownership)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for row in turns {
        stmt.execute(params![
            game,
            row.turn,
            row.player,
            row.mv,
            row.events,
            row.scores,
            row.supply,
            row.ownership
        ])?;
    }
    Ok(())
}

impl Backend for Sqlite {
    fn count(&self) -> Result<u64, StoreError> {
        let conn = self.pool.get()?;
        let n: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    fn counts(&self) -> Result<Counts, StoreError> {
        let conn = self.pool.get()?;
        let count = |table: &str| -> Result<u64, StoreError> {
            let n: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
            Ok(n as u64)
        };
        Ok(Counts {
            games: count("games")?,
            snapshots: count("snapshots")?,
            analyses: count("analyses")?,
            annotations: count("annotations")?,
            collections: count("collections")?,
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        let conn = self.pool.get()?;
        conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    fn write_game(
        &self,
        g: &GameRow,
        turns: &[TurnRow],
        annotations: &[Annotation],
        seats: &[Seat],
    ) -> Result<Stored, StoreError> {
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
            "INSERT INTO games (id, kind, record, source_format, players, preset, turns, finished, final_scores, created_at, listed, owner_hash, live)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                g.id,
                g.kind.name(),
                deflate(&g.record),
                g.source_format,
                serde_json::to_string(&g.players).unwrap_or_default(),
                g.preset,
                g.turns,
                g.finished,
                serde_json::to_string(&g.final_scores).unwrap_or_default(),
                g.created_at,
                g.listed,
                g.owner.map(|h| h.0.to_vec()),
                g.live,
            ],
        )?;
        let seq = tx.last_insert_rowid();
        insert_turns(&tx, seq, turns)?;
        {
            let mut stmt =
                tx.prepare("INSERT INTO annotations (game, turn, line_key, line, text) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for a in annotations {
                stmt.execute(params![seq, a.turn(), line_key(a.line()), a.line(), a.text()])?;
            }
        }
        insert_seats(&tx, seq, seats)?;
        tx.commit()?;
        Ok(Stored::New)
    }

    fn write_live(&self, g: &GameRow, was: &str, turns: &[TurnRow], seats: &[Seat]) -> Result<bool, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: Option<(i64, bool, Vec<u8>)> = tx
            .query_row("SELECT seq, live, record FROM games WHERE id = ?1", [&g.id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        let Some((seq, true, record)) = found else {
            return Ok(false);
        };
        if inflate(&record).map_err(StoreError::Inflate)? != was {
            return Ok(false);
        }
        tx.execute(
            "UPDATE games SET record = ?2, turns = ?3, finished = ?4, final_scores = ?5, live = ?6 WHERE seq = ?1",
            params![
                seq,
                deflate(&g.record),
                g.turns,
                g.finished,
                serde_json::to_string(&g.final_scores).unwrap_or_default(),
                g.live
            ],
        )?;
        for table in ["snapshots", "analyses", "players"] {
            tx.execute(&format!("DELETE FROM {table} WHERE game = ?1"), [seq])?;
        }
        insert_turns(&tx, seq, turns)?;
        insert_seats(&tx, seq, seats)?;
        note_change(&tx, &g.id, Change::Moves)?;
        tx.commit()?;
        Ok(true)
    }

    fn write_seats(&self, id: &GameId, seats: &[Seat]) -> Result<bool, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: Option<(i64, bool, bool)> = tx
            .query_row(
                "SELECT seq, EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq),
                        EXISTS (SELECT 1 FROM player_tiles t WHERE t.game = g.seq)
                 FROM games g WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        match found {
            Some((seq, false, _)) => insert_seats(&tx, seq, seats)?,
            Some((seq, true, false)) if seats.iter().any(|s| !s.tiles.is_empty()) => insert_tiles(&tx, seq, seats)?,
            _ => return Ok(false),
        }
        tx.commit()?;
        Ok(true)
    }

    fn games_missing(&self, what: Missing, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(&what.sql())?;
        let rows = stmt.query_map(params![after, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn bga_ids(&self, id: &GameId) -> Result<Vec<Option<u64>>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn
            .prepare("SELECT p.bga_id FROM players p JOIN games g ON g.seq = p.game WHERE g.id = ?1 ORDER BY p.seat")?;
        let rows = stmt.query_map([id], |r| r.get::<_, Option<i64>>(0))?;
        let ids: Vec<Option<i64>> = rows.collect::<Result<_, _>>()?;
        Ok(ids.into_iter().map(|i| i.map(|i| i as u64)).collect())
    }

    fn search(&self, search: &Search, offset: u64, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let Query { sql, params } = search.condition();
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE {sql} ORDER BY g.created_at DESC, g.seq DESC LIMIT {limit} OFFSET {offset}"
        );
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(bound(&params)), game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn count_search(&self, search: &Search) -> Result<u64, StoreError> {
        let Query { sql, params } = search.condition();
        let conn = self.pool.get()?;
        let n: i64 = conn.query_row(
            &format!("SELECT count(*) FROM games g WHERE {sql}"),
            rusqlite::params_from_iter(bound(&params)),
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    fn names_like(&self, typed: &Typed, limit: u32) -> Result<Vec<Matched>, StoreError> {
        let conn = self.pool.get()?;
        rows_of(&conn, &players::names_like(typed, limit), |r| {
            Ok(Matched {
                key: r.get(0)?,
                whole: r.get::<_, i64>(1)? == 1,
                listed_as: r.get(2)?,
            })
        })
    }

    fn unindexed_names(&self, after: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(players::UNINDEXED_NAMES)?;
        let rows = stmt.query_map(params![after, limit], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn index_names(&self, keys: &[String]) -> Result<(), StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        index_names(&tx, keys.iter().map(String::as_str))?;
        tx.commit()?;
        Ok(())
    }

    fn player_stats(&self, who: &Who, against: Option<&Who>) -> Result<PlayerStats, StoreError> {
        let conn = self.pool.get()?;
        let q = players::stats_queries(who, against);
        let mut stats = conn.query_row(
            &q.totals.sql,
            rusqlite::params_from_iter(bound(&q.totals.params)),
            |r| {
                Ok(PlayerStats {
                    games: r.get::<_, i64>(0)? as u64,
                    finished: r.get::<_, i64>(1)? as u64,
                    wins: r.get::<_, i64>(2)? as u64,
                    average_score: r.get(3)?,
                    opponent_seats: r.get::<_, i64>(4)? as u64,
                    ..PlayerStats::default()
                })
            },
        )?;
        stats.places = rows_of(&conn, &q.places, |r| {
            Ok((r.get::<_, i64>(0)? as u32, r.get::<_, i64>(1)? as u64))
        })?;
        stats.categories = rows_of(&conn, &q.categories, |r| {
            Ok(players::CategoryPoints {
                category: r.get(0)?,
                points: r.get(1)?,
                opponents: r.get(2)?,
            })
        })?;
        stats.best = rows_of(&conn, &q.best, |r| {
            Ok((
                r.get(0)?,
                players::Scoring {
                    points: r.get::<_, i64>(1)? as i32,
                    turn: r.get::<_, i64>(2)? as u32,
                    what: r.get(3)?,
                },
            ))
        })?;
        stats.names = rows_of(&conn, &q.names, |r| r.get(0))?;
        stats.analysed = rows_of(&conn, &q.analysed, |r| {
            Ok(AnalysedGame {
                id: r.get(0)?,
                kind: kind(r, 1)?,
                created_at: r.get(2)?,
                moves: r.get(3)?,
                accuracy: r.get(4)?,
                inaccuracies: r.get(5)?,
                mistakes: r.get(6)?,
                blunders: r.get(7)?,
            })
        })?;
        stats.mistakes = rows_of(&conn, &q.mistakes, |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
        (stats.puzzle_count, stats.puzzles_found) = conn.query_row(
            &q.puzzle_count.sql,
            rusqlite::params_from_iter(bound(&q.puzzle_count.params)),
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?;
        stats.puzzles = rows_of(&conn, &q.puzzles, |r| {
            let players: String = r.get(4)?;
            Ok(GamePuzzle {
                game: r.get(0)?,
                players: serde_json::from_str(&players).unwrap_or_default(),
                puzzle: SeatPuzzle {
                    turn: r.get(1)?,
                    found: r.get(2)?,
                    lead: r.get(3)?,
                },
            })
        })?;
        stats.tiles = rows_of(&conn, &q.tiles, |r| {
            Ok(TileRecord {
                kind: kind(r, 0)?,
                tile: r.get(1)?,
                example: r.get(2)?,
                score: TileScore {
                    placed: r.get(3)?,
                    points: r.get(4)?,
                },
            })
        })?;
        Ok(stats)
    }

    fn write_seat_analyses(&self, id: &GameId, seats: &[SeatAnalysis]) -> Result<bool, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let seq: Option<i64> = tx
            .query_row(
                "SELECT seq FROM games g WHERE id = ?1 AND EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq)",
                [id],
                |r| r.get(0),
            )
            .optional()?;
        let Some(seq) = seq else { return Ok(false) };
        tx.execute("DELETE FROM player_analyses WHERE game = ?1", [seq])?;
        {
            let mut row = tx.prepare(
                "INSERT INTO player_analyses (game, seat, moves, accuracy, inaccuracies, mistakes, blunders)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut kinds =
                tx.prepare("INSERT INTO player_mistakes (game, seat, kind, count) VALUES (?1, ?2, ?3, ?4)")?;
            let mut puzzles =
                tx.prepare("INSERT INTO player_puzzles (game, seat, turn, found, lead) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for a in seats {
                row.execute(params![
                    seq,
                    a.seat,
                    a.moves,
                    a.accuracy,
                    a.inaccuracies,
                    a.mistakes,
                    a.blunders
                ])?;
                for (kind, n) in &a.by_kind {
                    kinds.execute(params![seq, a.seat, kind, n])?;
                }
                for z in &a.puzzles {
                    puzzles.execute(params![seq, a.seat, z.turn, z.found, z.lead])?;
                }
            }
        }
        tx.commit()?;
        Ok(true)
    }

    fn analysed_without_seats(&self, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(players::ANALYSED_WITHOUT_SEATS)?;
        let rows = stmt.query_map(params![after, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn game(&self, id: &GameId) -> Result<Option<GameRow>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))?;
        Ok(stmt.query_row([id], game_row).optional()?)
    }

    fn game_ids(&self, offset: u64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare("SELECT id FROM games ORDER BY seq LIMIT ?1 OFFSET ?2")?;
        let rows = stmt.query_map(params![limit, offset as i64], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn set_listed(&self, id: &GameId, listed: bool) -> Result<bool, StoreError> {
        self.changing(id, Change::Owner, |tx| {
            tx.execute("UPDATE games SET listed = ?2 WHERE id = ?1", params![id, listed])
        })
    }

    fn set_owner(&self, id: &GameId, was: &OwnerHash, owner: &OwnerHash) -> Result<bool, StoreError> {
        self.changing(id, Change::Owner, |tx| {
            tx.execute(
                "UPDATE games SET owner_hash = ?3 WHERE id = ?1 AND owner_hash = ?2",
                params![id, was.0.to_vec(), owner.0.to_vec()],
            )
        })
    }

    fn delete(&self, id: &GameId) -> Result<bool, StoreError> {
        // The snapshots, the analysis and the annotations go with it: their foreign keys cascade.
        self.changing(id, Change::Owner, |tx| {
            tx.execute("DELETE FROM games WHERE id = ?1", [id])
        })
    }

    fn turns(&self, id: &GameId) -> Result<Option<(GameKind, Vec<TurnRow>)>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {TURN_COLUMNS}, g.kind FROM snapshots s JOIN games g ON g.seq = s.game WHERE g.id = ?1 ORDER BY s.turn"
        ))?;
        let rows: Vec<(GameKind, TurnRow)> = stmt
            .query_map([id], |r| Ok((kind(r, 7)?, turn_row(r)?)))?
            .collect::<Result<_, _>>()?;
        Ok(super::of_one_kind(rows))
    }

    fn queue_analysis(&self, id: &GameId, place: &QueuePlace, version: u32) -> Result<QueueAnswer, StoreError> {
        let mut conn = self.pool.get()?;
        // Immediate: the capacity check and the insert are one step for every process.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: Option<(String, Option<u32>)> = tx
            .query_row(
                "SELECT a.status, a.version FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if !wants_queueing(found, version) {
            return Ok(QueueAnswer::Already);
        }
        let waiting = count_waiting(&tx)?;
        if waiting >= place.capacity {
            return Ok(QueueAnswer::Full { waiting });
        }
        let held: i64 = tx.query_row(
            "SELECT count(*) FROM analyses WHERE status IN ('queued', 'running') AND requester = ?1",
            [place.requester],
            |r| r.get(0),
        )?;
        if held as u64 >= place.share {
            return Ok(QueueAnswer::OverShare { held: held as u64 });
        }
        tx.execute(
            "INSERT INTO analyses (game, status, updated_at, queued_at, requester)
             SELECT seq, 'queued', ?2, ?2, ?3 FROM games WHERE id = ?1
             ON CONFLICT (game) DO UPDATE SET status = 'queued', done = 0, error = NULL, starts = 0,
               updated_at = ?2, queued_at = ?2, lease_owner = NULL, lease_token = NULL, lease_until = NULL,
               requester = ?3",
            params![id, now(), place.requester],
        )?;
        tx.commit()?;
        Ok(QueueAnswer::Queued)
    }

    fn queue(&self) -> Result<QueueState, StoreError> {
        let conn = self.pool.get()?;
        let (waiting, oldest, lapsed): (i64, Option<String>, i64) = conn.query_row(
            "SELECT count(*), min(queued_at) FILTER (WHERE status = 'queued'),
                    count(*) FILTER (WHERE status = 'running' AND lease_until < ?1)
             FROM analyses WHERE status IN ('queued', 'running')",
            [unix_ms()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        Ok(QueueState {
            waiting: waiting as u64,
            oldest_seconds: seconds_since(oldest.as_deref()),
            lapsed: lapsed as u64,
        })
    }

    fn claim_analysis(&self, owner: &str, lease: Duration) -> Result<Option<Claim>, StoreError> {
        let token = lease_token()?;
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

    fn analysis_progress(&self, claim: &Claim, done: u32, total: u32, lease: Duration) -> Result<bool, StoreError> {
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

    fn finish_analysis(&self, claim: &Claim, result: Result<&str, &str>, version: u32) -> Result<bool, StoreError> {
        let (status, blob, error) = match result {
            Ok(json) => ("done", Some(deflate(json)), None),
            Err(e) => ("failed", None, Some(e)),
        };
        self.changing(&claim.id, Change::Analysis, |tx| {
            tx.execute(
                "UPDATE analyses SET status = ?3, result = ?4, error = ?5, done = total, updated_at = ?6, version = ?7,
                   lease_owner = NULL, lease_token = NULL, lease_until = NULL
                 WHERE game = (SELECT seq FROM games WHERE id = ?1) AND status = 'running' AND lease_token = ?2",
                params![claim.id, claim.token, status, blob, error, now(), version],
            )
        })
    }

    fn release_analysis(&self, claim: &Claim) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        let changed = conn.execute(
            "UPDATE analyses SET status = 'queued', done = 0, starts = max(starts - 1, 0), updated_at = ?3,
               lease_owner = NULL, lease_token = NULL, lease_until = NULL
             WHERE game = (SELECT seq FROM games WHERE id = ?1) AND status = 'running' AND lease_token = ?2",
            params![claim.id, claim.token, now()],
        )?;
        Ok(changed == 1)
    }

    fn analysis_status(&self, id: &GameId) -> Result<Option<AnalysisStatus>, StoreError> {
        let conn = self.pool.get()?;
        // Cached: every page of a game asks, and preparing it took as long as running it.
        let mut stmt = conn.prepare_cached(
            "SELECT a.status, a.done, a.total, a.error FROM analyses a
             JOIN games g ON g.seq = a.game WHERE g.id = ?1",
        )?;
        Ok(stmt.query_row([id], analysis_status).optional()?)
    }

    fn stored_analysis(&self, id: &GameId) -> Result<Option<StoredAnalysis>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(
            "SELECT a.status, a.done, a.total, a.error, a.result, a.version, a.starts, a.updated_at, a.queued_at
             FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = ?1",
        )?;
        let found = stmt.query_row([id], |r| {
            let blob: Option<Vec<u8>> = r.get(4)?;
            Ok(StoredAnalysis {
                status: analysis_status(r)?,
                result: blob.map(|b| inflate(&b)).transpose().map_err(bad_blob)?,
                version: r.get(5)?,
                starts: r.get(6)?,
                updated_at: r.get(7)?,
                queued_at: r.get(8)?,
            })
        });
        Ok(found.optional()?)
    }

    fn write_analysis(&self, id: &GameId, a: &StoredAnalysis) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        let (status, done, total, error) = a.status.columns();
        let changed = conn.execute(
            "INSERT INTO analyses (game, status, done, total, error, result, version, starts, updated_at, queued_at)
             SELECT seq, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 FROM games WHERE id = ?1
             ON CONFLICT (game) DO NOTHING",
            params![
                id,
                status,
                done,
                total,
                error,
                a.result.as_deref().map(deflate),
                a.version,
                a.starts,
                a.updated_at,
                a.queued_at
            ],
        )?;
        Ok(changed == 1)
    }

    fn changes_since(&self, after: Option<i64>) -> Result<Changes, StoreError> {
        let conn = self.pool.get()?;
        let Some(after) = after else {
            let last = conn.query_row("SELECT coalesce(max(seq), 0) FROM game_changes", [], |r| r.get(0))?;
            return Ok(Changes { last, games: vec![] });
        };
        let mut stmt = conn.prepare("SELECT seq, game, what FROM game_changes WHERE seq > ?1 ORDER BY seq")?;
        let rows = stmt.query_map([after], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, GameId>(1)?, r.get::<_, String>(2)?))
        })?;
        let mut changes = Changes {
            last: after,
            games: vec![],
        };
        for row in rows {
            let (seq, id, what) = row?;
            changes.last = seq;
            changes.games.push((id, Change::from_name(&what)?));
        }
        Ok(changes)
    }

    fn annotations(&self, id: &GameId) -> Result<Vec<Annotation>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(
            "SELECT a.turn, a.line, a.text FROM annotations a JOIN games g ON g.seq = a.game WHERE g.id = ?1",
        )?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        annotations_of(rows.collect::<Result<_, _>>()?)
    }

    fn annotate(&self, id: &GameId, a: &Annotation) -> Result<bool, StoreError> {
        self.changing(id, Change::Annotations, |tx| {
            tx.execute(
                "INSERT INTO annotations (game, turn, line_key, line, text)
                 SELECT seq, ?2, ?3, ?4, ?5 FROM games WHERE id = ?1
                 ON CONFLICT (game, turn, line_key) DO UPDATE SET text = excluded.text",
                params![id, a.turn(), line_key(a.line()), a.line(), a.text()],
            )
        })
    }

    fn unannotate(&self, id: &GameId, turn: u32, line: &str) -> Result<bool, StoreError> {
        self.changing(id, Change::Annotations, |tx| {
            tx.execute(
                "DELETE FROM annotations WHERE game = (SELECT seq FROM games WHERE id = ?1) AND turn = ?2 AND line_key = ?3",
                params![id, turn, line_key(line)],
            )
        })
    }

    fn create_collection(&self, c: &CollectionRow) -> Result<(), StoreError> {
        let conn = self.pool.get()?;
        conn.execute(
            "INSERT INTO collections (id, name, owner_hash, created_at, import_total, import_done, import_errors, import_lease_until)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                c.id,
                c.name.as_str(),
                c.owner.0.to_vec(),
                c.created_at,
                c.import.total,
                c.import.done,
                errors_json(&c.import.errors),
                c.import.lease_column()
            ],
        )?;
        Ok(())
    }

    fn collection_ids(&self, offset: u64, limit: u32) -> Result<Vec<CollectionId>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare("SELECT id FROM collections ORDER BY seq LIMIT ?1 OFFSET ?2")?;
        let rows = stmt.query_map(params![limit, offset as i64], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn collection(&self, id: &CollectionId) -> Result<Option<CollectionRow>, StoreError> {
        let conn = self.pool.get()?;
        let row = conn
            .query_row(
                "SELECT name, owner_hash, created_at, import_total, import_done, import_errors, import_lease_until
                 FROM collections WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Vec<u8>>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, u32>(3)?,
                        r.get::<_, u32>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, Option<String>>(6)?,
                    ))
                },
            )
            .optional()?;
        row.map(|(name, owner, created_at, total, done, errors, lease)| {
            Ok(CollectionRow {
                id: *id,
                name: CollectionName::stored(name),
                owner: OwnerHash::from_column(Some(owner))
                    .ok_or_else(|| StoreError::Corrupt(format!("collection {id} has no owner")))?,
                created_at,
                import: ImportState {
                    total,
                    done,
                    errors: errors_of(&errors)?,
                    lease_until: lease_of(lease),
                },
            })
        })
        .transpose()
    }

    fn rename_collection(&self, id: &CollectionId, name: &CollectionName) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        let n = conn.execute(
            "UPDATE collections SET name = ?2 WHERE id = ?1",
            params![id, name.as_str()],
        )?;
        Ok(n == 1)
    }

    fn add_to_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut added = 0;
        {
            let mut stmt = tx.prepare(
                "INSERT INTO collection_games (collection, game, position)
                 SELECT c.seq, g.seq,
                        coalesce((SELECT max(position) FROM collection_games WHERE collection = c.seq), 0) + 1
                 FROM collections c, games g WHERE c.id = ?1 AND g.id = ?2
                 ON CONFLICT DO NOTHING",
            )?;
            for game in games {
                added += stmt.execute(params![id, game])? as u32;
            }
        }
        tx.commit()?;
        Ok(added)
    }

    fn remove_from_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction()?;
        let mut removed = 0;
        {
            let mut stmt = tx.prepare(
                "DELETE FROM collection_games
                 WHERE collection = (SELECT seq FROM collections WHERE id = ?1)
                   AND game = (SELECT seq FROM games WHERE id = ?2)",
            )?;
            for game in games {
                removed += stmt.execute(params![id, game])? as u32;
            }
        }
        tx.commit()?;
        Ok(removed)
    }

    fn import_progress(&self, id: &CollectionId, import: &ImportState) -> Result<(), StoreError> {
        let conn = self.pool.get()?;
        conn.execute(
            "UPDATE collections SET import_total = ?2, import_done = ?3, import_errors = ?4, import_lease_until = ?5
                 WHERE id = ?1",
            params![
                id,
                import.total,
                import.done,
                errors_json(&import.errors),
                import.lease_column()
            ],
        )?;
        Ok(())
    }

    fn collection_games(&self, id: &CollectionId) -> Result<Vec<CollectedGame>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(
            "SELECT a.status, a.done, a.total, a.error,
                    g.id, g.kind, g.players, g.final_scores, g.finished, g.preset, g.turns, g.created_at
             FROM collections c
             JOIN collection_games cg ON cg.collection = c.seq
             JOIN games g ON g.seq = cg.game
             LEFT JOIN analyses a ON a.game = g.seq
             WHERE c.id = ?1 ORDER BY cg.position, cg.game",
        )?;
        let rows = stmt.query_map([id], |r| {
            let status: Option<String> = r.get(0)?;
            let players: String = r.get(6)?;
            let scores: String = r.get(7)?;
            Ok(CollectedGame {
                analysis: match status {
                    Some(_) => Some(analysis_status(r)?),
                    None => None,
                },
                id: r.get(4)?,
                kind: kind(r, 5)?,
                players: serde_json::from_str(&players).unwrap_or_default(),
                final_scores: serde_json::from_str(&scores).unwrap_or_default(),
                finished: r.get(8)?,
                preset: r.get(9)?,
                turns: r.get(10)?,
                created_at: r.get(11)?,
                accuracy: Vec::new(),
            })
        })?;
        let games = rows.collect::<Result<_, _>>()?;
        let mut stmt = conn.prepare_cached(collection::SEAT_ACCURACIES)?;
        let rows = stmt.query_map([id], |r| {
            let seat = SeatAccuracy {
                seat: r.get(1)?,
                moves: r.get(2)?,
                accuracy: r.get(3)?,
            };
            Ok((r.get(0)?, seat))
        })?;
        Ok(collection::with_accuracies(games, rows.collect::<Result<_, _>>()?))
    }

    fn size_bytes(&self) -> Result<u64, StoreError> {
        let conn = self.pool.get()?;
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok((pages * size) as u64)
    }
}

/// Writes a game's seats and their points by category.
fn insert_seats(tx: &rusqlite::Transaction, game: i64, seats: &[Seat]) -> rusqlite::Result<()> {
    let mut seat_row = tx.prepare(
        "INSERT INTO players (game, seat, name, match_key, bga_id, score, place, finished, best_points, best_turn, best_what)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    let mut points = tx.prepare("INSERT INTO player_points (game, seat, category, points) VALUES (?1, ?2, ?3, ?4)")?;
    for s in seats {
        seat_row.execute(params![
            game,
            s.seat,
            s.name,
            s.key,
            s.bga_id.map(|i| i as i64),
            s.score,
            s.place,
            s.finished,
            s.best.points,
            s.best.turn,
            s.best.what
        ])?;
        for (category, p) in &s.points {
            points.execute(params![game, s.seat, category, p])?;
        }
    }
    index_names(tx, seats.iter().map(|s| s.key.as_str()))?;
    insert_tiles(tx, game, seats)
}

/// Writes the search's index rows of the names (match keys) it lacks.
fn index_names<'k>(tx: &rusqlite::Transaction, keys: impl Iterator<Item = &'k str>) -> rusqlite::Result<()> {
    let mut indexed = tx.prepare_cached("SELECT 1 FROM name_parts WHERE match_key = ?1")?;
    let mut row = tx.prepare_cached("INSERT OR IGNORE INTO name_parts (match_key, part, at) VALUES (?1, ?2, ?3)")?;
    for key in keys {
        if indexed.exists([key])? {
            continue;
        }
        for p in players::name_parts(key) {
            row.execute(params![p.key, p.part, p.at as u8])?;
        }
    }
    Ok(())
}

fn insert_tiles(tx: &rusqlite::Transaction, game: i64, seats: &[Seat]) -> rusqlite::Result<()> {
    let mut row =
        tx.prepare("INSERT INTO player_tiles (game, seat, tile, placed, points) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for s in seats {
        for (tile, t) in &s.tiles {
            row.execute(params![game, s.seat, tile, t.placed, t.points])?;
        }
    }
    Ok(())
}

/// The rows of a query, each read by `f`.
fn rows_of<T>(
    conn: &rusqlite::Connection,
    q: &Query,
    f: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = conn.prepare(&q.sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(bound(&q.params)), f)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Query parameters as rusqlite binds them.
fn bound(params: &[Param]) -> Vec<rusqlite::types::Value> {
    (params.iter())
        .map(|p| match p {
            Param::Text(t) => rusqlite::types::Value::Text(t.clone()),
            Param::Int(i) => rusqlite::types::Value::Integer(*i),
        })
        .collect()
}

/// Every connection's settings. WAL lets pages read while an upload writes; the timeout waits
/// out short locks.
fn init(c: &rusqlite::Connection) -> rusqlite::Result<()> {
    c.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; \
         PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
    )
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

fn bad_blob(e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Blob, Box::new(e))
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
    Ok(AnalysisStatus::from_columns(&status, r.get(1)?, r.get(2)?, r.get(3)?))
}

/// The columns [`turn_row`] reads, in its order, from snapshots `s`.
const TURN_COLUMNS: &str = "s.turn, s.player, s.move, s.events, s.scores, s.supply, s.ownership";

fn turn_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TurnRow> {
    Ok(TurnRow {
        turn: r.get(0)?,
        player: r.get(1)?,
        mv: r.get(2)?,
        events: r.get(3)?,
        scores: r.get(4)?,
        supply: r.get(5)?,
        ownership: r.get(6)?,
    })
}

/// The columns [`game_row`] reads, in its order.
const GAME_COLUMNS: &str = "id, record, source_format, players, preset, turns, finished, final_scores, created_at, kind, listed, owner_hash, live";

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let players: String = r.get(3)?;
    let scores: String = r.get(7)?;
    let record: Vec<u8> = r.get(1)?;
    Ok(GameRow {
        id: r.get(0)?,
        kind: kind(r, 9)?,
        record: inflate(&record).map_err(bad_blob)?,
        source_format: r.get(2)?,
        players: serde_json::from_str(&players).unwrap_or_default(),
        preset: r.get(4)?,
        turns: r.get(5)?,
        finished: r.get(6)?,
        final_scores: serde_json::from_str(&scores).unwrap_or_default(),
        created_at: r.get(8)?,
        listed: r.get(10)?,
        owner: OwnerHash::from_column(r.get(11)?),
        live: r.get(12)?,
    })
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

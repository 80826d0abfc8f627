//! The shared store: a PostgreSQL server that many web nodes and workers use at once.
//!
//! The driver is `tokio-postgres` with a `deadpool-postgres` pool, on a small tokio runtime of
//! the store's own: the store's callers block (see the module above), and the pool's
//! connections must outlive any one caller's runtime (actix runs one per worker thread, and
//! tests start and stop theirs).
//!
//! Its schema is `migrations/postgres/*.sql`, applied at connect in one transaction under an
//! advisory lock, so that nodes starting together apply each file once. Leases end at the
//! server's clock. Queueing an analysis takes an advisory lock too, so that the queue's bound
//! holds across nodes; claiming one skips rows another worker is claiming
//! (`FOR UPDATE SKIP LOCKED`).

use super::collection::{self, SeatAccuracy, errors_json, errors_of, lease_of};
use super::players::{
    self, AnalysedGame, CategoryPoints, GamePuzzle, Matched, Missing, NamePart, Param, PlayerStats, Query, Scoring,
    Search, Seat, SeatAnalysis, SeatPuzzle, TileRecord, TileScore, Typed, Who,
};
use super::{
    AnalysisStatus, Backend, Change, Changes, Claim, CollectedGame, CollectionId, CollectionName, CollectionRow,
    Counts, GameId, GameRow, ImportState, KEPT_CHANGES, OwnerHash, QueueAnswer, QueuePlace, QueueState, StoreError,
    Stored, StoredAnalysis, TurnRow, annotations_of, deflate, inflate, lease_token, line_key, now, seconds_since,
    wants_queueing,
};
use crate::engine::GameKind;
use crate::record::Annotation;
use deadpool_postgres::{Client, Config, ManagerConfig, Pool, PoolConfig, RecyclingMethod, Runtime, Timeouts};
use std::time::Duration;
use tokio_postgres::{NoTls, Row};

/// The schema, one file a version, in order: `schema_migrations` records how many are applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_schema.sql"),
    include_str!("../../migrations/postgres/0002_game_changes.sql"),
    include_str!("../../migrations/postgres/0003_annotations.sql"),
    include_str!("../../migrations/postgres/0004_players.sql"),
    include_str!("../../migrations/postgres/0005_collections.sql"),
    include_str!("../../migrations/postgres/0006_puzzles_tiles_imports.sql"),
    include_str!("../../migrations/postgres/0007_name_parts.sql"),
    include_str!("../../migrations/postgres/0008_analysis_requesters.sql"),
    include_str!("../../migrations/postgres/0009_accuracy_from_points_lost.sql"),
    include_str!("../../migrations/postgres/0010_live_games.sql"),
];

/// Advisory lock keys (any 64-bit numbers of ours): for migrating, for queueing, and for
/// noting a change (held to the commit, so that changes commit in `seq` order).
const MIGRATION_LOCK: i64 = 0x6361_7263_0000_0001;
const QUEUE_LOCK: i64 = 0x6361_7263_0000_0002;
const CHANGE_LOCK: i64 = 0x6361_7263_0000_0003;

/// Connections a process keeps at most: the web handlers' blocking threads and the workers
/// share them.
const POOL_SIZE: usize = 16;

pub(super) struct Postgres {
    pool: Pool,
    rt: OwnRuntime,
}

/// The store's runtime. Dropped in the background: the last copy of a store may go on an
/// async thread (a server's state, when it stops), where waiting for a runtime is forbidden.
struct OwnRuntime(Option<tokio::runtime::Runtime>);

impl Drop for OwnRuntime {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

impl Postgres {
    /// Connects to the server at `url` and brings its schema up to date.
    pub(super) fn connect(url: &str) -> Result<Postgres, StoreError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("postgres")
            .enable_all()
            .build()
            .map_err(StoreError::Runtime)?;
        let mut config = Config::new();
        config.url = Some(url.to_string());
        config.options = Some(session_options(url));
        config.manager = Some(ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        });
        config.pool = Some(PoolConfig {
            max_size: POOL_SIZE,
            timeouts: Timeouts {
                wait: Some(Duration::from_secs(30)),
                create: Some(Duration::from_secs(10)),
                recycle: Some(Duration::from_secs(10)),
            },
            ..PoolConfig::default()
        });
        let pool = config.create_pool(Some(Runtime::Tokio1), NoTls)?;
        let pg = Postgres {
            pool,
            rt: OwnRuntime(Some(rt)),
        };
        pg.run(async |c| migrate(c).await)?;
        Ok(pg)
    }

    /// Runs `job` on a pooled connection, waiting for it.
    fn run<T>(&self, job: impl AsyncFnOnce(&mut Client) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let rt = self.rt.0.as_ref().expect("the runtime lives as long as the store");
        rt.block_on(async {
            let mut client = self.pool.get().await?;
            job(&mut client).await
        })
    }
}

/// What every connection of the store sets, after the URL's own options. No parallel workers:
/// they pay off on big scans, and the store's queries are index lookups over a few thousand
/// rows at most, where starting workers costs more than it saves. `bench players 100000`
/// on 2 cores: a player page over 1,000 games, its statistics not kept, in 82 ms with them.
fn session_options(url: &str) -> String {
    let given = (url.parse::<tokio_postgres::Config>().ok()).and_then(|c| c.get_options().map(str::to_string));
    let ours = "-c max_parallel_workers_per_gather=0";
    given.map_or_else(|| ours.to_string(), |g| format!("{g} {ours}"))
}

/// Applies the migrations this database lacks, all in one transaction under an advisory lock:
/// a node that starts while another migrates waits, then finds nothing to do.
async fn migrate(c: &mut Client) -> Result<(), StoreError> {
    let tx = c.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
           version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .await?;
    let applied: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[])
        .await?
        .try_get(0)?;
    let known = MIGRATIONS.len() as i32;
    if applied > known {
        return Err(StoreError::Corrupt(format!(
            "the database's schema is at version {applied}, newer than this release's {known}: run a newer release"
        )));
    }
    for (version, sql) in (1..).zip(MIGRATIONS).skip(applied as usize) {
        tx.batch_execute(sql).await?;
        tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&version])
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

impl Backend for Postgres {
    fn count(&self) -> Result<u64, StoreError> {
        self.run(async |c| count(c, "SELECT count(*) FROM games").await)
    }

    fn counts(&self) -> Result<Counts, StoreError> {
        self.run(async |c| {
            Ok(Counts {
                games: count(c, "SELECT count(*) FROM games").await?,
                snapshots: count(c, "SELECT count(*) FROM snapshots").await?,
                analyses: count(c, "SELECT count(*) FROM analyses").await?,
                annotations: count(c, "SELECT count(*) FROM annotations").await?,
                collections: count(c, "SELECT count(*) FROM collections").await?,
            })
        })
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.run(async |c| {
            c.query_one("SELECT 1", &[]).await?;
            Ok(())
        })
    }

    fn write_game(
        &self,
        g: &GameRow,
        turns: &[TurnRow],
        annotations: &[Annotation],
        seats: &[Seat],
    ) -> Result<Stored, StoreError> {
        let id = g.id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            // A game another node is storing at this moment: the insert waits for its
            // transaction, then does nothing, and the game is the one stored.
            let inserted = tx
                .query_opt(
                    "INSERT INTO games (id, kind, record, source_format, players, preset, turns, finished, final_scores, created_at, listed, owner_hash, live)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                     ON CONFLICT (id) DO NOTHING RETURNING seq",
                    &[
                        &id,
                        &g.kind.name(),
                        &deflate(&g.record),
                        &g.source_format,
                        &serde_json::to_string(&g.players).unwrap_or_default(),
                        &g.preset,
                        &(g.turns as i32),
                        &g.finished,
                        &serde_json::to_string(&g.final_scores).unwrap_or_default(),
                        &g.created_at,
                        &g.listed,
                        &g.owner.map(|h| h.0.to_vec()),
                        &g.live,
                    ],
                )
                .await?;
            let Some(inserted) = inserted else {
                let listed = tx.query_one("SELECT listed FROM games WHERE id = $1", &[&id]).await?;
                return Ok(Stored::Already {
                    listed: listed.try_get(0)?,
                });
            };
            let seq: i64 = inserted.try_get(0)?;
            insert_turns(&tx, seq, turns).await?;
            if !annotations.is_empty() {
                tx.execute(
                    "INSERT INTO annotations (game, turn, line_key, line, text)
                     SELECT $1, * FROM unnest($2::int4[], $3::bytea[], $4::text[], $5::text[])",
                    &[
                        &seq,
                        &annotations.iter().map(|a| a.turn() as i32).collect::<Vec<_>>(),
                        &annotations.iter().map(|a| line_key(a.line())).collect::<Vec<_>>(),
                        &annotations.iter().map(Annotation::line).collect::<Vec<_>>(),
                        &annotations.iter().map(Annotation::text).collect::<Vec<_>>(),
                    ],
                )
                .await?;
            }
            insert_seats(&tx, seq, seats).await?;
            tx.commit().await?;
            Ok(Stored::New)
        })
    }

    fn write_live(&self, g: &GameRow, was: &str, turns: &[TurnRow], seats: &[Seat]) -> Result<bool, StoreError> {
        let id = g.id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            // Locks the game's row: of two moves at once, the second reads the first's record.
            let found = (tx.query_opt("SELECT seq, live, record FROM games WHERE id = $1 FOR UPDATE", &[&id])).await?;
            let Some(found) = found else { return Ok(false) };
            let (seq, live): (i64, bool) = (found.try_get(0)?, found.try_get(1)?);
            if !live || inflate(found.try_get(2)?).map_err(StoreError::Inflate)? != was {
                return Ok(false);
            }
            tx.execute(
                "UPDATE games SET record = $2, turns = $3, finished = $4, final_scores = $5, live = $6 WHERE seq = $1",
                &[
                    &seq,
                    &deflate(&g.record),
                    &(g.turns as i32),
                    &g.finished,
                    &serde_json::to_string(&g.final_scores).unwrap_or_default(),
                    &g.live,
                ],
            )
            .await?;
            for table in ["snapshots", "analyses", "players"] {
                tx.execute(&format!("DELETE FROM {table} WHERE game = $1"), &[&seq])
                    .await?;
            }
            insert_turns(&tx, seq, turns).await?;
            insert_seats(&tx, seq, seats).await?;
            noted(tx, 1, &id, Change::Moves).await
        })
    }

    fn write_seats(&self, id: &GameId, seats: &[Seat]) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            // Locks the game's row: two nodes starting together write its seats once.
            let found = tx
                .query_opt("SELECT seq FROM games WHERE id = $1 FOR UPDATE", &[&id])
                .await?;
            let Some(seq) = found.map(|r| r.try_get::<_, i64>(0)).transpose()? else {
                return Ok(false);
            };
            let has = async |table: &str| -> Result<bool, StoreError> {
                let sql = format!("SELECT 1 FROM {table} WHERE game = $1 LIMIT 1");
                Ok(tx.query_opt(&sql, &[&seq]).await?.is_some())
            };
            if !has("players").await? {
                insert_seats(&tx, seq, seats).await?;
            } else if !has("player_tiles").await? && seats.iter().any(|s| !s.tiles.is_empty()) {
                insert_tiles(&tx, seq, seats).await?;
            } else {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn games_missing(&self, what: Missing, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError> {
        let sql = dollars(&what.sql());
        self.run(async |c| {
            let rows = c.query(&sql, &[&after, &i64::from(limit)]).await?;
            rows.iter().map(|r| Ok((r.try_get(0)?, game_id(r, 1)?))).collect()
        })
    }

    fn bga_ids(&self, id: &GameId) -> Result<Vec<Option<u64>>, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let rows = c
                .query(
                    "SELECT p.bga_id FROM players p JOIN games g ON g.seq = p.game WHERE g.id = $1 ORDER BY p.seat",
                    &[&id],
                )
                .await?;
            rows.iter()
                .map(|r| Ok(r.try_get::<_, Option<i64>>(0)?.map(|i| i as u64)))
                .collect()
        })
    }

    fn search(&self, search: &Search, offset: u64, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let Query { sql, params } = search.condition();
        let sql = dollars(&format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE {sql} ORDER BY g.created_at DESC, g.seq DESC LIMIT {limit} OFFSET {offset}"
        ));
        self.run(async |c| {
            let rows = c.query(&sql, &bound(&params)).await?;
            rows.iter().map(game_row).collect()
        })
    }

    fn count_search(&self, search: &Search) -> Result<u64, StoreError> {
        let Query { sql, params } = search.condition();
        let sql = dollars(&format!("SELECT count(*) FROM games g WHERE {sql}"));
        self.run(async |c| {
            let n: i64 = c.query_one(&sql, &bound(&params)).await?.try_get(0)?;
            Ok(n as u64)
        })
    }

    fn names_like(&self, typed: &Typed, limit: u32) -> Result<Vec<Matched>, StoreError> {
        let Query { sql, params } = players::names_like(typed, limit);
        let sql = dollars(&sql);
        self.run(async |c| {
            let rows = c.query(&sql, &bound(&params)).await?;
            (rows.iter())
                .map(|r| {
                    Ok(Matched {
                        key: r.try_get(0)?,
                        whole: r.try_get::<_, i32>(1)? == 1,
                        listed_as: r.try_get(2)?,
                    })
                })
                .collect()
        })
    }

    fn unindexed_names(&self, after: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let sql = dollars(players::UNINDEXED_NAMES);
        self.run(async |c| {
            let rows = c.query(&sql, &[&after, &i64::from(limit)]).await?;
            rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
        })
    }

    fn index_names(&self, keys: &[String]) -> Result<(), StoreError> {
        self.run(async |c| index_names(c, keys.iter().map(String::as_str)).await)
    }

    fn player_stats(&self, who: &Who, against: Option<&Who>) -> Result<PlayerStats, StoreError> {
        let q = players::stats_queries(who, against);
        self.run(async |c| {
            let all = async |q: &Query| -> Result<Vec<Row>, StoreError> {
                Ok(c.query(&dollars(&q.sql), &bound(&q.params)).await?)
            };
            let t = c.query_one(&dollars(&q.totals.sql), &bound(&q.totals.params)).await?;
            let mut stats = PlayerStats {
                games: t.try_get::<_, i64>(0)? as u64,
                finished: t.try_get::<_, i64>(1)? as u64,
                wins: t.try_get::<_, i64>(2)? as u64,
                average_score: t.try_get(3)?,
                opponent_seats: t.try_get::<_, i64>(4)? as u64,
                ..PlayerStats::default()
            };
            for r in all(&q.places).await? {
                stats
                    .places
                    .push((r.try_get::<_, i64>(0)? as u32, r.try_get::<_, i64>(1)? as u64));
            }
            for r in all(&q.categories).await? {
                stats.categories.push(CategoryPoints {
                    category: r.try_get(0)?,
                    points: r.try_get(1)?,
                    opponents: r.try_get(2)?,
                });
            }
            for r in all(&q.best).await? {
                let scoring = Scoring {
                    points: r.try_get::<_, i64>(1)? as i32,
                    turn: r.try_get::<_, i64>(2)? as u32,
                    what: r.try_get(3)?,
                };
                stats.best.push((game_id(&r, 0)?, scoring));
            }
            for r in all(&q.names).await? {
                stats.names.push(r.try_get(0)?);
            }
            for r in all(&q.analysed).await? {
                stats.analysed.push(AnalysedGame {
                    id: game_id(&r, 0)?,
                    kind: kind(&r, 1)?,
                    created_at: r.try_get(2)?,
                    moves: r.try_get::<_, i64>(3)? as u32,
                    accuracy: r.try_get(4)?,
                    inaccuracies: r.try_get::<_, i64>(5)? as u32,
                    mistakes: r.try_get::<_, i64>(6)? as u32,
                    blunders: r.try_get::<_, i64>(7)? as u32,
                });
            }
            for r in all(&q.mistakes).await? {
                stats.mistakes.push((r.try_get(0)?, r.try_get::<_, i64>(1)? as u64));
            }
            let n = c
                .query_one(&dollars(&q.puzzle_count.sql), &bound(&q.puzzle_count.params))
                .await?;
            stats.puzzle_count = n.try_get::<_, i64>(0)? as u64;
            stats.puzzles_found = n.try_get::<_, i64>(1)? as u64;
            for r in all(&q.puzzles).await? {
                stats.puzzles.push(GamePuzzle {
                    game: game_id(&r, 0)?,
                    players: serde_json::from_str(r.try_get(4)?).unwrap_or_default(),
                    puzzle: SeatPuzzle {
                        turn: r.try_get::<_, i64>(1)? as u32,
                        found: r.try_get(2)?,
                        lead: r.try_get(3)?,
                    },
                });
            }
            for r in all(&q.tiles).await? {
                stats.tiles.push(TileRecord {
                    kind: kind(&r, 0)?,
                    tile: r.try_get(1)?,
                    example: game_id(&r, 2)?,
                    score: TileScore {
                        placed: r.try_get::<_, i64>(3)? as u32,
                        points: r.try_get::<_, i64>(4)? as i32,
                    },
                });
            }
            Ok(stats)
        })
    }

    fn write_seat_analyses(&self, id: &GameId, seats: &[SeatAnalysis]) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            let found = tx
                .query_opt(
                    "SELECT seq FROM games g WHERE id = $1 AND EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq)
                     FOR UPDATE",
                    &[&id],
                )
                .await?;
            let Some(seq) = found.map(|r| r.try_get::<_, i64>(0)).transpose()? else {
                return Ok(false);
            };
            tx.execute("DELETE FROM player_analyses WHERE game = $1", &[&seq])
                .await?;
            for a in seats {
                let seat = i32::from(a.seat);
                tx.execute(
                    "INSERT INTO player_analyses (game, seat, moves, accuracy, inaccuracies, mistakes, blunders)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    &[
                        &seq,
                        &seat,
                        &(a.moves as i32),
                        &a.accuracy,
                        &(a.inaccuracies as i32),
                        &(a.mistakes as i32),
                        &(a.blunders as i32),
                    ],
                )
                .await?;
                for (kind, n) in &a.by_kind {
                    tx.execute(
                        "INSERT INTO player_mistakes (game, seat, kind, count) VALUES ($1, $2, $3, $4)",
                        &[&seq, &seat, kind, &(*n as i32)],
                    )
                    .await?;
                }
                for z in &a.puzzles {
                    tx.execute(
                        "INSERT INTO player_puzzles (game, seat, turn, found, lead) VALUES ($1, $2, $3, $4, $5)",
                        &[&seq, &seat, &(z.turn as i32), &z.found, &z.lead],
                    )
                    .await?;
                }
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn analysed_without_seats(&self, after: i64, limit: u32) -> Result<Vec<(i64, GameId)>, StoreError> {
        let sql = dollars(players::ANALYSED_WITHOUT_SEATS);
        self.run(async |c| {
            let rows = c.query(&sql, &[&after, &i64::from(limit)]).await?;
            rows.iter().map(|r| Ok((r.try_get(0)?, game_id(r, 1)?))).collect()
        })
    }

    fn game(&self, id: &GameId) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        self.run(async |c| {
            c.query_opt(&sql, &[&id.to_string()])
                .await?
                .as_ref()
                .map(game_row)
                .transpose()
        })
    }

    fn game_ids(&self, offset: u64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        self.run(async |c| {
            let rows = c
                .query(
                    "SELECT id FROM games ORDER BY seq LIMIT $1 OFFSET $2",
                    &[&i64::from(limit), &(offset as i64)],
                )
                .await?;
            rows.iter().map(|r| game_id(r, 0)).collect()
        })
    }

    fn set_listed(&self, id: &GameId, listed: bool) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx
                .execute("UPDATE games SET listed = $2 WHERE id = $1", &[&id, &listed])
                .await?;
            noted(tx, n, &id, Change::Owner).await
        })
    }

    fn set_owner(&self, id: &GameId, was: &OwnerHash, owner: &OwnerHash) -> Result<bool, StoreError> {
        let (id, was, owner) = (id.to_string(), was.0.to_vec(), owner.0.to_vec());
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx
                .execute(
                    "UPDATE games SET owner_hash = $3 WHERE id = $1 AND owner_hash = $2",
                    &[&id, &was, &owner],
                )
                .await?;
            noted(tx, n, &id, Change::Owner).await
        })
    }

    fn delete(&self, id: &GameId) -> Result<bool, StoreError> {
        let id = id.to_string();
        // The snapshots, the analysis and the annotations go with it: their foreign keys cascade.
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx.execute("DELETE FROM games WHERE id = $1", &[&id]).await?;
            noted(tx, n, &id, Change::Owner).await
        })
    }

    fn turns(&self, id: &GameId) -> Result<Option<(GameKind, Vec<TurnRow>)>, StoreError> {
        let sql = format!(
            "SELECT {TURN_COLUMNS}, g.kind FROM snapshots s JOIN games g ON g.seq = s.game WHERE g.id = $1 ORDER BY s.turn"
        );
        self.run(async |c| {
            let rows = c.query(&sql, &[&id.to_string()]).await?;
            let rows =
                (rows.iter().map(|r| Ok((kind(r, 7)?, turn_row(r)?)))).collect::<Result<Vec<_>, StoreError>>()?;
            Ok(super::of_one_kind(rows))
        })
    }

    fn queue_analysis(&self, id: &GameId, place: &QueuePlace, version: u32) -> Result<QueueAnswer, StoreError> {
        let (id, requester) = (id.to_string(), place.requester.to_string());
        self.run(async |c| {
            let tx = c.transaction().await?;
            // The capacity check and the insert are one step across every node.
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&QUEUE_LOCK]).await?;
            let found = tx
                .query_opt(
                    "SELECT a.status, a.version FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = $1",
                    &[&id],
                )
                .await?
                .map(|r| -> Result<_, StoreError> {
                    let version: Option<i32> = r.try_get(1)?;
                    Ok((r.try_get::<_, String>(0)?, version.map(|v| v as u32)))
                })
                .transpose()?;
            if !wants_queueing(found, version) {
                return Ok(QueueAnswer::Already);
            }
            let waiting = count(&tx, WAITING).await?;
            if waiting >= place.capacity {
                return Ok(QueueAnswer::Full { waiting });
            }
            let held: i64 = (tx.query_one(
                "SELECT count(*) FROM analyses WHERE status IN ('queued', 'running') AND requester = $1",
                &[&requester],
            ))
            .await?
            .try_get(0)?;
            if held as u64 >= place.share {
                return Ok(QueueAnswer::OverShare { held: held as u64 });
            }
            tx.execute(
                "INSERT INTO analyses (game, status, updated_at, queued_at, requester)
                 SELECT seq, 'queued', $2, $2, $3 FROM games WHERE id = $1
                 ON CONFLICT (game) DO UPDATE SET status = 'queued', done = 0, error = NULL, starts = 0,
                   updated_at = $2, queued_at = $2, lease_owner = NULL, lease_token = NULL, lease_until = NULL,
                   requester = $3",
                &[&id, &now(), &requester],
            )
            .await?;
            tx.commit().await?;
            Ok(QueueAnswer::Queued)
        })
    }

    fn queue(&self) -> Result<QueueState, StoreError> {
        self.run(async |c| {
            let row = c
                .query_one(
                    "SELECT count(*), min(queued_at) FILTER (WHERE status = 'queued'),
                            count(*) FILTER (WHERE status = 'running' AND lease_until < now())
                     FROM analyses WHERE status IN ('queued', 'running')",
                    &[],
                )
                .await?;
            let oldest: Option<&str> = row.try_get(1)?;
            Ok(QueueState {
                waiting: row.try_get::<_, i64>(0)? as u64,
                oldest_seconds: seconds_since(oldest),
                lapsed: row.try_get::<_, i64>(2)? as u64,
            })
        })
    }

    fn claim_analysis(&self, owner: &str, lease: Duration) -> Result<Option<Claim>, StoreError> {
        let token = lease_token()?;
        self.run(async |c| {
            // A row another worker is claiming right now is skipped, not waited for.
            let row = c
                .query_opt(
                    "WITH next AS (
                       SELECT game FROM analyses
                       WHERE status = 'queued'
                          OR (status = 'running' AND (lease_until IS NULL OR lease_until < now()))
                       ORDER BY queued_at, game LIMIT 1
                       FOR UPDATE SKIP LOCKED)
                     UPDATE analyses a SET status = 'running', starts = a.starts + 1, lease_owner = $1,
                       lease_token = $2, lease_until = now() + make_interval(secs => $3), updated_at = $4
                     FROM next JOIN games g ON g.seq = next.game
                     WHERE a.game = next.game
                     RETURNING a.starts, g.id",
                    &[&owner, &token, &lease.as_secs_f64(), &now()],
                )
                .await?;
            row.map(|r| {
                Ok(Claim {
                    starts: r.try_get::<_, i32>(0)? as u32,
                    id: game_id(&r, 1)?,
                    token: token.clone(),
                })
            })
            .transpose()
        })
    }

    fn analysis_progress(&self, claim: &Claim, done: u32, total: u32, lease: Duration) -> Result<bool, StoreError> {
        self.run(async |c| {
            let n = c
                .execute(
                    "UPDATE analyses SET done = $3, total = $4, lease_until = now() + make_interval(secs => $5),
                       updated_at = $6
                     WHERE game = (SELECT seq FROM games WHERE id = $1) AND status = 'running' AND lease_token = $2",
                    &[
                        &claim.id.to_string(),
                        &claim.token,
                        &(done as i32),
                        &(total as i32),
                        &lease.as_secs_f64(),
                        &now(),
                    ],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn finish_analysis(&self, claim: &Claim, result: Result<&str, &str>, version: u32) -> Result<bool, StoreError> {
        let (status, blob, error) = match result {
            Ok(json) => ("done", Some(deflate(json)), None),
            Err(e) => ("failed", None, Some(e)),
        };
        let id = claim.id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx
                .execute(
                    "UPDATE analyses SET status = $3, result = $4, error = $5, done = total, updated_at = $6,
                       version = $7, lease_owner = NULL, lease_token = NULL, lease_until = NULL
                     WHERE game = (SELECT seq FROM games WHERE id = $1) AND status = 'running' AND lease_token = $2",
                    &[&id, &claim.token, &status, &blob, &error, &now(), &(version as i32)],
                )
                .await?;
            noted(tx, n, &id, Change::Analysis).await
        })
    }

    fn release_analysis(&self, claim: &Claim) -> Result<bool, StoreError> {
        self.run(async |c| {
            let n = c
                .execute(
                    "UPDATE analyses SET status = 'queued', done = 0, starts = greatest(starts - 1, 0), updated_at = $3,
                       lease_owner = NULL, lease_token = NULL, lease_until = NULL
                     WHERE game = (SELECT seq FROM games WHERE id = $1) AND status = 'running' AND lease_token = $2",
                    &[&claim.id.to_string(), &claim.token, &now()],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn analysis_status(&self, id: &GameId) -> Result<Option<AnalysisStatus>, StoreError> {
        self.run(async |c| {
            let row = c
                .query_opt(
                    "SELECT a.status, a.done, a.total, a.error FROM analyses a
                     JOIN games g ON g.seq = a.game WHERE g.id = $1",
                    &[&id.to_string()],
                )
                .await?;
            row.as_ref().map(analysis_status).transpose()
        })
    }

    fn stored_analysis(&self, id: &GameId) -> Result<Option<StoredAnalysis>, StoreError> {
        self.run(async |c| {
            let row = c
                .query_opt(
                    "SELECT a.status, a.done, a.total, a.error, a.result, a.version, a.starts, a.updated_at, a.queued_at
                     FROM analyses a JOIN games g ON g.seq = a.game WHERE g.id = $1",
                    &[&id.to_string()],
                )
                .await?;
            row.map(|r| {
                let blob: Option<&[u8]> = r.try_get(4)?;
                let version: Option<i32> = r.try_get(5)?;
                Ok(StoredAnalysis {
                    status: analysis_status(&r)?,
                    result: blob.map(inflate).transpose().map_err(StoreError::Inflate)?,
                    version: version.map(|v| v as u32),
                    starts: r.try_get::<_, i32>(6)? as u32,
                    updated_at: r.try_get(7)?,
                    queued_at: r.try_get(8)?,
                })
            })
            .transpose()
        })
    }

    fn write_analysis(&self, id: &GameId, a: &StoredAnalysis) -> Result<bool, StoreError> {
        let (status, done, total, error) = a.status.columns();
        self.run(async |c| {
            let n = c
                .execute(
                    "INSERT INTO analyses (game, status, done, total, error, result, version, starts, updated_at, queued_at)
                     SELECT seq, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM games WHERE id = $1
                     ON CONFLICT (game) DO NOTHING",
                    &[
                        &id.to_string(),
                        &status,
                        &(done as i32),
                        &(total as i32),
                        &error,
                        &a.result.as_deref().map(deflate),
                        &a.version.map(|v| v as i32),
                        &(a.starts as i32),
                        &a.updated_at,
                        &a.queued_at,
                    ],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn changes_since(&self, after: Option<i64>) -> Result<Changes, StoreError> {
        self.run(async |c| {
            let Some(after) = after else {
                let last = (c
                    .query_one("SELECT coalesce(max(seq), 0) FROM game_changes", &[])
                    .await?)
                    .try_get(0)?;
                return Ok(Changes { last, games: vec![] });
            };
            let rows = c
                .query(
                    "SELECT seq, game, what FROM game_changes WHERE seq > $1 ORDER BY seq",
                    &[&after],
                )
                .await?;
            let mut changes = Changes {
                last: after,
                games: vec![],
            };
            for row in &rows {
                changes.last = row.try_get(0)?;
                changes
                    .games
                    .push((game_id(row, 1)?, Change::from_name(row.try_get(2)?)?));
            }
            Ok(changes)
        })
    }

    fn annotations(&self, id: &GameId) -> Result<Vec<Annotation>, StoreError> {
        self.run(async |c| {
            let rows = c
                .query(
                    "SELECT a.turn, a.line, a.text FROM annotations a JOIN games g ON g.seq = a.game WHERE g.id = $1",
                    &[&id.to_string()],
                )
                .await?;
            let rows = (rows.iter())
                .map(|r| Ok((r.try_get::<_, i32>(0)? as u32, r.try_get(1)?, r.try_get(2)?)))
                .collect::<Result<Vec<_>, StoreError>>()?;
            annotations_of(rows)
        })
    }

    fn annotate(&self, id: &GameId, a: &Annotation) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx
                .execute(
                    "INSERT INTO annotations (game, turn, line_key, line, text)
                     SELECT seq, $2, $3, $4, $5 FROM games WHERE id = $1
                     ON CONFLICT (game, turn, line_key) DO UPDATE SET text = excluded.text",
                    &[&id, &(a.turn() as i32), &line_key(a.line()), &a.line(), &a.text()],
                )
                .await?;
            noted(tx, n, &id, Change::Annotations).await
        })
    }

    fn unannotate(&self, id: &GameId, turn: u32, line: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(async |c| {
            let tx = c.transaction().await?;
            let n = tx
                .execute(
                    "DELETE FROM annotations
                     WHERE game = (SELECT seq FROM games WHERE id = $1) AND turn = $2 AND line_key = $3",
                    &[&id, &(turn as i32), &line_key(line)],
                )
                .await?;
            noted(tx, n, &id, Change::Annotations).await
        })
    }

    fn create_collection(&self, c: &CollectionRow) -> Result<(), StoreError> {
        self.run(async |cl| {
            cl.execute(
                "INSERT INTO collections (id, name, owner_hash, created_at, import_total, import_done, import_errors, import_lease_until)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &c.id.to_string(),
                    &c.name.as_str(),
                    &c.owner.0.to_vec(),
                    &c.created_at,
                    &(c.import.total as i32),
                    &(c.import.done as i32),
                    &errors_json(&c.import.errors),
                    &c.import.lease_column(),
                ],
            )
            .await?;
            Ok(())
        })
    }

    fn collection_ids(&self, offset: u64, limit: u32) -> Result<Vec<CollectionId>, StoreError> {
        self.run(async |c| {
            let rows = c
                .query(
                    "SELECT id FROM collections ORDER BY seq LIMIT $1 OFFSET $2",
                    &[&i64::from(limit), &(offset as i64)],
                )
                .await?;
            (rows.iter())
                .map(|r| {
                    r.try_get::<_, &str>(0)?
                        .parse()
                        .map_err(|e| StoreError::Corrupt(format!("{e}")))
                })
                .collect()
        })
    }

    fn collection(&self, id: &CollectionId) -> Result<Option<CollectionRow>, StoreError> {
        self.run(async |c| {
            let row = c
                .query_opt(
                    "SELECT name, owner_hash, created_at, import_total, import_done, import_errors, import_lease_until
                     FROM collections WHERE id = $1",
                    &[&id.to_string()],
                )
                .await?;
            row.map(|r| {
                Ok(CollectionRow {
                    id: *id,
                    name: CollectionName::stored(r.try_get(0)?),
                    owner: OwnerHash::from_column(r.try_get(1)?)
                        .ok_or_else(|| StoreError::Corrupt(format!("collection {id} has no owner")))?,
                    created_at: r.try_get(2)?,
                    import: ImportState {
                        total: r.try_get::<_, i32>(3)? as u32,
                        done: r.try_get::<_, i32>(4)? as u32,
                        errors: errors_of(r.try_get(5)?)?,
                        lease_until: lease_of(r.try_get(6)?),
                    },
                })
            })
            .transpose()
        })
    }

    fn rename_collection(&self, id: &CollectionId, name: &CollectionName) -> Result<bool, StoreError> {
        self.run(async |c| {
            let n = c
                .execute(
                    "UPDATE collections SET name = $2 WHERE id = $1",
                    &[&id.to_string(), &name.as_str()],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn add_to_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError> {
        let games: Vec<String> = games.iter().map(ToString::to_string).collect();
        self.run(async |c| {
            // One statement for all: the games in their order (`ordinality`), numbered after the
            // collection's last, the ones it holds already and unknown ids passed over.
            let n = c
                .execute(
                    "INSERT INTO collection_games (collection, game, position)
                     SELECT c.seq, g.seq,
                            coalesce((SELECT max(position) FROM collection_games WHERE collection = c.seq), 0)
                              + row_number() OVER (ORDER BY l.n)
                     FROM collections c
                     CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS l (id, n)
                     JOIN games g ON g.id = l.id
                     WHERE c.id = $1
                       AND NOT EXISTS (SELECT 1 FROM collection_games x WHERE x.collection = c.seq AND x.game = g.seq)
                     ON CONFLICT DO NOTHING",
                    &[&id.to_string(), &games],
                )
                .await?;
            Ok(n as u32)
        })
    }

    fn remove_from_collection(&self, id: &CollectionId, games: &[GameId]) -> Result<u32, StoreError> {
        let games: Vec<String> = games.iter().map(ToString::to_string).collect();
        self.run(async |c| {
            let n = c
                .execute(
                    "DELETE FROM collection_games
                     WHERE collection = (SELECT seq FROM collections WHERE id = $1)
                       AND game IN (SELECT seq FROM games WHERE id = ANY($2::text[]))",
                    &[&id.to_string(), &games],
                )
                .await?;
            Ok(n as u32)
        })
    }

    fn import_progress(&self, id: &CollectionId, import: &ImportState) -> Result<(), StoreError> {
        self.run(async |c| {
            c.execute(
                "UPDATE collections SET import_total = $2, import_done = $3, import_errors = $4, import_lease_until = $5
                 WHERE id = $1",
                &[
                    &id.to_string(),
                    &(import.total as i32),
                    &(import.done as i32),
                    &errors_json(&import.errors),
                    &import.lease_column(),
                ],
            )
            .await?;
            Ok(())
        })
    }

    fn collection_games(&self, id: &CollectionId) -> Result<Vec<CollectedGame>, StoreError> {
        self.run(async |c| {
            let rows = c
                .query(
                    "SELECT a.status, a.done, a.total, a.error,
                            g.id, g.kind, g.players, g.final_scores, g.finished, g.preset, g.turns, g.created_at
                     FROM collections c
                     JOIN collection_games cg ON cg.collection = c.seq
                     JOIN games g ON g.seq = cg.game
                     LEFT JOIN analyses a ON a.game = g.seq
                     WHERE c.id = $1 ORDER BY cg.position, cg.game",
                    &[&id.to_string()],
                )
                .await?;
            let games = (rows.iter())
                .map(|r| {
                    let status: Option<&str> = r.try_get(0)?;
                    Ok(CollectedGame {
                        analysis: status.map(|_| analysis_status(r)).transpose()?,
                        id: game_id(r, 4)?,
                        kind: kind(r, 5)?,
                        players: serde_json::from_str(r.try_get(6)?).unwrap_or_default(),
                        final_scores: serde_json::from_str(r.try_get(7)?).unwrap_or_default(),
                        finished: r.try_get(8)?,
                        preset: r.try_get(9)?,
                        turns: r.try_get::<_, i32>(10)? as u32,
                        created_at: r.try_get(11)?,
                        accuracy: Vec::new(),
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let seats = c
                .query(&dollars(collection::SEAT_ACCURACIES), &[&id.to_string()])
                .await?;
            let seats = (seats.iter())
                .map(|r| {
                    let seat = SeatAccuracy {
                        seat: r.try_get::<_, i32>(1)? as u8,
                        moves: r.try_get::<_, i32>(2)? as u32,
                        accuracy: r.try_get(3)?,
                    };
                    Ok((game_id(r, 0)?, seat))
                })
                .collect::<Result<_, StoreError>>()?;
            Ok(collection::with_accuracies(games, seats))
        })
    }

    fn size_bytes(&self) -> Result<u64, StoreError> {
        self.run(async |c| {
            let n: i64 = c
                .query_one("SELECT pg_database_size(current_database())", &[])
                .await?
                .try_get(0)?;
            Ok(n as u64)
        })
    }
}

/// Commits `tx`, which changed `rows` rows of game `id`; when it changed any, with the change
/// noted (`Backend::changes_since`). True when it changed any.
async fn noted(tx: deadpool_postgres::Transaction<'_>, rows: u64, id: &str, what: Change) -> Result<bool, StoreError> {
    if rows > 0 {
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CHANGE_LOCK]).await?;
        let seq: i64 = (tx.query_one(
            "INSERT INTO game_changes (game, what) VALUES ($1, $2) RETURNING seq",
            &[&id, &what.name()],
        ))
        .await?
        .try_get(0)?;
        tx.execute("DELETE FROM game_changes WHERE seq <= $1", &[&(seq - KEPT_CHANGES)])
            .await?;
    }
    tx.commit().await?;
    Ok(rows > 0)
}

/// Writes a game's snapshots, all in one statement, as arrays: one round trip for a whole game.
async fn insert_turns(tx: &deadpool_postgres::Transaction<'_>, game: i64, turns: &[TurnRow]) -> Result<(), StoreError> {
    let column = |f: fn(&TurnRow) -> &str| turns.iter().map(f).collect::<Vec<&str>>();
    tx.execute(
        "INSERT INTO snapshots (game, turn, player, move, events, scores, supply, ownership)
         SELECT $1, * FROM unnest($2::int4[], $3::int2[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])",
        &[
            &game,
            &turns.iter().map(|t| t.turn as i32).collect::<Vec<_>>(),
            &turns.iter().map(|t| i16::from(t.player)).collect::<Vec<_>>(),
            &column(|t| &t.mv),
            &column(|t| &t.events),
            &column(|t| &t.scores),
            &column(|t| &t.supply),
            &column(|t| &t.ownership),
        ],
    )
    .await?;
    Ok(())
}

/// Writes a game's seats and their points by category, a table in one statement each.
async fn insert_seats(tx: &deadpool_postgres::Transaction<'_>, game: i64, seats: &[Seat]) -> Result<(), StoreError> {
    let int = |f: fn(&Seat) -> i32| seats.iter().map(f).collect::<Vec<i32>>();
    let text = |f: fn(&Seat) -> &str| seats.iter().map(f).collect::<Vec<&str>>();
    tx.execute(
        "INSERT INTO players (game, seat, name, match_key, bga_id, score, place, finished, best_points, best_turn, best_what)
         SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::text[], $5::int8[], $6::int4[], $7::int4[], $8::bool[],
                                  $9::int4[], $10::int4[], $11::text[])",
        &[
            &game,
            &int(|s| i32::from(s.seat)),
            &text(|s| &s.name),
            &text(|s| &s.key),
            &seats.iter().map(|s| s.bga_id.map(|i| i as i64)).collect::<Vec<_>>(),
            &int(|s| s.score),
            &int(|s| s.place as i32),
            &seats.iter().map(|s| s.finished).collect::<Vec<_>>(),
            &int(|s| s.best.points),
            &int(|s| s.best.turn as i32),
            &text(|s| &s.best.what),
        ],
    )
    .await?;
    let points: Vec<(i32, &str, i32)> = (seats.iter())
        .flat_map(|s| (s.points.iter()).map(|(c, p)| (i32::from(s.seat), c.as_str(), *p)))
        .collect();
    tx.execute(
        "INSERT INTO player_points (game, seat, category, points)
         SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::int4[])",
        &[
            &game,
            &points.iter().map(|p| p.0).collect::<Vec<_>>(),
            &points.iter().map(|p| p.1).collect::<Vec<_>>(),
            &points.iter().map(|p| p.2).collect::<Vec<_>>(),
        ],
    )
    .await?;
    index_names(tx, seats.iter().map(|s| s.key.as_str())).await?;
    insert_tiles(tx, game, seats).await
}

/// Writes the search's index rows of these names (match keys), those there already left as
/// they are. In one order, whoever writes them: two nodes indexing the same names at once wait
/// for each other instead of deadlocking.
async fn index_names<'k>(
    c: &impl deadpool_postgres::GenericClient,
    keys: impl Iterator<Item = &'k str>,
) -> Result<(), StoreError> {
    let mut parts: Vec<NamePart> = keys.flat_map(players::name_parts).collect();
    parts.sort();
    parts.dedup();
    c.execute(
        "INSERT INTO name_parts (match_key, part, at) SELECT * FROM unnest($1::text[], $2::text[], $3::int2[])
         ON CONFLICT DO NOTHING",
        &[
            &parts.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(),
            &parts.iter().map(|p| p.part.as_str()).collect::<Vec<_>>(),
            &parts.iter().map(|p| p.at as i16).collect::<Vec<_>>(),
        ],
    )
    .await?;
    Ok(())
}

async fn insert_tiles(tx: &deadpool_postgres::Transaction<'_>, game: i64, seats: &[Seat]) -> Result<(), StoreError> {
    let tiles: Vec<(i32, &str, i32, i32)> = (seats.iter())
        .flat_map(|s| (s.tiles.iter()).map(|(t, n)| (i32::from(s.seat), t.as_str(), n.placed as i32, n.points)))
        .collect();
    tx.execute(
        "INSERT INTO player_tiles (game, seat, tile, placed, points)
         SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::int4[], $5::int4[])",
        &[
            &game,
            &tiles.iter().map(|t| t.0).collect::<Vec<_>>(),
            &tiles.iter().map(|t| t.1).collect::<Vec<_>>(),
            &tiles.iter().map(|t| t.2).collect::<Vec<_>>(),
            &tiles.iter().map(|t| t.3).collect::<Vec<_>>(),
        ],
    )
    .await?;
    Ok(())
}

/// The shared queries' `?N` placeholders as PostgreSQL's `$N` (they hold no other `?`).
fn dollars(sql: &str) -> String {
    sql.replace('?', "$")
}

/// Query parameters as tokio-postgres binds them.
fn bound(params: &[Param]) -> Vec<&(dyn tokio_postgres::types::ToSql + Sync)> {
    (params.iter())
        .map(|p| match p {
            Param::Text(t) => t as &(dyn tokio_postgres::types::ToSql + Sync),
            Param::Int(i) => i,
        })
        .collect()
}

/// Counts analyses queued or running.
const WAITING: &str = "SELECT count(*) FROM analyses WHERE status IN ('queued', 'running')";

/// The one number a `SELECT count(*)` answers.
async fn count(c: &impl deadpool_postgres::GenericClient, sql: &str) -> Result<u64, StoreError> {
    let n: i64 = c.query_one(sql, &[]).await?.try_get(0)?;
    Ok(n as u64)
}

fn game_id(r: &Row, i: usize) -> Result<GameId, StoreError> {
    let text: &str = r.try_get(i)?;
    text.parse().map_err(|e| StoreError::Corrupt(format!("{e}")))
}

fn kind(r: &Row, i: usize) -> Result<GameKind, StoreError> {
    let name: &str = r.try_get(i)?;
    GameKind::from_name(name).ok_or_else(|| StoreError::Corrupt(format!("unknown game kind {name:?}")))
}

/// An analysis' status from its row's first four columns: status, done, total, error.
fn analysis_status(r: &Row) -> Result<AnalysisStatus, StoreError> {
    Ok(AnalysisStatus::from_columns(
        r.try_get(0)?,
        r.try_get::<_, i32>(1)? as u32,
        r.try_get::<_, i32>(2)? as u32,
        r.try_get(3)?,
    ))
}

/// The columns [`turn_row`] reads, in its order, from snapshots `s`.
const TURN_COLUMNS: &str = "s.turn, s.player, s.move, s.events, s.scores, s.supply, s.ownership";

fn turn_row(r: &Row) -> Result<TurnRow, StoreError> {
    let player: i16 = r.try_get(1)?;
    Ok(TurnRow {
        turn: r.try_get::<_, i32>(0)? as u32,
        player: u8::try_from(player).map_err(|_| StoreError::Corrupt(format!("player {player} in a snapshot")))?,
        mv: r.try_get(2)?,
        events: r.try_get(3)?,
        scores: r.try_get(4)?,
        supply: r.try_get(5)?,
        ownership: r.try_get(6)?,
    })
}

/// The columns [`game_row`] reads, in its order.
const GAME_COLUMNS: &str = "id, record, source_format, players, preset, turns, finished, final_scores, created_at, kind, listed, owner_hash, live";

fn game_row(r: &Row) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        id: game_id(r, 0)?,
        kind: kind(r, 9)?,
        record: inflate(r.try_get(1)?).map_err(StoreError::Inflate)?,
        source_format: r.try_get(2)?,
        players: serde_json::from_str(r.try_get(3)?).unwrap_or_default(),
        preset: r.try_get(4)?,
        turns: r.try_get::<_, i32>(5)? as u32,
        finished: r.try_get(6)?,
        final_scores: serde_json::from_str(r.try_get(7)?).unwrap_or_default(),
        created_at: r.try_get(8)?,
        listed: r.try_get(10)?,
        owner: OwnerHash::from_column(r.try_get(11)?),
        live: r.try_get(12)?,
    })
}

/// A server's URL with its password, if any, replaced by `***`: for logs and errors.
pub(super) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((user_info, host)) if user_info.contains(':') => {
            let user = user_info.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn a_password_never_reaches_the_log() {
        assert_eq!(
            without_password("postgres://replay:s3cret@db.example:5432/replay"),
            "postgres://replay:***@db.example:5432/replay"
        );
        assert_eq!(
            without_password("postgres://replay@db.example/replay"),
            "postgres://replay@db.example/replay"
        );
    }
}

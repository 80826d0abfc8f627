//! `bench players N`: player pages and search over a database of N generated games (build
//! with --release). The games are a few distinct generated games, each stored again under new
//! player names (so a new record and id, without replaying it again); one player, `Target`, is
//! in one game of every hundred. It times the fill, opening the store again, a player page over
//! Target's games cold (the first on a newly opened store) and warm, searches by name, by part
//! of a name and by filters, and what a game's player rows add to storing it.

use super::output::{Align, aligned};
use crate::record::RulesSpec;
use crate::selfplay::{Policy, generate};
use crate::store::{Database, Ingested, NewGame, Store, canonical_id, ingest, players};
use crate::web::AppState;
use crate::web::routes::pages::render_search;
use crate::web::routes::players::render_player_page;
use crate::web::search::{SearchForm, found};
use std::time::{Duration, Instant};

/// Distinct generated games the fill stores again under new names.
const TEMPLATES: u64 = 50;
/// Names other than Target's: each has about `2 × games / PLAYERS` games.
const PLAYERS: u64 = 5000;

/// What `bench players` is asked for.
#[derive(clap::Args, Debug)]
pub struct PlayersArgs {
    /// Games in the database: the bench fills it up to this many.
    #[arg(value_name = "N")]
    games: u64,
    /// The database to fill and read, a SQLite file or a postgres:// URL (default: a new file
    /// in the temp directory, removed after).
    #[arg(long)]
    db: Option<Database>,
}

pub fn run(args: &PlayersArgs) -> Result<(), String> {
    let dir = tempfile_dir()?;
    let db = (args.db.clone()).unwrap_or_else(|| Database::File(dir.join("players-bench.sqlite")));
    let outcome = measure(args.games, db);
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// The figures, a row each: a label and its value.
type Table = Vec<Vec<String>>;

fn row(rows: &mut Table, label: &str, value: String) {
    rows.push(vec![label.to_string(), value]);
}

fn measure(games: u64, db: Database) -> Result<(), String> {
    let mut rows = Vec::new();
    let templates = fill(&db, games, &mut rows)?;
    // Cold: a newly opened store, nothing of it in the process yet (the OS still caches the
    // file: this is not a cold disk).
    let (opening, store) = once(|| Store::open(db.clone()));
    let state = AppState::new(store.map_err(|e| e.to_string())?, "http://localhost");
    row(&mut rows, "opening the store again, ms", ms(opening));
    player_pages(&state, &mut rows)?;
    searches(&state, games, &mut rows)?;
    storing(&state, games, &templates, &mut rows)?;
    let rows: Table = std::iter::once(vec!["measure".into(), "result".into()])
        .chain(rows)
        .collect();
    println!("{}", aligned(&rows, &[Align::Left, Align::Right], 1));
    Ok(())
}

/// Opens the database and stores games in it up to `games`; gives back the templates they are
/// made of.
fn fill(db: &Database, games: u64, rows: &mut Table) -> Result<Vec<Ingested>, String> {
    // Opening migrates the database and fills what an earlier release's lacks; again, on a
    // database this release filled, it walks what it would fill and finds nothing.
    let (opening, store) = once(|| Store::open(db.clone()));
    let store = store.map_err(|e| e.to_string())?;
    let templates = templates()?;
    row(rows, "opening the store, ms", ms(opening));
    let start = Instant::now();
    let had = store.count().map_err(|e| e.to_string())?;
    for i in had..games {
        store
            .insert(&renamed(&templates[template(i)], names(i)), NewGame::PUBLIC)
            .map_err(|e| e.to_string())?;
        if i % 10_000 == 0 {
            eprintln!("{i} games stored");
        }
    }
    let filled = start.elapsed();
    row(
        rows,
        "games stored",
        store.count().map_err(|e| e.to_string())?.to_string(),
    );
    if games > had {
        row(
            rows,
            "fill, games a second",
            format!("{:.0}", (games - had) as f64 / filled.as_secs_f64().max(1e-9)),
        );
    }
    row(
        rows,
        "database size, MB",
        format!("{:.0}", store.size_bytes().map_err(|e| e.to_string())? as f64 / 1e6),
    );
    Ok(templates)
}

/// Target's player page: cold, warm, with its statistics recomputed, and its last page.
fn player_pages(state: &AppState, rows: &mut Table) -> Result<(), String> {
    let target_games = state
        .store
        .player_stats(&players::Who::parse("Target"), None)
        .map_err(|e| e.to_string())?
        .games;
    let (cold, _) = once(|| render_player_page(state, "Target", 1));
    row(
        rows,
        &format!("player page over {target_games} games, cold, ms"),
        ms(cold),
    );
    row(
        rows,
        &format!("player page over {target_games} games, warm median, ms"),
        ms(median(20, || render_player_page(state, "Target", 1))),
    );
    row(
        rows,
        &format!("player page over {target_games} games, statistics not kept, median, ms"),
        ms(median(20, || {
            state.player_stats.clear();
            render_player_page(state, "Target", 1)
        })),
    );
    let last = target_games.div_ceil(30).max(1);
    row(
        rows,
        &format!("player page, page {last}, warm median, ms"),
        ms(median(20, || render_player_page(state, "Target", last))),
    );
    Ok(())
}

/// Searches by name, by part of a name and by kind, and the home page.
fn searches(state: &AppState, games: u64, rows: &mut Table) -> Result<(), String> {
    let search = |q: &str, kind: &str| SearchForm {
        q: q.into(),
        kind: kind.into(),
        ..SearchForm::default()
    };
    // A name (about 40 games), a name (Target's), the start of a name, a part inside one, a
    // part inside 111 names (Player 17, 170 to 179, 1700 to 1799) and one letter, which starts
    // every name but Target's.
    for (what, q) in [
        ("a name", "player 17"),
        ("a name", "target"),
        ("a prefix", "targ"),
        ("a part of a name", "arge"),
        ("a part of 111 names", "layer 17"),
        ("one letter", "p"),
    ] {
        let asked = search(q, "").search().map_err(|e| e.detail)?;
        let found = found(state, &asked, 1).map_err(|e| e.detail)?.matches;
        row(
            rows,
            &format!("search by {what}, {q:?}, {found} games, warm median, ms"),
            ms(median(20, || render_search(state, search(q, ""), 1))),
        );
    }
    let deep = (games / 60).max(1);
    row(
        rows,
        &format!("search by kind, page {deep}, warm median, ms"),
        ms(median(20, || render_search(state, search("", "carcassonne"), deep))),
    );
    row(
        rows,
        "home page, warm median, ms",
        ms(median(20, || render_search(state, SearchForm::default(), 1))),
    );
    Ok(())
}

/// Storing with and without the player rows, each on games not stored yet.
fn storing(state: &AppState, games: u64, templates: &[Ingested], rows: &mut Table) -> Result<(), String> {
    let n = 300;
    let write = |from: u64, with_seats: bool| -> Result<Duration, String> {
        let start = Instant::now();
        for i in from..from + n {
            let g = renamed(&templates[template(i)], names(i));
            let game = crate::store::GameRow::of(&g, NewGame::PUBLIC);
            let seats = if with_seats {
                players::game_seats(&game, &g.snapshots, &g.bga_ids)
            } else {
                vec![]
            };
            state
                .store
                .write_game(&game, &g.snapshots.rows(), &g.annotations, &seats)
                .map_err(|e| e.to_string())?;
        }
        Ok(start.elapsed() / n as u32)
    };
    let without = write(games + 1_000_000, false)?;
    let with = write(games + 2_000_000, true)?;
    row(rows, "storing a game without player rows, ms", ms(without));
    row(rows, "storing a game with player rows, ms", ms(with));
    Ok(())
}

/// A directory for the bench's database, which `run` removes.
fn tempfile_dir() -> Result<std::path::PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("carcassonne-players-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(dir)
}

fn templates() -> Result<Vec<Ingested>, String> {
    (0..TEMPLATES)
        .map(|seed| {
            let mut record = generate(
                RulesSpec::new(crate::engine::Preset::SecondEdition),
                2,
                Policy::Random,
                seed,
            )
            .map_err(|e| e.to_string())?;
            for (i, p) in record.players.iter_mut().enumerate() {
                p.name = format!("@@{i}@@");
            }
            let (canonical, _) = canonical_id(&record);
            ingest::prepare(canonical.as_bytes()).map_err(|e| e.to_string())
        })
        .collect()
}

/// The template game `i` is: every one in turn, Target's games too (one in a hundred).
fn template(i: u64) -> usize {
    ((i + i / 100) % TEMPLATES) as usize
}

/// The players of game `i`: Target and a new opponent in one game of a hundred, else two of
/// `PLAYERS` names (a pair and a template seen before make the same game, stored once).
fn names(i: u64) -> [String; 2] {
    if i.is_multiple_of(100) {
        return ["Target".to_string(), format!("Player {}", (i / 100) % PLAYERS)];
    }
    let a = (i * 7919) % PLAYERS;
    let b = (a + 1 + (i * 31) % (PLAYERS - 1)) % PLAYERS;
    [format!("Player {a}"), format!("Player {b}")]
}

/// A template game under other names: another record, so another id.
fn renamed(t: &Ingested, names: [String; 2]) -> Ingested {
    let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let canonical = (t.canonical.replace(&json("@@0@@"), &json(&names[0]))).replace(&json("@@1@@"), &json(&names[1]));
    Ingested {
        id: crate::store::GameId::of(&canonical),
        canonical,
        format: t.format,
        kind: t.kind,
        players: names.to_vec(),
        bga_ids: t.bga_ids.clone(),
        rules: t.rules,
        finished: t.finished,
        final_scores: t.final_scores.clone(),
        snapshots: t.snapshots.clone(),
        annotations: t.annotations.clone(),
    }
}

fn once<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// The median time of `n` runs of `f` (its answer must be good).
fn median<T, E: std::fmt::Debug>(n: usize, mut f: impl FnMut() -> Result<T, E>) -> Duration {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let (t, out) = once(&mut f);
            out.expect("the bench's pages answer");
            t
        })
        .collect();
    times.sort();
    times[n / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

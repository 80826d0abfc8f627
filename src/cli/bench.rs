//! `bench`: throughput of the engine, measured here rather than assumed.

use crate::engine::playout::{Rng, play_random};
use crate::engine::{Game, Preset, Setup, TileCatalog};
use crate::record::generate::{Policy, generate};
use crate::record::{RulesSpec, native};
use crate::replay;
use crate::store::{Store, ingest};
use crate::web::AppState;
use crate::web::routes::pages::render_turn_page;
use serde_json::json;
use std::time::{Duration, Instant};

fn setup(preset: Preset) -> Setup {
    Setup {
        rules: preset.rules(),
        catalog: TileCatalog::builtin(),
        players: 2,
        start: Vec::new(),
        extra_tiles: Vec::new(),
    }
}

/// Runs `f` repeatedly for about `seconds`; returns (iterations, elapsed).
fn timed(seconds: f64, mut f: impl FnMut()) -> (u64, Duration) {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed() < budget {
        for _ in 0..16 {
            f();
        }
        n += 16;
    }
    (n, start.elapsed())
}

pub fn run(as_json: bool, seconds: f64) -> Result<(), String> {
    // Random full games with every rule on, fields included.
    let mut seed = 0u64;
    let base = Game::new(setup(Preset::SecondEdition)).map_err(|e| e.to_string())?;
    let mut events = Vec::new();
    let (games, t) = timed(seconds, || {
        seed += 1;
        let mut g = base.clone();
        play_random(&mut g, &mut Rng::new(seed), &mut events);
    });
    let games_per_sec = games as f64 / t.as_secs_f64();

    // Legal placements at every turn of 50 random games: time per call. Many positions keep
    // the branch predictor from learning the answers.
    let mut positions = Vec::new();
    for seed in 0..50 {
        let mut rng = Rng::new(1000 + seed);
        let mut g = base.clone();
        let mut ps = Vec::new();
        let mut acts = Vec::new();
        for tile in crate::engine::playout::shuffled_bag(&g, &mut rng) {
            positions.push((g.clone(), tile));
            g.placements(tile, true, &mut ps);
            if ps.is_empty() {
                g.discard(tile, &mut events).expect("discard");
                continue;
            }
            let p = ps[rng.below(ps.len())];
            g.actions(tile, p, &mut acts);
            let action = acts[rng.below(acts.len())];
            g.play_listed(
                &crate::engine::Move {
                    tile,
                    placement: p,
                    action,
                },
                &mut events,
            );
        }
    }
    let mut out = Vec::with_capacity(256);
    let mut i = 0;
    let mut total_placements = 0u64;
    let (calls, t) = timed(seconds, || {
        let (g, tile) = &positions[i % positions.len()];
        g.placements(*tile, true, &mut out);
        total_placements += out.len() as u64;
        i += 1;
    });
    let placements_ns = t.as_nanos() as f64 / calls as f64;

    // Replay of a full recorded game.
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, 42)?;
    let tiles = record.moves.len();
    let (replays, t) = timed(seconds, || {
        replay::replay(&record, None).expect("the bench record is legal");
    });
    let replay_us = t.as_micros() as f64 / replays as f64;

    let service = service_figures(seconds)?;

    if as_json {
        let doc = json!({
            "random_games_per_second": games_per_sec.round(),
            "legal_placements_ns_per_turn": (placements_ns * 10.0).round() / 10.0,
            "average_placements_per_turn": total_placements as f64 / calls as f64,
            "replay_us_per_record": (replay_us * 10.0).round() / 10.0,
            "record_tiles": tiles,
            "ingest_ms_per_game": service.ingest_ms,
            "storage_bytes_per_game": service.bytes_per_game,
            "turn_page_ms": service.page_ms,
            "debug_build": cfg!(debug_assertions),
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON values serialise"));
    } else {
        if cfg!(debug_assertions) {
            println!("warning: debug build; measure with `cargo run --release -- bench`");
        }
        println!("{:<40} {:>14}", "measure", "result");
        println!("{:<40} {:>14.0}", "random full games per second", games_per_sec);
        println!("{:<40} {:>11.1} ns", "legal placements, per turn", placements_ns);
        println!(
            "{:<40} {:>14.1}",
            "  placements found per turn (average)",
            total_placements as f64 / calls as f64
        );
        println!(
            "{:<40} {:>11.1} µs",
            format!("replay of a {tiles}-move record"),
            replay_us
        );
        println!(
            "{:<40} {:>11.2} ms",
            "ingest a game (parse, replay, commit)", service.ingest_ms
        );
        println!(
            "{:<40} {:>11.0} B",
            "storage per game in SQLite", service.bytes_per_game
        );
        println!("{:<40} {:>11.2} ms", "turn page, server time", service.page_ms);
    }
    Ok(())
}

struct ServiceFigures {
    ingest_ms: f64,
    bytes_per_game: f64,
    page_ms: f64,
}

/// Ingest, storage and page figures on a fresh database in the temp directory.
fn service_figures(seconds: f64) -> Result<ServiceFigures, String> {
    let dir = std::env::temp_dir().join(format!("carcassonne-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure_service(&dir.join("bench.sqlite"), seconds);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure_service(db: &std::path::Path, seconds: f64) -> Result<ServiceFigures, String> {
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let games: Vec<Vec<u8>> = (0..60)
        .map(|seed| {
            let record = generate(
                RulesSpec::new(Preset::SecondEdition),
                2 + (seed % 3) as u8,
                Policy::Greedy,
                seed,
            )?;
            Ok(native::to_pretty_string(&record).into_bytes())
        })
        .collect::<Result<_, String>>()?;
    let start = Instant::now();
    let mut ids = Vec::new();
    for bytes in &games {
        let (g, _) = ingest::ingest(&store, bytes).map_err(|e| e.to_string())?;
        ids.push(g.id);
    }
    let ingest_ms = start.elapsed().as_secs_f64() * 1000.0 / games.len() as f64;
    let bytes_per_game = store.size_bytes().map_err(|e| e.to_string())? as f64 / games.len() as f64;
    let state = AppState { store };
    let mut i = 0;
    let mut failed = None;
    let (pages, t) = timed(seconds, || {
        let id = &ids[i % ids.len()];
        if let Err(e) = render_turn_page(&state, "http://localhost", id, 1 + (i as u32 * 7) % 70) {
            failed = Some(e.detail);
        }
        i += 1;
    });
    if let Some(e) = failed {
        return Err(format!("turn page failed: {e}"));
    }
    Ok(ServiceFigures {
        ingest_ms,
        bytes_per_game,
        page_ms: t.as_secs_f64() * 1000.0 / pages as f64,
    })
}

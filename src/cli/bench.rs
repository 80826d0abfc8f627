//! `bench`: throughput of the engine, measured here rather than assumed; and, as its
//! subcommands, the service under load, player pages, collections and the analysis's quality,
//! each in its own module. Plain `bench` is `bench engine`. The spellings from before the
//! subcommands (`bench --service`, `--players N`, `--collection N`, `--honesty N`, `--judge`)
//! are hidden aliases of them, since the documentation and old issues use them.

use super::output::{Align, aligned};
use super::{collection_bench, honesty, judge, load, players_bench};
use crate::engine::bots::{self, Rng, Scratch, play_random};
use crate::engine::{Game, Preset, Setup, TileCatalog};
use crate::record::{RulesSpec, native};
use crate::replay::{self, Replays};
use crate::selfplay::{Policy, generate};
use crate::store::{Store, ingest};
use crate::web::AppState;
use crate::web::routes::pages::render_turn_page;
use serde_json::json;
use std::time::{Duration, Instant};

/// What `bench` is asked for: a mode, or none for the engine's figures.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    mode: Option<Mode>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// What `bench` measures.
#[derive(clap::Subcommand, Debug)]
enum Mode {
    /// The engine, the renderer, the store and the analysis, each timed alone (what `bench`
    /// with no mode does).
    Engine(EngineArgs),
    /// Load the whole service over loopback instead: pages, cached images, JSON and uploads
    /// from concurrent clients, with latency percentiles per kind.
    #[command(long_flag_alias = "service")]
    Service(load::ServiceArgs),
    /// Time player pages and search over a database of N generated games instead, and what
    /// the player rows add to storing a game.
    #[command(long_flag_alias = "players")]
    Players(players_bench::PlayersArgs),
    /// Time a collection of N generated games instead: importing them as Carcassonne Lab
    /// links, and building its page cold and warm.
    #[command(long_flag_alias = "collection")]
    Collection(collection_bench::CollectionArgs),
    /// Check the analysis's points lost against a reference with ten times the playouts, on
    /// N greedy-bot games (every 5th turn) instead.
    #[command(long_flag_alias = "honesty")]
    Honesty(honesty::HonestyArgs),
    /// Judge the analysis instead: analyse whole games of bots and of the records given, at
    /// the pages' options, and print per group the points lost a move, how often the move
    /// played is the first listed, whether losses agree with the listed values, and how well
    /// the win chances predicted the results.
    #[command(long_flag_alias = "judge")]
    Judge(judge::JudgeArgs),
}

/// What `bench engine` (or `bench` alone) is asked for.
#[derive(clap::Args, Debug)]
struct EngineArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Seconds to spend on each measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    match &args.mode {
        None => engine(args.engine.json, args.engine.seconds),
        Some(Mode::Engine(a)) => engine(a.json, a.seconds),
        Some(Mode::Service(a)) => load::run(a),
        Some(Mode::Players(a)) => players_bench::run(a),
        Some(Mode::Collection(a)) => collection_bench::run(a),
        Some(Mode::Honesty(a)) => honesty::run(a),
        Some(Mode::Judge(a)) => judge::run(a),
    }
}

fn setup(preset: Preset) -> Setup {
    Setup {
        rules: preset.rules(),
        catalog: TileCatalog::builtin(),
        players: 2,
        start: Vec::new(),
        start_squares: Vec::new(),
        extra_tiles: Vec::new(),
    }
}

/// One game's engine at its plainest: random full games a second, and the replay of a record.
struct GameFigures {
    /// How the table names the game ("New World: ") and how the JSON keys do ("new_world_").
    names: (&'static str, &'static str),
    /// The games played, in words: "random full games".
    games: &'static str,
    games_per_sec: f64,
    replay_us: f64,
    /// The record's moves, and what the JSON calls them (`record_tiles`, `record_moves`).
    moves: (usize, &'static str),
}

impl GameFigures {
    /// `record` replayed, and `random_game(seed)` played, for about `seconds` each.
    fn measure<R: Replays>(seconds: f64, record: &R, mut random_game: impl FnMut(u64)) -> (f64, f64) {
        let mut seed = 0u64;
        let (games, t) = timed(seconds, || {
            seed += 1;
            random_game(seed);
        });
        let games_per_sec = games as f64 / t.as_secs_f64();
        let (replays, t) = timed(seconds, || {
            record.replay().expect("the bench record is legal");
        });
        (games_per_sec, t.as_micros() as f64 / replays as f64)
    }

    fn rows(&self) -> Rows {
        let ((label, key), (moves, moves_key)) = (self.names, self.moves);
        let mut rows = Rows::default();
        rows.add(
            format!("{label}{} per second", self.games),
            format!("{:.0}", self.games_per_sec),
            "",
        )
        .json(format!("{key}random_games_per_second"), self.games_per_sec.round());
        rows.add(
            format!("{label}replay of a {moves}-move record"),
            format!("{:.1}", self.replay_us),
            "µs",
        )
        .json(format!("{key}replay_us_per_record"), tenths(self.replay_us))
        .json(format!("{key}{moves_key}"), moves);
        rows
    }
}

fn new_world_figures(seconds: f64) -> Result<GameFigures, String> {
    let record = generate(RulesSpec::new(Preset::NewWorld), 2, Policy::Random, 42).map_err(|e| e.to_string())?;
    let base = Game::new(record.setup()).map_err(|e| e.to_string())?;
    let mut bot = Scratch::default();
    let (games_per_sec, replay_us) = GameFigures::measure(seconds, &record, |seed| {
        play_random(&mut base.clone(), &mut Rng::new(seed), &mut bot);
    });
    Ok(GameFigures {
        names: ("New World: ", "new_world_"),
        games: "random full games",
        games_per_sec,
        replay_us,
        moves: (record.moves.len(), "record_tiles"),
    })
}

/// The Card Game: random full 4-player games, the replay of a record, and every alternative
/// of a turn with its Monte Carlo value at the default samples.
fn card_figures(seconds: f64) -> Result<Rows, String> {
    use crate::engine::cards::bots::{play_out, shuffled_deck};
    use crate::engine::cards::{CardGame, CardSetup, Colour};
    let record = crate::selfplay::card_game(4, Policy::Random, 42).map_err(|e| e.to_string())?;
    let setup = record.setup();
    let (games_per_sec, replay_us) = GameFigures::measure(seconds, &record, |seed| {
        let mut rng = Rng::new(seed);
        let deck = shuffled_deck(&mut rng);
        let face_up = deck[..10]
            .iter()
            .map(|&c| (c, c.colour().unwrap_or(Colour::Road)))
            .collect();
        let mut g = CardGame::new(CardSetup {
            face_up,
            ..setup.clone()
        })
        .expect("a shuffled deck sets up");
        play_out(&mut g, &deck[10..], Policy::Random, &mut rng);
    });
    // Turns across the game, so early and late turns both count.
    let mut turn = 0u32;
    let (analyses, t) = timed(seconds, || {
        turn = turn % 140 + 7;
        crate::analysis::cards::analyse_turn(&record, turn, crate::analysis::cards::DEFAULT_SAMPLES, 1)
            .expect("the bench record analyses");
    });
    let engine = GameFigures {
        names: ("Card Game: ", "card_game_"),
        games: "random 4-player games",
        games_per_sec,
        replay_us,
        moves: (record.moves.len(), "record_moves"),
    };
    let analysis_ms = t.as_secs_f64() * 1000.0 / analyses as f64;
    let mut rows = engine.rows();
    rows.add(
        "Card Game: a turn's alternatives, valued",
        format!("{analysis_ms:.1}"),
        "ms",
    )
    .json("card_game_analysis_ms_per_turn", tenths(analysis_ms));
    Ok(rows)
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

/// `bench engine`: every group of figures, measured in turn, as a table or one JSON document.
fn engine(as_json: bool, seconds: f64) -> Result<(), String> {
    let engine = engine_figures(seconds)?.rows();
    let new_world = new_world_figures(seconds)?.rows();
    let cards = card_figures(seconds)?;
    let render = render_figures(seconds)?.rows();
    let service = service_figures(seconds)?.rows();
    let analysis = analysis_figures(seconds)?.rows();
    if as_json {
        // The document has the render figures last, the table after the Card Game's: both
        // orders are older than this table, and tools read them.
        let mut doc = serde_json::Map::new();
        for rows in [&engine, &new_world, &cards, &service, &analysis, &render] {
            doc.extend(rows.json());
        }
        doc.insert("debug_build".into(), cfg!(debug_assertions).into());
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON values serialise"));
    } else {
        if cfg!(debug_assertions) {
            println!("warning: debug build; measure with `cargo run --release -- bench`");
        }
        let rows = Rows(
            [engine, new_world, cards, render, service, analysis]
                .into_iter()
                .flat_map(|r| r.0)
                .collect(),
        );
        print!("{}", rows.table());
    }
    Ok(())
}

/// The tile game's engine: random full games, the replay of a record, legal placements.
struct EngineFigures {
    engine: GameFigures,
    placements_ns: f64,
    placements_per_turn: f64,
}

impl EngineFigures {
    fn rows(&self) -> Rows {
        let mut rows = self.engine.rows();
        rows.add("legal placements, per turn", format!("{:.1}", self.placements_ns), "ns")
            .json("legal_placements_ns_per_turn", tenths(self.placements_ns));
        rows.add(
            "  placements found per turn (average)",
            format!("{:.1}", self.placements_per_turn),
            "",
        )
        .json("average_placements_per_turn", self.placements_per_turn);
        rows
    }
}

fn engine_figures(seconds: f64) -> Result<EngineFigures, String> {
    // Random full games with every rule on, fields included, and a full recorded game.
    let base = Game::new(setup(Preset::SecondEdition)).map_err(|e| e.to_string())?;
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Random, 42).map_err(|e| e.to_string())?;
    let mut bot = Scratch::default();
    let (games_per_sec, replay_us) = GameFigures::measure(seconds, &record, |seed| {
        play_random(&mut base.clone(), &mut Rng::new(seed), &mut bot);
    });
    let mut events = Vec::new();

    // Legal placements at every turn of 50 random games: time per call. Many positions keep
    // the branch predictor from learning the answers.
    let mut positions = Vec::new();
    for seed in 0..50 {
        let mut rng = Rng::new(1000 + seed);
        let mut g = base.clone();
        let mut ps = Vec::new();
        let mut acts = Vec::new();
        for tile in bots::shuffled_bag(&g, &mut rng) {
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

    Ok(EngineFigures {
        engine: GameFigures {
            names: ("", ""),
            games: "random full games",
            games_per_sec,
            replay_us,
            moves: (record.moves.len(), "record_tiles"),
        },
        placements_ns,
        placements_per_turn: total_placements as f64 / calls as f64,
    })
}

/// `x` rounded to tenths, as the JSON document gives times.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

struct AnalysisFigures {
    alternatives_ms: f64,
    random_playouts_per_sec: f64,
    greedy_playouts_per_sec: f64,
    game_seconds: f64,
    threads: usize,
}

impl AnalysisFigures {
    fn rows(&self) -> Rows {
        let mut rows = Rows::default();
        rows.add(
            "analysis: every alternative, evaluated",
            format!("{:.3}", self.alternatives_ms),
            "ms",
        )
        .json(
            "analysis_alternatives_ms_per_turn",
            (self.alternatives_ms * 1000.0).round() / 1000.0,
        );
        rows.add(
            "analysis: random playouts per second",
            format!("{:.0}", self.random_playouts_per_sec),
            "",
        )
        .json(
            "analysis_random_playouts_per_second",
            self.random_playouts_per_sec.round(),
        );
        rows.add(
            "analysis: greedy playouts per second",
            format!("{:.0}", self.greedy_playouts_per_sec),
            "",
        )
        .json(
            "analysis_greedy_playouts_per_second",
            self.greedy_playouts_per_sec.round(),
        );
        rows.add(
            format!("analysis: whole game, {} threads", self.threads),
            format!("{:.1}", self.game_seconds),
            "s",
        )
        .json("analysis_whole_game_seconds", tenths(self.game_seconds))
        .json("analysis_threads", self.threads);
        rows
    }
}

/// What-if analysis on a 72-tile greedy game: every alternative of a turn with its immediate
/// evaluation (averaged over the turns), playouts from the game's positions on one core, and
/// the whole game at the default options on two threads (timed once: it takes a while).
fn analysis_figures(seconds: f64) -> Result<AnalysisFigures, String> {
    use crate::analysis::{self, AnalysisOptions, playout};
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 42).map_err(|e| e.to_string())?;
    let snapshots = replay::replay(&record, None).map_err(|e| e.to_string())?.turns;
    let positions = (0..snapshots.len() as u32)
        .map(|n| {
            Ok((
                replay::replay_upto(&record, None, Some(n))
                    .map_err(|e| e.to_string())?
                    .game,
                snapshots[n as usize].mv.tile,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let heuristic = AnalysisOptions {
        playouts_per_alternative: Some(0),
        ..AnalysisOptions::default()
    };
    let mut i = 0;
    let (turns, t) = timed(seconds, || {
        let (g, tile) = &positions[i % positions.len()];
        let _ = analysis::analyse_position(g, *tile, None, i as u32, &heuristic);
        i += 1;
    });
    let alternatives_ms = t.as_secs_f64() * 1000.0 / turns as f64;
    let mut scratch = Scratch::default();
    let mut rate = |policy: Policy, seconds: f64| {
        let mut i = 0;
        let (n, t) = timed(seconds, || {
            let (g, _) = &positions[i % positions.len()];
            playout::playout(g, g.current_player(), i as u64, policy, &mut scratch);
            i += 1;
        });
        n as f64 / t.as_secs_f64()
    };
    let random_playouts_per_sec = rate(Policy::Random, seconds);
    let greedy_playouts_per_sec = rate(Policy::Sampled, seconds);
    let threads = 2;
    let start = Instant::now();
    analysis::analyse_game(
        &record,
        &AnalysisOptions {
            threads,
            ..AnalysisOptions::default()
        },
        &analysis::quiet,
    )
    .map_err(|e| e.to_string())?;
    Ok(AnalysisFigures {
        alternatives_ms,
        random_playouts_per_sec,
        greedy_playouts_per_sec,
        game_seconds: start.elapsed().as_secs_f64(),
        threads,
    })
}

struct ServiceFigures {
    ingest_ms: f64,
    bytes_per_game: f64,
    page_ms: f64,
    /// A mid-game turn page of the tile game: its HTML, and gzipped.
    page_bytes: usize,
    page_gzip_bytes: usize,
    card_page_ms: f64,
    explore: ExploreFigures,
}

impl ServiceFigures {
    fn rows(&self) -> Rows {
        let mut rows = Rows::default();
        rows.add(
            "ingest a game (parse, replay, commit)",
            format!("{:.2}", self.ingest_ms),
            "ms",
        )
        .json("ingest_ms_per_game", self.ingest_ms);
        rows.add("storage per game in SQLite", format!("{:.0}", self.bytes_per_game), "B")
            .json("storage_bytes_per_game", self.bytes_per_game);
        rows.add("turn page, server time", format!("{:.2}", self.page_ms), "ms")
            .json("turn_page_ms", self.page_ms);
        rows.add(
            "  its HTML (gzipped)",
            format!("{} ({})", self.page_bytes / 1024, self.page_gzip_bytes / 1024),
            "KB",
        )
        .json("turn_page_bytes", self.page_bytes)
        .json("turn_page_gzip_bytes", self.page_gzip_bytes);
        rows.add(
            "Card Game turn page, server time",
            format!("{:.2}", self.card_page_ms),
            "ms",
        )
        .json("card_game_turn_page_ms", self.card_page_ms);
        let e = &self.explore;
        rows.add(
            "explore step (move and page), server time",
            format!("{:.2}", e.step_ms),
            "ms",
        )
        .json("explore_step_ms", e.step_ms);
        rows.add(
            format!("explore engine, first answer ({} positions)", e.positions),
            format!("{:.0} (max {})", e.engine_ms_mean, e.engine_ms_max),
            "ms",
        )
        .json("explore_engine_ms_mean", e.engine_ms_mean)
        .json("explore_engine_ms_max", e.engine_ms_max);
        rows.add(
            "  its samples a move (mean)",
            format!("{:.0}", e.engine_samples_mean),
            "",
        )
        .json("explore_engine_samples_mean", e.engine_samples_mean);
        rows
    }
}

/// The explore board: a move played and its page drawn (the engine excluded), and the engine's
/// first answers.
struct ExploreFigures {
    step_ms: f64,
    engine_ms_mean: f64,
    engine_ms_max: u64,
    engine_samples_mean: f64,
    positions: usize,
}

/// Explore steps across the games `ids` (a move at a turn every 7th, the line's first legal
/// move), then the engine on 40 of those turns, positions it has not seen.
fn explore_figures(state: &AppState, ids: &[crate::store::GameId], seconds: f64) -> Result<ExploreFigures, String> {
    use crate::web::explore::{Asked, render_page};
    let game = |i: usize| -> Result<_, String> {
        let id = ids[i % ids.len()];
        let turn = 1 + (i as u32 * 7) % 60;
        let asked = Asked::default();
        let answer = (state.load_any(&id).and_then(|g| g.explore_answer(state, turn, &asked))).map_err(|e| e.detail)?;
        let line = answer
            .moves
            .first()
            .map(|m| answer.line_of(&m.step))
            .unwrap_or_default();
        Ok((id, turn, line))
    };
    let steps: Vec<_> = (0..120).map(game).collect::<Result<_, _>>()?;
    let mut i = 0;
    let mut failed = None;
    let (pages, t) = timed(seconds, || {
        let (id, turn, line) = &steps[i % steps.len()];
        let asked = Asked {
            line: line.clone(),
            ..Asked::default()
        };
        if let Err(e) = render_page(state, id, *turn, &asked) {
            failed = Some(e.detail);
        }
        i += 1;
    });
    if let Some(e) = failed {
        return Err(format!("explore page failed: {e}"));
    }
    // The engine on the games' own positions, each drawn tile to place.
    let mut thoughts = Vec::new();
    for (id, turn, _) in steps.iter().take(40) {
        let asked = Asked {
            think: true,
            ..Asked::default()
        };
        let answer = (state.load_any(id).and_then(|g| g.explore_answer(state, *turn, &asked))).map_err(|e| e.detail)?;
        thoughts.extend(answer.engine.map(|e| (e.millis, e.samples)));
    }
    let n = thoughts.len().max(1) as f64;
    Ok(ExploreFigures {
        step_ms: t.as_secs_f64() * 1000.0 / pages as f64,
        engine_ms_mean: thoughts.iter().map(|t| t.0 as f64).sum::<f64>() / n,
        engine_ms_max: thoughts.iter().map(|t| t.0).max().unwrap_or(0),
        engine_samples_mean: thoughts.iter().map(|t| f64::from(t.1)).sum::<f64>() / n,
        positions: thoughts.len(),
    })
}

/// Ingest, storage and page figures on a fresh database in the temp directory.
fn service_figures(seconds: f64) -> Result<ServiceFigures, String> {
    let dir = std::env::temp_dir().join(format!("carcassonne-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure_service(&dir.join("bench.sqlite"), seconds);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The size of `bytes` gzipped at the default level, as the service sends pages.
fn gzipped_len(bytes: &[u8]) -> usize {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).and_then(|_| gz.finish()).map_or(0, |out| out.len())
}

/// Server time of a Card Game's turn pages: a 4-player game by greedy bots, turns across it.
fn card_page_ms(state: &AppState, seconds: f64) -> Result<f64, String> {
    let record = crate::selfplay::card_game(4, Policy::Greedy, 3).map_err(|e| e.to_string())?;
    let bytes = crate::record::cards::to_value(&record).to_string();
    let (g, _) = ingest::ingest(&state.store, bytes.as_bytes()).map_err(|e| e.to_string())?;
    let turns = record.moves.len() as u32;
    let mut i = 0;
    let mut failed = None;
    let (pages, t) = timed(seconds, || {
        if let Err(e) = render_turn_page(state, &g.id, 1 + (i * 7) % turns) {
            failed = Some(e.detail);
        }
        i += 1;
    });
    match failed {
        Some(e) => Err(format!("Card Game turn page failed: {e}")),
        None => Ok(t.as_secs_f64() * 1000.0 / pages as f64),
    }
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
            )
            .map_err(|e| e.to_string())?;
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
    let state = AppState::new(store, "http://localhost");
    let mut i = 0;
    let mut failed = None;
    let (pages, t) = timed(seconds, || {
        let id = &ids[i % ids.len()];
        if let Err(e) = render_turn_page(&state, id, 1 + (i as u32 * 7) % 70) {
            failed = Some(e.detail);
        }
        i += 1;
    });
    if let Some(e) = failed {
        return Err(format!("turn page failed: {e}"));
    }
    let card_page_ms = card_page_ms(&state, seconds)?;
    let page = render_turn_page(&state, &ids[0], 36).map_err(|e| e.detail)?;
    let explore = explore_figures(&state, &ids, seconds)?;
    Ok(ServiceFigures {
        explore,
        card_page_ms,
        page_bytes: page.len(),
        page_gzip_bytes: gzipped_len(page.as_bytes()),
        ingest_ms,
        bytes_per_game,
        page_ms: t.as_secs_f64() * 1000.0 / pages as f64,
    })
}

struct RenderFigures {
    tiles: usize,
    width: u32,
    height: u32,
    cold_ms: f64,
    svg_ms: f64,
    raster_ms: f64,
    png_ms: f64,
    /// The whole game as a GIF at 48 px per tile: time and bytes.
    gif_ms: f64,
    gif_bytes: usize,
}

impl RenderFigures {
    fn rows(&self) -> Rows {
        let mut rows = Rows::default();
        let board = format!("{} tiles, {}×{} px", self.tiles, self.width, self.height);
        let ms = |x: f64| format!("{x:.2}");
        let warm = self.svg_ms + self.raster_ms + self.png_ms;
        rows.add(format!("render a board, cold ({board})"), ms(self.cold_ms), "ms")
            .json("render_board_tiles", self.tiles)
            .json("render_board_px", json!([self.width, self.height]))
            .json("render_cold_ms", self.cold_ms);
        rows.add("render warm: build the SVG", ms(self.svg_ms), "ms")
            .json("render_svg_ms", self.svg_ms);
        rows.add("render warm: rasterise", ms(self.raster_ms), "ms")
            .json("render_rasterise_ms", self.raster_ms);
        rows.add("render warm: encode the PNG", ms(self.png_ms), "ms")
            .json("render_png_ms", self.png_ms);
        rows.add("render warm: total", ms(warm), "ms")
            .json("render_warm_ms", warm);
        rows.add(
            format!("GIF of the game, 48 px ({} KB)", self.gif_bytes / 1024),
            ms(self.gif_ms),
            "ms",
        )
        .json("gif_ms", self.gif_ms)
        .json("gif_bytes", self.gif_bytes);
        rows
    }
}

/// One figure: its row of the table (a label, a number and its unit) and its values in the
/// JSON document, by key (none, or several where the row shows several, as "its HTML
/// (gzipped)" does). Each figure is written once, here, for both.
struct Figure {
    label: String,
    number: String,
    unit: &'static str,
    json: Vec<(String, serde_json::Value)>,
}

impl Figure {
    fn json(&mut self, key: impl Into<String>, value: impl Into<serde_json::Value>) -> &mut Figure {
        self.json.push((key.into(), value.into()));
        self
    }
}

/// Figures in order: as a table, the numbers right-aligned in one column however long the
/// labels are, or as the JSON document's keys and values.
#[derive(Default)]
struct Rows(Vec<Figure>);

impl Rows {
    fn add(&mut self, label: impl Into<String>, number: String, unit: &'static str) -> &mut Figure {
        self.0.push(Figure {
            label: label.into(),
            number,
            unit,
            json: Vec::new(),
        });
        self.0.last_mut().expect("a figure was just added")
    }

    fn table(&self) -> String {
        let header = vec!["measure".to_string(), "result".to_string(), String::new()];
        let rows: Vec<Vec<String>> = std::iter::once(header)
            .chain((self.0.iter()).map(|f| vec![f.label.clone(), f.number.clone(), f.unit.to_string()]))
            .collect();
        aligned(&rows, &[Align::Left, Align::Right, Align::Left], 1)
    }

    fn json(&self) -> impl Iterator<Item = (String, serde_json::Value)> + '_ {
        (self.0.iter()).flat_map(|f| f.json.iter().map(|(key, value)| (key.clone(), value.clone())))
    }
}

/// The final board of a 72-tile greedy game, about 1024 px wide, with ownership, the last move,
/// scoring and the legend: once cold (tile art not yet computed; the font too if nothing has
/// drawn yet in this process), then warm, each stage timed on its own.
fn render_figures(seconds: f64) -> Result<RenderFigures, String> {
    use crate::render::{self, RenderOptions};
    let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 42).map_err(|e| e.to_string())?;
    let full = replay::replay(&record, None).map_err(|e| e.to_string())?;
    let (lo, hi) = full.game.board().extent().ok_or("empty board")?;
    let opts = RenderOptions {
        size_px_per_tile: 1024 / (hi.x - lo.x + 1) as u32,
        ..RenderOptions::all(0)
    };
    let opts = RenderOptions {
        open_spots: false,
        ..opts
    };
    render::tiles::clear_cache();
    let start = Instant::now();
    let png = render::svg_to_png(&render::board_svg(&record, full.reached(), &opts)).map_err(|e| e.to_string())?;
    let cold_ms = start.elapsed().as_secs_f64() * 1000.0;
    let ms = |(n, t): (u64, Duration)| t.as_secs_f64() * 1000.0 / n as f64;
    let third = seconds / 3.0;
    let svg_ms = ms(timed(third, || {
        render::board_svg(&record, full.reached(), &opts);
    }));
    let svg = render::board_svg(&record, full.reached(), &opts);
    let raster_ms = ms(timed(third, || {
        render::rasterise(&svg).expect("the bench board rasterises");
    }));
    let pixmap = render::rasterise(&svg).map_err(|e| e.to_string())?;
    let png_ms = ms(timed(third, || {
        render::encode_png(&pixmap).expect("the bench board encodes");
    }));
    debug_assert!(!png.is_empty());
    let gif_bytes = render::Drawable::animation(&record, 48)
        .map_err(|e| e.to_string())?
        .len();
    let gif_ms = ms(timed(third, || {
        render::Drawable::animation(&record, 48).expect("the bench game animates");
    }));
    Ok(RenderFigures {
        gif_ms,
        gif_bytes,
        tiles: full.game.board().tiles().len(),
        width: pixmap.width(),
        height: pixmap.height(),
        cold_ms,
        svg_ms,
        raster_ms,
        png_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::{BenchArgs, Mode, Rows};
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn bench(args: &[&str]) -> BenchArgs {
        let cli = Cli::try_parse_from([&["carcassonne-replay", "bench"], args].concat()).unwrap();
        match cli.command {
            Command::Bench(args) => args,
            _ => unreachable!("a bench command"),
        }
    }

    /// The spellings from before the subcommands, as the documentation and issues give them,
    /// reach the same modes with the same flags.
    #[test]
    fn the_old_flag_spellings_choose_the_same_modes() {
        let modes = [
            (
                &["--service", "--only", "pages", "--seconds", "5"][..],
                &["service", "--only", "pages", "--seconds", "5"][..],
            ),
            (
                &["--players", "1000", "--db", "x.sqlite"],
                &["players", "1000", "--db", "x.sqlite"],
            ),
            (&["--collection", "850"], &["collection", "850"]),
            (&["--honesty", "6", "--json"], &["honesty", "6", "--json"]),
            (
                &["--judge", "a.json", "--game", "new-world", "--bots", "greedy, random"],
                &["judge", "a.json", "--game", "new-world", "--bots", "greedy, random"],
            ),
        ];
        for (old, new) in modes {
            let (old_mode, new_mode) = (bench(old).mode, bench(new).mode);
            assert_eq!(format!("{old_mode:?}"), format!("{new_mode:?}"), "{old:?}");
            assert!(old_mode.is_some(), "{old:?}");
        }
        let plain = bench(&["--seconds", "3", "--json"]);
        assert!(plain.mode.is_none() && plain.engine.json && plain.engine.seconds == 3.0);
        assert!(matches!(bench(&["engine", "--json"]).mode, Some(Mode::Engine(e)) if e.json));
        let mixed = Cli::try_parse_from(["carcassonne-replay", "bench", "--json", "honesty", "2"]);
        assert!(mixed.is_err(), "a flag of plain bench is not silently dropped");
    }

    /// Long labels (the Card Game's, the board's size) push the numbers right, all together:
    /// every number ends in one column and every unit starts in the next.
    #[test]
    fn the_figures_line_up_whatever_their_labels() {
        let mut rows = Rows::default();
        rows.add("random full games per second", "5120".into(), "");
        rows.add("Card Game: random 4-player games per second", "812".into(), "");
        rows.add("Card Game: replay of a 131-move record", "45.2".into(), "µs");
        rows.add("storage per game in SQLite", "9120".into(), "B");
        rows.add("  its HTML (gzipped)", "120 (21)".into(), "KB");
        let table = rows.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 6);
        let number_end = |line: &str, number: &str| line.find(number).unwrap() + number.len();
        let ends: Vec<usize> = (lines[1..].iter().zip(["5120", "812", "45.2", "9120", "120 (21)"]))
            .map(|(line, n)| line[..number_end(line, n)].chars().count())
            .collect();
        assert!(ends.windows(2).all(|w| w[0] == w[1]), "{table}");
        assert_eq!(
            lines[0].chars().count(),
            ends[0],
            "the header's result ends there too: {table}"
        );
    }
}

//! `bench service`: the whole service under load, over loopback, as clients see it.
//!
//! The server runs in this process on a fresh database in the temp directory, or on the
//! database `--db` names (the demos plus 40 generated games are stored there), with its usual
//! settings but the per-client limits lifted: every client here is 127.0.0.1. With `--nodes N`,
//! N servers run on the one database, each with its own store and caches as separate
//! processes would have, and the clients take turns among them. `clients` closed-loop clients then send a fixed mix for the
//! given seconds: turn pages, turn PNGs that are already cached, the JSON API, and uploads
//! of new games. Each client asks for gzip, as browsers do, and reads the whole answer.

use crate::engine::Preset;
use crate::engine::bots::Rng;
use crate::record::{RulesSpec, native};
use crate::selfplay::{Policy, generate};
use crate::store::{Database, GameId, Store, ingest};
use crate::web::limits::LimitSettings;
use crate::web::links;
use crate::web::startup;
use serde_json::json;
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Page,
    CachedPng,
    Json,
    Upload,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Page, Kind::CachedPng, Kind::Json, Kind::Upload];

    fn name(self) -> &'static str {
        match self {
            Kind::Page => "turn page",
            Kind::CachedPng => "turn PNG, cached",
            Kind::Json => "API JSON",
            Kind::Upload => "upload",
        }
    }

    /// The kind `--only` names.
    fn parse(name: &str) -> Result<Kind, String> {
        Ok(match name {
            "pages" => Kind::Page,
            "images" => Kind::CachedPng,
            "json" => Kind::Json,
            "uploads" => Kind::Upload,
            other => return Err(format!("--only {other:?}: pages, images, json or uploads")),
        })
    }

    /// The mix, in requests per hundred: mostly reading, as a shared game is.
    fn pick(rng: &mut Rng) -> Kind {
        match rng.below(100) {
            0..50 => Kind::Page,
            50..75 => Kind::CachedPng,
            75..98 => Kind::Json,
            _ => Kind::Upload,
        }
    }
}

/// One answered (or failed) request.
struct Sample {
    kind: Kind,
    took: Duration,
    ok: bool,
}

/// Turns of stored games to ask for; a few of them are the cached images.
struct Plan {
    turns: Vec<(GameId, u32)>,
    cached: Vec<(GameId, u32)>,
    uploads: Vec<Vec<u8>>,
}

/// What `bench service` is asked for.
#[derive(clap::Args, Debug)]
pub struct ServiceArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Seconds to spend on the whole run.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Concurrent clients.
    #[arg(long, default_value_t = 200)]
    clients: usize,
    /// Requests of one kind only: pages, images, json or uploads.
    #[arg(long, value_parser = Kind::parse)]
    only: Option<Kind>,
    /// The database to serve from, a SQLite file or a postgres:// URL; the bench stores its
    /// games there (default: a new file in the temp directory, removed after).
    #[arg(long)]
    db: Option<Database>,
    /// Web nodes on the one database, each with its own store and caches; the clients take
    /// turns among them.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
}

/// Loads the service with the mix, or with requests of one kind only (`--only`).
pub fn run(args: &ServiceArgs) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("carcassonne-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = args.db.clone().unwrap_or_else(|| dir.join("load.sqlite").into());
    let result = measure(&db, args.nodes.max(1), args.clients, args.seconds, args.only);
    let _ = std::fs::remove_dir_all(&dir);
    let (samples, elapsed) = result?;
    report(&samples, elapsed, args.clients, args.json);
    Ok(())
}

fn game(seed: u64) -> Result<Vec<u8>, String> {
    let record = generate(
        RulesSpec::new(Preset::SecondEdition),
        2 + (seed % 3) as u8,
        Policy::Random,
        seed,
    )
    .map_err(|e| e.to_string())?;
    Ok(native::to_value(&record).to_string().into_bytes())
}

/// Stores the games the clients read, and makes the ones they upload.
fn prepare(store: &Store, clients: usize, seconds: f64) -> Result<Plan, String> {
    startup::seed_demo(store).map_err(|e| e.to_string())?;
    let mut turns = Vec::new();
    for seed in 0..40 {
        let (g, _) = ingest::ingest(store, &game(seed)?).map_err(|e| e.to_string())?;
        turns.extend((1..=g.snapshots.len() as u32).map(|n| (g.id, n)));
    }
    let cached = turns.iter().step_by(97).take(24).cloned().collect();
    // New games for the uploads: 2 in 100 requests of the mix, at most a request per client
    // per millisecond (they repeat past 20,000: a repeat is found, not stored again).
    let wanted = (clients as f64 * seconds * 1000.0 * 0.02).min(20_000.0) as u64 + 100;
    let uploads = (1_000_000..1_000_000 + wanted).map(game).collect::<Result<_, _>>()?;
    Ok(Plan { turns, cached, uploads })
}

fn measure(
    db: &Database,
    nodes: usize,
    clients: usize,
    seconds: f64,
    only: Option<Kind>,
) -> Result<(Vec<Sample>, Duration), String> {
    let open = || Store::open(db.clone()).map_err(|e| format!("{db}: {e}"));
    let plan = prepare(&open()?, clients, seconds)?;
    let nodes = (0..nodes)
        .map(|_| Node::start(open()?))
        .collect::<Result<Vec<_>, _>>()?;
    let addresses = nodes.iter().map(|n| n.address.clone()).collect();
    let result = actix_web::rt::System::new().block_on(drive(addresses, plan, clients, seconds, only));
    for node in nodes {
        node.stop()?;
    }
    result
}

/// One web node, serving in a thread of its own.
struct Node {
    address: String,
    handle: actix_web::dev::ServerHandle,
    thread: std::thread::JoinHandle<Result<(), String>>,
}

impl Node {
    fn start(store: Store) -> Result<Node, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let address = format!("http://{}", listener.local_addr().map_err(|e| e.to_string())?);
        let mut settings = startup::Settings::for_listener(&listener).map_err(|e| e.to_string())?;
        settings.limits = LimitSettings {
            uploads_per_minute: u32::MAX,
            analyses_per_minute: u32::MAX,
            annotations_per_minute: u32::MAX,
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = startup::run(listener, store, settings).map_err(|e| e.to_string())?;
                let _ = tx.send(server.handle());
                server.await.map_err(|e| e.to_string())
            })
        });
        let handle = rx.recv().map_err(|_| "the server did not start".to_string())?;
        Ok(Node {
            address,
            handle,
            thread,
        })
    }

    fn stop(self) -> Result<(), String> {
        actix_web::rt::System::new().block_on(self.handle.stop(true));
        self.thread.join().map_err(|_| "the server panicked".to_string())?
    }
}

/// Runs the clients until the time is up; every sample of every client.
async fn drive(
    addresses: Vec<String>,
    plan: Plan,
    clients: usize,
    seconds: f64,
    only: Option<Kind>,
) -> Result<(Vec<Sample>, Duration), String> {
    let plan = std::rc::Rc::new(plan);
    // Fill the image cache first: the figure is for images already rendered.
    let warm = client();
    for ((id, n), address) in plan
        .cached
        .iter()
        .flat_map(|turn| addresses.iter().map(move |a| (turn, a)))
    {
        let url = format!("{address}{}", links::picture(*id, Some(*n)));
        let mut r = warm.get(&url).send().await.map_err(|e| format!("{url}: {e}"))?;
        r.body().limit(16 << 20).await.map_err(|e| format!("{url}: {e}"))?;
    }
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let next_upload = std::rc::Rc::new(std::cell::Cell::new(0));
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let address = addresses[c % addresses.len()].clone();
            let (plan, next_upload) = (plan.clone(), next_upload.clone());
            actix_web::rt::spawn(async move {
                let client = client();
                let mut rng = Rng::new(c as u64 + 1);
                let mut samples = Vec::new();
                while Instant::now() < deadline {
                    let kind = only.unwrap_or_else(|| Kind::pick(&mut rng));
                    let upload = (kind == Kind::Upload).then(|| {
                        let i = next_upload.get();
                        next_upload.set(i + 1);
                        plan.uploads[i % plan.uploads.len()].clone()
                    });
                    let path = path_for(kind, &plan, &mut rng);
                    let sent = Instant::now();
                    let ok = send(&client, &format!("{address}{path}"), upload).await;
                    samples.push(Sample {
                        kind,
                        took: sent.elapsed(),
                        ok,
                    });
                }
                samples
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.map_err(|e| e.to_string())?);
    }
    Ok((all, start.elapsed()))
}

fn client() -> awc::Client {
    awc::Client::builder()
        .timeout(Duration::from_secs(30))
        .add_default_header(("Accept-Encoding", "gzip"))
        .finish()
}

fn path_for(kind: Kind, plan: &Plan, rng: &mut Rng) -> String {
    let (id, n) = match kind {
        Kind::CachedPng => &plan.cached[rng.below(plan.cached.len())],
        _ => &plan.turns[rng.below(plan.turns.len())],
    };
    match kind {
        Kind::Page => links::turn(id, n),
        Kind::CachedPng => links::picture(*id, Some(*n)).to_string(),
        Kind::Json => links::api_turn(id, n),
        Kind::Upload => "/api/games".to_string(),
    }
}

/// Sends one request and reads the whole answer; whether it succeeded.
async fn send(client: &awc::Client, url: &str, upload: Option<Vec<u8>>) -> bool {
    let answer = match upload {
        Some(body) => client.post(url).send_body(body).await,
        None => client.get(url).send().await,
    };
    match answer {
        Ok(mut r) => r.status().is_success() && r.body().limit(16 << 20).await.is_ok(),
        Err(_) => false,
    }
}

/// The percentile `p` (0–1) of sorted durations, in milliseconds.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

fn report(samples: &[Sample], elapsed: Duration, clients: usize, as_json: bool) {
    let secs = elapsed.as_secs_f64();
    let rows: Vec<_> = Kind::ALL
        .iter()
        .map(|&kind| {
            let mut took: Vec<Duration> = samples.iter().filter(|s| s.kind == kind).map(|s| s.took).collect();
            took.sort_unstable();
            let errors = samples.iter().filter(|s| s.kind == kind && !s.ok).count();
            json!({
                "kind": kind.name(),
                "requests": took.len(),
                "per_sec": (took.len() as f64 / secs).round(),
                "errors": errors,
                "p50_ms": percentile(&took, 0.5),
                "p99_ms": percentile(&took, 0.99),
                "max_ms": percentile(&took, 1.0),
            })
        })
        .collect();
    let total = samples.len() as f64 / secs;
    if as_json {
        let doc = json!({"clients": clients, "seconds": secs, "requests_per_sec": total.round(), "kinds": rows});
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON values serialise"));
        return;
    }
    println!("{clients} clients for {secs:.1} s: {total:.0} requests/s");
    println!(
        "{:<18} {:>9} {:>9} {:>7} {:>9} {:>9} {:>9}",
        "kind", "requests", "per s", "errors", "p50 ms", "p99 ms", "max ms"
    );
    for r in rows {
        println!(
            "{:<18} {:>9} {:>9} {:>7} {:>9.2} {:>9.2} {:>9.2}",
            r["kind"].as_str().unwrap_or_default(),
            r["requests"].as_u64().unwrap_or_default(),
            r["per_sec"].as_f64().unwrap_or_default(),
            r["errors"].as_u64().unwrap_or_default(),
            r["p50_ms"].as_f64().unwrap_or_default(),
            r["p99_ms"].as_f64().unwrap_or_default(),
            r["max_ms"].as_f64().unwrap_or_default(),
        );
    }
}

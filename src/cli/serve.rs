//! `serve`: the web service, on an embedded SQLite file or a shared PostgreSQL server;
//! `worker`: its analyses alone, on the same database.

use crate::analysis::AnalysisOptions;
use crate::queue::{ANALYSIS_QUEUE, Jobs};
use crate::store::{Database, Store};
use crate::web::limits::LimitSettings;
use crate::web::startup;
use std::io::IsTerminal;
use std::net::TcpListener;
use std::time::Duration;

/// What `serve` is asked for.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// The database: a SQLite file (created if missing), or a PostgreSQL server's
    /// postgres:// URL, which several nodes may share.
    #[arg(long, default_value = "./carcassonne-replay.sqlite")]
    db: Database,
    /// The address the public reaches the site at, for links in pages and link previews,
    /// such as https://replay.example.org (default: http:// and the bind address).
    #[arg(long)]
    public_url: Option<String>,
    /// Uploads each client may make per minute.
    #[arg(long, default_value_t = crate::web::limits::UPLOADS_PER_MINUTE)]
    uploads_per_minute: u32,
    /// Analysis requests each client may make per minute.
    #[arg(long, default_value_t = crate::web::limits::ANALYSES_PER_MINUTE)]
    analyses_per_minute: u32,
    /// Comments each client may write or remove per minute; moves of live games, recorded or
    /// taken back, twice as many.
    #[arg(long, default_value_t = crate::web::limits::ANNOTATIONS_PER_MINUTE)]
    annotations_per_minute: u32,
    /// Analyses waiting or running at most; past it, requests are answered 503.
    #[arg(long, default_value_t = crate::queue::ANALYSIS_QUEUE)]
    analysis_queue: u64,
    /// Analysis worker threads in this process; 0 when other processes on the same
    /// database run the analyses.
    #[arg(long, default_value_t = 1)]
    analysis_workers: usize,
}

/// What `worker` is asked for.
#[derive(clap::Args)]
pub struct WorkerArgs {
    /// The database: a SQLite file, or a PostgreSQL server's postgres:// URL.
    #[arg(long, default_value = "./carcassonne-replay.sqlite")]
    db: Database,
    /// Analyses run at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seconds a job stays this worker's without news from it: past them, after a crash,
    /// another worker takes the job over. Progress renews it at every turn.
    #[arg(long, default_value_t = crate::queue::LEASE.as_secs_f64())]
    lease_seconds: f64,
}

/// Whether the log may colour its lines: only on a terminal (a file, a pipe or a journal gets
/// plain text), and never under `NO_COLOR` (no-color.org).
fn colours_wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The log on standard output, filtered by `RUST_LOG`.
fn init_log() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,actix_web=info".into()),
        )
        .with_ansi(colours_wanted())
        .init();
}

/// Runs `threads` analysis workers on the database at `db` until the process is stopped: they
/// claim the analyses that any `serve` on the same database queues (`queue`). On SIGTERM
/// or SIGINT they give the jobs in hand back to the queue before the process ends.
pub fn worker(args: &WorkerArgs) -> Result<(), String> {
    let WorkerArgs { db, threads, .. } = args;
    let lease = match Duration::try_from_secs_f64(args.lease_seconds) {
        Ok(lease) if args.lease_seconds >= 1.0 => lease,
        _ => {
            return Err(format!(
                "--lease-seconds {}: give a number of seconds, 1 or more",
                args.lease_seconds
            ));
        }
    };
    init_log();
    let store = Store::open(db.clone()).map_err(|e| format!("{db}: {e}"))?;
    let workers = Jobs::start(
        store,
        AnalysisOptions::default(),
        (ANALYSIS_QUEUE, *threads, lease),
        |_, _| {},
    );
    tracing::info!("{threads} analysis workers on database {db}");
    until_stopped().map_err(|e| format!("cannot wait for a signal: {e}"))?;
    tracing::info!("stopping: the analyses in hand go back to the queue");
    drop(workers);
    Ok(())
}

/// Waits for SIGTERM (a service manager's stop) or SIGINT (Ctrl-C).
fn until_stopped() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(async {
        let (mut term, mut int) = (signal(SignalKind::terminate())?, signal(SignalKind::interrupt())?);
        futures_util::future::select(Box::pin(term.recv()), Box::pin(int.recv())).await;
        Ok(())
    })
}

pub fn run(args: &ServeArgs) -> Result<(), String> {
    let ServeArgs { bind, db, .. } = args;
    init_log();
    let store = Store::open(db.clone()).map_err(|e| format!("{db}: {e}"))?;
    startup::seed_demo(&store).map_err(|e| e.to_string())?;
    let listener = TcpListener::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
    let mut settings = startup::Settings::for_listener(&listener).map_err(|e| e.to_string())?;
    if let Some(url) = &args.public_url {
        settings.public_url = public_url_of(url)?;
    }
    settings.limits = LimitSettings {
        uploads_per_minute: args.uploads_per_minute,
        analyses_per_minute: args.analyses_per_minute,
        annotations_per_minute: args.annotations_per_minute,
    };
    settings.analysis_queue = args.analysis_queue;
    settings.analysis_workers = args.analysis_workers;
    tracing::info!(
        "serving on http://{} with database {db}",
        listener.local_addr().map_err(|e| e.to_string())?,
    );
    actix_web::rt::System::new().block_on(async {
        startup::run(listener, store, settings)
            .map_err(|e| e.to_string())?
            .await
            .map_err(|e| e.to_string())
    })
}

/// An absolute http(s) address without a trailing slash.
fn public_url_of(url: &str) -> Result<String, String> {
    let ok = (url.starts_with("http://") || url.starts_with("https://"))
        && !url.contains(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>');
    if ok {
        Ok(url.trim_end_matches('/').to_string())
    } else {
        Err(format!("--public-url {url:?} is not an http:// or https:// address"))
    }
}

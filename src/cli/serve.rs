//! `serve`: the web service, on an embedded SQLite file or a shared PostgreSQL server;
//! `worker`: its analyses alone, on the same database.

use crate::analysis::AnalysisOptions;
use crate::queue::{ANALYSIS_QUEUE, Jobs};
use crate::store::{Database, Store};
use crate::web::limits::LimitSettings;
use crate::web::startup;
use std::io::IsTerminal;
use std::net::TcpListener;

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
pub fn worker(db: &Database, threads: usize, lease: std::time::Duration) -> Result<(), String> {
    init_log();
    let store = Store::open(db.clone()).map_err(|e| format!("{db}: {e}"))?;
    let workers = Jobs::start(
        store,
        AnalysisOptions::default(),
        (ANALYSIS_QUEUE, threads, lease),
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

pub fn run(
    bind: &str,
    db: &Database,
    public_url: Option<&str>,
    limits: LimitSettings,
    (analysis_queue, analysis_workers): (u64, usize),
) -> Result<(), String> {
    init_log();
    let store = Store::open(db.clone()).map_err(|e| format!("{db}: {e}"))?;
    startup::seed_demo(&store).map_err(|e| e.to_string())?;
    let listener = TcpListener::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
    let mut settings = startup::Settings::for_listener(&listener).map_err(|e| e.to_string())?;
    if let Some(url) = public_url {
        settings.public_url = public_url_of(url)?;
    }
    settings.limits = limits;
    settings.analysis_queue = analysis_queue;
    settings.analysis_workers = analysis_workers;
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

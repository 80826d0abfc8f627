//! `serve`: the web service on an embedded SQLite file; `worker`: its analyses alone, on the
//! same file.

use crate::analysis::AnalysisOptions;
use crate::store::Store;
use crate::web::jobs::Jobs;
use crate::web::limits::LimitSettings;
use crate::web::startup;
use std::io::IsTerminal;
use std::net::TcpListener;
use std::path::Path;

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
/// claim the analyses that any `serve` on the same database queues (`web::jobs`).
pub fn worker(db: &Path, threads: usize) -> Result<(), String> {
    init_log();
    let store = Store::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    let _workers = Jobs::workers_alone(store, AnalysisOptions::default(), threads);
    tracing::info!("{threads} analysis workers on database {}", db.display());
    loop {
        std::thread::park();
    }
}

pub fn run(
    bind: &str,
    db: &Path,
    public_url: Option<&str>,
    limits: LimitSettings,
    (analysis_queue, analysis_workers): (u64, usize),
) -> Result<(), String> {
    init_log();
    let store = Store::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    startup::seed_demo(&store)?;
    let listener = TcpListener::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
    let mut settings = startup::Settings::for_listener(&listener).map_err(|e| e.to_string())?;
    if let Some(url) = public_url {
        settings.public_url = public_url_of(url)?;
    }
    settings.limits = limits;
    settings.analysis_queue = analysis_queue;
    settings.analysis_workers = analysis_workers;
    tracing::info!(
        "serving on http://{} with database {}",
        listener.local_addr().map_err(|e| e.to_string())?,
        db.display()
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

//! `serve`: the web service on an embedded SQLite file.

use crate::store::Store;
use crate::web::startup;
use std::net::TcpListener;
use std::path::Path;

pub fn run(bind: &str, db: &Path) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,actix_web=info".into()),
        )
        .init();
    let store = Store::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    startup::seed_demo(&store)?;
    let listener = TcpListener::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
    tracing::info!(
        "serving on http://{} with database {}",
        listener.local_addr().map_err(|e| e.to_string())?,
        db.display()
    );
    actix_web::rt::System::new().block_on(async {
        startup::run(listener, store)
            .map_err(|e| e.to_string())?
            .await
            .map_err(|e| e.to_string())
    })
}

//! Liveness and readiness probes, and the metrics for Prometheus.

use crate::web::problem::Problem;
use crate::web::{AppState, blocking};
use actix_web::{HttpResponse, route, web};

/// The process is up.
#[route("/livez", method = "GET", method = "HEAD")]
pub async fn livez() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain").body("ok")
}

/// The process can serve: the database answers (a query, not just an open connection).
#[route("/readyz", method = "GET", method = "HEAD")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    match blocking(move || Ok(state.store.ping()?)).await {
        Ok(()) => HttpResponse::Ok().content_type("text/plain").body("ready"),
        Err(e) => HttpResponse::ServiceUnavailable()
            .content_type("text/plain")
            .body(format!("not ready: {e}")),
    }
}

/// Prometheus metrics in the OpenMetrics text format (`web::metrics`).
#[route("/metrics", method = "GET", method = "HEAD")]
pub async fn metrics(state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let st = state.clone();
    let (games, queue) = blocking(move || Ok((st.store.count()?, st.store.queue()?))).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(state.metrics.render(games, queue)))
}

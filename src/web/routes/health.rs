//! Liveness and readiness probes.

use crate::web::AppState;
use actix_web::{HttpResponse, route, web};

/// The process is up.
#[route("/livez", method = "GET", method = "HEAD")]
pub async fn livez() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain").body("ok")
}

/// The process can serve: the database answers.
#[route("/readyz", method = "GET", method = "HEAD")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    match state.store.ping() {
        Ok(()) => HttpResponse::Ok().content_type("text/plain").body("ready"),
        Err(e) => HttpResponse::ServiceUnavailable()
            .content_type("text/plain")
            .body(format!("not ready: {e}")),
    }
}

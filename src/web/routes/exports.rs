//! A stored game in the formats we export.

use crate::record::native;
use crate::web::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

/// The native record, as stored.
#[get("/g/{id:[0-9a-f]{16}}.json")]
pub async fn record_json(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    match state.load(&id) {
        Ok(g) => HttpResponse::Ok()
            .content_type("application/json")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{}.json\"", g.row.id),
            ))
            .body(native::to_pretty_string(&g.record)),
        Err(p) => p.negotiate(&req),
    }
}

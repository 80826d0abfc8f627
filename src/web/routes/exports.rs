//! A stored game in the formats we export.

use crate::record::{csv, jcz, native};
use crate::replay;
use crate::web::AppState;
use crate::web::problem::Problem;
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

fn download(id: &str, ext: &str, content_type: &str, body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{id}.{ext}\""),
        ))
        .body(body)
}

/// A JCloisterZone 5.x save of the game.
#[get("/g/{id:[0-9a-f]{16}}.jcz")]
pub async fn record_jcz(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let answer = state.load(&id).and_then(|g| {
        jcz::to_string(&g.record)
            .map(|text| download(&g.row.id, "jcz", "application/json", text))
            .map_err(Problem::internal)
    });
    answer.unwrap_or_else(|p| p.negotiate(&req))
}

/// Every scoring event as CSV: turn, player, feature, points, breakdown.
#[get("/g/{id:[0-9a-f]{16}}.csv")]
pub async fn scoring_csv(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    let answer = state.load(&id).and_then(|g| {
        let r = replay::replay(&g.record, None).map_err(Problem::internal)?;
        Ok(download(
            &g.row.id,
            "csv",
            "text/csv; charset=utf-8",
            csv::scoring_csv(&g.record, &r),
        ))
    });
    answer.unwrap_or_else(|p| p.negotiate(&req))
}

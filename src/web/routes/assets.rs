//! Static files, embedded in the binary so the service runs from any directory.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};

const ASSETS: [(&str, &str, &str); 4] = [
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../static/app.js"),
    ),
    (
        "record.schema.json",
        "application/schema+json",
        include_str!("../../../static/record.schema.json"),
    ),
    (
        "games/demo-second-edition.json",
        "application/json",
        include_str!("../../../static/games/demo-second-edition.json"),
    ),
];

#[get("/static/{path:.*}")]
pub async fn asset(path: web::Path<String>) -> HttpResponse {
    match ASSETS.iter().find(|(name, _, _)| *name == path.as_str()) {
        Some((_, mime, body)) => HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, *mime))
            .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
            .body(*body),
        None => HttpResponse::NotFound().content_type("text/plain").body("no such file"),
    }
}

//! Static files, embedded in the binary so the service runs from any directory.

use crate::record::quote::Quoted;
use crate::web::problem::Problem;
use actix_web::http::header;
use actix_web::{HttpResponse, route, web};

const ASSETS: [(&str, &str, &[u8]); 10] = [
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../../static/favicon.svg"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../static/app.js"),
    ),
    (
        "record.schema.json",
        "application/schema+json",
        include_bytes!("../../../static/record.schema.json"),
    ),
    (
        "card-game.schema.json",
        "application/schema+json",
        include_bytes!("../../../static/card-game.schema.json"),
    ),
    (
        "games/demo-second-edition.json",
        "application/json",
        include_bytes!("../../../static/games/demo-second-edition.json"),
    ),
    (
        "games/demo-new-world.json",
        "application/json",
        include_bytes!("../../../static/games/demo-new-world.json"),
    ),
    (
        "games/demo-card-game.json",
        "application/json",
        include_bytes!("../../../static/games/demo-card-game.json"),
    ),
    (
        "docs/recording.png",
        "image/png",
        include_bytes!("../../../static/docs/recording.png"),
    ),
    (
        "docs/recording-cards.png",
        "image/png",
        include_bytes!("../../../static/docs/recording-cards.png"),
    ),
];

#[route("/static/{path:.*}", method = "GET", method = "HEAD")]
pub async fn asset(path: web::Path<String>) -> Result<HttpResponse, Problem> {
    let (_, mime, body) = (ASSETS.iter().find(|(name, _, _)| *name == path.as_str()))
        .ok_or_else(|| Problem::not_found(format!("no such file: {}", Quoted(&path))))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, *mime))
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(*body))
}

/// Browsers ask for `/favicon.ico` whatever the page says: the same icon, drawn once as PNG
/// (which every browser takes under that name).
#[route("/favicon.ico", method = "GET", method = "HEAD")]
pub async fn favicon() -> HttpResponse {
    static PNG: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
    let png = PNG.get_or_init(|| crate::render::svg_to_png(include_str!("../../../static/favicon.svg")).ok());
    match png {
        Some(bytes) => HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "image/png"))
            .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
            .body(bytes.clone()),
        None => HttpResponse::NotFound().finish(),
    }
}

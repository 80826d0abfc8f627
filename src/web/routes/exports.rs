//! A stored game in the formats we export.

use crate::export::{Export, ExportError};
use crate::store::GameId;
use crate::web::problem::Problem;
use crate::web::{AppState, blocking};
use actix_web::http::header;
use actix_web::{HttpResponse, route, web};

/// A file to send: its name's extension, content type, whether to save it (`attachment`) or
/// show it (`inline`), and its text.
struct Download {
    ext: &'static str,
    content_type: &'static str,
    disposition: &'static str,
    body: String,
}

async fn send(
    state: web::Data<AppState>,
    id: GameId,
    make: fn(&dyn Export) -> Result<Download, Problem>,
) -> Result<HttpResponse, Problem> {
    let d = blocking(move || make(state.load_any(&id)?.exports())).await?;
    Ok(HttpResponse::Ok()
        .content_type(d.content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("{}; filename=\"{id}.{}\"", d.disposition, d.ext),
        ))
        .body(d.body))
}

/// The native record, as stored.
#[route("/g/{id}.json", method = "GET", method = "HEAD")]
pub async fn record_json(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        Ok(Download {
            ext: "json",
            content_type: "application/json",
            disposition: "inline",
            body: g.native_json(),
        })
    })
    .await
}

/// A JCloisterZone 5.x save of the game.
#[route("/g/{id}.jcz", method = "GET", method = "HEAD")]
pub async fn record_jcz(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        let jcz = g.jcz().map_err(|e| match e {
            ExportError::GameNotInJcz(_) | ExportError::TileNotInJcz(_) => {
                Problem::not_found(format!("no .jcz of this game: {e}; download the record as JSON"))
            }
            ExportError::Replay(_) | ExportError::Unwritable(_) => Problem::internal(e),
        })?;
        Ok(Download {
            ext: "jcz",
            content_type: "application/json",
            disposition: "attachment",
            body: jcz,
        })
    })
    .await
}

/// Every scoring event as CSV: turn, player, feature, points, breakdown.
#[route("/g/{id}.csv", method = "GET", method = "HEAD")]
pub async fn scoring_csv(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        let body = g.scoring_csv().map_err(Problem::internal)?;
        Ok(Download {
            ext: "csv",
            content_type: "text/csv; charset=utf-8",
            disposition: "attachment",
            body,
        })
    })
    .await
}

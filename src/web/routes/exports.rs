//! A stored game in the formats we export.

use crate::export::{csv, jcz};
use crate::record::{self, native};
use crate::replay;
use crate::store::GameId;
use crate::web::problem::Problem;
use crate::web::{AppState, Loaded, blocking};
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
    make: fn(&Loaded) -> Result<Download, Problem>,
) -> Result<HttpResponse, Problem> {
    let d = blocking(move || make(&state.load_any(&id)?)).await?;
    Ok(HttpResponse::Ok()
        .content_type(d.content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("{}; filename=\"{id}.{}\"", d.disposition, d.ext),
        ))
        .body(d.body))
}

/// The native record, as stored.
#[route("/g/{id:[0-9a-f]{16}}.json", method = "GET", method = "HEAD")]
pub async fn record_json(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        Ok(Download {
            ext: "json",
            content_type: "application/json",
            disposition: "inline",
            body: match g {
                Loaded::Tiles(g) => native::to_pretty_string(&g.record),
                Loaded::Cards(g) => {
                    serde_json::to_string_pretty(&record::cards::to_value(&g.record)).map_err(Problem::internal)?
                }
            },
        })
    })
    .await
}

/// A JCloisterZone 5.x save of the game.
#[route("/g/{id:[0-9a-f]{16}}.jcz", method = "GET", method = "HEAD")]
pub async fn record_jcz(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        let no_jcz =
            |why: String| Problem::not_found(format!("no .jcz of this game: {why}; download the record as JSON"));
        let g = match g {
            Loaded::Tiles(g) => g,
            other => return Err(no_jcz(format!("JCloisterZone does not play {}", other.kind().title()))),
        };
        if let Some(why) = jcz::unsupported(&g.record) {
            return Err(no_jcz(why));
        }
        Ok(Download {
            ext: "jcz",
            content_type: "application/json",
            disposition: "attachment",
            body: jcz::to_string(&g.record).map_err(Problem::internal)?,
        })
    })
    .await
}

/// Every scoring event as CSV: turn, player, feature, points, breakdown.
#[route("/g/{id:[0-9a-f]{16}}.csv", method = "GET", method = "HEAD")]
pub async fn scoring_csv(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<HttpResponse, Problem> {
    send(state, id.into_inner(), |g| {
        let body = match g {
            Loaded::Tiles(g) => {
                let r = replay::replay(&g.record, None).map_err(Problem::internal)?;
                csv::scoring_csv(&g.record, &r)
            }
            Loaded::Cards(g) => {
                let r = replay::cards::replay(&g.record).map_err(Problem::internal)?;
                csv::card_scoring_csv(&g.record, &r)
            }
        };
        Ok(Download {
            ext: "csv",
            content_type: "text/csv; charset=utf-8",
            disposition: "attachment",
            body,
        })
    })
    .await
}

//! What-if analysis pages: queue a whole-game analysis and watch it, list a turn's
//! alternatives, and show one alternative on the board (`web::what_if` reads them).

use crate::analysis::report::{AlternativeReport, FeatureReport};
use crate::engine::Pos;
use crate::record::RecordedMove;
use crate::render::{self, ImageFormat, RenderOptions};
use crate::replay::words;
use crate::store::{GameId, QueueAnswer};
use crate::web::board_view::never_completed_at;
use crate::web::game::analysis::{AlternativesPage, AnalysisPage, value_with_error};
use crate::web::game::api::{AnalysisStatusAnswer, QueuedAnswer};
use crate::web::loaded::Stored;
use crate::web::problem::{Problem, wants_html};
use crate::web::query::Query;
use crate::web::what_if::{TurnAlternatives, is_listed, listing, turn_alternatives, turned_instead, with_alternative};
use crate::web::{AppState, blocking, links, view};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, post, route, web};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

/// Queues the whole-game analysis. Browsers go to the progress page; API clients get 202.
#[utoipa::path(post, path = "/g/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 202, description = "Queued (or already queued or done)", body = QueuedAnswer),
              (status = 303, description = "Browsers: to the progress page"),
              (status = 403, description = "A page of another site asked", content_type = "application/problem+json"),
              (status = 404, description = "No such game", content_type = "application/problem+json"),
              (status = 409, description = "A live game, in play", content_type = "application/problem+json"),
              (status = 429, description = "Too many analysis requests, or this client holds its share of the queue (a quarter)", content_type = "application/problem+json"),
              (status = 503, description = "The analysis queue is full", content_type = "application/problem+json")))]
#[post("/g/{id}/analysis")]
pub async fn queue(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    crate::web::origin::same_origin(&req, &state.public_url)?;
    state.limits.analysis(req.peer_addr().map(|a| a.ip()))?;
    let id = id.into_inner();
    let (st, requester) = (state.clone(), crate::web::limits::requester(&req));
    let answer = blocking(move || {
        if st.load_any(&id)?.row().live {
            let why = format!("game {id} is in play: it is analysed once it is over");
            return Err(Problem::new(StatusCode::CONFLICT, "Game in play", why));
        }
        let jobs = st
            .jobs
            .as_ref()
            .ok_or_else(|| Problem::unavailable("this server runs no analyses", 3600))?;
        let answer = jobs.request(&st.store, &id, &requester)?;
        st.analysis_seen.forget(&id);
        Ok(answer)
    })
    .await?;
    match answer {
        QueueAnswer::Full { waiting } => {
            return Err(Problem::unavailable(
                format!("the analysis queue is full: {waiting} games are waiting or being analysed"),
                60,
            ));
        }
        QueueAnswer::OverShare { held } => {
            let what = format!("analyses at once ({held} waiting or running, its share of the queue)");
            return Err(Problem::too_many(&what, 60));
        }
        QueueAnswer::Queued | QueueAnswer::Already => {}
    }
    let url = links::analysis(id);
    let from_form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"application/x-www-form-urlencoded"));
    Ok(if wants_html(&req) || from_form {
        HttpResponse::SeeOther().insert_header((header::LOCATION, url)).finish()
    } else {
        HttpResponse::Accepted()
            .insert_header((header::LOCATION, url.clone()))
            .json(QueuedAnswer {
                status_url: links::api_analysis(id),
                url,
            })
    })
}

/// The analysis' status, and its summary when done.
#[utoipa::path(get, path = "/api/games/{id}/analysis", params(("id" = String, Path, description = "Game id")),
    responses((status = 200, description = "The status, its progress, and the summary once done", body = AnalysisStatusAnswer),
              (status = 404, description = "No such game", content_type = "application/problem+json")))]
#[route("/api/games/{id}/analysis", method = "GET", method = "HEAD")]
pub async fn api_status(
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<web::Json<AnalysisStatusAnswer>, Problem> {
    let id = id.into_inner();
    blocking(move || state.load_any(&id)?.analysis_status(&state))
        .await
        .map(web::Json)
}

/// The progress bar while it runs (the page refreshes itself), then each turn's played move
/// against the best and each player's average points lost.
#[route("/g/{id}/analysis", method = "GET", method = "HEAD")]
pub async fn analysis_page(state: web::Data<AppState>, id: web::Path<GameId>) -> Result<AnalysisPage, Problem> {
    let id = id.into_inner();
    blocking(move || state.load_any(&id)?.analysis_page(&state)).await
}

#[derive(Deserialize)]
pub struct SortQuery {
    sort: Option<String>,
}

/// Every alternative of turn `n`, sortable by rank, value, immediate points or position.
#[route("/g/{id}/t/{n:[0-9]+}/alternatives", method = "GET", method = "HEAD")]
pub async fn alternatives(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
    q: Query<SortQuery>,
) -> Result<AlternativesPage, Problem> {
    let (id, n) = path.into_inner();
    blocking(move || {
        let game = state.load_any(&id)?;
        // What else a move could have done is advice on the position: at a table in play, it
        // waits until the game is over, as the analysis does.
        if game.row().live {
            let why = format!("game {id} is in play: what else its moves could have done is shown once it is over");
            return Err(Problem::new(StatusCode::CONFLICT, "A game in play", why));
        }
        game.alternatives_page(&state, n, q.into_inner().sort)
    })
    .await
}

#[derive(Template, WebTemplate)]
#[template(path = "alternative.html")]
pub struct AlternativePage {
    id: GameId,
    title: String,
    turn: u32,
    k: usize,
    player: String,
    description: String,
    facts: Vec<(String, String)>,
    features: Vec<String>,
    played: bool,
    tiles_notice: Option<&'static str>,
}

/// What an alternative did, as (label, value) rows. `left_behind` says which settlers New
/// World's surveyors would send home after it: they no longer score if the game ended now.
fn facts(
    g: &Stored<crate::record::GameRecord>,
    a: &AlternativeReport,
    of: usize,
    basis: &str,
    left_behind: Vec<String>,
) -> Vec<(String, String)> {
    let named = |xs: &[i32]| -> String {
        (xs.iter().enumerate())
            .map(|(p, x)| format!("{} {x}", g.player_name(p as u8)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut facts = vec![
        ("Rank".to_string(), format!("{} of {of}", a.rank)),
        ("Value".to_string(), format!("{} ({basis})", value_with_error(a))),
        ("Points now".to_string(), named(&a.immediate)),
        ("Change if the game ended now".to_string(), named(&a.if_ended_change)),
    ];
    if !left_behind.is_empty() {
        let why = format!("{}: they no longer score if the game ended now", left_behind.join(". "));
        facts.push(("Left behind".to_string(), why));
    }
    let (_, figures) = words::figures(g.record.setup.game);
    facts.push((
        format!("{} committed", words::capitalised(figures)),
        format!("{:+}", a.meeples_committed),
    ));
    if let Some(p) = &a.playouts {
        facts.push((
            "Playouts".to_string(),
            format!(
                "{}, mean margin {} ± {}",
                words::count(p.count, "playout", "playouts"),
                view::points(p.mean_margin),
                view::points(p.std_error)
            ),
        ));
    }
    facts
}

/// Each feature an alternative touches, in words; `on_land` says where a tile may ever stand.
fn feature_lines(a: &AlternativeReport, on_land: &dyn Fn(Pos) -> bool) -> Vec<String> {
    a.features
        .iter()
        .map(|f| {
            let what = if f.closed {
                "closes"
            } else if f.joined > 1 {
                "joins"
            } else {
                "extends"
            };
            let chance = chance_words(f, on_land);
            let spots: Vec<String> = (f.open_spots.iter())
                .map(|s| {
                    let closing = s.closes.map(|n| format!(", {n} close it")).unwrap_or_default();
                    let fits = words::count(s.fits, "tile left fits", "tiles left fit");
                    format!("({},{}): {fits}{closing}", s.position[0], s.position[1])
                })
                .collect();
            let spots = if spots.is_empty() {
                String::new()
            } else {
                format!(" — open spots: {}", spots.join("; "))
            };
            let tiles = words::count(f.tiles, "tile", "tiles");
            format!("{what} a {} of {tiles}{chance}{spots}", f.kind)
        })
        .collect()
}

/// A feature's chance in words. A closed feature has no chance left to weigh, and one
/// reaching a square no tile left fits (or New World's coast, off the land: `on_land`) can never
/// be completed: neither shows a percentage.
fn chance_words(f: &FeatureReport, on_land: &dyn Fn(Pos) -> bool) -> String {
    let dead = (f.open_spots.iter().find(|s| s.fits == 0)).map(|s| Pos::new(s.position[0], s.position[1]));
    match (f.closed, dead, f.completion) {
        (true, _, _) | (_, _, None) => String::new(),
        (false, Some(pos), Some(_)) => format!(", never completed: {}", never_completed_at(pos, on_land(pos))),
        (false, None, Some(c)) => format!(", {:.0}% likely to be completed", c * 100.0),
    }
}

/// One alternative: the board with it applied, and what it does.
#[route("/g/{id}/t/{n:[0-9]+}/alt/{k:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn alternative(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32, usize)>,
) -> Result<AlternativePage, Problem> {
    let (id, n, k) = path.into_inner();
    blocking(move || {
        let g = state.load(&id)?;
        let TurnAlternatives { report: t, listed, .. } = turn_alternatives(&state, &g, n)?;
        let mv = listed.get(k).ok_or_else(|| {
            Problem::not_found(format!(
                "turn {n} has alternatives 0 to {}",
                listed.len().saturating_sub(1)
            ))
        })?;
        let (i, a) = (t.alternatives.iter().enumerate())
            .find(|(_, a)| is_listed(a, mv))
            .ok_or_else(|| Problem::internal("alternative missing from the analysis"))?;
        let after = turned_instead(&g, n, *mv)?;
        let events = after.turns.last().map_or(&[][..], |t| &t.events[..]);
        let left_behind = view::left_behind_sentences(&g.record, events);
        Ok(AlternativePage {
            title: g.row.players.join(" vs "),
            player: g.player_name(t.player),
            description: format!(
                "{} at ({},{}) rotated {}°, {}",
                t.facts.tile,
                a.position[0],
                a.position[1],
                a.rotation,
                a.action.words(g.record.setup.game)
            ),
            played: t.played == Some(i),
            facts: facts(&g, a, t.alternatives.len(), &t.facts.value, left_behind),
            tiles_notice: view::tiles_notice(&g.record),
            features: feature_lines(a, &|pos| after.game.on_land(pos)),
            id,
            turn: n,
            k,
        })
    })
    .await
}

/// Turn `n`'s best move by the finished analysis: a redirect to its own page, where the board
/// shows it (the analysis page links each turn's best move here).
#[route("/g/{id}/t/{n:[0-9]+}/alt/best", method = "GET", method = "HEAD")]
pub async fn best_alternative(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let k = blocking(move || {
        let g = state.load(&id)?;
        // Only a finished analysis names a best move: no heuristic is run for this address.
        let finished = state.finished_analysis(&id, g.row.kind)?;
        let best = (finished.as_ref().and_then(|a| a.tiles()))
            .and_then(|a| a.turn(n)?.alternatives.first())
            .ok_or_else(|| {
                Problem::not_found(format!(
                    "turn {n} of game {id} has no best move until its analysis is done"
                ))
            })?;
        (listing(&g, n)?.iter().position(|m| is_listed(best, m)))
            .ok_or_else(|| Problem::internal("the best move is missing from the listing"))
    })
    .await?;
    Ok(HttpResponse::Found()
        .insert_header((actix_web::http::header::LOCATION, links::alternative(id, n, k)))
        .finish())
}

#[derive(Deserialize)]
pub struct AlternativePictureQuery {
    size: Option<u32>,
    /// `close`: only the square played and its neighbours, the alternatives list's thumbnail.
    view: Option<String>,
}

/// The board with alternative `k` applied, highlighted like a played move.
#[route("/g/{id}/t/{n:[0-9]+}/alt/{k:[0-9]+}.png", method = "GET", method = "HEAD")]
pub async fn alternative_png(
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32, usize)>,
    q: Query<AlternativePictureQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, n, k) = path.into_inner();
    let mut opts = RenderOptions::default().with_size_for(ImageFormat::Png, q.size.unwrap_or(48))?;
    let close = match q.view.as_deref() {
        None | Some("board") => false,
        Some("close") => true,
        Some(other) => {
            return Err(Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Bad image options",
                format!(
                    "unknown view {}; the views are board and close",
                    crate::record::quote::Quoted(other)
                ),
            ));
        }
    };
    let png = blocking(move || {
        let g = state.load(&id)?;
        let listed = listing(&g, n)?;
        let mv = *listed
            .get(k)
            .ok_or_else(|| Problem::not_found(format!("turn {n} has no alternative {k}")))?;
        let (what_if, replay) = (with_alternative(&g.record, n, mv), turned_instead(&g, n, mv)?);
        opts.set_overlays("ownership,last-move,scoring")
            .map_err(Problem::internal)?;
        match mv {
            RecordedMove::Place { placement, .. } if close => render::svg_to_png(&render::board_close_svg(
                &what_if,
                replay.reached(),
                &opts,
                placement.pos,
            ))
            .map_err(Problem::internal),
            _ => render::board_png(&what_if, replay.reached(), &opts).map_err(Problem::internal),
        }
    })
    .await?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(png))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::report::FeatureSpotReport;

    fn city(closed: bool, completion: Option<f64>, fits: &[u32]) -> FeatureReport {
        FeatureReport {
            kind: "city".to_string(),
            tiles: 2,
            shields: 0,
            joined: 1,
            closed,
            meeples: vec![1, 0],
            owners: vec![0],
            at_stake: 2,
            completion,
            open_spots: (fits.iter().enumerate())
                .map(|(i, &fits)| FeatureSpotReport {
                    position: [i as i32, 0],
                    fits,
                    closes: Some(0),
                })
                .collect(),
        }
    }

    #[test]
    fn a_chance_shows_only_for_a_feature_that_may_still_complete() {
        let land = |_: Pos| true;
        assert_eq!(
            chance_words(&city(false, Some(0.42), &[5, 3]), &land),
            ", 42% likely to be completed"
        );
        assert_eq!(chance_words(&city(true, Some(1.0), &[]), &land), "");
        assert_eq!(
            chance_words(&city(false, Some(0.0), &[5, 0]), &land),
            ", never completed: no tile left can go at (1,0)"
        );
        assert_eq!(chance_words(&city(false, None, &[]), &land), "");
        // New World: a town that runs into the coast (x = 1) never completes, and says why.
        let west_of_the_coast = |pos: Pos| pos.x < 1;
        assert_eq!(
            chance_words(&city(false, Some(0.0), &[5, 0]), &west_of_the_coast),
            ", never completed: it runs into the coast at (1,0), where no tile goes"
        );
    }
}

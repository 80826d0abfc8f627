//! Sharing beyond our pages: a compact board other sites may frame (`/embed/g/{id}/t/{n}`),
//! and oEmbed (`/oembed`), through which forums and blogs that find a game link turn it into
//! that frame.
//!
//! The embed is the only page that may be framed: it answers with its own
//! `Content-Security-Policy`, which the site-wide one does not replace.

use super::pages::turn_page;
use crate::render::cards::Hands;
use crate::store::GameId;
use crate::web::game::turn::Detail;
use crate::web::middleware::content_security_policy;
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::share_view::{HEIGHT, WIDTH, frame};
use crate::web::view::{BoardView, PlayerView};
use crate::web::{AppState, blocking, links};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, route, web};
use askama::Template;
use serde::Deserialize;
use serde_json::json;

#[derive(Template)]
#[template(path = "embed.html")]
struct EmbedPage {
    id: GameId,
    title: String,
    turn: u32,
    last: u32,
    prev: Option<u32>,
    next: Option<u32>,
    page_url: String,
    board: BoardView,
    players: Vec<PlayerView>,
    tiles_notice: Option<&'static str>,
}

/// A turn's board with its scores and navigation, to be framed by other sites.
#[route("/embed/g/{id}/t/{n:[0-9]+}", method = "GET", method = "HEAD")]
pub async fn embed(state: web::Data<AppState>, path: web::Path<(GameId, u32)>) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let page = blocking(move || turn_page(&state, &id, n, Detail::Framed, Hands::Mover)).await?;
    let last = page.game.last;
    let embed = EmbedPage {
        id,
        title: page.game.title,
        turn: n,
        last,
        prev: page.prev,
        next: (n < last).then_some(n + 1),
        page_url: page.preview.url,
        board: page.board,
        players: page.players,
        tiles_notice: page.game.tiles_notice,
    };
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        // The site's policy, but any site may frame this page.
        .insert_header(("Content-Security-Policy", content_security_policy("*")))
        .body(embed.render().map_err(Problem::internal)?))
}

#[derive(Deserialize)]
pub struct OEmbedQuery {
    url: String,
    format: Option<String>,
    maxwidth: Option<u32>,
    maxheight: Option<u32>,
}

/// The oEmbed answer for one of our game or turn links: a `rich` frame of the embed.
#[route("/oembed", method = "GET", method = "HEAD")]
pub async fn oembed(state: web::Data<AppState>, q: Query<OEmbedQuery>) -> Result<HttpResponse, Problem> {
    let q = q.into_inner();
    if q.format.as_deref().is_some_and(|f| f != "json") {
        return Err(Problem::new(
            StatusCode::NOT_IMPLEMENTED,
            "Not implemented",
            "only format=json is offered",
        ));
    }
    let (id, turn) = our_link(&state.public_url, &q.url)
        .ok_or_else(|| Problem::not_found(format!("{} is not a game link of this site", q.url)))?;
    let st = state.clone();
    let page = blocking(move || {
        let last = st.load_any(&id)?.row().turns;
        turn_page(&st, &id, turn.unwrap_or(last).min(last), Detail::Framed, Hands::Mover)
    })
    .await?;
    let width = q.maxwidth.map_or(WIDTH, |w| w.min(WIDTH));
    let height = q.maxheight.map_or(HEIGHT, |h| h.min(HEIGHT));
    let src = format!("{}{}", state.public_url, links::embed(id, page.turn));
    Ok(HttpResponse::Ok().json(json!({
        "version": "1.0",
        "type": "rich",
        "provider_name": "carcassonne-replay",
        "provider_url": state.public_url,
        "title": page.preview.title,
        "thumbnail_url": page.preview.image,
        "thumbnail_width": 1200,
        "thumbnail_height": 630,
        "width": width,
        "height": height,
        "html": frame(&src, width, height, &page.preview.title),
    })))
}

/// The game and turn a link of this site names: `/g/{id}` (the last turn) or `/g/{id}/t/{n}`.
fn our_link(base: &str, url: &str) -> Option<(GameId, Option<u32>)> {
    let path = url.strip_prefix(base)?.strip_prefix("/g/")?;
    let path = path.split(['?', '#']).next()?;
    let mut parts = path.split('/');
    let id: GameId = parts.next()?.parse().ok()?;
    match (parts.next(), parts.next(), parts.next()) {
        (None, ..) | (Some("end"), None, _) => Some((id, None)),
        (Some("t"), Some(n), None) => Some((id, Some(n.parse().ok()?))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_game_and_turn_links_of_this_site_are_ours() {
        let base = "https://replay.example.org";
        let id = "0123456789abcdef";
        let game: GameId = id.parse().unwrap();
        assert_eq!(our_link(base, &format!("{base}/g/{id}")), Some((game, None)));
        assert_eq!(our_link(base, &format!("{base}/g/{id}/end")), Some((game, None)));
        assert_eq!(
            our_link(base, &format!("{base}/g/{id}/t/12?x=1")),
            Some((game, Some(12)))
        );
        assert_eq!(our_link(base, &format!("https://evil.example/g/{id}")), None);
        assert_eq!(our_link(base, &format!("{base}/g/{id}/t/x")), None);
        assert_eq!(our_link(base, &format!("{base}/g/{id}/t/3/alt/2")), None);
        assert_eq!(our_link(base, &format!("{base}/g/nothex")), None);
    }
}

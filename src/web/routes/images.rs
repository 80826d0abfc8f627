//! Game images: PNG and SVG of any turn (a tile game's board, a Card Game's table), the end
//! of the game and the social preview.
//!
//! Renders are deterministic, so each gets a strong ETag from the renderer version, the game's
//! content hash, the turn and the options, a year-long `Cache-Control`, and a 304 for a
//! matching `If-None-Match`. A live game's pictures change under the same id, so their tag
//! names its record too, and they are asked again each time. A small in-memory cache keeps hot
//! renders.

use crate::render::{self, ImageFormat, Picture, RenderOptions};
use crate::store::GameId;
use crate::web::game::GamePages;
use crate::web::problem::Problem;
use crate::web::query::Query;
use crate::web::{AppState, blocking};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, ETag, EntityTag};
use actix_web::{HttpRequest, HttpResponse, route, web};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;

#[derive(Deserialize)]
pub struct ImageQuery {
    /// Pixels per tile.
    size: Option<u32>,
    /// Comma-separated overlays: ownership, last-move, scoring, open-spots, legend, all, none.
    overlay: Option<String>,
    #[serde(default, deserialize_with = "crate::web::query::flag")]
    legend: Option<bool>,
    /// `light` or `dark`: the page the image sits on.
    theme: Option<String>,
    /// The Card Game: `mover` (the default) or `all`, whose hands the table shows.
    hands: Option<String>,
}

impl ImageQuery {
    fn options(&self, format: ImageFormat) -> Result<RenderOptions, Problem> {
        let mut opts = RenderOptions::default();
        if let Some(size) = self.size {
            opts = opts.with_size_for(format, size)?;
        }
        if let Some(list) = &self.overlay {
            opts.set_overlays(list)?;
        }
        if let Some(legend) = self.legend {
            opts.legend = legend;
        }
        if let Some(word) = &self.theme {
            opts.theme = render::Theme::parse(word)?;
        }
        if let Some(word) = &self.hands {
            opts.hands = render::cards::Hands::parse(word)?;
        }
        Ok(opts)
    }
}

/// A strong ETag of what is drawn. A live game's record changes with each move under the same
/// id, so its tag names the record too (`live`, the record's hash).
fn etag(w: &Wanted, live: Option<GameId>) -> String {
    let what = match (w.picture, w.format) {
        (Picture::Board, ImageFormat::Png) => "png",
        (Picture::Board, ImageFormat::Svg) => "svg",
        (Picture::Preview, ImageFormat::Png) => "og",
        (Picture::Preview, ImageFormat::Svg) => "og-svg",
        (_, ImageFormat::Gif) => "gif",
    };
    let (id, turn) = (&w.id, w.turn);
    let mut text = format!("{}|{id}|{turn:?}|{what}|{}", render::RENDERER_VERSION, w.opts.key());
    if let Some(record) = live {
        text.push_str(&format!("|live {record}"));
    }
    Sha256::digest(text.as_bytes())[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn draw(g: &dyn GamePages, w: &Wanted) -> Result<Vec<u8>, Problem> {
    let drawn = render::draw(&*g.drawable(), w.turn, w.picture, w.format, &w.opts);
    drawn.map_err(|e| match e {
        render::RenderError::NoSuchTurn { .. } | render::RenderError::NoAnimation => Problem::not_found(e.to_string()),
        render::RenderError::SizeTooLarge { fits, .. } => {
            let mut p = Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Image too large", e.to_string());
            p.extensions.insert("fits".into(), serde_json::json!(fits));
            p
        }
        other => Problem::internal(other),
    })
}

/// What to draw: which game, which turn (`None`: the end), which picture in which format, and
/// with which options.
struct Wanted {
    id: GameId,
    turn: Option<u32>,
    picture: Picture,
    format: ImageFormat,
    opts: RenderOptions,
}

async fn image(req: HttpRequest, state: web::Data<AppState>, w: Wanted) -> Result<HttpResponse, Problem> {
    let game = state.load_any_async(w.id).await?;
    let live = game.row().live.then(|| GameId::of(&game.row().record));
    let tag = etag(&w, live);
    // A live game's pictures change with its moves: asked again each time, answered 304 while
    // they are the same.
    let cache = match live {
        Some(_) => "no-cache",
        None => "public, max-age=31536000, immutable",
    };
    let content_type = w.format.content_type();
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim().trim_matches('"') == tag));
    let ok = |status: StatusCode| {
        let mut r = HttpResponse::build(status);
        r.insert_header(ETag(EntityTag::new_strong(tag.clone())))
            .insert_header((header::CACHE_CONTROL, cache));
        // PNGs and GIFs are compressed already: the compression middleware leaves them be.
        if matches!(content_type, "image/png" | "image/gif") {
            r.insert_header(header::ContentEncoding::Identity);
        }
        r
    };
    if matches {
        return Ok(ok(StatusCode::NOT_MODIFIED).finish());
    }
    let bytes = match state.renders.get(&tag) {
        Some(bytes) => bytes,
        None => {
            let drawn = Arc::new(blocking(move || draw(game.as_ref(), &w)).await?);
            state.renders.put(tag.clone(), drawn.clone());
            drawn
        }
    };
    Ok(ok(StatusCode::OK)
        .content_type(content_type)
        .body(bytes.as_ref().clone()))
}

/// A turn's board as PNG or SVG.
#[route("/g/{id}/t/{n:[0-9]+}.{ext:png|svg}", method = "GET", method = "HEAD")]
pub async fn turn_image(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32, String)>,
    q: Query<ImageQuery>,
) -> Result<HttpResponse, Problem> {
    let (id, n, ext) = path.into_inner();
    let format = if ext == "svg" {
        ImageFormat::Svg
    } else {
        ImageFormat::Png
    };
    let opts = q.options(format)?;
    image(
        req,
        state,
        Wanted {
            id,
            turn: Some(n),
            picture: Picture::Board,
            format,
            opts,
        },
    )
    .await
}

/// The final board.
#[route("/g/{id}.png", method = "GET", method = "HEAD")]
pub async fn final_png(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    q: Query<ImageQuery>,
) -> Result<HttpResponse, Problem> {
    let opts = q.options(ImageFormat::Png)?;
    image(
        req,
        state,
        Wanted {
            id: id.into_inner(),
            turn: None,
            picture: Picture::Board,
            format: ImageFormat::Png,
            opts,
        },
    )
    .await
}

/// The whole game as an animated GIF: a frame per turn, 48 px per tile unless `size` says
/// otherwise (16 to 96).
#[route("/g/{id}.gif", method = "GET", method = "HEAD")]
pub async fn game_gif(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
    q: Query<ImageQuery>,
) -> Result<HttpResponse, Problem> {
    let opts = RenderOptions::default().with_size_for(ImageFormat::Gif, q.size.unwrap_or(48))?;
    let wanted = Wanted {
        id: id.into_inner(),
        turn: None,
        picture: Picture::Board,
        format: ImageFormat::Gif,
        opts,
    };
    image(req, state, wanted).await
}

/// The 1200×630 social preview of the game link: the final board and result.
#[route("/g/{id}/og.png", method = "GET", method = "HEAD")]
pub async fn og_png(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<GameId>,
) -> Result<HttpResponse, Problem> {
    let wanted = Wanted {
        id: id.into_inner(),
        turn: None,
        picture: Picture::Preview,
        format: ImageFormat::Png,
        opts: RenderOptions::default(),
    };
    image(req, state, wanted).await
}

/// A turn's social preview: that turn's board and scores, never the ending.
#[route("/g/{id}/t/{n:[0-9]+}/og.png", method = "GET", method = "HEAD")]
pub async fn turn_og_png(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(GameId, u32)>,
) -> Result<HttpResponse, Problem> {
    let (id, n) = path.into_inner();
    let wanted = Wanted {
        id,
        turn: Some(n),
        picture: Picture::Preview,
        format: ImageFormat::Png,
        opts: RenderOptions::default(),
    };
    image(req, state, wanted).await
}

/// One of the game's tile kinds alone, unrotated, as SVG: the small pictures beside tile names.
#[route("/g/{id}/tiles/{name}.svg", method = "GET", method = "HEAD")]
pub async fn tile_svg(state: web::Data<AppState>, path: web::Path<(GameId, String)>) -> Result<HttpResponse, Problem> {
    let (id, name) = path.into_inner();
    let svg = blocking(move || {
        let g = state.load(&id)?;
        let cat = &g.record.setup.catalog;
        let kind =
            (cat.by_name(&name)).ok_or_else(|| Problem::not_found(format!("game {id} has no tile named {name:?}")))?;
        Ok(render::tile_svg(cat.get(kind), 0, 48))
    })
    .await?;
    Ok(HttpResponse::Ok()
        .content_type(ImageFormat::Svg.content_type())
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(svg))
}

//! The share menu every page of a game carries: the links to send, each of which previews
//! exactly what it opens (the start and a turn never give the ending away), this turn's
//! picture, the whole game's GIF, the embed's code and the downloads.

use super::links;
use crate::store::GameId;

pub struct ShareView {
    /// Absolute links to send: the start (turn 0), this turn (on the end page, the last turn),
    /// and the result.
    pub start: String,
    pub turn: (u32, String),
    pub result: String,
    /// Whether the page is the end page.
    pub at_end: bool,
    /// The picture of this turn with its overlays (on the end page: the final board).
    pub png: String,
    /// The whole game as an animated GIF; the games without a board have none.
    pub gif: Option<String>,
    /// The embed's frame as HTML to paste elsewhere, and the oEmbed answer it comes from.
    pub iframe: String,
    pub oembed: String,
    /// Downloads, as (what, link).
    pub exports: Vec<(&'static str, String)>,
    /// Open at once: for the uploader, on the page an upload lands on.
    pub open: bool,
}

/// What a share menu is built from.
pub struct ShareInput<'a> {
    pub base: &'a str,
    pub id: GameId,
    /// The turn the page shows; `None` on the end page.
    pub turn: Option<u32>,
    /// The game's last turn: the turn the end page shares and embeds.
    pub last: u32,
    /// This page's picture, as a path of this site.
    pub png: &'a str,
    /// Whether the game has a board, so a GIF.
    pub board: bool,
    /// Whether JCloisterZone plays the game, so a `.jcz` download, and its Carcassonne Lab
    /// link when it has one.
    pub jcz: bool,
    pub lab: Option<&'a str>,
    /// The page's preview title, as the embed's title.
    pub title: &'a str,
}

impl ShareView {
    pub fn new(i: &ShareInput) -> ShareView {
        let (base, id) = (i.base, i.id);
        let page = |path: String| format!("{base}{path}");
        let mut exports = vec![("the record (JSON)", links::record(id))];
        if i.jcz {
            exports.push(("a JCloisterZone save (.jcz)", links::jcz(id)));
        }
        exports.push(("the scoring (CSV)", links::csv(id)));
        if let Some(lab) = i.lab {
            exports.push(("the game in Carcassonne Lab", lab.to_string()));
        }
        let n = i.turn.unwrap_or(i.last);
        let turn_link = page(links::turn(id, n));
        let encoded = percent_encoding::utf8_percent_encode(&turn_link, percent_encoding::NON_ALPHANUMERIC);
        ShareView {
            start: page(links::turn(id, 0)),
            turn: (n, turn_link.clone()),
            result: page(links::game(id)),
            at_end: i.turn.is_none(),
            png: page(i.png.to_string()),
            gif: i.board.then(|| page(links::gif(id))),
            iframe: iframe(&page(links::embed(id, n)), i.title),
            oembed: page(format!("/oembed?url={encoded}")),
            exports,
            open: false,
        }
    }
}

/// An embed's frame at its full size, the board and a line of navigation: the share menu's
/// code, and the most the oEmbed answer offers.
pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 720;

/// The embed at `src` in a frame of its full size, as the share menu offers it to paste.
fn iframe(src: &str, title: &str) -> String {
    frame(src, WIDTH, HEIGHT, title)
}

/// The embed at `src` in a frame `width` by `height`.
pub fn frame(src: &str, width: u32, height: u32, title: &str) -> String {
    format!(
        r#"<iframe src="{src}" width="{width}" height="{height}" style="border:0" loading="lazy" title="{}"></iframe>"#,
        title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
    )
}

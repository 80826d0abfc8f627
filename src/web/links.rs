//! Every address of a game, built here and nowhere else: handlers, view models and templates
//! call these functions, so a link and the route it opens cannot drift apart.
//!
//! Each takes its parts owned or borrowed (`impl Borrow`), since templates pass references.
//!
//! The routes read a game's id back as a typed path segment (`web::Path<GameId>`, or a tuple
//! that starts with one): [`path_errors`] answers a malformed id, or a turn number that does
//! not parse, with a 404 problem saying why, like any other address that names nothing.

use crate::render::RenderOptions;
use crate::render::cards::Hands;
use crate::store::GameId;
use actix_web::web;
use std::borrow::Borrow;
use std::fmt;

/// A path segment that does not parse, such as a game id that is not 16 hex digits: a 404
/// saying why, as an address that names nothing gets.
pub fn path_errors() -> web::PathConfig {
    web::PathConfig::default().error_handler(|e, _| {
        let why = match &e {
            actix_web::error::PathError::Deserialize(why) => why.to_string(),
            other => other.to_string(),
        };
        super::problem::Problem::not_found(crate::record::quote::shorten_quotes(&why)).into()
    })
}

/// The game link: its result.
pub fn game(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}")
}

/// The form that starts a game recorded at the table.
pub fn new_game() -> &'static str {
    "/new"
}

/// A live game's owner records a move here (the explore board's form).
pub fn record_move(id: impl Borrow<GameId>) -> String {
    format!("/g/{}/moves", id.borrow())
}

/// A live Card Game's owner records its next action here: its page and its form.
pub fn record_cards(id: impl Borrow<GameId>) -> String {
    format!("/g/{}/record", id.borrow())
}

/// Where a live game's owner records its next move: the Card Game's page, or a tile game's
/// explore board from the next turn.
pub fn record_next(id: impl Borrow<GameId>, last: impl Borrow<u32>, board: impl Borrow<bool>) -> String {
    if *board.borrow() {
        explore(id, last.borrow() + 1, "", None)
    } else {
        record_cards(id)
    }
}

/// A live game's owner takes back its last move here (the game page's form).
pub fn take_back(id: impl Borrow<GameId>) -> String {
    format!("/g/{}/moves/last", id.borrow())
}

/// The game in JSON: what a live game's pages poll to follow it.
pub fn api_game(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/api/games/{id}")
}

/// A player's page, by the name as recorded (matched by `store::players::match_key`) or
/// `bga:ID`.
pub fn player(name: impl AsRef<str>) -> String {
    format!("/p/{}", segment(name.as_ref()))
}

/// Two players' games against each other.
pub fn head_to_head(a: impl AsRef<str>, b: impl AsRef<str>) -> String {
    format!("/p/{}/vs/{}", segment(a.as_ref()), segment(b.as_ref()))
}

/// A name as one path segment: everything but letters and digits percent-encoded.
fn segment(name: &str) -> percent_encoding::PercentEncode<'_> {
    percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC)
}

/// The end of the game, step by step: final scoring after the last turn.
pub fn end(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}/end")
}

/// Turn `n`'s page (0: the start).
pub fn turn(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/t/{n}")
}

/// The address of a game's turns without the turn's number ([`turn`] after it): a list of every
/// turn writes it once, where an address a turn cost a tenth of a turn page.
pub fn turns(id: impl Borrow<GameId>) -> String {
    format!("/g/{}/t/", id.borrow())
}

/// Round `k` of a game played in rounds: it sends to the turn that scores it.
pub fn round(id: impl Borrow<GameId>, k: impl Borrow<u8>) -> String {
    let (id, k) = (id.borrow(), k.borrow());
    format!("/g/{id}/r/{k}")
}

/// What a Card Game turn link carries for `hands`: nothing for the default.
pub fn hands_query(hands: Hands) -> &'static str {
    match hands {
        Hands::Mover => "",
        Hands::All => "?hands=all",
    }
}

/// Turn `n`'s alternatives, ranked.
pub fn alternatives(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/t/{n}/alternatives")
}

/// Alternative `k` of turn `n`, in the engine's listing order.
pub fn alternative(id: impl Borrow<GameId>, n: impl Borrow<u32>, k: impl Borrow<usize>) -> String {
    let (id, n, k) = (id.borrow(), n.borrow(), k.borrow());
    format!("/g/{id}/t/{n}/alt/{k}")
}

/// Turn `n`'s best move by the finished analysis, on its own page ([`alternative`]).
pub fn best(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/t/{n}/alt/best")
}

/// A collection's page.
pub fn collection(id: crate::store::CollectionId) -> String {
    format!("/c/{id}")
}

/// The whole-game analysis: its page, and where a form asks for it.
pub fn analysis(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}/analysis")
}

/// The puzzles found in the game's analysis.
pub fn puzzles(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}/puzzles")
}

/// The puzzle of turn `n`.
pub fn puzzle(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/puzzle/{n}")
}

/// Turn `n`'s mistake to review: find a better move than the one played.
pub fn mistake(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/mistake/{n}")
}

/// Turn `n`'s compact page that other sites may frame.
pub fn embed(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/embed/g/{id}/t/{n}")
}

/// The owner's form that lists or unlists the game.
pub fn listing(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}/listing")
}

/// The owner's form that deletes the game.
pub fn delete(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}/delete")
}

/// The native record.
pub fn record(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}.json")
}

/// A JCloisterZone save of the game.
pub fn jcz(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}.jcz")
}

/// The scoring events as CSV.
pub fn csv(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}.csv")
}

/// The whole game animated.
pub fn gif(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/g/{id}.gif")
}

/// The API's answer for turn `n`.
pub fn api_turn(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/api/games/{id}/turns/{n}")
}

/// The API's answer for the whole-game analysis: its status, and its summary once done.
pub fn api_analysis(id: impl Borrow<GameId>) -> String {
    let id = id.borrow();
    format!("/api/games/{id}/analysis")
}

/// The small picture of one of the game's tile kinds, by name.
/// What a line of the explore board may hold unescaped in an address: its notation's own
/// characters (`record::TileLine`).
const LINE: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b',')
    .remove(b'@');

/// The explore board from before turn `n`, playing `line` (notation), shown after its first
/// `at` steps (all when `None`).
pub fn explore(id: impl Borrow<GameId>, n: impl Borrow<u32>, line: &str, at: Option<usize>) -> String {
    let mut out = format!("/g/{}/t/{}/explore", id.borrow(), n.borrow());
    if !line.is_empty() {
        out.push_str("?line=");
        out.extend(percent_encoding::utf8_percent_encode(line, LINE));
    }
    if let Some(at) = at {
        out.push(if line.is_empty() { '?' } else { '&' });
        out.push_str(&format!("at={at}"));
    }
    out
}

/// Where turn `n`'s page posts its owner's comment.
pub fn annotation(id: impl Borrow<GameId>, n: impl Borrow<u32>) -> String {
    format!("/g/{}/t/{}/annotation", id.borrow(), n.borrow())
}

/// The explore board's answer in JSON, for the same position as [`explore`].
pub fn api_explore(id: impl Borrow<GameId>, n: impl Borrow<u32>, line: &str, at: Option<usize>) -> String {
    let page = explore(id.borrow(), n.borrow(), line, at);
    let query = page.split_once('?').map_or(String::new(), |(_, q)| format!("&{q}"));
    format!("/api/explore?game={}&turn={}{query}", id.borrow(), n.borrow())
}

pub fn tile_svg(id: impl Borrow<GameId>, tile: &str) -> String {
    let id = id.borrow();
    let name = percent_encoding::utf8_percent_encode(tile, percent_encoding::NON_ALPHANUMERIC);
    format!("/g/{id}/tiles/{name}.svg")
}

/// The 1200×630 link preview of turn `n`, or of the result (`None`), as an absolute address
/// on the site at `base`.
pub fn preview_png(base: &str, id: GameId, n: Option<u32>) -> String {
    match n {
        Some(n) => format!("{base}/g/{id}/t/{n}/og.png"),
        None => format!("{base}/g/{id}/og.png"),
    }
}

/// A picture of the game and the options it is drawn with, in the order they are given:
/// `links::picture(id, Some(3)).overlay("ownership").size(64)` is
/// `/g/{id}/t/3.png?overlay=ownership&size=64`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    path: String,
    options: Vec<(&'static str, String)>,
}

/// Turn `n`'s board or table as PNG, or the end of the game's (`None`).
pub fn picture(id: GameId, n: Option<u32>) -> Picture {
    Picture::at(match n {
        Some(n) => format!("/g/{id}/t/{n}.png"),
        None => format!("/g/{id}.png"),
    })
}

/// Turn `n`'s board as SVG drawn as `opts` say but with no backdrop: the drawing under a page's
/// inline board ([`render::BoardArt::Linked`](crate::render::BoardArt)).
pub fn board_art(id: impl Borrow<GameId>, n: impl Borrow<u32>, opts: &RenderOptions) -> String {
    let (id, n) = (id.borrow(), n.borrow());
    format!("/g/{id}/t/{n}.svg?overlay={}&theme=clear", opts.overlays())
}

/// The board of turn `n` with alternative `k` played instead, as PNG.
pub fn alternative_picture(id: impl Borrow<GameId>, n: impl Borrow<u32>, k: impl Borrow<usize>) -> Picture {
    let (id, n, k) = (id.borrow(), n.borrow(), k.borrow());
    Picture::at(format!("/g/{id}/t/{n}/alt/{k}.png"))
}

impl Picture {
    fn at(path: String) -> Picture {
        Picture {
            path,
            options: Vec::new(),
        }
    }

    fn with(mut self, name: &'static str, value: String) -> Picture {
        self.options.push((name, value));
        self
    }

    /// Overlays by name, comma-separated: "ownership,last-move,scoring".
    pub fn overlay(self, overlays: &str) -> Picture {
        self.with("overlay", overlays.to_string())
    }

    /// Pixels per tile.
    pub fn size(self, px: u32) -> Picture {
        self.with("size", px.to_string())
    }

    /// The Card Game: whose hands the table shows.
    pub fn hands(self, hands: Hands) -> Picture {
        self.with("hands", hands.word().to_string())
    }

    /// Only the square played and its neighbours: the alternatives list's thumbnail.
    pub fn close(self) -> Picture {
        self.with("view", "close".to_string())
    }
}

impl Picture {
    /// The address as an HTML attribute's value, its `&` written `&amp;` as a page's own text
    /// writes it (the template escaper would write `&#38;`).
    pub fn html(&self) -> askama::filters::Safe<String> {
        let text = self.to_string();
        let escaped = (text.chars()).fold(String::with_capacity(text.len()), |mut out, c| {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&#39;"),
                c => out.push(c),
            }
            out
        });
        askama::filters::Safe(escaped)
    }
}

impl fmt::Display for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        for (i, (name, value)) in self.options.iter().enumerate() {
            let join = if i == 0 { '?' } else { '&' };
            write!(f, "{join}{name}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_turns_writes_each_turns_address() {
        let id: GameId = "0123456789abcdef".parse().unwrap();
        for n in [0, 7, 72] {
            assert_eq!(format!("{}{n}", turns(id)), turn(id, n));
        }
    }

    #[test]
    fn pictures_carry_their_options_in_the_order_given() {
        let id: GameId = "0123456789abcdef".parse().unwrap();
        assert_eq!(picture(id, None).to_string(), "/g/0123456789abcdef.png");
        assert_eq!(
            picture(id, Some(3)).overlay("ownership,scoring").size(128).to_string(),
            "/g/0123456789abcdef/t/3.png?overlay=ownership,scoring&size=128"
        );
        assert_eq!(
            alternative_picture(id, 2, 5).size(64).close().to_string(),
            "/g/0123456789abcdef/t/2/alt/5.png?size=64&view=close"
        );
        assert_eq!(
            alternative_picture(id, 2, 5).size(64).close().html().0,
            "/g/0123456789abcdef/t/2/alt/5.png?size=64&amp;view=close"
        );
        assert_eq!(
            picture(id, Some(0)).hands(Hands::All).to_string(),
            "/g/0123456789abcdef/t/0.png?hands=all"
        );
    }
}

//! Figures and icons as SVG symbols, defined once per document and placed with `<use>`.
//! Sizes are in tile art units (a tile is 100), centred on the origin, so one scale factor
//! places them on any board.
//!
//! Icons stand upright whatever the tile's rotation: a church on its side reads worse than one
//! that is merely on a different corner of its tile.

use super::palette::{
    CLOISTER_ROOF, CLOISTER_WALL, FLOWER, GARDEN, GARDEN_HEDGE, HOUSE_ROOF, INK, Rgb, SHIELD, SHIELD_MARK,
};
use std::fmt::Write as _;

/// A standing follower, 24 units tall. Left unfilled so each `<use>` gives the player colour.
const MEEPLE: &str = "M-3.2 -4.6C-6 -4.2 -9.5 -3.6 -10.8 -1.6C-11.6 -0.2 -10.6 1.2 -9 1.2L-5.6 1.4L-9.6 9.6\
C-10.2 11 -9.4 12 -8 12L-3.4 12C-2.2 12 -1.6 11.2 -1.2 10.2L0 7L1.2 10.2C1.6 11.2 2.2 12 3.4 12L8 12\
C9.4 12 10.2 11 9.6 9.6L5.6 1.4L9 1.2C10.6 1.2 11.6 -0.2 10.8 -1.6C9.5 -3.6 6 -4.2 3.2 -4.6Z\
M4.3 -7.5A4.3 4.3 0 1 1 -4.3 -7.5A4.3 4.3 0 1 1 4.3 -7.5Z";

/// The abbot: a hooded robe, unlike any follower even at a few pixels.
const ABBOT: &str = "M0 -12C3.6 -12 5.6 -9 5.6 -5.6C5.6 -4 5 -3 4.4 -2.4C7.4 1 9 6.5 9.4 12L-9.4 12\
C-9 6.5 -7.4 1 -4.4 -2.4C-5 -3 -5.6 -4 -5.6 -5.6C-5.6 -9 -3.6 -12 0 -12Z";

/// Which figure to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureShape {
    Standing,
    /// Farmers lie down.
    Lying,
    Abbot,
}

/// The `<defs>` content every board document carries.
pub fn definitions() -> String {
    let mut d = String::new();
    let ink = INK.hex();
    // No stroke colour here: each `<use>` sets it, dark for most players and light for a player
    // whose own colour is too dark to show against the ink (`Rgb::outline`).
    let outline = "stroke-width=\"2.4\" stroke-linejoin=\"round\" paint-order=\"stroke\"";
    let _ = write!(d, "<path id=\"fig-meeple\" d=\"{MEEPLE}\" {outline}/>");
    let _ = write!(
        d,
        "<g id=\"fig-abbot\"><path d=\"{ABBOT}\" {outline}/>\
         <ellipse cx=\"0\" cy=\"-6\" rx=\"2.4\" ry=\"3\" fill=\"{ink}\" fill-opacity=\".6\"/></g>"
    );
    d.push_str(&cloister());
    d.push_str(&garden());
    d.push_str(&shield());
    d.push_str(&house());
    d
}

/// A church with a bell tower, unlike the plain house at road junctions; 32 units wide and 38
/// tall at scale 1.
fn cloister() -> String {
    let (wall, roof, ink) = (CLOISTER_WALL.hex(), CLOISTER_ROOF.hex(), INK.hex());
    format!(
        "<g id=\"icon-cloister\" stroke=\"{ink}\" stroke-width=\"1.4\" stroke-linejoin=\"round\">\
         <path d=\"M-15 -1H5V14H-15Z\" fill=\"{wall}\"/>\
         <path d=\"M-17 0L-5 -10L7 0Z\" fill=\"{roof}\"/>\
         <path d=\"M5 -13H15V14H5Z\" fill=\"{wall}\"/>\
         <path d=\"M4 -13L10 -21L16 -13Z\" fill=\"{roof}\"/>\
         <path d=\"M10 -21V-26M7.8 -23.8H12.2\" fill=\"none\" stroke-width=\"1.6\"/>\
         <path d=\"M-8 14V7A3 3 0 0 1 -2 7V14Z\" fill=\"{ink}\" stroke=\"none\"/>\
         <path d=\"M8.5 -7A1.5 1.5 0 0 1 11.5 -7V-3H8.5Z\" fill=\"{ink}\" stroke=\"none\"/></g>"
    )
}

/// A round hedged garden with flowers; 26 units across at scale 1.
fn garden() -> String {
    let (hedge, lawn, flower) = (GARDEN_HEDGE.hex(), GARDEN.hex(), FLOWER.hex());
    let mut flowers = String::new();
    for (x, y) in [
        (0.0, -6.0),
        (5.7, -1.9),
        (3.5, 4.9),
        (-3.5, 4.9),
        (-5.7, -1.9),
        (0.0, 0.0),
    ] {
        let _ = write!(flowers, "<circle cx=\"{x}\" cy=\"{y}\" r=\"1.8\"/>");
    }
    format!(
        "<g id=\"icon-garden\"><circle r=\"12\" fill=\"{lawn}\" stroke=\"{hedge}\" stroke-width=\"3\"/>\
         <g fill=\"{flower}\">{flowers}</g></g>"
    )
}

/// A coat of arms; 16 units tall at scale 1.
fn shield() -> String {
    let (field, mark, ink) = (SHIELD.hex(), SHIELD_MARK.hex(), INK.hex());
    format!(
        "<g id=\"icon-shield\"><path d=\"M-6.5 -8H6.5V-1C6.5 4 3.5 6.8 0 8.5C-3.5 6.8 -6.5 4 -6.5 -1Z\" \
         fill=\"{field}\" stroke=\"{ink}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>\
         <path d=\"M-1.4 -8H1.4V8H-1.4ZM-6.5 -3.4H6.5V-0.6H-6.5Z\" fill=\"{mark}\"/></g>"
    )
}

/// A small house where roads meet; 20 units wide at scale 1.
fn house() -> String {
    let (wall, roof, ink) = (CLOISTER_WALL.hex(), HOUSE_ROOF.hex(), INK.hex());
    format!(
        "<g id=\"icon-house\" stroke=\"{ink}\" stroke-width=\"1.3\" stroke-linejoin=\"round\">\
         <path d=\"M-8 -1H8V9H-8Z\" fill=\"{wall}\"/><path d=\"M-10 0L0 -9L10 0Z\" fill=\"{roof}\"/>\
         <path d=\"M-2 9V4H2V9Z\" fill=\"{ink}\" stroke=\"none\"/></g>"
    )
}

/// A `<use>` of a figure at pixel position (x, y), `scale` pixels per art unit.
pub fn figure(shape: FigureShape, colour: Rgb, x: f32, y: f32, scale: f32) -> String {
    use super::shapes::num;
    let (id, turn) = match shape {
        FigureShape::Standing => ("fig-meeple", ""),
        FigureShape::Lying => ("fig-meeple", " rotate(-90)"),
        FigureShape::Abbot => ("fig-abbot", ""),
    };
    let outline = colour.outline();
    format!(
        "<use href=\"#{id}\" fill=\"{colour}\" stroke=\"{outline}\" transform=\"translate({} {}) scale({}){turn}\"/>",
        num(x),
        num(y),
        num(scale)
    )
}

/// A `<use>` of an icon (`cloister`, `garden`, `shield`, `house`) at pixel position (x, y).
pub fn icon(name: &str, x: f32, y: f32, scale: f32) -> String {
    use super::shapes::num;
    format!(
        "<use href=\"#icon-{name}\" transform=\"translate({} {}) scale({})\"/>",
        num(x),
        num(y),
        num(scale)
    )
}

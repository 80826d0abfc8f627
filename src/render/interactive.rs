//! The turn page's board: the board's SVG with layers a reader can point at, for inlining in
//! the page.
//!
//! The drawing itself is either inline or, on a stored turn's page, the turn's own SVG picture
//! linked as an `<image>` ([`super::BoardArt`]): the browser caches it like any picture, and
//! the page carries only the layers. A two-player 72-tile game's turn pages stay under 60 KB
//! so (Board Game Arena's game-a and game-b: 44 to 58 KB from turn 36 on); the three-player
//! demo's reach 64 KB, most of it the features' notes.
//!
//! Over the drawing go, in this order (the last is on top):
//! - one transparent group per feature (`class="f"`), holding one path of all its segments
//!   (in art units, under one transform) and its note as a `<title>`: pointing anywhere on a
//!   feature lights all of it, by CSS alone;
//! - one square per open spot (`class="spot"`), with the tiles that fit it as a `<title>` and a
//!   `data-fits` list for the page's script; dead spots are crossed out;
//! - ghost tiles: the drawn tile's placements better than the one played, faded, each with its
//!   meeple and a badge linking to its alternative, and a badge on the move played.
//!
//! A puzzle's board (`Pick`) has instead of the open spots one link per square the drawn tile
//! fits, and the tile where the reader put it: a link to the same square turns it on. The
//! explore board has the same, under ghosts of the engine's best moves.
//!
//! Every layer is plain SVG, so the board reads without JavaScript; the page's script only adds
//! a panel that repeats a note where touch screens show no tooltip, and on a puzzle moves and
//! turns the tile without loading a page.

use super::figures::{self, FigureShape};
use super::palette::{self, Rgb};
use super::scene::{Frame, Placed, Scene, SceneInput, json_attribute, xml_escape};
use super::shapes::{Curve, Pt, num, pt, short_path};
use super::{RenderOptions, tiles};
use crate::engine::{FeatureKind, Game, Pos, SegId, TileKind};
use std::fmt::Write as _;

/// What the page says about the board: the notes to attach to its layers.
#[derive(Default)]
pub struct BoardNotes<'a> {
    /// A note per feature, by its root segment. Features without a note get no layer.
    pub features: Vec<(SegId, String)>,
    pub spots: Vec<SpotNote>,
    pub ghosts: Vec<Ghost<'a>>,
    /// A badge on the tile placed this turn: its value, and the link to it as an alternative.
    pub played: Option<Badge>,
    /// A puzzle's squares to put the drawn tile on.
    pub pick: Option<Pick<'a>>,
}

/// A puzzle's answer layer: the squares the drawn tile fits, and the tile where it was put.
pub struct Pick<'a> {
    pub kind: &'a TileKind,
    pub squares: Vec<PickSquare>,
    /// The square the tile is on and its quarter turns; none yet, it waits hidden on the first.
    pub placed: Option<(Pos, u8)>,
    /// The meeple of the move shown (an answer, or the solution), on the placed tile.
    pub figure: Option<GhostFigure>,
    /// The placed tile's meeple steps, each a link on its segment.
    pub spots: Vec<MeepleSpot>,
}

/// A meeple step of the placed tile, on the board: a ring on its segment that makes the move.
pub struct MeepleSpot {
    /// The segment, in the tile kind's own order.
    pub segment: u8,
    pub href: String,
    pub title: String,
}

/// Where a segment's figure stands on a tile turned `quarter_turns`, as shares (0 to 1) of the
/// square's side from its top left corner: the page's script draws the meeple spots of a tile
/// it moves there.
pub fn anchor_share(kind: &TileKind, quarter_turns: u8, segment: u8) -> Option<(f32, f32)> {
    let seg = tiles::art(kind).segments.get(usize::from(segment))?.anchor;
    let p = seg.rotate(quarter_turns);
    Some((p.x / 100.0, p.y / 100.0))
}

/// A square the drawn tile fits.
pub struct PickSquare {
    pub pos: Pos,
    /// Puts the tile there (turns it, on the square it is on).
    pub href: String,
    pub title: String,
    /// The rotations that fit and each one's meeple steps, for the page's script (JSON).
    pub moves: String,
}

/// An empty square next to the board.
pub struct SpotNote {
    pub pos: Pos,
    /// The tiles left that fit it, for the page's script: JSON `[["C", 2], ["D", 1]]`.
    pub fits: String,
    /// No tile left fits it.
    pub dead: bool,
    /// The same in words, for the tooltip.
    pub title: String,
}

/// A text on the board that links somewhere.
pub struct Badge {
    pub pos: Pos,
    pub label: String,
    pub title: String,
    pub href: String,
}

/// Another placement of the drawn tile, drawn faded, with its meeple.
pub struct Ghost<'a> {
    pub kind: &'a TileKind,
    pub quarter_turns: u8,
    pub figure: Option<GhostFigure>,
    pub badge: Badge,
}

/// The figure an alternative puts on its tile: on which segment, drawn how, in whose colour.
pub struct GhostFigure {
    pub segment: u8,
    pub shape: FigureShape,
    pub colour: Rgb,
}

/// The order features are layered in: each kind above the ones it is drawn over, so pointing
/// at a road on a field finds the road.
fn layer(kind: FeatureKind) -> u8 {
    match kind {
        FeatureKind::Field | FeatureKind::Plains => 0,
        FeatureKind::City | FeatureKind::Town => 1,
        FeatureKind::Road | FeatureKind::River | FeatureKind::Trail => 2,
        FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm | FeatureKind::Crossing => 3,
    }
}

/// How a feature is pointed at: an area by its fill, a line by its stroke, and a building
/// (cloister, garden, farm, crossing) by a circle around it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Area,
    Line,
    Building,
}

fn shape(kind: FeatureKind) -> Shape {
    match layer(kind) {
        0 | 1 => Shape::Area,
        2 => Shape::Line,
        _ => Shape::Building,
    }
}

/// The class a feature's group gets; a building is lit like an area.
fn shape_class(kind: FeatureKind) -> &'static str {
    match shape(kind) {
        Shape::Line => "f line",
        Shape::Area | Shape::Building => "f area",
    }
}

impl Scene<'_> {
    /// Draws every layer of `notes` over the board.
    pub(super) fn pointing_layers(&mut self, notes: &BoardNotes) {
        if let Some(game) = self.input.game {
            self.feature_layer(game, &notes.features);
        }
        self.spot_layer(&notes.spots);
        // Under the ghosts: a ghost's tile lets the pointer through to its square's link, and
        // its badge, a link of its own, stays on top (the explore board has both).
        if let Some(pick) = &notes.pick {
            self.pick_layer(pick);
        }
        for g in &notes.ghosts {
            self.ghost(g);
        }
        if let Some(b) = &notes.played {
            self.link_badge(b, palette::PAPER, "badge played");
        }
    }

    /// One link per square of `pick`, then the tile: drawn unturned on its square and turned
    /// there by a transform, so the script can move and turn it by changing the transform.
    fn pick_layer(&mut self, pick: &Pick) {
        let s = self.frame.s;
        let mut out = String::from("<g class=\"picks\">");
        for sq in &pick.squares {
            let (x, y) = self.frame.corner(sq.pos);
            let chosen = pick.placed.is_some_and(|(p, _)| p == sq.pos);
            let _ = write!(
                out,
                "<a href=\"{}\" class=\"pick{}\" data-spot=\"{},{}\" data-moves='{}'><title>{}</title>\
                 <rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/></a>",
                xml_escape(&sq.href),
                if chosen { " chosen" } else { "" },
                sq.pos.x,
                sq.pos.y,
                json_attribute(&sq.moves),
                xml_escape(&sq.title),
                num(x),
                num(y)
            );
        }
        out.push_str("</g>");
        self.body.push_str(&out);
        let Some(home) = pick.placed.map(|(p, _)| p).or(pick.squares.first().map(|sq| sq.pos)) else {
            return;
        };
        let (x, y) = self.frame.corner(home);
        let degrees = pick.placed.map_or(0, |(_, q)| u16::from(q) * 90);
        let art = self.tile_art(pick.kind, home, 0);
        let _ = write!(
            self.body,
            "<g class=\"pick-tile\" data-home=\"{},{}\" transform=\"rotate({degrees} {} {})\" pointer-events=\"none\"{}>{art}</g>",
            num(x),
            num(y),
            num(x + s / 2.0),
            num(y + s / 2.0),
            if pick.placed.is_some() { "" } else { " display=\"none\"" }
        );
        if let (Some((pos, q)), Some(f)) = (pick.placed, &pick.figure) {
            self.ghost_figure(pick.kind, pos, q, f, "pick-figure");
        }
        if let Some((pos, q)) = pick.placed {
            self.meeple_spots(pick.kind, pos, q, &pick.spots);
        }
    }

    /// A ring on each segment of the placed tile a meeple may go to, a link that makes the move.
    fn meeple_spots(&mut self, kind: &TileKind, pos: Pos, quarter_turns: u8, spots: &[MeepleSpot]) {
        let art = tiles::art(kind);
        let r = self.frame.s * 0.11;
        let mut out = String::from("<g class=\"meeple-spots\">");
        for spot in spots {
            let Some(seg) = art.segments.get(usize::from(spot.segment)) else {
                continue;
            };
            let (x, y) = self.frame.point(pos, quarter_turns, seg.anchor);
            let _ = write!(
                out,
                "<a href=\"{}\" class=\"meeple-spot\"><title>{}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\"/></a>",
                xml_escape(&spot.href),
                xml_escape(&spot.title),
                num(x),
                num(y),
                num(r)
            );
        }
        out.push_str("</g>");
        self.body.push_str(&out);
    }

    /// A figure on a tile drawn loose (a ghost, a puzzle's tile), upright whatever its turn.
    fn ghost_figure(&mut self, kind: &TileKind, pos: Pos, quarter_turns: u8, f: &GhostFigure, class: &str) {
        let art = tiles::art(kind);
        let Some(seg) = art.segments.get(f.segment as usize) else {
            return;
        };
        let (x, y) = self.frame.point(pos, quarter_turns, seg.anchor);
        let figure = figures::figure(f.shape, f.colour, x, y, self.frame.s / 100.0 * 1.2);
        let _ = write!(self.body, "<g class=\"{class}\" pointer-events=\"none\">{figure}</g>");
    }

    /// The art of one loose tile at `pos`, turned `quarter_turns`.
    fn tile_art(&self, kind: &TileKind, pos: Pos, quarter_turns: u8) -> String {
        let input = SceneInput::loose(vec![Placed {
            pos,
            quarter_turns,
            first_segment: 0,
            art: tiles::art(kind),
        }]);
        let mut art = Scene::new(&input, RenderOptions::default(), self.frame);
        art.draw_board();
        art.body
    }

    /// The features' shapes, in art units (a tile is 100) under one transform to pixels, so
    /// each shape's own transform is short.
    fn feature_layer(&mut self, game: &Game, notes: &[(SegId, String)]) {
        let mut order: Vec<&(SegId, String)> = notes.iter().collect();
        order.sort_by_key(|(root, _)| (layer(game.features().kind(*root)), *root));
        let mut out = String::new();
        for (root, note) in order {
            let kind = game.features().kind(*root);
            let width = match shape(kind) {
                Shape::Line => format!(" stroke-width=\"{}\"", num(tiles::ROAD_WIDTH + 10.0)),
                _ => String::new(),
            };
            let _ = write!(
                out,
                "<g class=\"{}\"{width}><title>{}</title>",
                shape_class(kind),
                xml_escape(note)
            );
            self.hover_shapes(game, *root, &mut out);
            out.push_str("</g>");
        }
        let Frame { x0, y0, s, .. } = self.frame;
        let _ = write!(
            self.body,
            "<g class=\"features\" transform=\"matrix({k} 0 0 {k} {} {})\">{out}</g>",
            num(x0),
            num(y0),
            k = num(s / 100.0)
        );
    }

    /// The feature at `root` in art units from the board's corner: its areas' faces and its
    /// lines' pieces as one path, its cloisters and gardens as circles.
    fn hover_shapes(&self, game: &Game, root: SegId, out: &mut String) {
        let mut d = String::new();
        let mut circles = String::new();
        for m in game.features().members(root) {
            let Some((t, j)) = self.member(game, m) else { continue };
            let seg = &t.art.segments[j];
            let corner = self.art_corner(t.pos);
            let q = t.quarter_turns;
            if shape(seg.kind) == Shape::Building {
                let c = seg.anchor.rotate(q).plus(corner);
                let _ = write!(
                    circles,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                    num(c.x),
                    num(c.y),
                    num(seg.size * 0.75)
                );
                continue;
            }
            let closed = shape(seg.kind) == Shape::Area;
            for piece in &seg.outline {
                let placed: Vec<Curve> = piece.iter().map(|c| c.placed(q, corner)).collect();
                d.push_str(&short_path(&placed, closed));
            }
        }
        if !d.is_empty() {
            let _ = write!(out, "<path d=\"{d}\"/>");
        }
        out.push_str(&circles);
    }

    /// The top left corner of the square `p`, in art units (a tile is 100) from the board's.
    fn art_corner(&self, p: Pos) -> Pt {
        let (x, y) = self.frame.corner(p);
        let k = self.frame.s / 100.0;
        pt((x - self.frame.x0) / k, (y - self.frame.y0) / k)
    }

    fn spot_layer(&mut self, spots: &[SpotNote]) {
        let s = self.frame.s;
        let cross = spots.iter().any(|spot| spot.dead).then(|| self.dead_cross());
        let mut out = String::new();
        for spot in spots {
            let (x, y) = self.frame.corner(spot.pos);
            let dead = spot.dead;
            let _ = write!(
                out,
                "<g class=\"spot{}\" data-spot=\"{}\" data-fits='{}'><title>{}</title>\
                 <rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/>",
                if dead { " dead" } else { "" },
                spot.pos,
                json_attribute(&spot.fits),
                xml_escape(&spot.title),
                num(x),
                num(y)
            );
            if let (true, Some(cross)) = (dead, &cross) {
                let _ = write!(out, "<use href=\"#{cross}\" x=\"{}\" y=\"{}\"/>", num(x), num(y));
            }
            out.push_str("</g>");
        }
        let _ = write!(self.body, "<g class=\"spots\">{out}</g>");
    }

    /// The cross on a dead square, defined once at the square's top left corner.
    fn dead_cross(&mut self) -> String {
        let s = self.frame.s;
        let (a, b) = (num(s * 0.3), num(s * 0.7));
        self.define("dead-cross".into(), |id| {
            format!(
                "<path id=\"{id}\" d=\"M{a} {a}L{b} {b}M{b} {a}L{a} {b}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                palette::DEAD_SPOT.hex(),
                num((s * 0.06).max(2.0))
            )
        })
    }

    /// A faded tile that the pointer passes through to the spot under it, and its badge.
    fn ghost(&mut self, g: &Ghost) {
        let art = self.tile_art(g.kind, g.badge.pos, g.quarter_turns);
        let _ = write!(
            self.body,
            "<g class=\"ghost\" opacity=\".55\" pointer-events=\"none\">{art}</g>"
        );
        // The meeple at full strength over the faded tile: it is what differs between moves.
        if let Some(f) = &g.figure {
            self.ghost_figure(g.kind, g.badge.pos, g.quarter_turns, f, "ghost-figure");
        }
        self.link_badge(&g.badge, palette::GHOST_BADGE, "badge alternative");
    }

    /// A badge at the top of a square that links to `b.href`.
    fn link_badge(&mut self, b: &Badge, colour: Rgb, class: &str) {
        let s = self.frame.s;
        let (x, y) = self.frame.corner(b.pos);
        let font = (s * 0.2).clamp(10.0, 24.0);
        let w = (font * (0.62 * b.label.chars().count() as f32 + 0.8)).min(s * 1.6);
        let _ = write!(
            self.body,
            "<a href=\"{}\" class=\"{class}\"><title>{}</title>",
            xml_escape(&b.href),
            xml_escape(&b.title)
        );
        self.badge(
            (x + (s - w) / 2.0, y + s * 0.06),
            (w, font * 1.3),
            colour,
            &xml_escape(&b.label).to_string(),
            font,
        );
        self.body.push_str("</a>");
    }
}

impl SceneInput<'static> {
    /// What a scene of loose tiles needs: no game, no players.
    pub fn loose(tiles: Vec<Placed>) -> SceneInput<'static> {
        SceneInput {
            game: None,
            tiles,
            last_move: None,
            scored: Vec::new(),
            final_scored: Vec::new(),
            history: Vec::new(),
            players: Vec::new(),
            colours: palette::PlayerColours::by_seat(0),
            caption: String::new(),
        }
    }
}

//! The SVG scene of a board: tiles drawn layer by layer (fields, roads, rivers, cities, icons),
//! then the overlays, the figures and the legend.
//!
//! Layers run across all tiles rather than tile by tile, so a road's outline never cuts across
//! its neighbour's road and walls overlap fields, not the reverse.

use super::RenderOptions;
use super::figures::{self, FigureShape};
use super::palette::{self, Rgb};
use super::raster::FONT_FAMILY;
use super::shapes::{Pt, num};
use super::tiles::{self, Decoration, RIVER_WIDTH, ROAD_WIDTH, TileArt, WALL_WIDTH};
use crate::engine::board::PlacedTile;
use crate::engine::features::{Players, majority};
use crate::engine::surveyors::{COAST_X, START_SPACES};
use crate::engine::{Event, FeatureKind, Figure, Game, Pos, Reason, Score, SegId};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// Who a feature is shown as belonging to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Owner {
    players: Players,
    /// Completed and scored: drawn strongly. Open: drawn lightly.
    completed: bool,
}

/// One player as the legend shows them.
pub struct LegendEntry<'a> {
    pub name: &'a str,
    pub score: i32,
}

/// A tile to draw: where, how turned, and its art.
pub struct Placed {
    pub pos: Pos,
    pub quarter_turns: u8,
    /// The tile's first segment in the game's `Features` (unused without a game).
    pub first_segment: SegId,
    pub art: Arc<TileArt>,
}

impl Placed {
    pub fn of(game: &Game, t: &PlacedTile) -> Placed {
        Placed {
            pos: t.pos,
            quarter_turns: t.rotation.quarter_turns(),
            first_segment: t.first_segment,
            art: tiles::art(game.tile_kind(t.kind)),
        }
    }
}

/// Everything a scene needs, gathered from a replay.
pub struct SceneInput<'a> {
    /// The game the tiles come from; `None` for a sheet of loose tiles (no figures, owners or
    /// open spots).
    pub game: Option<&'a Game>,
    pub tiles: Vec<Placed>,
    /// This turn's placement (the last-move frame): player and position.
    pub last_move: Option<(u8, Pos)>,
    /// Points scored this turn, for the scoring overlay: outlined and labelled.
    pub scored: Vec<Score>,
    /// Final scoring, labelled only: outlining every feature at the end would bury the board.
    pub final_scored: Vec<Score>,
    /// Every score event up to now: completed features keep their scorers' colour.
    pub history: Vec<Score>,
    pub players: Vec<LegendEntry<'a>>,
    pub colours: palette::PlayerColours,
    /// "Turn 12 of 71", for the legend.
    pub caption: String,
}

/// Pixel placement of the board: `lo` is drawn with its top-left corner at (x0, y0).
#[derive(Clone, Copy)]
pub struct Frame {
    pub x0: f32,
    pub y0: f32,
    /// Pixels per tile; an integer, so tile edges land on the same pixels everywhere.
    pub s: f32,
    /// Pixels between neighbouring tiles: 0 on boards, some on tile sheets.
    pub gap: f32,
    pub lo: Pos,
}

impl Frame {
    pub(super) fn corner(&self, p: Pos) -> (f32, f32) {
        let pitch = self.s + self.gap;
        (
            self.x0 + (p.x - self.lo.x) as f32 * pitch,
            self.y0 + (p.y - self.lo.y) as f32 * pitch,
        )
    }

    /// Art units to pixels.
    fn k(&self) -> f32 {
        self.s / 100.0
    }

    /// The transform that puts a tile's canonical art at `p`, turned `q` quarter turns.
    pub(super) fn matrix(&self, p: Pos, q: u8) -> String {
        let (x, y) = self.corner(p);
        let (k, w) = (self.k(), self.s);
        let (a, b, c, d, e, f) = match q & 3 {
            0 => (k, 0.0, 0.0, k, x, y),
            1 => (0.0, k, -k, 0.0, x + w, y),
            2 => (-k, 0.0, 0.0, -k, x + w, y + w),
            _ => (0.0, -k, k, 0.0, x, y + w),
        };
        format!(
            "matrix({} {} {} {} {} {})",
            num(a),
            num(b),
            num(c),
            num(d),
            num(e),
            num(f)
        )
    }

    /// Where a canonical art point of a tile lands, in pixels.
    pub(super) fn point(&self, p: Pos, q: u8, local: Pt) -> (f32, f32) {
        let r = local.rotate(q);
        let (x, y) = self.corner(p);
        (x + r.x * self.k(), y + r.y * self.k())
    }
}

/// The smallest rectangle holding every tile, and with `open_spots` the frontier too.
pub fn extent(game: &Game, open_spots: bool) -> (Pos, Pos) {
    let board = game.board();
    let (mut lo, mut hi) = board.extent().unwrap_or((Pos::ORIGIN, Pos::ORIGIN));
    if open_spots {
        for f in board.frontier() {
            lo = Pos::new(lo.x.min(f.pos.x), lo.y.min(f.pos.y));
            hi = Pos::new(hi.x.max(f.pos.x), hi.y.max(f.pos.y));
        }
    }
    if game.surveyors().is_some() {
        // New World's coast is drawn east of the land, so the surveyors have somewhere to stand.
        hi = Pos::new(hi.x.max(COAST_X), hi.y);
    }
    (lo, hi)
}

/// Builds SVG markup for one board. Definitions (symbols, stripe patterns) are collected while
/// drawing and written ahead of the body by [`Scene::finish`].
pub struct Scene<'a> {
    pub(super) input: &'a SceneInput<'a>,
    opts: RenderOptions,
    pub(super) frame: Frame,
    owners: HashMap<SegId, Owner>,
    defs: Vec<(String, String)>,
    pub body: String,
    /// Extra attributes of the root element, such as a class for a page's style.
    pub root_attributes: String,
}

impl<'a> Scene<'a> {
    pub fn new(input: &'a SceneInput<'a>, opts: RenderOptions, frame: Frame) -> Scene<'a> {
        let owners = match input.game {
            Some(game) if opts.ownership => owners(game, &input.history),
            _ => HashMap::new(),
        };
        Scene {
            input,
            opts,
            frame,
            owners,
            defs: Vec::new(),
            body: String::with_capacity(64 * 1024),
            root_attributes: String::new(),
        }
    }

    /// Draws the board and its overlays (not the legend).
    pub fn draw_board(&mut self) {
        if self.opts.open_spots {
            self.open_spots();
        }
        self.coast();
        self.fields();
        self.lines(FeatureKind::Road);
        self.lines(FeatureKind::River);
        self.bridges();
        self.cities();
        self.icons();
        self.grid();
        if self.opts.scoring {
            self.scoring_highlights();
        }
        if self.opts.last_move {
            self.last_move();
        }
        self.figures();
        self.surveyors();
        if self.opts.scoring {
            self.scoring_badges();
        }
    }

    /// The rows this picture shows.
    fn rows(&self, game: &Game) -> std::ops::RangeInclusive<i32> {
        let (lo, hi) = extent(game, self.opts.open_spots);
        lo.y..=hi.y
    }

    /// New World's coast: sea east of the land, with its ten start spaces.
    fn coast(&mut self) {
        let Some(game) = self.input.game.filter(|g| g.surveyors().is_some()) else {
            return;
        };
        let s = self.frame.s;
        for y in self.rows(game) {
            let (x0, y0) = self.frame.corner(Pos::new(COAST_X, y));
            let _ = write!(
                self.body,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                num(x0),
                num(y0),
                num(s),
                num(s),
                palette::RIVER.hex()
            );
            if (0..START_SPACES).contains(&y) {
                let _ = write!(
                    self.body,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    num(x0 + s * 0.12),
                    num(y0 + s * 0.12),
                    num(s * 0.76),
                    num(s * 0.76),
                    palette::PAPER.hex(),
                    num((s / 40.0).max(1.0))
                );
            }
        }
    }

    /// The two surveyors, at the top of their columns, each column's labelled ("surveyor",
    /// "2 surveyors") where the picture is large enough to read it.
    fn surveyors(&mut self) {
        let Some(game) = self.input.game else { return };
        let Some(surveyors) = game.surveyors() else { return };
        let top = *self.rows(game).start();
        let s = self.frame.s;
        let [a, b] = surveyors.columns();
        if s >= 32.0 {
            for column in if a == b { vec![a] } else { vec![a, b] } {
                let (x0, y0) = self.frame.corner(Pos::new(column, top));
                let label = match surveyors.in_column(column) {
                    1 => "surveyor".to_string(),
                    n => format!("{n} surveyors"),
                };
                let font = s * 0.14;
                let w = font * (0.62 * label.chars().count() as f32 + 0.8);
                let (x, y) = (x0 + (s - w) / 2.0, y0 + s * 0.34);
                self.badge((x, y), (w, font * 1.3), palette::SHIELD_MARK, &label, font);
            }
        }
        for (i, column) in [a, b].into_iter().enumerate() {
            let (x0, y0) = self.frame.corner(Pos::new(column, top));
            // Two in one column stand side by side.
            let dx = if a == b { 0.3 + 0.4 * i as f32 } else { 0.5 };
            let (cx, cy, r) = (x0 + s * dx, y0 + s * 0.18, s * 0.13);
            let _ = write!(
                self.body,
                "<path d=\"M{} {}L{} {}L{} {}L{} {}Z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>surveyor</title></path>",
                num(cx),
                num(cy - r),
                num(cx + r),
                num(cy),
                num(cx),
                num(cy + r),
                num(cx - r),
                num(cy),
                palette::SHIELD_MARK.hex(),
                palette::INK.hex(),
                num((s / 50.0).max(1.0))
            );
        }
    }

    /// The picture at `href` over the whole scene, `width` × `height`, in place of the board
    /// drawn here ([`super::BoardArt::Linked`]).
    pub fn picture(&mut self, href: &str, width: u32, height: u32) {
        let _ = write!(
            self.body,
            "<image href=\"{}\" width=\"{width}\" height=\"{height}\"/>",
            xml_escape(href)
        );
    }

    /// Wraps the body into a complete document of `width` × `height` pixels, on `background`
    /// (none: transparent).
    pub fn finish(self, width: u32, height: u32, background: Option<Rgb>) -> String {
        let mut out = String::with_capacity(self.body.len() + 4096);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"{FONT_FAMILY}\"{}>",
            self.root_attributes
        );
        out.push_str("<defs>");
        // The figures and icons only where something refers to one: a page's board whose
        // drawing is linked ([`super::BoardArt::Linked`]) mostly has none.
        if self.body.contains("href=\"#") {
            out.push_str(&figures::definitions());
        }
        for (_, def) in &self.defs {
            out.push_str(def);
        }
        out.push_str("</defs>");
        if let Some(background) = background {
            let _ = write!(
                out,
                "<rect class=\"backdrop\" width=\"{width}\" height=\"{height}\" fill=\"{}\" shape-rendering=\"crispEdges\"/>",
                background.hex()
            );
        }
        out.push_str(&self.body);
        out.push_str("</svg>");
        out
    }

    // ----- colours -----

    fn owner_of(&self, t: &Placed, seg: usize) -> Option<Owner> {
        let game = self.input.game?;
        let gid = t.first_segment + seg as SegId;
        self.owners.get(&game.features().root(gid)).copied()
    }

    /// The fill for a segment: its base colour, tinted by its owner; stripes for a tie.
    fn paint(&mut self, base: Rgb, owner: Option<Owner>) -> String {
        let Some(o) = owner else {
            return base.hex();
        };
        let colours: Vec<Rgb> = (o.players.iter())
            .map(|p| self.input.colours.tint(base, p, o.completed))
            .collect();
        match colours[..] {
            [one] => one.hex(),
            _ => self.stripes(&colours),
        }
    }

    /// Diagonal stripes of the tied owners' colours.
    fn stripes(&mut self, colours: &[Rgb]) -> String {
        let key: String = colours.iter().map(|c| c.hex()).collect();
        self.pattern(key, |id| {
            let band = 7.0;
            let mut def = format!(
                "<pattern id=\"{id}\" patternUnits=\"userSpaceOnUse\" width=\"{}\" height=\"{band}\" \
                 patternTransform=\"rotate(45)\">",
                band * colours.len() as f32
            );
            for (i, c) in colours.iter().enumerate() {
                let _ = write!(
                    def,
                    "<rect x=\"{}\" width=\"{band}\" height=\"{band}\" fill=\"{}\"/>",
                    i as f32 * band,
                    c.hex()
                );
            }
            def + "</pattern>"
        })
    }

    /// A pattern by key, defined on first use; returns the fill that refers to it.
    fn pattern(&mut self, key: String, define: impl FnOnce(&str) -> String) -> String {
        format!("url(#{})", self.define(key, define))
    }

    /// A definition by key (a pattern, a shape drawn many times), added on first use; returns
    /// its id.
    pub(super) fn define(&mut self, key: String, define: impl FnOnce(&str) -> String) -> String {
        let i = match self.defs.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let def = define(&format!("pat{}", self.defs.len()));
                self.defs.push((key, def));
                self.defs.len() - 1
            }
        };
        format!("pat{i}")
    }

    fn matrix(&self, t: &Placed) -> String {
        self.frame.matrix(t.pos, t.quarter_turns)
    }

    fn point(&self, t: &Placed, local: Pt) -> (f32, f32) {
        self.frame.point(t.pos, t.quarter_turns, local)
    }

    /// One square path per tile, for the ground and the grid.
    fn squares(&self) -> String {
        let s = self.frame.s;
        let mut d = String::new();
        for t in &self.input.tiles {
            let (x, y) = self.frame.corner(t.pos);
            let _ = write!(d, "M{} {}h{s}v{s}h-{s}Z", num(x), num(y));
        }
        d
    }

    // ----- layers -----

    fn open_spots(&mut self) {
        let Some(game) = self.input.game else { return };
        let mut spots: Vec<Pos> = game.board().frontier().iter().map(|f| f.pos).collect();
        spots.sort();
        let (s, inset) = (self.frame.s, self.frame.s * 0.08);
        let side = num(s - 2.0 * inset);
        let dash = num((s * 0.08).max(2.0));
        let mut d = String::new();
        for p in spots {
            let (x, y) = self.frame.corner(p);
            let _ = write!(d, "M{} {}h{side}v{side}h-{side}Z", num(x + inset), num(y + inset));
        }
        let _ = write!(
            self.body,
            "<path d=\"{d}\" fill=\"#fff\" fill-opacity=\".06\" stroke=\"#fff\" stroke-opacity=\".45\" \
             stroke-width=\"{}\" stroke-dasharray=\"{dash} {dash}\"/>",
            num((s * 0.02).max(1.0))
        );
    }

    fn fields(&mut self) {
        let ground = self.squares();
        // Squares on whole pixels need no anti-aliasing, which makes them much cheaper to fill.
        let _ = write!(
            self.body,
            "<path d=\"{ground}\" fill=\"{}\" shape-rendering=\"crispEdges\"/>",
            palette::FIELD.hex()
        );
        if self.owners.is_empty() {
            return;
        }
        let input = self.input;
        for t in &input.tiles {
            for (j, seg) in t.art.segments.iter().enumerate() {
                let Some(owner) = self.owner_of(t, j).filter(|_| seg.kind == FeatureKind::Field) else {
                    continue;
                };
                let farmer = self
                    .input
                    .game
                    .is_some_and(|g| g.features().meeple_on(t.first_segment + j as SegId).is_some());
                self.owned_field(t, seg, owner, farmer);
            }
        }
    }

    /// An owned field: grass dotted in its owners' colours (a solid tint would make fields look
    /// like cities). Tied owners' dots alternate in a checker laid over the whole board, so it
    /// runs on across tiles whatever their rotation. A farmer lies in a clearing of the dots,
    /// so one in its owner's colour never merges with them.
    fn owned_field(&mut self, t: &Placed, seg: &tiles::SegmentArt, owner: Owner, farmer: bool) {
        let players: Vec<u8> = owner.players.iter().collect();
        let m = self.matrix(t);
        let dot = |p: u8| self.input.colours.get(p).mix(palette::INK, 0.1).hex();
        if let [one] = players[..] {
            let _ = write!(
                self.body,
                "<path d=\"{}\" fill=\"{}\" transform=\"{m}\"/>",
                if farmer { &seg.farmer_dots_path } else { &seg.dots_path },
                dot(one)
            );
            return;
        }
        let dots = if farmer {
            tiles::clear_of(&seg.dots, seg.anchor)
        } else {
            seg.dots.clone()
        };
        for (k, p) in players.iter().enumerate() {
            let mine: Vec<Pt> = dots
                .iter()
                .copied()
                .filter(|d| {
                    let r = d.rotate(t.quarter_turns);
                    let i = t.pos.x * 8 + (r.x / tiles::DOT_STEP) as i32;
                    let j = t.pos.y * 8 + (r.y / tiles::DOT_STEP) as i32;
                    (i + j).rem_euclid(players.len() as i32) == k as i32
                })
                .collect();
            let _ = write!(
                self.body,
                "<path d=\"{}\" fill=\"{}\" transform=\"{m}\"/>",
                tiles::dots_path(&mine),
                dot(*p)
            );
        }
    }

    /// Roads or rivers: every outline first, then every fill, so crossings and tile seams join.
    fn lines(&mut self, kind: FeatureKind) {
        let (edge, base, width) = match kind {
            FeatureKind::River => (palette::RIVER_EDGE, palette::RIVER, RIVER_WIDTH),
            _ => (palette::ROAD_EDGE, palette::ROAD, ROAD_WIDTH),
        };
        let mut outline = String::new();
        let mut fills = String::new();
        let input = self.input;
        for t in &input.tiles {
            let m = self.matrix(t);
            for (j, seg) in t.art.segments.iter().enumerate().filter(|(_, s)| s.kind == kind) {
                let _ = write!(outline, "<path d=\"{}\" transform=\"{m}\"/>", seg.path);
                let paint = self.paint(base, self.owner_of(t, j));
                let _ = write!(fills, "<path d=\"{}\" stroke=\"{paint}\" transform=\"{m}\"/>", seg.path);
            }
            if kind == FeatureKind::River {
                pools(&t.art, &m, &mut fills);
            }
        }
        let _ = write!(
            self.body,
            "<g fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\">{outline}</g>\
             <g fill=\"none\" stroke-width=\"{}\">{fills}</g>",
            edge.hex(),
            width - 4.0
        );
    }

    fn bridges(&mut self) {
        let input = self.input;
        for t in &input.tiles {
            for d in &t.art.decorations {
                let Decoration::Bridge(path) = d else { continue };
                let road = t
                    .art
                    .segments
                    .iter()
                    .position(|s| s.kind == FeatureKind::Road)
                    .unwrap_or(0);
                let paint = self.paint(palette::ROAD, self.owner_of(t, road));
                let m = self.matrix(t);
                let _ = write!(
                    self.body,
                    "<g fill=\"none\" transform=\"{m}\"><path d=\"{path}\" stroke=\"{}\" stroke-width=\"{}\"/>\
                     <path d=\"{path}\" stroke=\"{paint}\" stroke-width=\"{}\"/></g>",
                    palette::INK.hex(),
                    ROAD_WIDTH + 4.0,
                    ROAD_WIDTH - 2.0
                );
            }
        }
    }

    fn cities(&mut self) {
        let mut walls = String::new();
        let input = self.input;
        for t in &input.tiles {
            let m = self.matrix(t);
            for (j, seg) in t.art.segments.iter().enumerate() {
                if seg.kind != FeatureKind::City {
                    continue;
                }
                let fill = self.paint(palette::CITY, self.owner_of(t, j));
                let _ = write!(
                    self.body,
                    "<path d=\"{}\" fill=\"{fill}\" transform=\"{m}\"/>",
                    seg.path
                );
                if !seg.walls.is_empty() {
                    let _ = write!(walls, "<path d=\"{}\" transform=\"{m}\"/>", seg.walls);
                }
            }
        }
        let _ = write!(
            self.body,
            "<g fill=\"none\" stroke=\"{}\" stroke-width=\"{WALL_WIDTH}\">{walls}</g>\
             <g fill=\"none\" stroke=\"{}\" stroke-width=\"{}\">{walls}</g>",
            palette::WALL_EDGE.hex(),
            palette::WALL.hex(),
            WALL_WIDTH - 3.0
        );
    }

    /// Shields, cloisters, gardens, junction houses and road ends, all upright.
    fn icons(&mut self) {
        let k = self.frame.k();
        let input = self.input;
        for t in &input.tiles {
            for (j, seg) in t.art.segments.iter().enumerate() {
                if seg.kind.is_inner() {
                    self.inner_icon(t, j, k);
                }
                if let Some(sh) = seg.shield {
                    let (x, y) = self.point(t, sh);
                    self.body.push_str(&figures::icon("shield", x, y, k));
                }
                for &spot in &seg.marks {
                    let (x, y) = self.point(t, spot);
                    self.body.push_str(&mark(seg.kind, x, y, k));
                }
            }
            for d in &t.art.decorations {
                match d {
                    Decoration::Junction(p) => {
                        let (x, y) = self.point(t, *p);
                        self.body.push_str(&figures::icon("house", x, y, k * 1.1));
                    }
                    Decoration::RoadEnd(p) => {
                        let (x, y) = self.point(t, *p);
                        let _ = write!(
                            self.body,
                            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                            num(x),
                            num(y),
                            num(7.0 * k),
                            palette::ROAD.hex(),
                            palette::ROAD_EDGE.hex(),
                            num(2.0 * k)
                        );
                    }
                    _ => {}
                }
            }
        }
    }

    /// A cloister or garden, on a disc of its owner's colour when it has one.
    fn inner_icon(&mut self, t: &Placed, j: usize, k: f32) {
        let seg = &t.art.segments[j];
        let (x, y) = self.point(t, seg.anchor);
        if let Some(owner) = self.owner_of(t, j) {
            let ground = self.paint(palette::FIELD, Some(owner));
            let _ = write!(
                self.body,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{ground}\"/>",
                num(x),
                num(y),
                num(seg.size * 0.72 * k)
            );
        }
        let (name, unit) = match seg.kind {
            FeatureKind::Cloister => ("cloister", 34.0),
            FeatureKind::Farm => ("house", 20.0),
            FeatureKind::Crossing => return,
            _ => ("garden", 26.0),
        };
        self.body.push_str(&figures::icon(name, x, y, k * seg.size / unit));
    }

    /// Thin lines between tiles, so single tiles can be told apart.
    fn grid(&mut self) {
        let d = self.squares();
        let _ = write!(
            self.body,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#000\" stroke-opacity=\".22\" stroke-width=\"{}\" \
             shape-rendering=\"crispEdges\"/>",
            num((self.frame.s / 96.0).max(0.6))
        );
    }

    fn last_move(&mut self) {
        let Some((player, pos)) = self.input.last_move else {
            return;
        };
        let s = self.frame.s;
        let w = (s * 0.06).max(2.5);
        let (x, y) = self.frame.corner(pos);
        let (x, y, side) = (x + w / 2.0, y + w / 2.0, s - w);
        let colour = self.input.colours.get(player).hex();
        let rect = format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"none\"",
            num(x),
            num(y),
            num(side),
            num(side),
            num(w)
        );
        let _ = write!(
            self.body,
            "{rect} stroke=\"{}\" stroke-width=\"{}\"/>{rect} stroke=\"{colour}\" stroke-width=\"{}\"/>",
            palette::INK.hex(),
            num(w + 2.0),
            num(w)
        );
    }

    fn figures(&mut self) {
        let Some(game) = self.input.game else { return };
        let features = game.features();
        let k = self.frame.k();
        for t in &self.input.tiles {
            for (j, seg) in t.art.segments.iter().enumerate() {
                let Some(m) = features.meeple_on(t.first_segment + j as SegId) else {
                    continue;
                };
                let shape = match (m.figure, seg.kind) {
                    (Figure::Abbot, _) => FigureShape::Abbot,
                    (_, FeatureKind::Field) => FigureShape::Lying,
                    _ => FigureShape::Standing,
                };
                let (x, y) = self.point(t, seg.anchor);
                let colour = self.input.colours.get(m.player);
                self.body.push_str(&figures::figure(shape, colour, x, y, k * 1.2));
            }
        }
    }

    /// The tile (index into the board) and segment a score points at.
    fn locate(&self, score: &Score) -> Option<(&'a Placed, usize)> {
        let game = self.input.game?;
        let gid = locate(game, score)?;
        self.member(game, gid)
    }

    pub(super) fn member(&self, game: &Game, gid: SegId) -> Option<(&'a Placed, usize)> {
        let input = self.input;
        let t = input.tiles.get(game.features().tile_of(gid) as usize)?;
        Some((t, (gid - t.first_segment) as usize))
    }

    fn scoring_highlights(&mut self) {
        let Some(game) = self.input.game else { return };
        let features = game.features();
        let mut out = String::new();
        let mut done: Vec<SegId> = Vec::new();
        for score in &self.input.scored {
            let Some(root) = locate(game, score).map(|g| features.root(g)) else {
                continue;
            };
            if done.contains(&root) {
                continue;
            }
            done.push(root);
            self.feature_outline(game, root, &mut out);
        }
        if !out.is_empty() {
            let _ = write!(
                self.body,
                "<g fill=\"none\" stroke=\"#fff\" stroke-opacity=\".8\" stroke-width=\"5\" \
                 stroke-linejoin=\"round\">{out}</g>"
            );
        }
    }

    /// The shape of every segment of the feature `root`, unfilled: roads and rivers as wide
    /// strokes of their centre line, areas as their outline, cloisters and gardens as a disc.
    fn feature_outline(&self, game: &Game, root: SegId, out: &mut String) {
        for m in game.features().members(root) {
            let Some((t, j)) = self.member(game, m) else { continue };
            let seg = &t.art.segments[j];
            let mtx = self.matrix(t);
            let _ = match seg.kind {
                FeatureKind::Road | FeatureKind::River | FeatureKind::Trail => write!(
                    out,
                    "<path d=\"{}\" stroke-width=\"{}\" transform=\"{mtx}\"/>",
                    seg.path,
                    ROAD_WIDTH + 10.0
                ),
                FeatureKind::City | FeatureKind::Field | FeatureKind::Town | FeatureKind::Plains => {
                    write!(out, "<path d=\"{}\" transform=\"{mtx}\"/>", seg.path)
                }
                FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm | FeatureKind::Crossing => write!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" transform=\"{mtx}\"/>",
                    num(seg.anchor.x),
                    num(seg.anchor.y),
                    num(seg.size * 0.75)
                ),
            };
        }
    }

    /// "+12" badges in the scorers' colours, one per scorer, at the scored feature.
    fn scoring_badges(&mut self) {
        let font = (self.frame.s * 0.2).clamp(10.0, 24.0);
        let mut placed: Vec<(f32, f32)> = Vec::new();
        for score in self.input.scored.iter().chain(&self.input.final_scored) {
            let Some((t, seg)) = self.locate(score) else { continue };
            let (x, mut y) = self.point(t, t.art.segments[seg].anchor);
            y -= font * 1.1;
            // Badges of one place stack instead of hiding each other.
            while placed
                .iter()
                .any(|(px, py)| (px - x).abs() < font * 2.5 && (py - y).abs() < font * 1.2)
            {
                y -= font * 1.3;
            }
            placed.push((x, y));
            let text = format!("+{}", score.points);
            let players: Vec<u8> = score.players.iter().collect();
            let w = font * (0.62 * text.chars().count() as f32 + 0.8);
            let total = w * players.len() as f32;
            for (i, p) in players.iter().enumerate() {
                let colour = self.input.colours.get(*p);
                let bx = x - total / 2.0 + i as f32 * w;
                self.badge((bx, y - font * 0.65), (w, font * 1.3), colour, &text, font);
            }
        }
    }

    pub(super) fn badge(&mut self, (x, y): (f32, f32), (w, h): (f32, f32), colour: Rgb, text: &str, font: f32) {
        let ink = if colour.is_light() {
            palette::INK.hex()
        } else {
            "#ffffff".into()
        };
        let _ = write!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{}\" \
             stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
             text-anchor=\"middle\" fill=\"{ink}\">{text}</text>",
            num(x),
            num(y),
            num(w),
            num(h),
            num(h / 2.0),
            colour.hex(),
            palette::INK.hex(),
            num(x + w / 2.0),
            num(y + h * 0.74),
            num(font)
        );
    }

    /// The legend: caption, then each player's figure, name and score, wrapping into rows.
    /// Returns the height it needs; draws only when `draw` is set.
    pub fn legend(&mut self, (x0, y0): (f32, f32), width: f32, font: f32, draw: bool) -> f32 {
        let gap = font * 1.2;
        let row_h = font * 1.9;
        let mut items: Vec<LegendItem> = Vec::new();
        if !self.input.caption.is_empty() {
            items.push((text_width(&self.input.caption, font), self.input.caption.clone(), None));
        }
        for (i, p) in self.input.players.iter().enumerate() {
            let name = short_name(p.name);
            let w = font * 1.4 + text_width(&format!("{name} {}", p.score), font);
            items.push((w, name, Some((i as u8, p.score))));
        }
        let (mut x, mut y) = (x0, y0);
        for (w, text, player) in items {
            if x > x0 && x + w > x0 + width {
                x = x0;
                y += row_h;
            }
            if draw {
                self.legend_item(x, y + row_h / 2.0, font, &text, player);
            }
            x += w + gap;
        }
        y + row_h - y0
    }

    fn legend_item(&mut self, x: f32, mid: f32, font: f32, text: &str, player: Option<(u8, i32)>) {
        let base = mid + font * 0.36;
        let light = palette::PAPER.hex();
        let text = xml_escape(text);
        let Some((p, score)) = player else {
            let _ = write!(
                self.body,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{light}\">{text}</text>",
                num(x),
                num(base),
                num(font)
            );
            return;
        };
        let colour = self.input.colours.get(p);
        let figure = figures::figure(FigureShape::Standing, colour, x + font * 0.5, mid, font / 22.0);
        let _ = write!(
            self.body,
            "{figure}<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{light}\">{text} \
             <tspan font-weight=\"bold\">{score}</tspan></text>",
            num(x + font * 1.4),
            num(base),
            num(font)
        );
    }
}

/// River ends: a pool where the river rises or stops.
/// A New World mark at (x, y): a trading post on a trail (drawn as a road), an animal on
/// plains (drawn as a field).
fn mark(kind: FeatureKind, x: f32, y: f32, k: f32) -> String {
    if kind == FeatureKind::Road {
        let w = 12.0 * k;
        format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>trading post</title></rect>",
            num(x - w / 2.0),
            num(y - w / 2.0),
            num(w),
            num(w),
            palette::HOUSE_ROOF.hex(),
            palette::INK.hex(),
            num(1.5 * k)
        )
    } else {
        format!(
            "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>animal</title></ellipse>",
            num(x),
            num(y),
            num(8.0 * k),
            num(5.5 * k),
            palette::WALL_EDGE.hex(),
            palette::PAPER.hex(),
            num(1.2 * k)
        )
    }
}

fn pools(art: &TileArt, matrix: &str, out: &mut String) {
    for d in &art.decorations {
        if let Decoration::Pool(p) = d {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"13\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\" \
                 transform=\"{matrix}\"/>",
                num(p.x),
                num(p.y),
                palette::RIVER.hex(),
                palette::RIVER_EDGE.hex()
            );
        }
    }
}

/// A legend entry as laid out: its width, its text, and the player and score it shows.
type LegendItem = (f32, String, Option<(u8, i32)>);

/// Rough width of text in DejaVu Sans, for layout only (glyphs average about 0.6 em).
pub fn text_width(text: &str, font: f32) -> f32 {
    text.chars().count() as f32 * font * 0.62
}

/// Player names come from uploads: keep the legend readable whatever their length.
fn short_name(name: &str) -> String {
    const MAX: usize = 18;
    if name.chars().count() <= MAX {
        name.to_string()
    } else {
        name.chars().take(MAX - 1).chain(['…']).collect()
    }
}

/// `s` as XML text or a double-quoted attribute's value, written straight where it goes.
pub fn xml_escape(s: &str) -> Escaped<'_> {
    Escaped { s, quotes: true }
}

/// JSON for a single-quoted attribute (`data-fits='[["C",2]]'`): its quotes stay quotes, where
/// a double-quoted attribute would spell each as six letters.
pub fn json_attribute(json: &str) -> Escaped<'_> {
    Escaped { s: json, quotes: false }
}

/// Text escaped for XML ([`xml_escape`], [`json_attribute`]). A board writes hundreds of
/// titles and links: a string for each cost a tenth of its drawing.
#[derive(Clone, Copy, Debug)]
pub struct Escaped<'a> {
    s: &'a str,
    /// Whether double quotes are escaped too (not in a single-quoted attribute).
    quotes: bool,
}

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // By bytes, copying the runs between the characters to escape, which are all ASCII.
        let s = self.s;
        let mut from = 0;
        for (i, b) in s.bytes().enumerate() {
            let with = match b {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' if self.quotes => "&quot;",
                b'\'' => "&apos;",
                b'\t' => continue,
                // Control characters are not allowed in XML at all.
                0..0x20 => " ",
                _ => continue,
            };
            f.write_str(&s[from..i])?;
            f.write_str(with)?;
            from = i + 1;
        }
        f.write_str(&s[from..])
    }
}

/// The placed segment a score event names.
fn locate(game: &Game, score: &Score) -> Option<SegId> {
    let t = game.board().tile_at(score.pos)?;
    let kind = game.tile_kind(t.kind);
    let seg = kind.segment_at(t.rotation, score.feature, Some(score.location))?;
    Some(t.first_segment + seg as SegId)
}

/// Owners of every feature: open features by their current majority, completed ones by who
/// scored them (their meeples have gone home).
fn owners(game: &Game, history: &[Score]) -> HashMap<SegId, Owner> {
    let features = game.features();
    let mut out = HashMap::new();
    for s in 0..features.len() as SegId {
        if features.meeple_on(s).is_none() {
            continue;
        }
        let root = features.root(s);
        out.entry(root).or_insert_with(|| Owner {
            players: majority(&features.count_meeples(root)),
            completed: false,
        });
    }
    for score in history.iter().filter(|s| s.reason == Reason::Completed) {
        if let Some(gid) = locate(game, score) {
            out.insert(
                features.root(gid),
                Owner {
                    players: score.players,
                    completed: true,
                },
            );
        }
    }
    out
}

/// Score events of a list of events.
pub fn scores<'e>(events: impl IntoIterator<Item = &'e Event>) -> impl Iterator<Item = Score> {
    events.into_iter().filter_map(|e| match e {
        Event::Scored(s) => Some(*s),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player's name or a note goes into an attribute or a text node whatever it holds: the
    /// five XML specials are escaped, a control character (a note's line break) becomes a
    /// space, a tab and every other letter stay as they are.
    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(
            xml_escape("Ann & Bob <3 \"it's\"\tdone\nnow: é…").to_string(),
            "Ann &amp; Bob &lt;3 &quot;it&apos;s&quot;\tdone now: é…"
        );
        assert_eq!(xml_escape("plain").to_string(), "plain");
        assert_eq!(xml_escape("").to_string(), "");
    }
}

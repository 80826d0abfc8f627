//! Tile art computed from segment data, never drawn per letter, so every built-in tile in every
//! rotation and a record's custom tiles all come out of the same few rules:
//!
//! - A city is the polygon over its sides. Where it leaves the tile's edge (a gap between its
//!   sides) a curved wall closes it: a shallow cap over one side, a diagonal across two, a lens
//!   across a one-side gap.
//! - Roads and rivers are centre lines: straight through, a bend between neighbouring sides, or
//!   a spoke to the centre (where a junction, cloister or pool sits) or to the wall they run into.
//! - Fields are the faces the walls, roads and rivers cut out of the square: a small planar
//!   graph whose faces are traced from each field's half-edges. Field art, field ownership and
//!   farmers' places all come from these faces.
//! - Cloisters, gardens, shields and figures go where there is room, found by measuring
//!   clearance on a grid.
//!
//! The art is computed once per distinct segment list and cached.

use super::shapes::{
    CENTRE, Curve, Pt, TILE, centroid, closed_path, dist_to_curve, dist_to_outline, inside, num, open_path, polygon, pt,
};
use crate::engine::tile::Segment;
use crate::engine::{FeatureKind, TileKind};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// Half widths of the strokes, in art units: clearance is measured from their edges.
pub const ROAD_WIDTH: f32 = 12.0;
pub const RIVER_WIDTH: f32 = 18.0;
pub const WALL_WIDTH: f32 = 6.0;

/// The drawing of one segment, in the tile's canonical orientation.
#[derive(Clone, Debug)]
pub struct SegmentArt {
    pub kind: FeatureKind,
    /// Cities and fields: the filled area. Roads and rivers: the centre line, to be stroked.
    pub path: String,
    /// The shape a page lights when it is pointed at, as curves: an area's faces (each closed),
    /// a line's pieces (each open); none for cloisters and gardens, which are circles.
    pub outline: Vec<Vec<Curve>>,
    /// Cities: the walls where the city leaves the tile's edge.
    pub walls: String,
    pub shield: Option<Pt>,
    /// Fields: points of a lattice dividing the tile (12.5 units apart) that lie in the open
    /// part of the field; an owned field is dotted there in its owner's colour.
    pub dots: Vec<Pt>,
    /// Fields: `dots` as one path of small diamonds.
    pub dots_path: String,
    /// Fields: the same without the dots under a farmer lying at `anchor`, so a farmer never
    /// merges with its owner's dots.
    pub farmer_dots_path: String,
    /// Cloisters and gardens: their size (the building's width, the garden's diameter).
    pub size: f32,
    /// Where a figure stands on this segment (cloisters and gardens: their centre).
    pub anchor: Pt,
    /// New World's marks drawn on this segment: a trail's trading posts, the animals on
    /// plains (a town's flags are drawn as `shield`).
    pub marks: Vec<Pt>,
}

/// Something drawn on a tile that belongs to no segment.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoration {
    /// Where three or more roads end.
    Junction(Pt),
    /// A road that just stops (custom tiles).
    RoadEnd(Pt),
    /// Where a river rises or ends.
    Pool(Pt),
    /// A road over a river: the road's centre line across it.
    Bridge(String),
}

#[derive(Clone, Debug)]
pub struct TileArt {
    pub segments: Vec<SegmentArt>,
    pub decorations: Vec<Decoration>,
    /// Field segments whose face also holds another field's half-edge: the drawing cannot
    /// separate them. Empty for every built-in tile (a test checks; nothing else reads it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub merged_fields: Vec<u8>,
}

type Cache = Mutex<HashMap<Vec<Segment>, Arc<TileArt>>>;
static CACHE: LazyLock<Cache> = LazyLock::new(|| Mutex::new(HashMap::new()));
/// Records may bring custom tiles; bound the cache so a stream of uploads cannot grow it forever.
const CACHE_LIMIT: usize = 512;

/// The art of a tile kind, computed on first use.
pub fn art(kind: &TileKind) -> Arc<TileArt> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(a) = cache.get(&kind.segments) {
        return Arc::clone(a);
    }
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    let drawn: Vec<Segment> = kind.segments.iter().map(drawn_as).collect();
    let mut art = Layout::new(&drawn).art();
    // A farm is laid out like a cloister but keeps its own icon.
    for (a, s) in art.segments.iter_mut().zip(&kind.segments) {
        if s.kind == FeatureKind::Farm {
            a.kind = FeatureKind::Farm;
        }
        a.marks = mark_spots(a, s);
    }
    let a = Arc::new(art);
    cache.insert(kind.segments.clone(), Arc::clone(&a));
    a
}

/// New World's towns, trails and plains are drawn as cities, roads and fields (a town's
/// flags where a city's shields go), and its farms are laid out like cloisters.
fn drawn_as(s: &Segment) -> Segment {
    let kind = match s.kind {
        FeatureKind::Town => FeatureKind::City,
        FeatureKind::Trail => FeatureKind::Road,
        FeatureKind::Plains => FeatureKind::Field,
        FeatureKind::Farm => FeatureKind::Cloister,
        k => k,
    };
    let marks = if kind == FeatureKind::City { s.marks } else { 0 };
    Segment { kind, marks, ..*s }
}

/// Where a trail's trading posts and the animals on plains are drawn: posts along the way from
/// the figure's place to the middle, animals spread over the open part of the plains, clear
/// of the figure.
fn mark_spots(art: &SegmentArt, s: &Segment) -> Vec<Pt> {
    let n = usize::from(s.marks);
    match s.kind {
        FeatureKind::Trail => (1..=n)
            .map(|k| art.anchor.lerp(CENTRE, 0.8 * k as f32 / (n as f32 + 0.5)))
            .collect(),
        FeatureKind::Plains => {
            let clear: Vec<Pt> = art.dots.iter().copied().filter(|p| p.dist(art.anchor) > 16.0).collect();
            (1..=n)
                .filter_map(|k| clear.get(k * clear.len() / (n + 1)).copied())
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Forgets every computed tile art, so a benchmark can measure a cold start.
pub fn clear_cache() {
    CACHE.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

// ----- the square's landmarks -----

/// Corners clockwise from the north-west; side `s` runs from `corner(s)` to `corner(s + 1)`.
fn corner(i: u8) -> Pt {
    [pt(0.0, 0.0), pt(TILE, 0.0), pt(TILE, TILE), pt(0.0, TILE)][(i & 3) as usize]
}

fn mid(side: u8) -> Pt {
    corner(side).lerp(corner(side + 1), 0.5)
}

fn inward(side: u8) -> Pt {
    [pt(0.0, 1.0), pt(-1.0, 0.0), pt(0.0, -1.0), pt(1.0, 0.0)][(side & 3) as usize]
}

/// Half-edge `h` as a perimeter piece, clockwise.
fn half_edge(h: u8) -> Curve {
    let s = h / 2;
    if h.is_multiple_of(2) {
        Curve::line(corner(s), mid(s))
    } else {
        Curve::line(mid(s), corner(s + 1))
    }
}

fn sides_of(mask: u8) -> impl Iterator<Item = u8> {
    (0..4u8).filter(move |s| mask & (1 << s) != 0)
}

/// The clockwise runs of a side mask that is neither empty nor full: `(first side, length)` of
/// each run, with the gap after it.
fn runs(mask: u8) -> Vec<(u8, u8, u8)> {
    let has = |s: u8| mask & (1 << (s & 3)) != 0;
    let Some(start) = (0..4u8).find(|&s| has(s) && !has(s + 3)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut s = start;
    loop {
        let run = (0..4).take_while(|i| has(s + i)).count() as u8;
        let gap = (0..4).take_while(|i| !has(s + run + i)).count() as u8;
        out.push((s & 3, run, gap));
        s = (s + run + gap) & 3;
        if s == start {
            return out;
        }
    }
}

// ----- the layout of one tile kind -----

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Perimeter,
    Wall,
    Road,
    River,
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    a: usize,
    b: usize,
    curve: Curve,
    role: Role,
}

struct Layout<'a> {
    segs: &'a [Segment],
    /// The field segment on each half-edge.
    half_field: [Option<u8>; 8],
    /// City wall curves, per city segment index.
    walls: HashMap<u8, Vec<Curve>>,
    /// Road and river centre lines, per segment index.
    lines: HashMap<u8, Vec<Curve>>,
    /// Where each dead-end road or river stops.
    dead_ends: Vec<(u8, Pt)>,
    verts: Vec<Pt>,
    edges: Vec<Edge>,
}

impl<'a> Layout<'a> {
    fn new(segs: &'a [Segment]) -> Layout<'a> {
        let mut half_field = [None; 8];
        for (i, s) in segs.iter().enumerate() {
            if s.kind == FeatureKind::Field {
                for (h, slot) in half_field.iter_mut().enumerate() {
                    if s.halves & (1 << h) != 0 {
                        *slot = Some(i as u8);
                    }
                }
            }
        }
        let mut l = Layout {
            segs,
            half_field,
            walls: HashMap::new(),
            lines: HashMap::new(),
            dead_ends: Vec::new(),
            verts: Vec::new(),
            edges: Vec::new(),
        };
        l.build_walls();
        l.build_lines();
        l.build_graph();
        l
    }

    fn indexed(&self, kind: FeatureKind) -> impl Iterator<Item = (u8, &'a Segment)> + '_ {
        self.segs
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.kind == kind)
            .map(|(i, s)| (i as u8, s))
    }

    /// Is `side` the only side of a road or river (a dead end)?
    fn dead_end_on(&self, side: u8) -> bool {
        self.segs
            .iter()
            .any(|s| matches!(s.kind, FeatureKind::Road | FeatureKind::River) && s.sides == 1 << side)
    }

    fn build_walls(&mut self) {
        let cities: Vec<_> = self.indexed(FeatureKind::City).collect();
        for (i, city) in cities {
            let mut curves = Vec::new();
            for (start, run, gap) in runs(city.sides & 0xf) {
                curves.extend(self.wall((start + run) & 3, gap));
            }
            self.walls.insert(i, curves);
        }
    }

    /// The wall across a gap of `len` sides starting at side `gap`.
    fn wall(&self, gap: u8, len: u8) -> Vec<Curve> {
        let (x, y) = (corner(gap), corner(gap + len));
        let first = self.half_field[(2 * gap as usize) % 8];
        let last = self.half_field[(2 * (gap + len - 1) as usize + 1) % 8];
        // Different fields at the two ends of the gap: the wall must reach the middle to keep
        // them apart (the River's city above a river, tile B).
        let deep = len >= 2 && first.is_some() && last.is_some() && first != last;
        match (len, deep) {
            (1, _) => {
                let c = Curve::quad(x, CENTRE, y);
                if self.dead_end_on(gap) {
                    let (a, b) = c.halves();
                    vec![a, b]
                } else {
                    vec![c]
                }
            }
            (2, false) => vec![Curve::quad(x, CENTRE.lerp(corner(gap + 1), 0.25), y)],
            (2, true) => vec![Curve::line(x, CENTRE), Curve::line(CENTRE, y)],
            (_, false) => {
                let side = gap + len;
                vec![Curve::quad(x, mid(side).plus(inward(side).scale(44.0)), y)]
            }
            (_, true) => {
                let side = gap + len;
                let along = x.minus(y).scale(1.0 / TILE);
                let up = inward(side).scale(-10.0);
                vec![
                    Curve::quad(x, CENTRE.plus(along.scale(35.0)).plus(up), CENTRE),
                    Curve::quad(CENTRE, CENTRE.minus(along.scale(35.0)).plus(up), y),
                ]
            }
        }
    }

    /// Where a dead end from `side` stops: on a lens wall across that side, else the centre.
    fn dead_end_stop(&self, side: u8) -> Pt {
        let target = mid(side).lerp(CENTRE, 0.5);
        self.walls
            .values()
            .flatten()
            .flat_map(|c| [c.from, c.to])
            .find(|p| p.dist(target) < 0.01)
            .unwrap_or(CENTRE)
    }

    fn build_lines(&mut self) {
        let paths: Vec<_> = self
            .segs
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, FeatureKind::Road | FeatureKind::River))
            .map(|(i, s)| (i as u8, s.sides & 0xf))
            .collect();
        for (i, mask) in paths {
            let sides: Vec<u8> = sides_of(mask).collect();
            let curves = match sides[..] {
                [s] => {
                    let stop = self.dead_end_stop(s);
                    self.dead_ends.push((i, stop));
                    vec![Curve::line(mid(s), stop)]
                }
                [a, b] if b == a + 2 => vec![Curve::line(mid(a), CENTRE), Curve::line(CENTRE, mid(b))],
                [a, b] => {
                    // Neighbouring sides: bend from the earlier to the later side clockwise.
                    let (a, b) = if b == a + 1 { (a, b) } else { (b, a) };
                    vec![Curve::quad(mid(a), CENTRE, mid(b))]
                }
                _ => sides.iter().map(|&s| Curve::line(mid(s), CENTRE)).collect(),
            };
            self.lines.insert(i, curves);
        }
    }

    fn vertex(&mut self, p: Pt) -> usize {
        if let Some(i) = self.verts.iter().position(|v| v.dist(p) < 0.01) {
            return i;
        }
        self.verts.push(p);
        self.verts.len() - 1
    }

    fn add_edge(&mut self, curve: Curve, role: Role) {
        let a = self.vertex(curve.from);
        let b = self.vertex(curve.to);
        self.edges.push(Edge { a, b, curve, role });
    }

    fn build_graph(&mut self) {
        for h in 0..8 {
            self.add_edge(half_edge(h), Role::Perimeter);
        }
        let mut keys: Vec<u8> = self.walls.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            for c in self.walls[&k].clone() {
                self.add_edge(c, Role::Wall);
            }
        }
        let mut keys: Vec<u8> = self.lines.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let role = if self.segs[k as usize].kind == FeatureKind::River {
                Role::River
            } else {
                Role::Road
            };
            for c in self.lines[&k].clone() {
                self.add_edge(c, role);
            }
        }
    }

    /// The face on the right of perimeter half-edge `h` (the tile's inside), as curves.
    /// `None` if tracing does not close, which only odd custom tiles can cause.
    fn face(&self, h: usize) -> Option<(Vec<Curve>, Vec<u8>)> {
        let mut out = Vec::new();
        let mut halves = Vec::new();
        let (mut e, mut forward) = (h, true);
        for _ in 0..4 * self.edges.len() {
            let edge = &self.edges[e];
            out.push(if forward { edge.curve } else { edge.curve.reversed() });
            if edge.role == Role::Perimeter {
                halves.push(e as u8);
            }
            (e, forward) = self.turn(e, forward);
            if (e, forward) == (h, true) {
                return Some((out, halves));
            }
        }
        None
    }

    /// At the end of directed edge `e`, the next edge keeping the face on the right: the first
    /// one met sweeping anticlockwise from the way back.
    fn turn(&self, e: usize, forward: bool) -> (usize, bool) {
        let edge = &self.edges[e];
        let (v, back) = if forward {
            (edge.b, edge.curve.reversed())
        } else {
            (edge.a, edge.curve)
        };
        let back_angle = back.leaving_angle();
        let mut best: Option<(f32, usize, bool)> = None;
        for (i, other) in self.edges.iter().enumerate() {
            for (fwd, start) in [(true, other.a), (false, other.b)] {
                if start != v || (i == e && fwd != forward) {
                    continue;
                }
                let c = if fwd { other.curve } else { other.curve.reversed() };
                // Angles just below the way back come first; wrap past zero.
                let mut key = back_angle - c.leaving_angle();
                if key <= 1e-4 {
                    key += std::f32::consts::TAU;
                }
                if best.is_none_or(|(k, _, _)| key < k) {
                    best = Some((key, i, fwd));
                }
            }
        }
        // A dead end has nothing else: go back the way we came.
        best.map_or((e, !forward), |(_, i, fwd)| (i, fwd))
    }

    /// Every face of field `seg`, and whether any of them also holds another field.
    fn field_faces(&self, seg: u8, visited: &mut [bool; 8]) -> (Vec<Vec<Curve>>, bool) {
        let mut faces = Vec::new();
        let mut merged = false;
        for h in 0..8 {
            if self.half_field[h] != Some(seg) || visited[h] {
                continue;
            }
            let Some((face, halves)) = self.face(h) else {
                faces.push(vec![half_edge(h as u8)]);
                continue;
            };
            for &x in &halves {
                visited[x as usize] = true;
                merged |= self.half_field[x as usize] != Some(seg);
            }
            faces.push(face);
        }
        (faces, merged)
    }

    fn city_outline(&self, i: u8, mask: u8) -> Vec<Curve> {
        if mask & 0xf == 0xf {
            return (0..4).map(|s| Curve::line(corner(s), corner(s + 1))).collect();
        }
        let walls = &self.walls[&i];
        let mut out = Vec::new();
        let mut w = walls.iter();
        for (start, run, gap) in runs(mask & 0xf) {
            out.extend((start..start + run).map(|s| Curve::line(corner(s), corner(s + 1))));
            // Each gap has one wall curve, or two when split at its middle.
            let end = corner(start + run + gap);
            for c in w.by_ref() {
                out.push(*c);
                if c.to.dist(end) < 0.01 {
                    break;
                }
            }
        }
        out
    }

    fn art(&self) -> TileArt {
        let mut room = Room::new(self);
        let mut segments = Vec::with_capacity(self.segs.len());
        let mut visited = [false; 8];
        let mut merged_fields = Vec::new();
        let inner = self.place_inner(&mut room);
        let mut decorations = self.decorations(&inner);
        for (i, s) in self.segs.iter().enumerate() {
            let i = i as u8;
            let art = match s.kind {
                FeatureKind::City | FeatureKind::Town => self.city_art(i, s, &room),
                FeatureKind::Road | FeatureKind::River | FeatureKind::Trail => self.line_art(i, s),
                FeatureKind::Field | FeatureKind::Plains => {
                    let (faces, merged) = self.field_faces(i, &mut visited);
                    if merged {
                        merged_fields.push(i);
                    }
                    field_art(&faces, &room)
                }
                FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm | FeatureKind::Crossing => {
                    let (at, size) = inner
                        .iter()
                        .find(|(j, _, _)| *j == i)
                        .map_or((CENTRE, 20.0), |x| (x.1, x.2));
                    SegmentArt {
                        kind: s.kind,
                        path: String::new(),
                        outline: Vec::new(),
                        walls: String::new(),
                        shield: None,
                        dots: Vec::new(),
                        dots_path: String::new(),
                        farmer_dots_path: String::new(),
                        size,
                        anchor: at,
                        marks: Vec::new(),
                    }
                }
            };
            segments.push(art);
        }
        decorations.extend(self.bridges());
        TileArt {
            segments,
            decorations,
            merged_fields,
        }
    }

    /// Is something other than a dead end drawn through the centre?
    fn centre_busy(&self) -> bool {
        let through = self
            .lines
            .values()
            .any(|c| c.len() >= 2 && c.iter().any(|c| c.to == CENTRE));
        let walls = self.walls.values().flatten().any(|c| c.to == CENTRE);
        through || walls
    }

    /// Cloisters and gardens: (segment, centre, size). A cloister takes the centre when it is
    /// free, else the end of the road leading to it; a garden takes the roomiest spot.
    fn place_inner(&self, room: &mut Room) -> Vec<(u8, Pt, f32)> {
        let mut out = Vec::new();
        for (i, _) in self.indexed(FeatureKind::Cloister) {
            let road_end = self.dead_ends.iter().find(|(_, stop)| *stop == CENTRE).map(|(j, _)| *j);
            let (at, size) = if !self.centre_busy() {
                (CENTRE, 34.0)
            } else if let Some(j) = road_end {
                (self.lines[&j][0].from.lerp(CENTRE, 0.5), 26.0)
            } else {
                let (p, clear) = room.roomiest(|_| true);
                (p, (2.0 * clear).clamp(16.0, 30.0))
            };
            room.blockers.push((at, size * 0.6));
            out.push((i, at, size));
        }
        for (i, _) in self.indexed(FeatureKind::Garden) {
            let (at, clear) = room.roomiest(|_| true);
            let size = (2.0 * clear - 4.0).clamp(14.0, 26.0);
            room.blockers.push((at, size * 0.5));
            out.push((i, at, size));
        }
        out
    }

    fn decorations(&self, inner: &[(u8, Pt, f32)]) -> Vec<Decoration> {
        let mut out = Vec::new();
        let covered = |p: Pt| inner.iter().any(|(_, at, _)| *at == p);
        let road_ends: Vec<Pt> = self
            .dead_ends
            .iter()
            .filter(|(i, stop)| self.segs[*i as usize].kind == FeatureKind::Road && *stop == CENTRE)
            .map(|(_, stop)| *stop)
            .collect();
        let river_meets_centre = self.lines.iter().any(|(i, c)| {
            self.segs[*i as usize].kind == FeatureKind::River && c.iter().any(|c| c.to == CENTRE || c.from == CENTRE)
        });
        if !covered(CENTRE) && !river_meets_centre {
            match road_ends.len() {
                0 => {}
                1 | 2 => out.push(Decoration::RoadEnd(CENTRE)),
                _ => out.push(Decoration::Junction(CENTRE)),
            }
        }
        for (i, stop) in &self.dead_ends {
            if self.segs[*i as usize].kind == FeatureKind::River {
                out.push(Decoration::Pool(*stop));
            }
        }
        out
    }

    /// A straight road crossing a straight river at the centre goes over it on a bridge.
    fn bridges(&self) -> Vec<Decoration> {
        let straight = |kind: FeatureKind| {
            self.segs
                .iter()
                .enumerate()
                .filter(move |(_, s)| s.kind == kind && (s.sides == 0b0101 || s.sides == 0b1010))
                .map(|(i, s)| (i, s.sides))
        };
        let mut out = Vec::new();
        for (_, road) in straight(FeatureKind::Road) {
            if straight(FeatureKind::River).any(|(_, river)| river != road) {
                let side = road.trailing_zeros() as u8;
                let a = CENTRE.lerp(mid(side), 0.32);
                let b = CENTRE.lerp(mid(side + 2), 0.32);
                out.push(Decoration::Bridge(open_path(&[Curve::line(a, b)])));
            }
        }
        out
    }

    fn city_art(&self, i: u8, s: &Segment, room: &Room) -> SegmentArt {
        let outline = self.city_outline(i, s.sides);
        let poly = polygon(&outline);
        let mut anchor = centroid(&poly);
        if !inside(&poly, anchor) {
            anchor = room.best_inside(&poly, |p| dist_to_outline(&poly, p));
        }
        let shield = (s.marks > 0).then(|| self.shield_spot(i, &poly, anchor, room));
        let walls = self.walls[&i]
            .iter()
            .map(|c| open_path(&[trim_at_corners(*c)]))
            .collect::<String>();
        SegmentArt {
            kind: s.kind,
            path: closed_path(&outline),
            outline: vec![outline],
            walls,
            shield,
            dots: Vec::new(),
            dots_path: String::new(),
            farmer_dots_path: String::new(),
            size: 0.0,
            anchor,
            marks: Vec::new(),
        }
    }

    /// A shield goes inside its city, clear of the walls and of the figure's place, and fully
    /// on the tile.
    fn shield_spot(&self, i: u8, poly: &[Pt], anchor: Pt, room: &Room) -> Pt {
        let walls = &self.walls[&i];
        room.best_inside(poly, |p| {
            let edge = p.x.min(p.y).min(TILE - p.x).min(TILE - p.y);
            let wall = walls.iter().map(|c| dist_to_curve(*c, p)).fold(f32::INFINITY, f32::min);
            let penalty = if edge < 11.0 { 100.0 } else { 0.0 };
            wall.min(22.0) + 0.3 * p.dist(anchor).min(40.0) - penalty
        })
    }

    fn line_art(&self, i: u8, s: &Segment) -> SegmentArt {
        let curves = &self.lines[&i];
        // A straight road is drawn as one line, so its two halves join without a seam.
        let pieces: Vec<Vec<Curve>> =
            if curves.len() == 2 && curves[0].to == CENTRE && curves[1].from == CENTRE && s.sides.count_ones() == 2 {
                vec![vec![Curve::line(curves[0].from, curves[1].to)]]
            } else {
                curves.iter().map(|c| vec![*c]).collect()
            };
        let path = pieces.iter().map(|piece| open_path(piece)).collect();
        let crossing = self.lines.len() > 1 && self.lines.iter().filter(|(_, c)| c.len() == 2).count() > 1;
        let anchor = match curves[..] {
            [c] if s.sides.count_ones() == 1 => c.at(0.4),
            [c] => c.at(0.5),
            [a, _] if crossing => a.at(0.45),
            _ => CENTRE,
        };
        SegmentArt {
            kind: s.kind,
            path,
            outline: pieces,
            walls: String::new(),
            shield: None,
            dots: Vec::new(),
            dots_path: String::new(),
            farmer_dots_path: String::new(),
            size: 0.0,
            anchor,
            marks: Vec::new(),
        }
    }
}

/// A wall shortened where it meets a tile corner, so the square end of its stroke stays inside
/// the tile instead of poking into the neighbour's square.
fn trim_at_corners(c: Curve) -> Curve {
    let is_corner = |p: Pt| (p.x == 0.0 || p.x == TILE) && (p.y == 0.0 || p.y == TILE);
    // How far along the wall its end clears both tile edges, from the angle it leaves at.
    let trim = |angle: f32| {
        let (dx, dy) = (angle.cos().abs().max(0.05), angle.sin().abs().max(0.05));
        (WALL_WIDTH / 2.0 * (dx / dy).max(dy / dx)).min(8.0)
    };
    let len = c.from.dist(c.to).max(1.0);
    let t0 = if is_corner(c.from) {
        trim(c.leaving_angle()) / len
    } else {
        0.0
    };
    let t1 = if is_corner(c.to) {
        1.0 - trim(c.reversed().leaving_angle()) / len
    } else {
        1.0
    };
    c.between(t0, t1)
}

fn field_art(faces: &[Vec<Curve>], room: &Room) -> SegmentArt {
    let polys: Vec<Vec<Pt>> = faces.iter().map(|f| polygon(f)).collect();
    let area = |p: &Vec<Pt>| {
        let n = p.len();
        (0..n)
            .map(|i| p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y)
            .sum::<f32>()
            .abs()
    };
    let biggest = polys.iter().max_by(|a, b| area(a).total_cmp(&area(b)));
    let anchor = biggest.map_or(CENTRE, |poly| {
        let c = centroid(poly);
        room.best_inside(poly, |p| room.clearance(p) - 0.15 * p.dist(c))
    });
    let dots: Vec<Pt> = (0..8)
        .flat_map(|j| (0..8).map(move |i| pt(DOT_STEP * (i as f32 + 0.5), DOT_STEP * (j as f32 + 0.5))))
        .filter(|p| polys.iter().any(|poly| inside(poly, *p)) && room.clearance(*p) > DOT_RADIUS)
        .collect();
    SegmentArt {
        kind: FeatureKind::Field,
        path: faces.iter().map(|f| closed_path(f)).collect(),
        outline: faces.to_vec(),
        walls: String::new(),
        shield: None,
        dots_path: dots_path(&dots),
        farmer_dots_path: dots_path(&clear_of(&dots, anchor)),
        dots,
        size: 0.0,
        anchor,
        marks: Vec::new(),
    }
}

/// How far from a farmer's place its field's dots keep: a lying farmer drawn at 1.2 times its
/// 24 units reaches 14.4 from its centre, and a dot 3.6 further.
pub const FARMER_CLEARING: f32 = 18.0;

/// The dots not under a farmer at `anchor`.
pub fn clear_of(dots: &[Pt], anchor: Pt) -> Vec<Pt> {
    dots.iter()
        .copied()
        .filter(|d| d.dist(anchor) > FARMER_CLEARING)
        .collect()
}

/// Spacing of the ownership dots in fields: 8 to a tile, so the lattice is the same on every
/// tile whatever its rotation.
pub const DOT_STEP: f32 = 12.5;
const DOT_RADIUS: f32 = 3.6;

/// Small diamonds at `dots`, as one path: solid fills are far cheaper to rasterise than an SVG
/// pattern, which resvg samples bicubically.
pub fn dots_path(dots: &[Pt]) -> String {
    use std::fmt::Write as _;
    let mut d = String::new();
    let r = DOT_RADIUS;
    for p in dots {
        let _ = write!(d, "M{} {}l{r} {r}l-{r} {r}l-{r}-{r}Z", num(p.x), num(p.y - r));
    }
    d
}

/// Measures free room on a tile, for placing gardens, shields and figures.
struct Room {
    /// (curve, half width) of every wall, road and river.
    strokes: Vec<(Curve, f32)>,
    cities: Vec<Vec<Pt>>,
    /// Round things already placed: (centre, radius).
    blockers: Vec<(Pt, f32)>,
}

/// Candidate spots: a grid with a 5-unit step, off the very edge.
fn grid() -> impl Iterator<Item = Pt> {
    (1..20).flat_map(|j| (1..20).map(move |i| pt(i as f32 * 5.0, j as f32 * 5.0)))
}

impl Room {
    fn new(l: &Layout) -> Room {
        let strokes = l
            .edges
            .iter()
            .filter_map(|e| match e.role {
                Role::Perimeter => None,
                Role::Wall => Some((e.curve, WALL_WIDTH / 2.0)),
                Role::Road => Some((e.curve, ROAD_WIDTH / 2.0)),
                Role::River => Some((e.curve, RIVER_WIDTH / 2.0)),
            })
            .collect();
        let cities = l
            .indexed(FeatureKind::City)
            .map(|(i, s)| polygon(&l.city_outline(i, s.sides)))
            .collect();
        Room {
            strokes,
            cities,
            blockers: Vec::new(),
        }
    }

    /// Distance from `p` to the nearest drawn thing or the tile's edge; negative inside a city.
    fn clearance(&self, p: Pt) -> f32 {
        let edge = p.x.min(p.y).min(TILE - p.x).min(TILE - p.y);
        let strokes = self.strokes.iter().map(|(c, w)| dist_to_curve(*c, p) - w);
        let blockers = self.blockers.iter().map(|(c, r)| c.dist(p) - r);
        let cities = self.cities.iter().map(|poly| {
            if inside(poly, p) {
                -1.0
            } else {
                dist_to_outline(poly, p)
            }
        });
        strokes.chain(blockers).chain(cities).fold(edge, f32::min)
    }

    /// The roomiest grid spot that passes `keep`, and its clearance. Ties go to the first spot
    /// in grid order, so the choice is deterministic.
    fn roomiest(&self, keep: impl Fn(Pt) -> bool) -> (Pt, f32) {
        let mut best = (CENTRE, f32::NEG_INFINITY);
        for p in grid().filter(|p| keep(*p)) {
            let c = self.clearance(p);
            if c > best.1 {
                best = (p, c);
            }
        }
        best
    }

    /// The grid spot inside `poly` with the highest score (the polygon's first point if the
    /// grid misses it entirely).
    fn best_inside(&self, poly: &[Pt], score: impl Fn(Pt) -> f32) -> Pt {
        let mut best: Option<(Pt, f32)> = None;
        for p in grid().filter(|p| inside(poly, *p)) {
            let s = score(p);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((p, s));
            }
        }
        best.map_or_else(|| centroid(poly), |(p, _)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TileCatalog;

    #[test]
    fn runs_split_a_mask_into_runs_and_gaps() {
        assert_eq!(runs(0b0001), vec![(0, 1, 3)]);
        assert_eq!(runs(0b1011), vec![(3, 3, 1)]);
        assert_eq!(runs(0b1010), vec![(1, 1, 1), (3, 1, 1)]);
        assert_eq!(runs(0b1111), vec![]);
    }

    #[test]
    fn every_built_in_field_is_a_face_of_its_own() {
        let cat = TileCatalog::builtin();
        for id in cat.ids() {
            let kind = cat.get(id);
            let art = art(kind);
            assert!(
                art.merged_fields.is_empty(),
                "tile {}: fields {:?} share a face",
                kind.name,
                art.merged_fields
            );
            for (i, s) in kind.segments.iter().enumerate() {
                if s.kind == FeatureKind::Field {
                    assert!(
                        art.segments[i].path.matches('M').count() >= 1,
                        "tile {} field {i}",
                        kind.name
                    );
                }
            }
        }
    }

    #[test]
    fn figures_stand_on_their_own_segment() {
        let cat = TileCatalog::builtin();
        for id in cat.ids() {
            let kind = cat.get(id);
            let art = art(kind);
            let layout = Layout::new(&kind.segments);
            for (i, s) in kind.segments.iter().enumerate() {
                let anchor = art.segments[i].anchor;
                let ok = match s.kind {
                    FeatureKind::City => inside(&polygon(&layout.city_outline(i as u8, s.sides)), anchor),
                    FeatureKind::Field => {
                        let room = Room::new(&layout);
                        room.clearance(anchor) > 0.0
                    }
                    _ => true,
                };
                assert!(ok, "tile {} segment {i} ({}) anchor {anchor:?}", kind.name, s.kind);
            }
        }
    }

    #[test]
    fn the_river_city_reaches_the_river() {
        let cat = TileCatalog::builtin();
        let b = art(cat.get(cat.by_name("river-B").unwrap()));
        assert!(b.segments[0].path.contains("50 50"), "{}", b.segments[0].path);
    }
}

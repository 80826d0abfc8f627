//! Plane geometry for tile art: points, the straight and quadratic curves tile shapes are made
//! of, SVG path text, and the distance and inside tests used to place figures.
//!
//! Tile art lives in a 100 × 100 square, y down, in the tile's canonical orientation.

use std::fmt::Write as _;

/// Side length of a tile in art units.
pub const TILE: f32 = 100.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

pub const fn pt(x: f32, y: f32) -> Pt {
    Pt { x, y }
}

pub const CENTRE: Pt = pt(50.0, 50.0);

impl Pt {
    pub fn plus(self, o: Pt) -> Pt {
        pt(self.x + o.x, self.y + o.y)
    }

    pub fn minus(self, o: Pt) -> Pt {
        pt(self.x - o.x, self.y - o.y)
    }

    pub fn scale(self, k: f32) -> Pt {
        pt(self.x * k, self.y * k)
    }

    pub fn lerp(self, o: Pt, t: f32) -> Pt {
        self.plus(o.minus(self).scale(t))
    }

    pub fn len(self) -> f32 {
        self.x.hypot(self.y)
    }

    pub fn dist(self, o: Pt) -> f32 {
        self.minus(o).len()
    }

    /// Screen angle in [0, 2π): 0 points east and angles grow clockwise (y is down).
    pub fn angle(self) -> f32 {
        let a = self.y.atan2(self.x);
        if a < 0.0 { a + std::f32::consts::TAU } else { a }
    }

    /// This point after `quarter_turns` clockwise quarter turns of the tile about its centre.
    pub fn rotate(self, quarter_turns: u8) -> Pt {
        match quarter_turns & 3 {
            0 => self,
            1 => pt(TILE - self.y, self.x),
            2 => pt(TILE - self.x, TILE - self.y),
            _ => pt(self.y, TILE - self.x),
        }
    }
}

/// A straight line (`ctrl` is `None`) or a quadratic Bézier curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub from: Pt,
    pub ctrl: Option<Pt>,
    pub to: Pt,
}

impl Curve {
    pub fn line(from: Pt, to: Pt) -> Curve {
        Curve { from, ctrl: None, to }
    }

    pub fn quad(from: Pt, ctrl: Pt, to: Pt) -> Curve {
        Curve {
            from,
            ctrl: Some(ctrl),
            to,
        }
    }

    /// The curve on a tile turned `quarter_turns` whose corner is at `corner`.
    pub fn placed(self, quarter_turns: u8, corner: Pt) -> Curve {
        let place = |p: Pt| p.rotate(quarter_turns).plus(corner);
        Curve {
            from: place(self.from),
            ctrl: self.ctrl.map(place),
            to: place(self.to),
        }
    }

    pub fn reversed(self) -> Curve {
        Curve {
            from: self.to,
            ctrl: self.ctrl,
            to: self.from,
        }
    }

    pub fn at(self, t: f32) -> Pt {
        match self.ctrl {
            None => self.from.lerp(self.to, t),
            Some(c) => self.from.lerp(c, t).lerp(c.lerp(self.to, t), t),
        }
    }

    /// The two halves at t = ½ (de Casteljau).
    pub fn halves(self) -> (Curve, Curve) {
        let m = self.at(0.5);
        match self.ctrl {
            None => (Curve::line(self.from, m), Curve::line(m, self.to)),
            Some(c) => (
                Curve::quad(self.from, self.from.lerp(c, 0.5), m),
                Curve::quad(m, c.lerp(self.to, 0.5), self.to),
            ),
        }
    }

    /// The part of the curve between parameters `a` and `b`.
    pub fn between(self, a: f32, b: f32) -> Curve {
        let (from, to) = (self.at(a), self.at(b));
        match self.ctrl {
            None => Curve::line(from, to),
            // Blossoming: the control point of the piece [a, b] is B(a, b).
            Some(c) => {
                let q = self
                    .from
                    .scale((1.0 - a) * (1.0 - b))
                    .plus(c.scale((1.0 - a) * b + a * (1.0 - b)))
                    .plus(self.to.scale(a * b));
                Curve::quad(from, q, to)
            }
        }
    }

    /// Direction in which the curve leaves `from`, as a screen angle.
    pub fn leaving_angle(self) -> f32 {
        let toward = match self.ctrl {
            Some(c) if c.dist(self.from) > 1e-3 => c,
            _ => self.to,
        };
        toward.minus(self.from).angle()
    }

    /// Points along the curve, `from` included, `to` excluded.
    pub fn flatten_into(self, out: &mut Vec<Pt>) {
        let steps = if self.ctrl.is_some() { 12 } else { 1 };
        out.extend((0..steps).map(|i| self.at(i as f32 / steps as f32)));
    }

    /// Appends this curve to SVG path data, assuming the pen is at `from`.
    pub fn write_to(self, d: &mut String) {
        match self.ctrl {
            None => {
                let _ = write!(d, "L{} {}", num(self.to.x), num(self.to.y));
            }
            Some(c) => {
                let _ = write!(d, "Q{} {} {} {}", num(c.x), num(c.y), num(self.to.x), num(self.to.y));
            }
        }
    }
}

/// A number for SVG text: two decimals at most, trailing zeros dropped. Formatting the same
/// float always gives the same text, which keeps images byte-for-byte reproducible.
///
/// Written from whole hundredths rather than by float formatting, which a board's thousands of
/// coordinates made a tenth of a turn page's time; the text is the same (a test checks it).
/// It is written straight where it goes ([`Num`]): a string for each of them cost a tenth of
/// the board's drawing again.
pub fn num(v: f32) -> Num {
    Num(v)
}

/// A number as SVG text writes it ([`num`]).
#[derive(Clone, Copy, Debug)]
pub struct Num(f32);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hundredths = (self.0 * 100.0).round();
        if !hundredths.is_finite() || hundredths.abs() >= 1e7 {
            return f.write_str(&num_by_float(self.0));
        }
        let k = hundredths as i64;
        let sign = if k < 0 { "-" } else { "" };
        let (whole, part) = (k.abs() / 100, k.abs() % 100);
        match part {
            0 => write!(f, "{sign}{whole}"),
            p if p % 10 == 0 => write!(f, "{sign}{whole}.{}", p / 10),
            p => write!(f, "{sign}{whole}.{p:02}"),
        }
    }
}

/// [`num`] by float formatting: for what whole hundredths cannot hold exactly.
fn num_by_float(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// SVG path data for a closed chain of curves, each starting where the previous one ends.
pub fn closed_path(curves: &[Curve]) -> String {
    let mut d = String::new();
    if let Some(first) = curves.first() {
        let _ = write!(d, "M{} {}", num(first.from.x), num(first.from.y));
        for c in curves {
            c.write_to(&mut d);
        }
        d.push('Z');
    }
    d
}

/// The same shape as [`closed_path`] (or [`open_path`]), written short for a page to carry:
/// straight runs in one piece (a tile's edge is often two halves), axis-aligned lines as
/// `H`/`V`, and no line back to the start of a closed one, which `Z` draws.
pub fn short_path(curves: &[Curve], closed: bool) -> String {
    let Some(first) = curves.first() else {
        return String::new();
    };
    let mut d = format!("M{} {}", num(first.from.x), num(first.from.y));
    let mut at = first.from;
    for (i, c) in curves.iter().enumerate() {
        let next = curves.get(i + 1);
        match c.ctrl {
            Some(ctrl) => {
                let _ = write!(d, "Q{} {} {} {}", num(ctrl.x), num(ctrl.y), num(c.to.x), num(c.to.y));
                at = c.to;
            }
            None if next.is_some_and(|n| n.ctrl.is_none() && collinear(at, c.to, n.to)) => {}
            None if closed && next.is_none() && c.to == first.from => {}
            None if c.to.y == at.y => {
                let _ = write!(d, "H{}", num(c.to.x));
                at = c.to;
            }
            None if c.to.x == at.x => {
                let _ = write!(d, "V{}", num(c.to.y));
                at = c.to;
            }
            None => {
                let _ = write!(d, "L{} {}", num(c.to.x), num(c.to.y));
                at = c.to;
            }
        }
    }
    if closed {
        d.push('Z');
    }
    d
}

/// Whether `b` lies on the way from `a` to `c`, so a line from `a` through `b` to `c` is one.
fn collinear(a: Pt, b: Pt, c: Pt) -> bool {
    let (u, v) = (b.minus(a), c.minus(b));
    (u.x * v.y - u.y * v.x).abs() < 1e-3 && u.x * v.x + u.y * v.y > 0.0
}

/// SVG path data for an open chain of curves.
pub fn open_path(curves: &[Curve]) -> String {
    let mut d = closed_path(curves);
    d.pop();
    d
}

/// The polygon a chain of curves encloses, flattened.
pub fn polygon(curves: &[Curve]) -> Vec<Pt> {
    let mut out = Vec::new();
    for c in curves {
        c.flatten_into(&mut out);
    }
    out
}

/// Even–odd inside test.
pub fn inside(poly: &[Pt], p: Pt) -> bool {
    let mut inside = false;
    let mut j = poly.len().wrapping_sub(1);
    for (i, a) in poly.iter().enumerate() {
        let b = poly[j];
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

pub fn dist_to_segment(p: Pt, a: Pt, b: Pt) -> f32 {
    let ab = b.minus(a);
    let len2 = ab.x * ab.x + ab.y * ab.y;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2).clamp(0.0, 1.0)
    };
    p.dist(a.plus(ab.scale(t)))
}

/// Distance from `p` to a closed polygon's outline.
pub fn dist_to_outline(poly: &[Pt], p: Pt) -> f32 {
    let n = poly.len();
    (0..n)
        .map(|i| dist_to_segment(p, poly[i], poly[(i + 1) % n]))
        .fold(f32::INFINITY, f32::min)
}

/// Distance from `p` to an open curve.
pub fn dist_to_curve(c: Curve, p: Pt) -> f32 {
    let mut pts = Vec::with_capacity(13);
    c.flatten_into(&mut pts);
    pts.push(c.to);
    pts.windows(2)
        .map(|w| dist_to_segment(p, w[0], w[1]))
        .fold(f32::INFINITY, f32::min)
}

/// Area-weighted centroid of a simple polygon (the vertex mean if it has no area).
pub fn centroid(poly: &[Pt]) -> Pt {
    let n = poly.len();
    let (mut a, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let cross = p.x * q.y - q.x * p.y;
        a += cross;
        cx += (p.x + q.x) * cross;
        cy += (p.y + q.y) * cross;
    }
    if a.abs() < 1e-3 {
        let sum = poly.iter().fold(pt(0.0, 0.0), |s, p| s.plus(*p));
        return sum.scale(1.0 / n.max(1) as f32);
    }
    pt(cx / (3.0 * a), cy / (3.0 * a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile's square drawn through its edges' midpoints, as the art's outlines are, is four
    /// letters written short; a curve and a slanted line stay as they are.
    #[test]
    fn a_short_path_joins_straight_runs_and_leaves_the_rest() {
        let corners = [pt(0.0, 0.0), pt(100.0, 0.0), pt(100.0, 100.0), pt(0.0, 100.0)];
        let square: Vec<Curve> = (0..4)
            .flat_map(|i| {
                let (a, b) = (corners[i], corners[(i + 1) % 4]);
                let (first, second) = Curve::line(a, b).halves();
                [first, second]
            })
            .collect();
        assert_eq!(short_path(&square, true), "M0 0H100V100H0Z");
        let shapes = [
            Curve::line(pt(0.0, 0.0), pt(100.0, 0.0)),
            Curve::quad(pt(100.0, 0.0), CENTRE, pt(100.0, 100.0)),
            Curve::line(pt(100.0, 100.0), pt(0.0, 0.0)),
        ];
        assert_eq!(short_path(&shapes, true), "M0 0H100Q50 50 100 100Z");
        let slanted = [
            Curve::line(pt(0.0, 0.0), pt(50.0, 20.0)),
            Curve::line(pt(50.0, 20.0), pt(100.0, 100.0)),
            Curve::line(pt(100.0, 100.0), pt(0.0, 0.0)),
        ];
        assert_eq!(short_path(&slanted, true), "M0 0L50 20L100 100Z");
        assert_eq!(short_path(&slanted, false), "M0 0L50 20L100 100L0 0");
    }

    #[test]
    fn numbers_print_short_and_stable() {
        assert_eq!(num(50.0).to_string(), "50");
        assert_eq!(num(37.5).to_string(), "37.5");
        assert_eq!(num(1.0 / 3.0).to_string(), "0.33");
        assert_eq!(num(-0.001).to_string(), "0");
        assert_eq!(num(-12.5).to_string(), "-12.5");
        assert_eq!(num(-0.07).to_string(), "-0.07");
    }

    /// Whole hundredths write every number as the float formatting did, so images stay
    /// byte-for-byte what they were: every hundredth from -2,000 to 2,000, and points between.
    #[test]
    fn numbers_read_as_the_float_formatting_wrote_them() {
        for k in -200_000..=200_000 {
            for v in [
                k as f32 / 100.0,
                k as f32 / 100.0 + 0.004_9,
                k as f32 / 100.0 + 0.005,
                k as f32 * 0.013,
            ] {
                assert_eq!(num(v).to_string(), num_by_float(v), "{v}");
            }
        }
    }

    #[test]
    fn a_quarter_turn_takes_north_to_east() {
        assert_eq!(pt(50.0, 0.0).rotate(1), pt(100.0, 50.0));
        assert_eq!(pt(50.0, 0.0).rotate(3), pt(0.0, 50.0));
        assert_eq!(pt(10.0, 20.0).rotate(2), pt(90.0, 80.0));
    }

    #[test]
    fn halves_meet_on_the_curve() {
        let c = Curve::quad(pt(100.0, 0.0), CENTRE, pt(0.0, 0.0));
        let (a, b) = c.halves();
        assert_eq!(a.to, c.at(0.5));
        assert_eq!(b.from, c.at(0.5));
        assert_eq!(c.at(0.5), pt(50.0, 25.0));
    }

    #[test]
    fn a_piece_of_a_curve_lies_on_it() {
        let c = Curve::quad(pt(100.0, 0.0), CENTRE, pt(0.0, 0.0));
        let piece = c.between(0.25, 0.75);
        for t in [0.0, 0.5, 1.0] {
            assert!(piece.at(t).dist(c.at(0.25 + t / 2.0)) < 1e-3);
        }
    }

    #[test]
    fn inside_and_centroid_of_a_square() {
        let sq = [pt(0.0, 0.0), pt(10.0, 0.0), pt(10.0, 10.0), pt(0.0, 10.0)];
        assert!(inside(&sq, pt(5.0, 5.0)));
        assert!(!inside(&sq, pt(15.0, 5.0)));
        assert_eq!(centroid(&sq), pt(5.0, 5.0));
        assert_eq!(dist_to_outline(&sq, pt(5.0, 2.0)), 2.0);
    }
}

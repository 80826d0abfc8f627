//! A whole tile game as an animated GIF: the start, then one frame per turn with the tile just
//! placed outlined in its player's colour, the meeples on the board, and the scores; a
//! finished game ends on a frame of its final scores. New World's coast (sea with its start
//! spaces) is drawn east of the land, and its surveyors at the top of their columns.
//!
//! As lila-gif does for chess, nothing is rasterised per frame but the score line: each tile
//! kind is rasterised once per rotation, mapped once to the GIF's one palette, and composed
//! into an indexed canvas. Each frame after the first carries only the rectangle that changed.

use super::palette::{self, Rgb};
use super::scene::{self, Placed};
use super::{RenderError, RenderOptions, colours, raster, tile_svg};
use crate::engine::surveyors::{COAST_X, is_start_space};
use crate::engine::{Game, Pos, TileKindId};
use crate::record::GameRecord;
use crate::replay::Kept;
use std::collections::HashMap;

/// Hundredths of a second per turn, and on the last frame.
const TURN_DELAY: u16 = 50;
const LAST_DELAY: u16 = 300;
/// The score line's height, in pixels.
const BAR: u32 = 30;

/// The game's GIF at `px` pixels per tile, from its kept positions.
pub fn game_gif(kept: Kept<'_, GameRecord>, px: u32) -> Result<Vec<u8>, RenderError> {
    let record = kept.record;
    let px = px.clamp(RenderOptions::MIN_SIZE, RenderOptions::GIF_MAX_SIZE);
    let states = positions(kept);
    let last = states.last().expect("the start is always there").game;
    let (lo, hi) = scene::extent(last, false);
    let cols = (hi.x - lo.x + 1) as u32;
    let rows = (hi.y - lo.y + 1) as u32;
    let canvas = Canvas::new(cols * px, rows * px + BAR, lo, px);
    let player_colours: Vec<Rgb> = (0..record.players.len() as u8)
        .map(|p| colours(record).get(p))
        .collect();
    let mut art = Art::new(&player_colours);
    // The palette is known once every sprite is mapped: map them all first.
    for t in last.board().tiles() {
        art.sprite(last, t.kind, t.rotation.quarter_turns(), px)?;
    }
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, canvas.w as u16, canvas.h as u16, &art.palette_bytes())
            .map_err(|e| RenderError::Gif(e.to_string()))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| RenderError::Gif(e.to_string()))?;
        let mut layers = Layers {
            tiles: canvas.blank(art.background),
            drawn: 0,
            bar: None,
        };
        if last.surveyors().is_some() {
            coast(&canvas, &mut layers.tiles, &art, rows);
        }
        let mut previous: Option<Vec<u8>> = None;
        for (i, state) in states.iter().enumerate() {
            let frame = compose(&canvas, &mut layers, &mut art, record, state, px)?;
            let delay = if i + 1 == states.len() { LAST_DELAY } else { TURN_DELAY };
            write_frame(&mut encoder, &canvas, &frame, previous.as_deref(), delay)?;
            previous = Some(frame);
        }
    }
    Ok(out)
}

/// The board after each turn: the start, every placement, then final scoring.
struct State<'a> {
    game: &'a Game,
    /// The tile just placed and who placed it.
    placed: Option<(Pos, u8)>,
}

fn positions<'a>(kept: Kept<'a, GameRecord>) -> Vec<State<'a>> {
    let start = State {
        game: kept.positions.after(0).expect("the start is kept"),
        placed: None,
    };
    let turns = (kept.full.turns.iter().zip(1..)).filter_map(|(t, n)| {
        Some(State {
            game: kept.positions.after(n)?,
            placed: Some((t.mv.placement.pos, t.player)),
        })
    });
    // A finished game ends on its result: the scores after final scoring.
    let end = (kept.full.finished).then_some(State {
        game: &kept.full.game,
        placed: None,
    });
    std::iter::once(start).chain(turns).chain(end).collect()
}

/// Where squares are on the indexed canvas.
struct Canvas {
    w: u32,
    h: u32,
    lo: Pos,
    px: u32,
}

impl Canvas {
    fn new(w: u32, h: u32, lo: Pos, px: u32) -> Canvas {
        Canvas { w, h, lo, px }
    }

    fn blank(&self, colour: u8) -> Vec<u8> {
        vec![colour; (self.w * self.h) as usize]
    }

    fn corner(&self, p: Pos) -> (u32, u32) {
        (
            ((p.x - self.lo.x) as u32) * self.px,
            ((p.y - self.lo.y) as u32) * self.px,
        )
    }

    fn fill(&self, buf: &mut [u8], (x0, y0, w, h): (u32, u32, u32, u32), colour: u8) {
        for y in y0..(y0 + h).min(self.h) {
            let row = (y * self.w) as usize;
            buf[row + x0.min(self.w) as usize..row + (x0 + w).min(self.w) as usize].fill(colour);
        }
    }
}

/// The palette and the sprites mapped to it.
struct Art {
    /// Colours in palette order; the first are fixed, the rest come from the sprites.
    colours: Vec<Rgb>,
    lookup: HashMap<[u8; 3], u8>,
    sprites: HashMap<(TileKindId, u8), Vec<u8>>,
    background: u8,
    ink: u8,
    paper: u8,
    /// New World's coast.
    sea: u8,
    players: Vec<u8>,
}

impl Art {
    fn new(players: &[Rgb]) -> Art {
        let mut art = Art {
            colours: Vec::new(),
            lookup: HashMap::new(),
            sprites: HashMap::new(),
            background: 0,
            ink: 0,
            paper: 0,
            sea: 0,
            players: Vec::new(),
        };
        art.background = art.exact(palette::BACKGROUND);
        art.ink = art.exact(palette::INK);
        art.paper = art.exact(palette::PAPER);
        art.sea = art.exact(palette::RIVER);
        art.players = players.iter().map(|&c| art.exact(c)).collect();
        art
    }

    /// A colour's index, added to the palette when there is room, else the nearest.
    fn exact(&mut self, c: Rgb) -> u8 {
        if let Some(&i) = self.lookup.get(&[c.0, c.1, c.2]) {
            return i;
        }
        if self.colours.len() < 256 {
            self.colours.push(c);
            let i = (self.colours.len() - 1) as u8;
            self.lookup.insert([c.0, c.1, c.2], i);
            return i;
        }
        self.nearest([c.0, c.1, c.2])
    }

    fn nearest(&mut self, c: [u8; 3]) -> u8 {
        if let Some(&i) = self.lookup.get(&c) {
            return i;
        }
        let d = |p: &Rgb| {
            let (r, g, b) = (
                p.0 as i32 - c[0] as i32,
                p.1 as i32 - c[1] as i32,
                p.2 as i32 - c[2] as i32,
            );
            r * r * 3 + g * g * 4 + b * b * 2
        };
        let i = (0..self.colours.len())
            .min_by_key(|&i| d(&self.colours[i]))
            .unwrap_or(0) as u8;
        self.lookup.insert(c, i);
        i
    }

    /// A tile kind in a rotation, rasterised once and mapped to the palette. The first
    /// sprites choose the palette's free entries (NeuQuant over their pixels); later ones
    /// take the nearest colours.
    fn sprite(&mut self, game: &Game, kind: TileKindId, q: u8, px: u32) -> Result<&[u8], RenderError> {
        if !self.sprites.contains_key(&(kind, q)) {
            let pixmap = raster::rasterise(&tile_svg(game.tile_kind(kind), q, px))?;
            let rgb: Vec<[u8; 3]> = pixmap
                .pixels()
                .iter()
                .map(|p| {
                    let c = p.demultiply();
                    [c.red(), c.green(), c.blue()]
                })
                .collect();
            if self.colours.len() < 200 {
                self.learn(&rgb);
            }
            let mapped = rgb.iter().map(|&c| self.nearest(c)).collect();
            self.sprites.insert((kind, q), mapped);
        }
        Ok(&self.sprites[&(kind, q)])
    }

    /// Adds the colours NeuQuant finds in `rgb` to the palette's free entries.
    fn learn(&mut self, rgb: &[[u8; 3]]) {
        let rgba: Vec<u8> = rgb.iter().flat_map(|c| [c[0], c[1], c[2], 255]).collect();
        let free = 256 - self.colours.len();
        let nq = color_quant::NeuQuant::new(10, free.min(64), &rgba);
        for c in nq.color_map_rgb().chunks_exact(3) {
            self.exact(Rgb(c[0], c[1], c[2]));
        }
        // New entries may be nearer than what was looked up before: keep exact matches only.
        self.lookup = (self.colours.iter().enumerate())
            .map(|(i, c)| ([c.0, c.1, c.2], i as u8))
            .collect();
    }

    fn palette_bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.colours.iter().flat_map(|c| [c.0, c.1, c.2]).collect();
        bytes.resize(256 * 3, 0);
        bytes
    }
}

/// One frame: the tiles so far (kept in `tiles` for the next frame), then the meeples, the
/// outline of the tile just placed and the score line.
/// What frames build on: the tiles drawn so far (the board lists tiles in the order they were
/// placed, so only those past `drawn` are new), and the last score line with its scores.
struct Layers {
    tiles: Vec<u8>,
    drawn: usize,
    bar: Option<(Vec<i32>, Vec<u8>)>,
}

fn compose(
    canvas: &Canvas,
    layers: &mut Layers,
    art: &mut Art,
    record: &GameRecord,
    state: &State,
    px: u32,
) -> Result<Vec<u8>, RenderError> {
    let game = state.game;
    for t in &game.board().tiles()[layers.drawn..] {
        let (x0, y0) = canvas.corner(t.pos);
        let sprite = art.sprite(game, t.kind, t.rotation.quarter_turns(), px)?;
        for y in 0..px {
            let from = (y * px) as usize;
            let to = ((y0 + y) * canvas.w + x0) as usize;
            layers.tiles[to..to + px as usize].copy_from_slice(&sprite[from..from + px as usize]);
        }
    }
    layers.drawn = game.board().tiles().len();
    let mut frame = layers.tiles.clone();
    meeples(canvas, &mut frame, art, game, px);
    surveyors(canvas, &mut frame, art, game, px);
    if let Some((pos, player)) = state.placed {
        let (x0, y0) = canvas.corner(pos);
        let c = art.players[usize::from(player)];
        let edge = (px / 16).max(2);
        for rect in [
            (x0, y0, px, edge),
            (x0, y0 + px - edge, px, edge),
            (x0, y0, edge, px),
            (x0 + px - edge, y0, edge, px),
        ] {
            canvas.fill(&mut frame, rect, c);
        }
    }
    let scores = game.scores();
    if layers.bar.as_ref().is_none_or(|(drawn, _)| *drawn != scores) {
        layers.bar = Some((scores.clone(), score_line(canvas, art, record, &scores)?));
    }
    let bar = &layers.bar.as_ref().expect("drawn just now").1;
    let top = ((canvas.h - BAR) * canvas.w) as usize;
    frame[top..top + bar.len()].copy_from_slice(bar);
    Ok(frame)
}

/// Every meeple on the board as a dot in its player's colour, ringed in ink.
fn meeples(canvas: &Canvas, frame: &mut [u8], art: &Art, game: &Game, px: u32) {
    let features = game.features();
    let r = (px as f32 / 7.0).max(3.0);
    for t in game.board().tiles() {
        let placed = Placed::of(game, t);
        for (j, seg) in placed.art.segments.iter().enumerate() {
            let Some(m) = features.meeple_on(placed.first_segment + j as crate::engine::SegId) else {
                continue;
            };
            let (x0, y0) = canvas.corner(t.pos);
            let a = seg.anchor.rotate(placed.quarter_turns);
            let k = px as f32 / super::shapes::TILE;
            let (cx, cy) = (x0 as f32 + a.x * k, y0 as f32 + a.y * k);
            disc(canvas, frame, (cx, cy), r + 1.0, art.ink);
            disc(canvas, frame, (cx, cy), r, art.players[usize::from(m.player)]);
        }
    }
}

/// New World's coast: a column of sea east of the land, its ten start spaces outlined.
fn coast(canvas: &Canvas, tiles: &mut [u8], art: &Art, rows: u32) {
    let (sea, paper) = (art.sea, art.paper);
    let px = canvas.px;
    let edge = (px / 24).max(1);
    for row in 0..rows {
        let pos = Pos::new(COAST_X, canvas.lo.y + row as i32);
        let (x0, y0) = canvas.corner(pos);
        canvas.fill(tiles, (x0, y0, px, px), sea);
        if is_start_space(pos) {
            let (a, w) = (px / 8, px - px / 4);
            for rect in [
                (x0 + a, y0 + a, w, edge),
                (x0 + a, y0 + a + w - edge, w, edge),
                (x0 + a, y0 + a, edge, w),
                (x0 + a + w - edge, y0 + a, edge, w),
            ] {
                canvas.fill(tiles, rect, paper);
            }
        }
    }
}

/// New World's two surveyors as diamonds at the top of their columns, side by side when they
/// share one.
fn surveyors(canvas: &Canvas, frame: &mut [u8], art: &Art, game: &Game, px: u32) {
    let Some(surveyors) = game.surveyors() else { return };
    let [a, b] = surveyors.columns();
    let r = (px as f32 / 7.0).max(3.0);
    for (i, column) in [a, b].into_iter().enumerate() {
        let (x0, y0) = canvas.corner(Pos::new(column, canvas.lo.y));
        let dx = if a == b { 0.3 + 0.4 * i as f32 } else { 0.5 };
        let centre = (x0 as f32 + dx * px as f32, y0 as f32 + 0.2 * px as f32);
        diamond(canvas, frame, centre, r + 1.0, art.ink);
        diamond(canvas, frame, centre, r, art.paper);
    }
}

fn diamond(canvas: &Canvas, frame: &mut [u8], (cx, cy): (f32, f32), r: f32, colour: u8) {
    paint(canvas, frame, (cx, cy), r, colour, |dx, dy| dx.abs() + dy.abs() <= r);
}

fn disc(canvas: &Canvas, frame: &mut [u8], (cx, cy): (f32, f32), r: f32, colour: u8) {
    paint(canvas, frame, (cx, cy), r, colour, |dx, dy| dx * dx + dy * dy <= r * r);
}

/// Paints the pixels within `r` of a centre that `inside` keeps (given their offset).
fn paint(
    canvas: &Canvas,
    frame: &mut [u8],
    (cx, cy): (f32, f32),
    r: f32,
    colour: u8,
    inside: impl Fn(f32, f32) -> bool,
) {
    let (x0, x1) = ((cx - r).floor().max(0.0) as u32, ((cx + r).ceil() as u32).min(canvas.w));
    let (y0, y1) = (
        (cy - r).floor().max(0.0) as u32,
        ((cy + r).ceil() as u32).min(canvas.h - BAR),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            if inside(x as f32 + 0.5 - cx, y as f32 + 0.5 - cy) {
                frame[(y * canvas.w + x) as usize] = colour;
            }
        }
    }
}

/// The scores under the board, rasterised (it has text) and mapped to the palette: the
/// canvas's bottom `BAR` rows.
fn score_line(canvas: &Canvas, art: &mut Art, record: &GameRecord, scores: &[i32]) -> Result<Vec<u8>, RenderError> {
    use std::fmt::Write as _;
    let colours = colours(record);
    let mut body = String::new();
    let mut x = 6.0;
    for (p, player) in record.players.iter().enumerate() {
        let text = format!("{} {}", raster::fit(&player.name, 14.0, 140.0), scores[p]);
        let _ = write!(
            body,
            "<rect x=\"{x}\" y=\"9\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"20\" font-size=\"14\" fill=\"{}\">{}</text>",
            colours.get(p as u8).hex(),
            x + 16.0,
            palette::PAPER.hex(),
            scene::xml_escape(&text)
        );
        x += 22.0 + raster::text_width(&text, 14.0) + 14.0;
    }
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{BAR}\" font-family=\"{}\"><rect width=\"{w}\" height=\"{BAR}\" fill=\"{}\"/>{body}</svg>",
        raster::FONT_FAMILY,
        palette::BACKGROUND.hex(),
        w = canvas.w,
    );
    let pixmap = raster::rasterise(&svg)?;
    Ok(pixmap
        .pixels()
        .iter()
        .take((canvas.w * BAR) as usize)
        .map(|p| {
            let c = p.demultiply();
            art.nearest([c.red(), c.green(), c.blue()])
        })
        .collect())
}

/// Writes the part of `frame` that differs from `previous` (all of it for the first frame).
fn write_frame<W: std::io::Write>(
    encoder: &mut gif::Encoder<W>,
    canvas: &Canvas,
    frame: &[u8],
    previous: Option<&[u8]>,
    delay: u16,
) -> Result<(), RenderError> {
    let (w, h) = (canvas.w as usize, canvas.h as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w, h);
    if let Some(prev) = previous {
        let changed = |y: usize| frame[y * w..(y + 1) * w] != prev[y * w..(y + 1) * w];
        let rows: Vec<usize> = (0..h).filter(|&y| changed(y)).collect();
        let (Some(&first), Some(&last)) = (rows.first(), rows.last()) else {
            // Nothing changed: a one-pixel frame keeps the timing.
            return write(encoder, (0, 0, 1, 1), vec![frame[0]], delay);
        };
        let cols = |x: usize| (first..=last).any(|y| frame[y * w + x] != prev[y * w + x]);
        x0 = (0..w).find(|&x| cols(x)).unwrap_or(0);
        x1 = (0..w).rev().find(|&x| cols(x)).map_or(w, |x| x + 1);
        (y0, y1) = (first, last + 1);
    }
    let mut part = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        part.extend_from_slice(&frame[y * w + x0..y * w + x1]);
    }
    write(encoder, (x0, y0, x1 - x0, y1 - y0), part, delay)
}

fn write<W: std::io::Write>(
    encoder: &mut gif::Encoder<W>,
    (left, top, width, height): (usize, usize, usize, usize),
    buffer: Vec<u8>,
    delay: u16,
) -> Result<(), RenderError> {
    let frame = gif::Frame {
        left: left as u16,
        top: top as u16,
        width: width as u16,
        height: height as u16,
        delay,
        buffer: buffer.into(),
        ..gif::Frame::default()
    };
    encoder.write_frame(&frame).map_err(|e| RenderError::Gif(e.to_string()))
}

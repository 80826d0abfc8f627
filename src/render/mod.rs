//! Game images: an SVG scene of the board at a turn, rasterised to PNG with resvg.
//!
//! - [`draw`] is the one entry point: any game, any turn, a board or a link preview, SVG or
//!   PNG. Each game kind draws its own picture over the shared palette, legend and rasteriser.
//! - `tiles.rs` computes each tile's art from its segment data; `scene.rs` lays tiles, overlays,
//!   figures and the legend out as SVG; `raster.rs` turns SVG into PNG.
//! - Output is deterministic: the same record, turn and options give the same bytes, so callers
//!   can cache images under an ETag built from [`RENDERER_VERSION`] and [`RenderOptions::key`].

pub(crate) mod cards;
pub(crate) mod figures;
pub(crate) mod gif;
pub(crate) mod interactive;
pub mod palette;
mod raster;
mod scene;
mod shapes;
pub(crate) mod tiles;

use crate::engine::{Pos, TileCatalog, TileKind};
use crate::record::{GameRecord, rules_spec};
use crate::replay::{self, Kept, Reached, Replay, ReplayError, Replays};
use scene::{Frame, LegendEntry, Placed, Scene, SceneInput};
use std::sync::Arc;

pub use palette::{PLAYER_COLOURS, PlayerColour, PlayerColours, Rgb, player_colour};
pub use raster::{encode_png, rasterise, svg_to_png};
pub use scene::extent;

/// Changes whenever the same input would draw different pixels: part of every image's ETag.
pub const RENDERER_VERSION: &str = "render-5";

/// What to draw. `Default` is the plain board at 64 px per tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Pixels per tile, clamped to [`RenderOptions::MIN_SIZE`]..=[`RenderOptions::MAX_SIZE`].
    pub size_px_per_tile: u32,
    /// The size was asked for: a PNG it would make too large is refused, never drawn smaller
    /// (a default size shrinks until the board fits [`raster::MAX_SIDE_PX`]).
    pub exact_size: bool,
    /// Tint each city, road, field, cloister and garden with its majority owner's colour.
    pub ownership: bool,
    /// Frame the tile placed this turn in its player's colour.
    pub last_move: bool,
    /// Outline the features scored this turn and label them with their points.
    pub scoring: bool,
    /// Mark the empty squares next to the board.
    pub open_spots: bool,
    /// Player names, colours and scores under the board.
    pub legend: bool,
    /// The colours around the game: a page in dark mode asks for [`Theme::Dark`].
    pub theme: Theme,
    /// The Card Game: whose hands the table shows.
    pub hands: cards::Hands,
}

/// An image option asked for from outside that no image has, in words that name it and the
/// choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown theme {0:?}; the themes are light, dark and clear")]
    Theme(String),
    #[error("unknown overlay {0:?}; the overlays are {overlays}", overlays = RenderOptions::OVERLAYS.join(", "))]
    Overlay(String),
    #[error("unknown hands {0:?}; the choices are mover and all")]
    Hands(String),
    #[error("size {size} is out of range: {} has {} to {} pixels per tile", if *.gif { "a GIF" } else { "a picture" }, .sizes.start(), .sizes.end())]
    Size {
        size: u32,
        gif: bool,
        sizes: std::ops::RangeInclusive<u32>,
    },
}

/// The colours an image is drawn around the game in, to sit on a light or a dark page. The
/// board itself, tiles and players' colours, never changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    #[default]
    Light,
    Dark,
    /// No backdrop: for a page that draws its own under the picture (the turn page's board,
    /// whose backdrop follows the page's colours), otherwise as light.
    Clear,
}

impl Theme {
    /// Reads `light`, `dark` or `clear`.
    pub fn parse(word: &str) -> Result<Theme, OptionError> {
        match word {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            "clear" => Ok(Theme::Clear),
            other => Err(OptionError::Theme(other.to_string())),
        }
    }

    /// Behind the board: slate on light pages, the page's own near-black on dark ones, none
    /// when clear.
    pub fn backdrop(self) -> Option<Rgb> {
        match self {
            Theme::Light => Some(palette::BACKGROUND),
            Theme::Dark => Some(palette::NIGHT),
            Theme::Clear => None,
        }
    }

    /// A table's cloth and the ink written on it (the Card Game).
    pub fn paper_and_ink(self) -> (Rgb, Rgb) {
        match self {
            Theme::Light | Theme::Clear => (palette::PAPER, palette::INK),
            Theme::Dark => (palette::NIGHT_PAPER, palette::PAPER),
        }
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size_px_per_tile: 64,
            exact_size: false,
            ownership: false,
            last_move: false,
            scoring: false,
            open_spots: false,
            legend: false,
            theme: Theme::Light,
            hands: cards::Hands::Mover,
        }
    }
}

impl RenderOptions {
    pub const MIN_SIZE: u32 = 16;
    pub const MAX_SIZE: u32 = 256;
    /// A GIF has a frame per turn: its tiles are at most this large.
    pub const GIF_MAX_SIZE: u32 = 96;
    /// The overlay names [`RenderOptions::set_overlays`] accepts.
    pub const OVERLAYS: [&'static str; 5] = ["ownership", "last-move", "scoring", "open-spots", "legend"];

    /// Every overlay on.
    pub fn all(size_px_per_tile: u32) -> RenderOptions {
        RenderOptions {
            size_px_per_tile,
            ownership: true,
            last_move: true,
            scoring: true,
            open_spots: true,
            legend: true,
            ..RenderOptions::default()
        }
    }

    /// Switches on the overlays in a comma-separated list such as `ownership,last-move`
    /// (`legend` counts as one; `all` and `none` are accepted too).
    pub fn set_overlays(&mut self, list: &str) -> Result<(), OptionError> {
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "ownership" => self.ownership = true,
                "last-move" => self.last_move = true,
                "scoring" => self.scoring = true,
                "open-spots" => self.open_spots = true,
                "legend" => self.legend = true,
                "all" => {
                    *self = RenderOptions {
                        theme: self.theme,
                        hands: self.hands,
                        exact_size: self.exact_size,
                        ..RenderOptions::all(self.size_px_per_tile)
                    }
                }
                "none" => {
                    *self = RenderOptions {
                        theme: self.theme,
                        hands: self.hands,
                        exact_size: self.exact_size,
                        ..RenderOptions::default().with_size(self.size_px_per_tile)
                    }
                }
                other => return Err(OptionError::Overlay(other.to_string())),
            }
        }
        Ok(())
    }

    /// The overlays these options draw, as [`RenderOptions::set_overlays`] reads them back:
    /// "ownership,last-move".
    pub fn overlays(&self) -> String {
        let on = [
            self.ownership,
            self.last_move,
            self.scoring,
            self.open_spots,
            self.legend,
        ];
        (Self::OVERLAYS.iter().zip(on))
            .filter_map(|(name, on)| on.then_some(*name))
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn with_size(mut self, size_px_per_tile: u32) -> RenderOptions {
        self.size_px_per_tile = size_px_per_tile;
        self
    }

    /// With a size asked for from outside, refused when the format does not draw it: a size
    /// quietly clamped would draw another image than the one asked for.
    pub fn with_size_for(self, format: ImageFormat, size_px_per_tile: u32) -> Result<RenderOptions, OptionError> {
        let sizes = match format {
            ImageFormat::Gif => Self::MIN_SIZE..=Self::GIF_MAX_SIZE,
            ImageFormat::Png | ImageFormat::Svg => Self::MIN_SIZE..=Self::MAX_SIZE,
        };
        if !sizes.contains(&size_px_per_tile) {
            return Err(OptionError::Size {
                size: size_px_per_tile,
                gif: format == ImageFormat::Gif,
                sizes,
            });
        }
        Ok(RenderOptions {
            exact_size: true,
            ..self.with_size(size_px_per_tile)
        })
    }

    fn size(&self) -> u32 {
        self.size_px_per_tile.clamp(Self::MIN_SIZE, Self::MAX_SIZE)
    }

    /// A short text naming these options, for cache keys and ETags. The light theme and the
    /// mover's hand add nothing, so the keys of images drawn before them stay the same. A size
    /// asked for is marked: at the default size a large board is drawn smaller, and the size
    /// asked for is refused instead.
    pub fn key(&self) -> String {
        let flag = |b: bool| if b { '1' } else { '0' };
        let theme = match self.theme {
            Theme::Light => "",
            Theme::Dark => "-dark",
            Theme::Clear => "-clear",
        };
        let hands = match self.hands {
            cards::Hands::Mover => "",
            cards::Hands::All => "-hands",
        };
        let exact = if self.exact_size { "=" } else { "" };
        format!(
            "{}{exact}-{}{}{}{}{}{theme}{hands}",
            self.size(),
            flag(self.ownership),
            flag(self.last_move),
            flag(self.scoring),
            flag(self.open_spots),
            flag(self.legend)
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("turn {turn} does not exist: the game has {}", crate::replay::words::count(*.turns, "turn", "turns"))]
    NoSuchTurn { turn: u32, turns: u32 },
    #[error("the game cannot be replayed: {0}")]
    Replay(#[from] ReplayError),
    #[error("the game cannot be replayed: {0}")]
    CardReplay(#[from] crate::replay::cards::Refusal),
    #[error("the image would be {width}×{height} pixels, larger than we draw")]
    TooLarge { width: u32, height: u32 },
    #[error(
        "at {asked} pixels per tile the image would be {width}×{height} pixels, over the limit of {} a side and {} in all: {}",
        raster::MAX_SIDE_PX, raster::MAX_PIXELS, match fits {
            Some(fits) => format!("size {fits} fits"),
            None => format!("no size from {} fits; the SVG has no limit", RenderOptions::MIN_SIZE),
        }
    )]
    SizeTooLarge {
        asked: u32,
        width: u32,
        height: u32,
        fits: Option<u32>,
    },
    #[error("cannot draw the SVG: {0}")]
    Svg(String),
    #[error("cannot encode the PNG: {0}")]
    Png(String),
    #[error("cannot encode the GIF: {0}")]
    Gif(String),
    #[error("only the tile games animate: this game has no board")]
    NoAnimation,
}

/// What an image shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Picture {
    /// The board after a turn, with the [`RenderOptions`]' overlays and legend.
    Board,
    /// A 1200×630 link preview: the board with ownership, the players and their scores.
    Preview,
}

/// How an image is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    Svg,
    Png,
    /// The whole game animated, a frame per turn (`gif`): the turn and picture asked for do
    /// not matter.
    Gif,
}

impl ImageFormat {
    pub fn content_type(self) -> &'static str {
        match self {
            ImageFormat::Svg => "image/svg+xml",
            ImageFormat::Png => "image/png",
            ImageFormat::Gif => "image/gif",
        }
    }
}

/// A record [`draw`] can picture: each game kind draws its own.
pub trait Drawable {
    /// `picture` after `turn` (`None`: the end of the game, after final scoring; 0: the start
    /// alone), as SVG.
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError>;

    /// The whole game as an animated GIF at `px` per tile; games without a board have none.
    fn animation(&self, _px: u32) -> Result<Vec<u8>, RenderError> {
        Err(RenderError::NoAnimation)
    }
}

impl Drawable for GameRecord {
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError> {
        let replay = replay_at(self, turn)?;
        Ok(picture_svg(self, replay.reached(), picture, opts))
    }

    fn animation(&self, px: u32) -> Result<Vec<u8>, RenderError> {
        let (full, positions) = self.replay_keeping()?;
        let kept = Kept {
            record: self,
            full: &full,
            positions: &positions,
        };
        gif::game_gif(kept, px)
    }
}

/// A loaded game draws any turn from its kept positions, with no replay.
impl Drawable for Kept<'_, GameRecord> {
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError> {
        let at = self.at(turn).ok_or_else(|| no_such_turn(self.record.turns(), turn))?;
        Ok(picture_svg(self.record, at, picture, opts))
    }

    fn animation(&self, px: u32) -> Result<Vec<u8>, RenderError> {
        gif::game_gif(*self, px)
    }
}

fn picture_svg(record: &GameRecord, at: Reached<'_>, picture: Picture, opts: &RenderOptions) -> String {
    match picture {
        Picture::Board => board_svg(record, at, opts),
        Picture::Preview => og_image_svg(record, at),
    }
}

/// A turn past the game's `turns`.
pub(crate) fn no_such_turn(turns: u32, turn: Option<u32>) -> RenderError {
    RenderError::NoSuchTurn {
        turn: turn.unwrap_or_default(),
        turns,
    }
}

impl Drawable for crate::record::AnyRecord {
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError> {
        crate::record::dispatch!(self, record => record.svg(turn, picture, opts))
    }

    fn animation(&self, px: u32) -> Result<Vec<u8>, RenderError> {
        crate::record::dispatch!(self, record => record.animation(px))
    }
}

/// Draws `picture` of `record` after `turn` (`None`: the end of the game, after final
/// scoring; 0: the start alone) as `format`. The service, the command line and the tests all
/// draw through here, whatever the game.
pub fn draw<R: Drawable + ?Sized>(
    record: &R,
    turn: Option<u32>,
    picture: Picture,
    format: ImageFormat,
    opts: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    match format {
        ImageFormat::Svg => Ok(record.svg(turn, picture, opts)?.into_bytes()),
        ImageFormat::Png => fitted_png(|opts| record.svg(turn, picture, opts), *opts),
        ImageFormat::Gif => record.animation(opts.size_px_per_tile),
    }
}

/// A PNG within the rasteriser's limits: at the size asked for, or refused with the size that
/// fits; at the default size, shrunk until it fits. The board grows with the game, so a long
/// legal game drawn at 64 px a tile can pass [`raster::MAX_SIDE_PX`].
fn fitted_png(
    svg: impl Fn(&RenderOptions) -> Result<String, RenderError>,
    mut opts: RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let asked = opts.size();
    loop {
        let (width, height) = match svg_to_png(&svg(&opts)?) {
            Err(RenderError::TooLarge { width, height }) => (width, height),
            drawn => return drawn,
        };
        let size = opts.size();
        let smaller = raster::fitting_size(size, width, height).min(size - 1);
        if opts.exact_size || size == RenderOptions::MIN_SIZE {
            let fits = (smaller >= RenderOptions::MIN_SIZE).then_some(smaller);
            return Err(RenderError::SizeTooLarge {
                asked,
                width,
                height,
                fits,
            });
        }
        opts.size_px_per_tile = smaller.max(RenderOptions::MIN_SIZE);
    }
}

/// The board as `replay` reached it as a PNG, within the rasteriser's limits as [`draw`]'s.
pub fn board_png(record: &GameRecord, replay: Reached<'_>, opts: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    fitted_png(|opts| Ok(board_svg(record, replay, opts)), *opts)
}

/// The board as `replay` reached it, as SVG: after a turn (`Replay::after`), or at the end
/// (`Replay::reached`).
pub fn board_svg(record: &GameRecord, replay: Reached<'_>, opts: &RenderOptions) -> String {
    board_scene(record, replay, opts, None, BoardArt::Inline, |_| {})
}

/// The board around one square: the square and its eight neighbours, for the thumbnails of a
/// turn's alternatives, where the whole board would be too small to read.
pub fn board_close_svg(record: &GameRecord, replay: Reached<'_>, opts: &RenderOptions, centre: Pos) -> String {
    let window = (
        Pos::new(centre.x - 1, centre.y - 1),
        Pos::new(centre.x + 1, centre.y + 1),
    );
    board_scene(record, replay, opts, Some(window), BoardArt::Inline, |_| {})
}

/// Where an inlined board's drawing comes from.
#[derive(Clone, Copy, Debug)]
pub enum BoardArt<'a> {
    /// Drawn into the page.
    Inline,
    /// The address of the same board drawn with no backdrop ([`Theme::Clear`]), shown as an
    /// image under the layers: the browser fetches the drawing once and caches it, and the page
    /// carries only what a reader points at.
    Linked(&'a str),
}

/// The board after `replay`'s last turn with `notes` laid over it, for inlining in a page: the
/// root element gets `class="board-svg"`. See `interactive.rs`.
pub fn interactive_board_svg(
    record: &GameRecord,
    replay: Reached<'_>,
    opts: &RenderOptions,
    art: BoardArt,
    notes: &interactive::BoardNotes,
) -> String {
    board_scene(record, replay, opts, None, art, |scene| {
        scene.pointing_layers(notes);
        scene.root_attributes = " class=\"board-svg\"".into();
    })
}

/// Draws the board (or only the squares of `window`, corners included), or shows it from
/// `art`'s address, lets `over` add to the scene before the legend, and finishes it.
fn board_scene(
    record: &GameRecord,
    replay: Reached<'_>,
    opts: &RenderOptions,
    window: Option<(Pos, Pos)>,
    art: BoardArt,
    over: impl FnOnce(&mut Scene),
) -> String {
    let input = scene_input(record, replay);
    let s = opts.size();
    let (lo, hi) = window.unwrap_or_else(|| scene::extent(replay.game, opts.open_spots));
    let margin = if window.is_some() { 0 } else { (s / 4).max(8) };
    let board_w = (hi.x - lo.x + 1) as u32 * s;
    let board_h = (hi.y - lo.y + 1) as u32 * s;
    let font = (s as f32 * 0.22).clamp(12.0, 22.0).round();
    let min_w = if opts.legend { (font * 16.0) as u32 } else { 0 };
    let width = (board_w + 2 * margin).max(min_w);
    let frame = Frame {
        x0: ((width - board_w) / 2) as f32,
        y0: margin as f32,
        s: s as f32,
        gap: 0.0,
        lo,
    };
    let mut scene = Scene::new(&input, *opts, frame);
    let mut height = board_h + 2 * margin;
    let legend_at = (margin as f32, (board_h + margin) as f32 + margin as f32 * 0.5);
    let legend_w = (width - 2 * margin) as f32;
    if opts.legend {
        let h = scene.legend(legend_at, legend_w, font, false);
        height += (h + margin as f32 * 0.5).ceil() as u32;
    }
    match art {
        BoardArt::Inline => scene.draw_board(),
        BoardArt::Linked(href) => scene.picture(href, width, height),
    }
    over(&mut scene);
    if opts.legend && matches!(art, BoardArt::Inline) {
        scene.legend(legend_at, legend_w, font, true);
    }
    scene.finish(width, height, opts.theme.backdrop())
}

/// Replays up to `turn`, checking that the turn exists.
fn replay_at(record: &GameRecord, turn: Option<u32>) -> Result<Replay, RenderError> {
    let turns = record.turns();
    if let Some(t) = turn.filter(|&t| t > turns) {
        return Err(RenderError::NoSuchTurn { turn: t, turns });
    }
    Ok(replay::replay_upto(record, None, turn)?)
}

/// The game's player colours, as every image and page shows them.
pub fn colours(record: &GameRecord) -> PlayerColours {
    PlayerColours::new(record.players.iter().map(|p| p.colour.as_deref()))
}

fn scene_input<'a>(record: &'a GameRecord, replay: Reached<'a>) -> SceneInput<'a> {
    let game = replay.game;
    let last = replay.turns.last();
    let scored = last.map(|t| scene::scores(&t.events).collect()).unwrap_or_default();
    let history = replay
        .turns
        .iter()
        .flat_map(|t| scene::scores(&t.events))
        .chain(scene::scores(replay.final_events))
        .collect();
    let players = record
        .players
        .iter()
        .zip(game.scores())
        .map(|(p, score)| LegendEntry { name: &p.name, score })
        .collect();
    let (done, total) = (replay.turns.len(), record.turns());
    let caption = if replay.finished {
        format!(
            "Final scores after {}",
            crate::replay::words::count(done as u32, "turn", "turns")
        )
    } else {
        format!("Turn {done} of {total}")
    };
    SceneInput {
        colours: colours(record),
        game: Some(game),
        tiles: game.board().tiles().iter().map(|t| Placed::of(game, t)).collect(),
        last_move: last.map(|t| (t.player, t.mv.placement.pos)),
        scored,
        final_scored: scene::scores(replay.final_events).collect(),
        history,
        players,
        caption,
    }
}

/// Social preview (Open Graph) size.
pub const OG_WIDTH: u32 = 1200;
pub const OG_HEIGHT: u32 = 630;

/// A 1200×630 preview of a game for link cards: the board with ownership on the left, the
/// players and scores on the right.
fn og_image_svg(record: &GameRecord, replay: Reached<'_>) -> String {
    let input = scene_input(record, replay);
    let (lo, hi) = scene::extent(replay.game, false);
    let (cols, rows) = ((hi.x - lo.x + 1) as u32, (hi.y - lo.y + 1) as u32);
    let (area_w, area_h, pad) = (740, 582, 24);
    let s = (area_w / cols).min(area_h / rows).clamp(4, 128);
    let frame = Frame {
        x0: (pad + (area_w - s * cols) / 2) as f32,
        y0: (pad + (area_h - s * rows) / 2) as f32,
        s: s as f32,
        gap: 0.0,
        lo,
    };
    let opts = RenderOptions {
        ownership: true,
        ..RenderOptions::default()
    };
    let mut scene = Scene::new(&input, opts, frame);
    scene.draw_board();
    og_panel(&mut scene, record, replay, 800.0);
    scene.finish(OG_WIDTH, OG_HEIGHT, Some(palette::BACKGROUND))
}

fn og_panel(scene: &mut Scene, record: &GameRecord, replay: Reached<'_>, x: f32) {
    let (done, total) = (replay.turns.len(), record.turns());
    let panel = OgPanel {
        title: "Carcassonne",
        label: rules_spec::label(replay.game.rules()),
        when: when(replay.finished, done, total),
        players: &record.players,
        scores: replay.game.scores(),
        finished: replay.finished,
        colours: colours(record),
    };
    panel.write(&mut scene.body, x);
}

/// Where a game stands, for a preview: "final score", "the start", "after turn 5 of 72".
fn when(finished: bool, done: usize, total: u32) -> String {
    if finished {
        "final score".to_string()
    } else if done == 0 {
        "the start".to_string()
    } else {
        format!("after turn {done} of {total}")
    }
}

/// The right-hand side of a link preview: the game, its rules, when, and every player's score.
pub(crate) struct OgPanel<'a> {
    title: &'a str,
    label: String,
    when: String,
    players: &'a [crate::record::PlayerInfo],
    scores: Vec<i32>,
    finished: bool,
    colours: PlayerColours,
}

impl OgPanel<'_> {
    fn write(&self, body: &mut String, x: f32) {
        use std::fmt::Write as _;
        let light = palette::PAPER.hex();
        let _ = write!(
            body,
            "<text x=\"{x}\" y=\"70\" font-size=\"44\" font-weight=\"bold\" fill=\"{light}\">{}</text>",
            scene::xml_escape(self.title)
        );
        for (i, line) in wrap(&self.label, 34).iter().chain([&self.when]).enumerate() {
            let _ = write!(
                body,
                "<text x=\"{x}\" y=\"{}\" font-size=\"20\" fill=\"{light}\" fill-opacity=\".75\">{}</text>",
                104 + 26 * i,
                scene::xml_escape(line)
            );
        }
        let best = self.scores.iter().copied().max().unwrap_or(0);
        for (i, p) in self.players.iter().enumerate().take(6) {
            let y = 230.0 + i as f32 * 62.0;
            body.push_str(&figures::figure(
                figures::FigureShape::Standing,
                self.colours.get(i as u8),
                x + 18.0,
                y - 12.0,
                1.6,
            ));
            let star = if self.finished && self.scores[i] == best {
                " ★"
            } else {
                ""
            };
            // The name ends where the score begins, measured in the font that draws them.
            let score = self.scores[i].to_string();
            let room = 1170.0 - raster::text_width(&score, 30.0) - 24.0 - (x + 48.0);
            let name = raster::fit(&p.name, 30.0, room - raster::text_width(star, 30.0)) + star;
            let _ = write!(
                body,
                "<text x=\"{}\" y=\"{y}\" font-size=\"30\" fill=\"{light}\">{}</text>\
                 <text x=\"1170\" y=\"{y}\" font-size=\"30\" font-weight=\"bold\" text-anchor=\"end\" \
                 fill=\"{light}\">{score}</text>",
                x + 48.0,
                scene::xml_escape(&name),
            );
        }
    }
}

/// Words in lines of at most `width` characters (a longer word gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Every tile kind of a catalogue in its four rotations, one kind per row, labelled: for
/// checking the tile art by eye and in tests.
pub fn contact_sheet_svg(catalog: &TileCatalog, size_px_per_tile: u32) -> String {
    let kinds: Vec<&TileKind> = catalog.ids().map(|id| catalog.get(id)).collect();
    tile_sheet_svg(&kinds, size_px_per_tile)
}

/// Tile kinds in their four rotations, two kinds per row, each row labelled with the names.
pub fn tile_sheet_svg(kinds: &[&TileKind], size_px_per_tile: u32) -> String {
    use std::fmt::Write as _;
    const PER_ROW: usize = 2;
    // Each kind takes a label column and four tiles; columns are counted in tile pitches.
    const SPAN: i32 = 6;
    let s = size_px_per_tile.clamp(RenderOptions::MIN_SIZE, RenderOptions::MAX_SIZE) as f32;
    let gap = (s / 8.0).round();
    let mut tiles = Vec::new();
    for (n, kind) in kinds.iter().enumerate() {
        let art = tiles::art(kind);
        let (row, col) = ((n / PER_ROW) as i32, (n % PER_ROW) as i32 * SPAN + 1);
        tiles.extend((0..4u8).map(|q| Placed {
            pos: Pos::new(col + q as i32, row),
            quarter_turns: q,
            first_segment: 0,
            art: Arc::clone(&art),
        }));
    }
    let input = SceneInput::loose(tiles);
    let frame = Frame {
        x0: gap,
        y0: gap,
        s,
        gap,
        lo: Pos::new(0, 0),
    };
    let mut scene = Scene::new(&input, RenderOptions::default(), frame);
    scene.draw_board();
    let font = (s * 0.28).round();
    for (n, kind) in kinds.iter().enumerate() {
        let x = gap + ((n % PER_ROW) as i32 * SPAN) as f32 * (s + gap);
        let y = gap + (n / PER_ROW) as f32 * (s + gap) + s / 2.0;
        let _ = write!(
            scene.body,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{font}\" fill=\"{}\">{}</text>",
            palette::PAPER.hex(),
            scene::xml_escape(&kind.name)
        );
    }
    let rows = kinds.len().div_ceil(PER_ROW) as f32;
    let cols = (PER_ROW as i32 * SPAN - 1) as f32;
    let width = (cols * (s + gap) + gap) as u32;
    let height = (rows * (s + gap) + gap) as u32;
    scene.finish(width, height, Some(palette::BACKGROUND))
}

/// One tile kind alone, turned `quarter_turns` clockwise, `size` pixels square: the small
/// pictures beside tile names.
pub fn tile_svg(kind: &TileKind, quarter_turns: u8, size: u32) -> String {
    let s = size.clamp(RenderOptions::MIN_SIZE, RenderOptions::MAX_SIZE);
    let input = SceneInput::loose(vec![Placed {
        pos: Pos::new(0, 0),
        quarter_turns: quarter_turns % 4,
        first_segment: 0,
        art: tiles::art(kind),
    }]);
    let frame = Frame {
        x0: 0.0,
        y0: 0.0,
        s: s as f32,
        gap: 0.0,
        lo: Pos::new(0, 0),
    };
    let mut scene = Scene::new(&input, RenderOptions::default(), frame);
    scene.draw_board();
    scene.finish(s, s, Some(palette::BACKGROUND))
}

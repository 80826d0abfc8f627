//! `render`: the board at a turn as PNG or SVG, or the whole game as a GIF.

use super::game;
use super::output::emit_bytes;
use crate::render::{self, ImageFormat, Picture, RenderOptions};
use std::path::Path;

/// What `render` was asked for, as the command line gives it.
pub struct RenderArgs<'a> {
    pub file: &'a Path,
    /// `None`: the end of the game.
    pub turn: Option<u32>,
    /// `-`: standard output.
    pub out: &'a Path,
    pub svg: bool,
    /// The whole game, animated.
    pub gif: bool,
    /// Comma-separated overlay names.
    pub overlays: Option<&'a str>,
    pub legend: bool,
    /// Pixels per tile; `None` for the default, shrunk to fit a large board.
    pub size: Option<u32>,
    pub theme: render::Theme,
    /// The Card Game: whose hands the table shows.
    pub hands: render::cards::Hands,
}

pub fn run(args: &RenderArgs) -> Result<(), String> {
    let format = match (args.svg, args.gif) {
        (_, true) => ImageFormat::Gif,
        (true, _) => ImageFormat::Svg,
        _ => ImageFormat::Png,
    };
    let mut opts = match args.size {
        Some(size) => RenderOptions::default()
            .with_size_for(format, size)
            .map_err(|e| format!("--{e}"))?,
        None => RenderOptions::default(),
    };
    let record = game::read(args.file)?;
    if let Some(list) = args.overlays {
        opts.set_overlays(list).map_err(|e| e.to_string())?;
    }
    opts.legend |= args.legend;
    opts.theme = args.theme;
    opts.hands = args.hands;
    let bytes = render::draw(&record, args.turn, Picture::Board, format, &opts)
        .map_err(|e| format!("{}: {}", args.file.display(), game::of_record(&record).render_error(e)))?;
    if args.out == Path::new("-") {
        emit_bytes(&bytes);
        return Ok(());
    }
    std::fs::write(args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))
}

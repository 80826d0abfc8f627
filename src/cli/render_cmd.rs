//! `render`: the board at a turn as PNG or SVG, or the whole game as a GIF.

use super::game;
use super::output::emit_bytes;
use crate::render::{self, ImageFormat, Picture, RenderOptions};
use std::path::{Path, PathBuf};

/// What `render` is asked for.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// A record in any format `replay` reads.
    file: PathBuf,
    /// The turn to draw (0: the start tile alone); default: the end of the game.
    #[arg(long)]
    turn: Option<u32>,
    /// Output file; `-` writes to standard output.
    #[arg(short, long)]
    output: PathBuf,
    /// Write SVG instead of PNG.
    #[arg(long)]
    svg: bool,
    /// Write the whole game as an animated GIF instead: one frame per turn (--size 16 to 96).
    #[arg(long, conflicts_with_all = ["svg", "turn"])]
    gif: bool,
    /// Comma-separated overlays: ownership, last-move, scoring, open-spots.
    #[arg(long)]
    overlay: Option<String>,
    /// Add player names, colours and scores under the board.
    #[arg(long)]
    legend: bool,
    /// Pixels per tile (16 to 256; 16 to 96 with --gif). Default 64, or less for a board
    /// too large to draw at 64 (8192 pixels a side at most).
    #[arg(long)]
    size: Option<u32>,
    /// The page the picture sits on: light, dark, or clear (no backdrop).
    #[arg(long, default_value = "light", value_parser = render::Theme::parse)]
    theme: render::Theme,
    /// The Card Game: whose hands the table shows, the mover's (the player who made the
    /// turn's move) or all; none before the round's face-down card is played.
    #[arg(long, default_value = "mover", value_parser = render::cards::Hands::parse)]
    hands: render::cards::Hands,
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
    let record = game::read(&args.file)?;
    if let Some(list) = &args.overlay {
        opts.set_overlays(list).map_err(|e| e.to_string())?;
    }
    opts.legend |= args.legend;
    opts.theme = args.theme;
    opts.hands = args.hands;
    let bytes = render::draw(&record, args.turn, Picture::Board, format, &opts)
        .map_err(|e| format!("{}: {}", args.file.display(), game::of_record(&record).render_error(e)))?;
    if args.output == Path::new("-") {
        emit_bytes(&bytes);
        return Ok(());
    }
    std::fs::write(&args.output, bytes).map_err(|e| format!("{}: {e}", args.output.display()))
}

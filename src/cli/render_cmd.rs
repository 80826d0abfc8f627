//! `render`: the board at a turn as PNG or SVG.

use super::replay_cmd::read_record;
use crate::render::{self, RenderOptions};
use std::path::Path;

/// What `render` was asked for, as the command line gives it.
pub struct RenderArgs<'a> {
    pub file: &'a Path,
    /// `None`: the end of the game.
    pub turn: Option<u32>,
    pub out: &'a Path,
    pub svg: bool,
    /// Comma-separated overlay names.
    pub overlays: Option<&'a str>,
    pub legend: bool,
    pub size: u32,
}

pub fn run(args: &RenderArgs) -> Result<(), String> {
    let record = read_record(args.file)?;
    let mut opts = RenderOptions::default().with_size(args.size);
    if let Some(list) = args.overlays {
        opts.set_overlays(list)?;
    }
    opts.legend |= args.legend;
    let svg = render::board_svg_at(&record, args.turn, &opts).map_err(|e| {
        let why = match e {
            render::RenderError::Replay(e) => e.describe(&record),
            other => other.to_string(),
        };
        format!("{}: {why}", args.file.display())
    })?;
    let bytes = if args.svg {
        svg.into_bytes()
    } else {
        render::svg_to_png(&svg).map_err(|e| e.to_string())?
    };
    std::fs::write(args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))
}

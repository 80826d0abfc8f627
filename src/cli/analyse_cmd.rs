//! `analyse`: every alternative of a turn (or of every turn), ranked, as a table or JSON. What
//! each game weighs is in [`super::game::Commands`].

use super::{PlayoutsTo, game};
use crate::analysis::Sampler;
use std::path::PathBuf;

/// What `analyse` is asked for.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// A record in any format `replay` reads.
    pub file: PathBuf,
    /// The turn to analyse (1-based); default: every turn, summarised.
    #[arg(long)]
    pub turn: Option<u32>,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Monte Carlo playouts per alternative (0: rank by the heuristic alone).
    #[arg(long)]
    pub playouts: Option<u32>,
    /// Random seed of the playouts: the same seed gives the same analysis.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Tile games: where each playout stops, `end` or `horizon` (default: the game's own,
    /// as the pages: the horizon in the base game, the end in New World).
    #[arg(long, value_enum)]
    playouts_to: Option<PlayoutsTo>,
}

impl AnalyseArgs {
    /// What the tile analysis's playouts are.
    pub fn sampler(&self) -> Sampler {
        super::sampler(self.playouts_to)
    }
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let record = game::read(&args.file)?;
    print!("{}", game::of_record(&record).analyse(args)?);
    Ok(())
}

pub fn pretty(v: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(v).expect("reports serialise") + "\n"
}

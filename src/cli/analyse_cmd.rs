//! `analyse`: every alternative of a turn (or of every turn), ranked, as a table or JSON. What
//! each game weighs is in [`super::game::Commands`].

use super::game;
use std::path::Path;

pub struct AnalyseArgs<'a> {
    pub file: &'a Path,
    pub turn: Option<u32>,
    pub json: bool,
    pub playouts: Option<u32>,
    pub seed: u64,
    /// What the tile analysis's playouts are.
    pub sampler: crate::analysis::Sampler,
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let record = game::read(args.file)?;
    print!("{}", game::of_record(&record).analyse(args)?);
    Ok(())
}

pub fn pretty(v: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(v).expect("reports serialise") + "\n"
}

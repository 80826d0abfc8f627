//! `bench honesty N`: how far the analysis's "points lost" are from the truth. On turns of
//! greedy-bot games, a reference analysis with ten times the playouts finds the best move; with
//! that move played instead (the record cut after it), the default analysis should report
//! (almost) nothing lost. The bots' own moves are rarely best, so they are replaced rather than
//! waited for.

use super::output::progress_bar;
use crate::analysis::{self, AnalysisOptions, DEFAULT_MAX_PLAYOUTS_PER_TURN};
use crate::engine::{Move, Preset};
use crate::record::RulesSpec;
use crate::record::recorded;
use crate::selfplay::{Policy, generate};
use crate::web::what_if::with_alternative;
use std::time::Instant;

/// Every `STEP`-th turn of each game is checked.
const STEP: u32 = 5;

/// What `bench honesty` is asked for.
#[derive(clap::Args, Debug)]
pub struct HonestyArgs {
    /// Greedy-bot games to check, every 5th turn of each.
    #[arg(value_name = "N")]
    games: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &HonestyArgs) -> Result<(), String> {
    let HonestyArgs { games, json: as_json } = *args;
    let default = AnalysisOptions::default();
    let reference = AnalysisOptions {
        playouts_per_alternative: Some(default.per_alternative() * 10),
        max_playouts_per_turn: DEFAULT_MAX_PLAYOUTS_PER_TURN * 10,
        seed: 0x5eed,
        ..AnalysisOptions::default()
    };
    let (mut checked, mut agreed, mut lost_when_agreed, mut nonzero) = (0u32, 0u32, 0.0f64, 0u32);
    let mut seconds = 0.0;
    for g in 0..games {
        let record = generate(
            RulesSpec::new(Preset::SecondEdition),
            2,
            Policy::Greedy,
            1000 + u64::from(g),
        )
        .map_err(|e| e.to_string())?;
        let turns = record.turns();
        for n in (STEP..=turns).step_by(STEP as usize) {
            let truth = analysis::analyse_turn(&record, n, &reference).map_err(|e| e.to_string())?;
            let (before, played) = analysis::position_before(&record, n).map_err(|e| e.to_string())?;
            let Some(best) = truth.best() else { continue };
            let mv = Move {
                tile: played.tile,
                placement: best.placement,
                action: best.action,
            };
            let best_played = with_alternative(&record, n, recorded(&before, &mv));
            checked += 1;
            let start = Instant::now();
            let told = analysis::analyse_turn(&best_played, n, &default).map_err(|e| e.to_string())?;
            seconds += start.elapsed().as_secs_f64();
            let lost = told.points_lost().unwrap_or(0.0);
            agreed += 1;
            lost_when_agreed += lost;
            nonzero += u32::from(lost > 0.0);
        }
        progress_bar("checking", "games", g + 1, games);
    }
    let mean = lost_when_agreed / f64::from(agreed.max(1));
    if as_json {
        let doc = serde_json::json!({
            "games": games, "turns_checked": checked, "turns_with_best_played": agreed,
            "mean_points_lost_reported": mean, "turns_with_points_lost": nonzero,
            "default_seconds_per_turn": seconds / f64::from(agreed.max(1)),
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON values serialise"));
    } else {
        println!("turns checked                         {checked}");
        println!("  with the reference's best move played {agreed}");
        println!("points lost reported there, mean       {mean:.3} (target ≤ 0.3)");
        println!("  turns reporting any loss             {nonzero}");
    }
    Ok(())
}

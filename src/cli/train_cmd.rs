//! `train`: fits the search's learned evaluation (`analysis::search::learned`) on self-play
//! games and writes its weights, with how well they predict games the fit never saw.

use super::output::{emit, progress_bar};
use crate::analysis::search::learned::WeightsFile;
use crate::analysis::search::learned::features::FeatureSet;
use crate::analysis::search::learned::train::{TrainSettings, train};
use std::fmt::Write as _;
use std::path::Path;

/// What `train` was asked for, as the command line gives it.
pub struct TrainArgs<'a> {
    pub game: &'a str,
    pub games: u32,
    pub seed: u64,
    pub policy: &'a str,
    pub every: u32,
    /// The weights file to write; `None`, standard output.
    pub out: Option<&'a Path>,
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    let Some(set) = FeatureSet::ALL.into_iter().find(|set| set.game_name() == args.game) else {
        return Err(format!(
            "train: {:?} has no learned evaluation; carcassonne (the base game), new-world and card-game do",
            args.game
        ));
    };
    if args.games < 5 {
        return Err(format!(
            "train: give at least 5 games (one in five is held out), not {}",
            args.games
        ));
    }
    let settings = TrainSettings {
        set,
        games: args.games,
        seed: args.seed,
        policy: args.policy.parse()?,
        every: args.every.max(1),
        threads: 0,
    };
    let file = train(&settings, &|done, total| progress_bar("playing", "games", done, total))?;
    let json = serde_json::to_string_pretty(&file).expect("JSON values serialise") + "\n";
    match args.out {
        Some(path) => {
            std::fs::write(path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            emit(&summary(&file));
        }
        None => {
            eprint!("{}", summary(&file));
            emit(&json);
        }
    }
    Ok(())
}

/// The fit on the held-out games and the weights, one a line.
fn summary(file: &WeightsFile) -> String {
    let f = &file.fit;
    let worths = f
        .r2_worth_held_out
        .map_or(String::new(), |r2| format!(", fitted worths {r2:.3}"));
    let mut out = format!(
        "{} games ({} policy), {} positions, {} of them held out; {:.1} s\n\
         held-out R² of the final margin: learned {:.3}{worths}, margin if ended {:.3}\n",
        f.games, f.policy, f.positions, f.held_out_positions, f.seconds, f.r2_held_out, f.r2_ended_held_out
    );
    for (name, w) in file.features.iter().zip(&file.weights) {
        let _ = writeln!(out, "  {name:<28} {w:+.3}");
    }
    out
}

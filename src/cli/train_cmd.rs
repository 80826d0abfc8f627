//! `train`: fits the search's learned evaluation (`analysis::search::learned`) on self-play
//! games and writes its weights, with how well they predict games the fit never saw.

use super::output::{emit, progress_bar};
use crate::analysis::search::learned::WeightsFile;
use crate::analysis::search::learned::features::FeatureSet;
use crate::analysis::search::learned::train::{TrainLabel, TrainPolicy, TrainSettings, train};
use std::fmt::Write as _;
use std::path::PathBuf;

/// What `train` is asked for.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// The game: carcassonne (the base game, second edition), new-world (the sample tiles
    /// generate plays) or card-game; two players.
    #[arg(long, default_value = "carcassonne", value_parser = feature_set)]
    game: FeatureSet,
    /// Games to play; one in five is held out to judge the fit.
    #[arg(long, default_value_t = 100_000)]
    games: u32,
    /// Random seed: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who plays them: weighed (the bot the search's samples play), sampled (the greedy bot
    /// erring now and then) or search-samples:N (the search with the shipped weights, N
    /// samples a move).
    #[arg(long, default_value = "weighed")]
    policy: TrainPolicy,
    /// Take a position every N tiles (the Card Game: every player's, between every two
    /// rounds).
    #[arg(long, default_value_t = 3)]
    every: u32,
    /// What each position is labelled with: final (the game's final margin) or search:N (the
    /// tile games: the search's own value of the position with the drawn tile, N samples).
    #[arg(long, default_value = "final")]
    label: TrainLabel,
    /// The weights file to write (default: standard output, the fit on standard error).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The game `--game` names, by its features.
fn feature_set(name: &str) -> Result<FeatureSet, String> {
    (FeatureSet::ALL.into_iter().find(|set| set.game_name() == name)).ok_or_else(|| {
        format!("train: {name:?} has no learned evaluation; carcassonne (the base game), new-world and card-game do")
    })
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    if args.game == FeatureSet::CardGame && args.label != TrainLabel::Final {
        return Err("train: the Card Game's positions are labelled with the final margin only".into());
    }
    if args.games < 5 {
        return Err(format!(
            "train: give at least 5 games (one in five is held out), not {}",
            args.games
        ));
    }
    let settings = TrainSettings {
        set: args.game,
        games: args.games,
        seed: args.seed,
        policy: args.policy,
        every: args.every.max(1),
        label: args.label,
        threads: 0,
    };
    let file =
        train(&settings, &|done, total| progress_bar("playing", "games", done, total)).map_err(|e| e.to_string())?;
    let json = serde_json::to_string_pretty(&file).expect("JSON values serialise") + "\n";
    match &args.out {
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
    let of_final = f
        .r2_final_held_out
        .map_or(String::new(), |r2| format!("; of the final margin, learned {r2:.3}"));
    let label = match f.label.as_str() {
        "final" => "the final margin".to_string(),
        other => format!("the label ({other})"),
    };
    let mut out = format!(
        "{} games ({} policy), {} positions, {} of them held out; {:.1} s\n\
         held-out R² of {label}: learned {:.3}{worths}, margin if ended {:.3}{of_final}\n",
        f.games, f.policy, f.positions, f.held_out_positions, f.seconds, f.r2_held_out, f.r2_ended_held_out
    );
    for (name, w) in file.features.iter().zip(&file.weights) {
        let _ = writeln!(out, "  {name:<28} {w:+.3}");
    }
    out
}

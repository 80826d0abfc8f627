//! The command line: one module per command, and `output` for what they share. Each command's
//! arguments are a clap struct in its own module, parsed there into typed values (a game, a
//! rulebook, a policy), so that `run` only hands them over and a bad value is refused before
//! any work starts.

mod analyse_cmd;
mod bench;
mod calibrate_cmd;
mod cards;
mod collection_bench;
mod db_cmd;
mod game;
mod honesty;
mod judge;
mod load;
mod match_cmd;
mod output;
mod outside;
mod players_bench;
mod render_cmd;
mod replay_cmd;
mod serve;
mod tiles;
mod train_cmd;

use crate::analysis::Sampler;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "carcassonne-replay",
    version,
    about = "Replay, score and analyse Carcassonne games"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Every command, each with its arguments as its own module defines them.
#[derive(Subcommand)]
enum Command {
    /// Run the web service. An empty database gets a demo game of each kind.
    Serve(serve::ServeArgs),
    /// Run analyses only: claim the analyses queued on the database by any `serve` and run
    /// them, until stopped.
    Worker(serve::WorkerArgs),
    /// Replay a game record and print every turn's scores and the final breakdown.
    Replay(replay_cmd::ReplayArgs),
    /// Convert a record to another format.
    Export(replay_cmd::ExportArgs),
    /// Play a game with bots and print it as a carcassonne-replay JSON record.
    Generate(replay_cmd::GenerateArgs),
    /// Draw the board at a turn as PNG (or SVG).
    Render(render_cmd::RenderArgs),
    /// Rank every alternative placement of the drawn tile: one turn, or the whole game.
    Analyse(analyse_cmd::AnalyseArgs),
    /// Measure how strong a move chooser is: A against B over the same tile orders (or deals),
    /// A in each seat in turn (build with --release).
    Match(match_cmd::MatchArgs),
    /// Fit the win-chance model on generated games and show how well it predicts.
    Calibrate(calibrate_cmd::CalibrateArgs),
    /// Fit the search's learned evaluation on self-play games and write its weights as JSON
    /// (build with --release).
    Train(train_cmd::TrainArgs),
    /// Copy every game, snapshot and analysis from one database to another, empty one, of
    /// either kind, and check the counts: how a SQLite service moves to PostgreSQL. Stop the
    /// services on FROM first (or copy from a backup).
    CopyDb(db_cmd::CopyDbArgs),
    /// Copy the service's SQLite database to a new file, consistently, even while it serves.
    /// (For PostgreSQL, use pg_dump.)
    Backup(db_cmd::BackupArgs),
    /// Measure engine throughput, or with a subcommand the service, player pages, a collection
    /// or the analysis (build with --release).
    Bench(bench::BenchArgs),
}

/// Where `--playouts-to` stops the tile analysis's playouts.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum PlayoutsTo {
    End,
    Horizon,
}

/// The sampler `--playouts-to` asks for: the default when not given.
fn sampler(to: Option<PlayoutsTo>) -> Sampler {
    match to {
        None => Sampler::default(),
        Some(PlayoutsTo::End) => Sampler::ToTheEnd,
        Some(PlayoutsTo::Horizon) => Sampler::Horizon,
    }
}

pub fn run() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Serve(args) => serve::run(&args),
        Command::Worker(args) => serve::worker(&args),
        Command::CopyDb(args) => db_cmd::copy_db(&args),
        Command::Backup(args) => db_cmd::backup(&args),
        Command::Replay(args) => replay_cmd::run(&args),
        Command::Export(args) => replay_cmd::export(&args),
        Command::Generate(args) => replay_cmd::generate(&args),
        Command::Render(args) => render_cmd::run(&args),
        Command::Analyse(args) => analyse_cmd::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Calibrate(args) => calibrate_cmd::run(&args),
        Command::Train(args) => train_cmd::run(&args),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `--help` describes every argument of every command: a flag without words is one a user
    /// must guess at.
    #[test]
    fn every_argument_of_every_command_is_described() {
        fn bare_in(command: &clap::Command, path: &str, bare: &mut Vec<String>) {
            for arg in command.get_arguments().filter(|a| a.get_id() != "help") {
                if arg.get_help().is_none() {
                    bare.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
                if sub.get_about().is_none() {
                    bare.push(format!("{path} {}", sub.get_name()));
                }
                let path = format!("{path} {}", sub.get_name());
                bare_in(sub, path.trim_start(), bare);
            }
        }
        let mut bare = Vec::new();
        bare_in(&Cli::command(), "", &mut bare);
        assert!(bare.is_empty(), "arguments without a description: {bare:?}");
    }
}

//! The command line: one module per command, and `output` for what they share.

mod analyse_cmd;
mod bench;
mod calibrate_cmd;
mod cards;
mod collection_bench;
mod game;
mod honesty;
mod judge;
mod load;
mod match_cmd;
mod output;
mod players_bench;
mod render_cmd;
mod replay_cmd;
mod serve;
mod tiles;
mod train_cmd;

use crate::analysis::Sampler;
use crate::store::{Database, Store};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
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

#[derive(Subcommand)]
enum Command {
    /// Run the web service. An empty database gets a demo game of each kind.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: String,
        /// The database: a SQLite file (created if missing), or a PostgreSQL server's
        /// postgres:// URL, which several nodes may share.
        #[arg(long, default_value = "./carcassonne-replay.sqlite")]
        db: Database,
        /// The address the public reaches the site at, for links in pages and link previews,
        /// such as https://replay.example.org (default: http:// and the bind address).
        #[arg(long)]
        public_url: Option<String>,
        /// Uploads each client may make per minute.
        #[arg(long, default_value_t = crate::web::limits::UPLOADS_PER_MINUTE)]
        uploads_per_minute: u32,
        /// Analysis requests each client may make per minute.
        #[arg(long, default_value_t = crate::web::limits::ANALYSES_PER_MINUTE)]
        analyses_per_minute: u32,
        /// Comments each client may write or remove per minute.
        #[arg(long, default_value_t = crate::web::limits::ANNOTATIONS_PER_MINUTE)]
        annotations_per_minute: u32,
        /// Analyses waiting or running at most; past it, requests are answered 503.
        #[arg(long, default_value_t = crate::queue::ANALYSIS_QUEUE)]
        analysis_queue: u64,
        /// Analysis worker threads in this process; 0 when other processes on the same
        /// database run the analyses.
        #[arg(long, default_value_t = 1)]
        analysis_workers: usize,
    },
    /// Run analyses only: claim the analyses queued on the database by any `serve` and run
    /// them, until stopped.
    Worker {
        /// The database: a SQLite file, or a PostgreSQL server's postgres:// URL.
        #[arg(long, default_value = "./carcassonne-replay.sqlite")]
        db: Database,
        /// Analyses run at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seconds a job stays this worker's without news from it: past them, after a crash,
        /// another worker takes the job over. Progress renews it at every turn.
        #[arg(long, default_value_t = crate::queue::LEASE.as_secs_f64())]
        lease_seconds: f64,
    },
    /// Replay a game record and print every turn's scores and the final breakdown.
    Replay {
        /// A carcassonne-replay JSON record, a JCloisterZone .jcz save, a Board Game Arena log
        /// or course notation (detected from content).
        file: PathBuf,
        /// Print one JSON document instead of a table.
        #[arg(long)]
        json: bool,
        /// Replay under another rules preset: second-edition, classic-2000,
        /// classic-2000-alternate or course.
        #[arg(long)]
        preset: Option<String>,
    },
    /// Convert a record to another format.
    Export {
        /// A record in any format `replay` reads.
        file: PathBuf,
        /// Target format: json (the native carcassonne-replay/1 record), jcz (a JCloisterZone
        /// 5.x save), csv (the scoring events of the replayed game) or lab (a Carcassonne Lab
        /// link).
        #[arg(long, default_value = "json")]
        to: String,
    },
    /// Play a game with bots and print it as a carcassonne-replay JSON record.
    Generate {
        /// Random seed: the same seed gives the same game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players at the table.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// carcassonne, new-world (played on our sample tile set) or card-game.
        #[arg(long, default_value = "carcassonne")]
        game: String,
        /// The rulebook; default: the game's own (second-edition, or new-world).
        #[arg(long)]
        preset: Option<String>,
        /// random, greedy (the most points now, of every move) or sampled (the best of three
        /// sampled placements, as the analysis's playouts play).
        #[arg(long, default_value = "greedy")]
        policy: String,
        /// Play with The River.
        #[arg(long)]
        river: bool,
        /// Play with The Abbot.
        #[arg(long)]
        abbot: bool,
    },
    /// Draw the board at a turn as PNG (or SVG).
    Render {
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
        /// The page the picture sits on: light or dark.
        #[arg(long, default_value = "light", value_parser = crate::render::Theme::parse)]
        theme: crate::render::Theme,
        /// The Card Game: whose hands the table shows, the mover's (the player who made the
        /// turn's move) or all; none before the round's face-down card is played.
        #[arg(long, default_value = "mover", value_parser = crate::render::cards::Hands::parse)]
        hands: crate::render::cards::Hands,
    },
    /// Rank every alternative placement of the drawn tile: one turn, or the whole game.
    Analyse {
        /// A record in any format `replay` reads.
        file: PathBuf,
        /// The turn to analyse (1-based); default: every turn, summarised.
        #[arg(long)]
        turn: Option<u32>,
        /// Print one JSON document instead of a table.
        #[arg(long)]
        json: bool,
        /// Monte Carlo playouts per alternative (0: rank by the heuristic alone).
        #[arg(long)]
        playouts: Option<u32>,
        /// Random seed of the playouts: the same seed gives the same analysis.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Tile games: where each playout stops, `end` or `horizon` (default: the game's own,
        /// as the pages: the horizon in the base game, the end in New World).
        #[arg(long, value_enum)]
        playouts_to: Option<PlayoutsTo>,
    },
    /// Measure how strong a move chooser is: A against B over the same tile orders (or deals),
    /// A in each seat in turn (build with --release).
    Match {
        /// A's policy: random, greedy (the most points now), flat (the analysis with playouts
        /// to the end), flat:K (K playouts per alternative), horizon or horizon:K (the pages'
        /// analysis, playouts to the horizon), search or search:T (the search, T ms a move).
        #[arg(long)]
        a: String,
        /// B's policy, in the same words; B takes every seat A does not.
        #[arg(long)]
        b: String,
        /// Games in all, rounded up to whole rotations of the seats.
        #[arg(long, default_value_t = 200)]
        games: u32,
        /// Players at the table.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// The game: carcassonne, new-world or card-game; default: the one --preset is a
        /// rulebook of, else carcassonne.
        #[arg(long)]
        game: Option<String>,
        /// The tile games' rulebook (second-edition, classic-2000, classic-2000-alternate,
        /// course, new-world); default: the game's own.
        #[arg(long)]
        preset: Option<String>,
        /// Random seed of the tile orders (or deals) and the players: the same seed plays the
        /// same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Milliseconds per move of every search contender (default: its own, or 100).
        #[arg(long)]
        ms_per_move: Option<u32>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fit the win-chance model on generated games and show how well it predicts.
    Calibrate {
        /// Games to generate.
        #[arg(long, default_value_t = 200)]
        games: u32,
        /// Players at the table.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// carcassonne, new-world or card-game.
        #[arg(long, default_value = "carcassonne")]
        game: String,
        /// The tile games' rulebook (second-edition, classic-2000, classic-2000-alternate,
        /// course, new-world); default: the game's own.
        #[arg(long)]
        preset: Option<String>,
        /// Who plays the tile games, in match's words (greedy, horizon:K, search:T, ...);
        /// default: greedy bots (the Card Game: its sampled bots).
        #[arg(long)]
        policy: Option<String>,
        /// Playouts valuing each position.
        #[arg(long, default_value_t = 32)]
        playouts: u32,
        /// Value every N-th move of each game.
        #[arg(long, default_value_t = 4)]
        every: u32,
        /// Random seed: the same seed plays the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fit the search's learned evaluation on self-play games and write its weights as JSON
    /// (build with --release).
    Train {
        /// The game: carcassonne (the base game, second edition), new-world (the sample tiles
        /// generate plays) or card-game; two players.
        #[arg(long, default_value = "carcassonne")]
        game: String,
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
        policy: String,
        /// Take a position every N tiles (the Card Game: every player's, between every two
        /// rounds).
        #[arg(long, default_value_t = 3)]
        every: u32,
        /// The weights file to write (default: standard output, the fit on standard error).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Copy every game, snapshot and analysis from one database to another, empty one, of
    /// either kind, and check the counts: how a SQLite service moves to PostgreSQL. Stop the
    /// services on FROM first (or copy from a backup).
    CopyDb {
        /// The database to copy: a SQLite file or a postgres:// URL.
        from: Database,
        /// The database to fill: a SQLite file (created) or a postgres:// URL.
        to: Database,
    },
    /// Copy the service's SQLite database to a new file, consistently, even while it serves.
    /// (For PostgreSQL, use pg_dump.)
    Backup {
        /// The copy to write (must not exist).
        file: PathBuf,
        /// The database to copy.
        #[arg(long, default_value = "./carcassonne-replay.sqlite")]
        db: PathBuf,
    },
    /// Measure engine throughput (build with --release).
    Bench {
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
        /// Seconds to spend on each measurement (with --service: on the whole run).
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Load the whole service over loopback instead: pages, cached images, JSON and
        /// uploads from concurrent clients, with latency percentiles per kind.
        #[arg(long)]
        service: bool,
        /// With --service: concurrent clients.
        #[arg(long, default_value_t = 200)]
        clients: usize,
        /// With --service: requests of one kind only: pages, images, json or uploads.
        #[arg(long)]
        only: Option<String>,
        /// With --service or --players: the database to serve from, a SQLite file or a
        /// postgres:// URL; the bench stores its games there (default: a new file in the temp
        /// directory, removed after).
        #[arg(long)]
        db: Option<Database>,
        /// Time player pages and search over a database of this many generated games instead,
        /// and what the player rows add to storing a game.
        #[arg(long)]
        players: Option<u64>,
        /// With --service: web nodes on the one database, each with its own store and caches;
        /// the clients take turns among them.
        #[arg(long, default_value_t = 1, requires = "service")]
        nodes: usize,
        /// Time a collection of this many generated games instead: importing them as
        /// Carcassonne Lab links, and building its page cold and warm.
        #[arg(long)]
        collection: Option<u32>,
        /// Check the analysis's points lost against a reference with ten times the playouts,
        /// on this many greedy-bot games (every 5th turn) instead.
        #[arg(long)]
        honesty: Option<u32>,
        /// Judge the analysis instead: analyse whole games of bots and of the records given, at
        /// the pages' options, and print per group the points lost a move, how often the move
        /// played is the first listed, whether losses agree with the listed values, and how
        /// well the win chances predicted the results.
        #[arg(long)]
        judge: bool,
        /// With --judge: records to judge besides the bots' games, in any format `replay`
        /// reads, or CSV files of Carcassonne Lab links, one game a line.
        #[arg(requires = "judge")]
        files: Vec<PathBuf>,
        /// With --judge: games of each bot.
        #[arg(long, default_value_t = 4, requires = "judge")]
        games: u32,
        /// With --judge: the seed of the bots' first game (the next ones count up from it).
        #[arg(long, default_value_t = 1, requires = "judge")]
        seed: u64,
        /// With --judge: the bots' game, carcassonne, new-world or card-game.
        #[arg(long, default_value = "carcassonne", requires = "judge")]
        game: String,
        /// With --judge: the bots, comma-separated, in `match`'s words (random, greedy,
        /// search, search:T, flat, …); each plays every seat of its games.
        #[arg(long, default_value = "random,greedy,search", requires = "judge")]
        bots: String,
        /// With --judge: where the tile analysis's playouts stop, `end` or `horizon`
        /// (default: the game's own, as the pages).
        #[arg(long, value_enum, requires = "judge")]
        playouts_to: Option<PlayoutsTo>,
    },
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

/// `copy-db`: every game from one database into another, with a line of progress now and then.
fn copy_db(from: &Database, to: &Database) -> Result<(), String> {
    // Opening a file creates it: a mistyped source would be copied as an empty database.
    if let Database::File(path) = from
        && !path.exists()
    {
        return Err(format!("no database at {}", path.display()));
    }
    let open = |db: &Database| Store::open(db.clone()).map_err(|e| format!("{db}: {e}"));
    let (source, target) = (open(from)?, open(to)?);
    let total = source.count().map_err(|e| e.to_string())?;
    let progress = |done: u64| eprintln!("{done} of {total} games copied");
    let counts = crate::store::copy(&source, &target, &progress).map_err(|e| e.to_string())?;
    println!(
        "{from} copied to {to}: {} games, {} snapshots, {} analyses and {} annotations, as many as the source holds",
        counts.games, counts.snapshots, counts.analyses, counts.annotations
    );
    Ok(())
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve {
            bind,
            db,
            public_url,
            uploads_per_minute,
            analyses_per_minute,
            annotations_per_minute,
            analysis_queue,
            analysis_workers,
        } => {
            let limits = crate::web::limits::LimitSettings {
                uploads_per_minute,
                analyses_per_minute,
                annotations_per_minute,
            };
            serve::run(
                &bind,
                &db,
                public_url.as_deref(),
                limits,
                (analysis_queue, analysis_workers),
            )
        }
        Command::Worker {
            db,
            threads,
            lease_seconds,
        } => match std::time::Duration::try_from_secs_f64(lease_seconds) {
            Ok(lease) if lease_seconds >= 1.0 => serve::worker(&db, threads, lease),
            _ => Err(format!(
                "--lease-seconds {lease_seconds}: give a number of seconds, 1 or more"
            )),
        },
        Command::CopyDb { from, to } => copy_db(&from, &to),
        Command::Backup { file, db } => crate::store::backup(&db, &file)
            .map(|()| println!("{} copied to {}", db.display(), file.display()))
            .map_err(|e| e.to_string()),
        Command::Replay { file, json, preset } => replay_cmd::run(&file, json, preset.as_deref()),
        Command::Export { file, to } => replay_cmd::export(&file, &to),
        Command::Generate {
            seed,
            players,
            game,
            preset,
            policy,
            river,
            abbot,
        } => replay_cmd::generate(seed, players, (&game, preset.as_deref()), &policy, river, abbot),
        Command::Render {
            file,
            turn,
            output,
            svg,
            gif,
            overlay,
            legend,
            size,
            theme,
            hands,
        } => render_cmd::run(&render_cmd::RenderArgs {
            file: &file,
            turn,
            out: &output,
            svg,
            gif,
            overlays: overlay.as_deref(),
            legend,
            size,
            theme,
            hands,
        }),
        Command::Analyse {
            file,
            turn,
            json,
            playouts,
            seed,
            playouts_to,
        } => analyse_cmd::run(&analyse_cmd::AnalyseArgs {
            file: &file,
            turn,
            json,
            playouts,
            seed,
            sampler: sampler(playouts_to),
        }),
        Command::Match {
            a,
            b,
            games,
            players,
            game,
            preset,
            seed,
            ms_per_move,
            json,
        } => match_cmd::run(&match_cmd::MatchArgs {
            a: &a,
            b: &b,
            games,
            players,
            game: game.as_deref(),
            preset: preset.as_deref(),
            seed,
            ms_per_move,
            json,
        }),
        Command::Calibrate {
            games,
            players,
            game,
            preset,
            policy,
            playouts,
            every,
            seed,
            json,
        } => calibrate_cmd::run(&calibrate_cmd::CalibrateArgs {
            games,
            players,
            game: &game,
            preset: preset.as_deref(),
            policy: policy.as_deref(),
            playouts,
            every,
            seed,
            json,
        }),
        Command::Train {
            game,
            games,
            seed,
            policy,
            every,
            out,
        } => train_cmd::run(&train_cmd::TrainArgs {
            game: &game,
            games,
            seed,
            policy: &policy,
            every,
            out: out.as_deref(),
        }),
        Command::Bench {
            json,
            judge: true,
            files,
            games,
            seed,
            game,
            bots,
            playouts_to,
            ..
        } => judge::run(&judge::JudgeArgs {
            files: &files,
            games,
            seed,
            game: &game,
            bots: &bots,
            json,
            sampler: sampler(playouts_to),
        }),
        Command::Bench {
            json,
            honesty: Some(games),
            ..
        } => honesty::run(games, json),
        Command::Bench {
            players: Some(games),
            db,
            ..
        } => players_bench::run(games, db),
        Command::Bench {
            json,
            collection: Some(games),
            ..
        } => collection_bench::run(games, json),
        Command::Bench {
            json,
            seconds,
            service: false,
            ..
        } => bench::run(json, seconds),
        Command::Bench {
            json,
            seconds,
            clients,
            only,
            db,
            nodes,
            ..
        } => load::run(load::Setup { db, nodes }, clients, seconds, only.as_deref(), json),
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
        let cli = Cli::command();
        let mut bare = Vec::new();
        for command in cli.get_subcommands() {
            for arg in command.get_arguments().filter(|a| a.get_id() != "help") {
                if arg.get_help().is_none() {
                    bare.push(format!("{} {}", command.get_name(), arg.get_id()));
                }
            }
        }
        assert!(bare.is_empty(), "arguments without a description: {bare:?}");
    }
}

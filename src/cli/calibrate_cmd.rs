//! `calibrate`: fits the win-chance model (`analysis::win_chance`) on generated games and says
//! how well it predicts, so its constants can be checked and refitted.

use super::game::{self, Commands};
use super::output::{emit, progress_bar};
use super::tiles;
use crate::analysis::arena::{Contender, ContenderError};
use crate::analysis::completion_rates::CompletionRates;
use crate::analysis::win_chance::{self, CalibrationSettings};
use crate::engine::{GameKind, Preset};
use crate::record::{self, AnyRecord};
use std::fmt::Write as _;

/// What `calibrate` is asked for.
#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// Games to generate.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Players at the table.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// carcassonne, new-world or card-game.
    #[arg(long, default_value = "carcassonne")]
    game: GameKind,
    /// The tile games' rulebook (second-edition, classic-2000, classic-2000-alternate,
    /// course, new-world); default: the game's own.
    #[arg(long, value_parser = game::preset)]
    preset: Option<Preset>,
    /// Who plays the tile games, in match's words (greedy, horizon:K, search:T, ...);
    /// default: greedy bots (the Card Game: its sampled bots).
    #[arg(long, value_parser = Policy::parse)]
    policy: Option<Policy>,
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
    /// Count how often open features were completed instead, by what the board showed of them
    /// (the tile games; `--policy` plays the games): print the rates
    /// `analysis/completion_rates.json` holds.
    #[arg(long)]
    completion: bool,
    /// With --completion: count the features of these games instead of playing any (records
    /// in any format `replay` reads, or CSV files of Carcassonne Lab links, as `bench judge`).
    #[arg(long, num_args = 1.., requires = "completion")]
    records: Vec<std::path::PathBuf>,
}

/// A `match` policy, with the words it was given in: the JSON report repeats them (`search`,
/// where the policy itself would say `search:100`).
#[derive(Clone)]
struct Policy {
    contender: Contender,
    words: String,
}

impl Policy {
    fn parse(words: &str) -> Result<Policy, ContenderError> {
        Ok(Policy {
            contender: words.parse()?,
            words: words.to_string(),
        })
    }
}

pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    if !(2..=5).contains(&args.players) {
        return Err(format!("games have 2 to 5 players, not {}", args.players));
    }
    if args.completion {
        return completion(args);
    }
    let settings = CalibrationSettings {
        games: args.games,
        players: args.players,
        playouts: args.playouts.max(1),
        every: args.every.max(1),
        seed: args.seed,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let progress = |done, total| progress_bar("valuing", "games", done, total);
    let kind = args.game;
    let policy = args.policy.as_ref().map(|p| p.contender);
    let (samples, in_use, steps) =
        record::dispatch_kind!(kind, R => R::calibration(kind, args.preset, policy, &settings, &progress))?;
    let c = win_chance::fit(&samples, in_use);
    emit(&if args.json {
        let doc = serde_json::json!({
            "game": kind.name(), "policy": args.policy.as_ref().map_or("default", |p| &p.words), "games": args.games,
            "players": args.players, "rules": args.preset.map(Preset::name),
            "playouts": settings.playouts, "every": settings.every, "seed": args.seed,
            "samples": c.samples, "scale_base": c.scale.base, "scale_per_step": c.scale.per_step,
            "log_loss": c.log_loss, "in_use_log_loss": c.in_use_log_loss,
            "average": c.average, "baseline_log_loss": c.baseline_log_loss, "brier": c.brier,
            "bins": c.bins.iter().map(|(n, p, o)| serde_json::json!({"count": n, "predicted": p, "observed": o})).collect::<Vec<_>>(),
            "in_use": {"scale_base": in_use.base, "scale_per_step": in_use.per_step},
        });
        serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"
    } else {
        table(&c, in_use, steps)
    });
    Ok(())
}

/// `calibrate --completion`: the completion rates of the games `args` asks for, as
/// `analysis/completion_rates.json` holds them, with the command that made them.
fn completion(args: &CalibrateArgs) -> Result<(), String> {
    if !args.game.places_tiles() {
        return Err(format!("{} has no features to complete", args.game.name()));
    }
    if !args.records.is_empty() {
        return completion_of_records(&args.records);
    }
    let policy = args
        .policy
        .as_ref()
        .ok_or("--completion needs --policy: who plays the games")?;
    let progress = |done, total| progress_bar("playing", "games", done, total);
    let playing = (policy.contender, args.players);
    let rows = tiles::completion_rates(args.game, args.preset, playing, (args.games, args.seed), &progress)?;
    let made_by = format!(
        "calibrate --completion --game {} --policy {} --games {} --players {} --seed {}",
        args.game.name(),
        policy.words,
        args.games,
        args.players,
        args.seed
    );
    let rates = CompletionRates::count(made_by, args.games, rows);
    emit(&(serde_json::to_string_pretty(&rates).expect("the rates serialise") + "\n"));
    Ok(())
}

/// `calibrate --completion --records`: the completion rates of the tile games in `files`.
fn completion_of_records(files: &[std::path::PathBuf]) -> Result<(), String> {
    let mut rows = Vec::new();
    let mut games = 0;
    for path in files {
        for (name, record) in super::judge::records_in(path)? {
            let AnyRecord::Tiles(record, _) = record else {
                return Err(format!("{name}: the Card Game has no features to complete"));
            };
            rows.extend(tiles::completion_rows(&record).map_err(|e| format!("{name}: {e}"))?);
            games += 1;
        }
    }
    let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let made_by = format!("calibrate --completion --records {}", files.join(" "));
    let rates = CompletionRates::count(made_by, games, rows);
    emit(&(serde_json::to_string_pretty(&rates).expect("the rates serialise") + "\n"));
    Ok(())
}

fn table(c: &win_chance::Calibration, in_use: win_chance::Scale, steps: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "samples                 {}", c.samples);
    let _ = writeln!(
        out,
        "fitted scale            {} + {} × {steps} left",
        c.scale.base, c.scale.per_step
    );
    let _ = writeln!(
        out,
        "in use                  {} + {} × {steps} left",
        in_use.base, in_use.per_step
    );
    let _ = writeln!(
        out,
        "log loss                {:.4} fitted, {:.4} in use (always {:.0}%: {:.4})",
        c.log_loss,
        c.in_use_log_loss,
        c.average * 100.0,
        c.baseline_log_loss
    );
    let _ = writeln!(out, "Brier score             {:.4}", c.brier);
    let _ = writeln!(out, "predicted   count   mean predicted   won");
    for (i, (n, p, o)) in c.bins.iter().enumerate().filter(|(_, b)| b.0 > 0) {
        let _ = writeln!(
            out,
            "{:>3}–{:<3}%  {n:>6}   {:>13.1}%   {:>5.1}%",
            i * 10,
            i * 10 + 10,
            p * 100.0,
            o * 100.0
        );
    }
    out
}

//! `calibrate`: fits the win-chance model (`analysis::win_chance`) on generated games and says
//! how well it predicts, so its constants can be checked and refitted.

use super::game::{self, Commands};
use super::output::{emit, progress_bar};
use crate::analysis::arena::Contender;
use crate::analysis::win_chance::{self, CalibrationSettings};
use crate::record;
use std::fmt::Write as _;

/// What `calibrate` was asked for, as the command line gives it.
pub struct CalibrateArgs<'a> {
    pub games: u32,
    pub players: u8,
    /// `carcassonne` (the tile games) or `card-game`.
    pub game: &'a str,
    /// The tile games' rulebook; `None`, the game's own.
    pub preset: Option<&'a str>,
    /// Who plays the games (a `match` policy); `None`, the game's calibration bots.
    pub policy: Option<&'a str>,
    pub playouts: u32,
    pub every: u32,
    pub seed: u64,
    pub json: bool,
}

pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    if !(2..=5).contains(&args.players) {
        return Err(format!("games have 2 to 5 players, not {}", args.players));
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
    let kind = game::kind(args.game)?;
    let policy: Option<Contender> = args
        .policy
        .map(str::parse::<Contender>)
        .transpose()
        .map_err(|e| e.to_string())?;
    let (samples, in_use, steps) =
        record::dispatch_kind!(kind, R => R::calibration(kind, args.preset, policy, &settings, &progress))?;
    let c = win_chance::fit(&samples, in_use);
    emit(&if args.json {
        let doc = serde_json::json!({
            "game": args.game, "policy": args.policy.unwrap_or("default"), "games": args.games, "players": args.players, "rules": args.preset,
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

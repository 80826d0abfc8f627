//! `match`: two move choosers play each other over the same tile orders, seats rotated, and the
//! result says how much stronger one is, with its uncertainty.

use super::output::{emit, progress_bar};
use super::replay_cmd::preset;
use crate::analysis::arena::{Contender, MatchResult, MatchSettings, play_match};
use crate::record::RulesSpec;

/// What `match` was asked for, as the command line gives it.
pub struct MatchArgs<'a> {
    pub a: &'a str,
    pub b: &'a str,
    pub games: u32,
    pub players: u8,
    pub preset: &'a str,
    pub seed: u64,
    /// The time of each `search` contender, in place of its own.
    pub ms_per_move: Option<u32>,
    pub json: bool,
}

pub fn run(args: &MatchArgs) -> Result<(), String> {
    if !(2..=5).contains(&args.players) {
        return Err(format!("a match has 2 to 5 players, not {}", args.players));
    }
    let timed = |c: Contender| match (c, args.ms_per_move) {
        (Contender::Search { .. }, Some(ms)) => Contender::Search { ms },
        (c, _) => c,
    };
    let settings = MatchSettings {
        a: timed(args.a.parse()?),
        b: timed(args.b.parse()?),
        games: args.games,
        players: args.players,
        rules: RulesSpec::new(preset(args.preset)?),
        seed: args.seed,
    };
    let r = play_match(&settings, &|done, total| progress_bar("playing", "games", done, total))?;
    emit(&if args.json {
        serde_json::to_string_pretty(&json(&settings, &r)).expect("JSON values serialise") + "\n"
    } else {
        table(&settings, &r)
    });
    Ok(())
}

fn json(s: &MatchSettings, r: &MatchResult) -> serde_json::Value {
    serde_json::json!({
        "a": s.a.to_string(),
        "b": s.b.to_string(),
        "players": s.players,
        "rules": s.rules.preset.name(),
        "seed": s.seed,
        "games": r.games,
        "a_wins": r.a_wins,
        "a_win_rate": r.a_win_rate,
        "a_win_rate_95": [r.a_win_interval.0, r.a_win_interval.1],
        "a_mean_margin": r.a_mean_margin,
        "a_ms_per_move": r.a_ms_per_move,
        "b_ms_per_move": r.b_ms_per_move,
    })
}

fn table(s: &MatchSettings, r: &MatchResult) -> String {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    format!(
        "A = {}, B = {}: {} games of {} players ({} tile orders, A in each seat once), {} rules\n\
         A wins {} of {}: {} (95% interval {} to {})\n\
         A's mean margin: {:+.1} points (A's score less the best other's)\n\
         time per move: A {:.2} ms, B {:.2} ms\n",
        s.a,
        s.b,
        r.games,
        s.players,
        r.games / u32::from(s.players),
        s.rules.preset.name(),
        r.a_wins,
        r.games,
        pct(r.a_win_rate),
        pct(r.a_win_interval.0),
        pct(r.a_win_interval.1),
        r.a_mean_margin,
        r.a_ms_per_move,
        r.b_ms_per_move
    )
}

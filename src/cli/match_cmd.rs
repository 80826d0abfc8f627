//! `match`: two move choosers play each other over the same tile orders, seats rotated, and the
//! result says how much stronger one is, with its uncertainty.

use super::game::{self, Commands, MatchTable};
use super::output::{emit, progress_bar};
use crate::analysis::arena::{Contender, MatchResult, MatchSettings, play_match};
use crate::record;
use crate::replay::words;

/// What `match` was asked for, as the command line gives it.
pub struct MatchArgs<'a> {
    pub a: &'a str,
    pub b: &'a str,
    pub games: u32,
    pub players: u8,
    /// `carcassonne`, `new-world` or `card-game`; `None`, the game `preset` is a rulebook of.
    pub game: Option<&'a str>,
    /// The tile games' rulebook; `None`, the game's own.
    pub preset: Option<&'a str>,
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
        (Contender::SearchWorths { .. }, Some(ms)) => Contender::SearchWorths { ms },
        (c, _) => c,
    };
    let parse = |name: &str| name.parse::<Contender>().map_err(|e| e.to_string());
    let (a, b) = (timed(parse(args.a)?), timed(parse(args.b)?));
    let MatchTable { table, rules, order } = table(args.game, args.preset)?;
    let settings = MatchSettings {
        a,
        b,
        games: args.games,
        players: args.players,
        table,
        seed: args.seed,
    };
    let r = play_match(&settings, &|done, total| progress_bar("playing", "games", done, total))
        .map_err(|e| e.to_string())?;
    emit(&if args.json {
        serde_json::to_string_pretty(&json(&settings, rules, &r)).expect("JSON values serialise") + "\n"
    } else {
        text(&settings, (rules, order), &r)
    });
    Ok(())
}

fn json(s: &MatchSettings, rules: &str, r: &MatchResult) -> serde_json::Value {
    serde_json::json!({
        "a": s.a.to_string(),
        "b": s.b.to_string(),
        "players": s.players,
        "rules": rules,
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

/// What the match is played at: `--game` under `--preset`, or with no game named, the tile
/// game `--preset` is a rulebook of.
fn table(game_name: Option<&str>, preset_name: Option<&str>) -> Result<MatchTable, String> {
    let preset = preset_name.map(game::preset).transpose()?;
    match game_name {
        Some(name) => {
            let kind = game::kind(name)?;
            record::dispatch_kind!(kind, R => R::match_table(kind, preset))
        }
        None => super::tiles::match_table(None, preset),
    }
}

fn text(s: &MatchSettings, (rules, (order, orders)): (&str, (&str, &str)), r: &MatchResult) -> String {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    format!(
        "A = {}, B = {}: {} of {} players ({}, A in each seat once), {} rules\n\
         A wins {} of {}: {} (95% interval {} to {})\n\
         A's mean margin: {:+.1} points (A's score less the best other's)\n\
         time per move: A {:.2} ms, B {:.2} ms\n",
        s.a,
        s.b,
        words::count(r.games, "game", "games"),
        s.players,
        words::count(r.games / u32::from(s.players), order, orders),
        rules,
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

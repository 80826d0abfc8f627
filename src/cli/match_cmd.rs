//! `match`: two move choosers play each other over the same tile orders, seats rotated, and the
//! result says how much stronger one is, with its uncertainty.

use super::game::{self, Commands, MatchTable};
use super::output::{emit, progress_bar};
use super::outside::Build;
use crate::analysis::arena::{Chooser, Contender, ContenderError, MatchResult, MatchSettings, play_match};
use crate::engine::{GameKind, Preset};
use crate::record;
use crate::replay::words;

/// What `match` is asked for.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// A's policy: random, greedy (the most points now), flat (the analysis with playouts
    /// to the end), flat:K (K playouts per alternative), horizon or horizon:K (the pages'
    /// analysis, playouts to the horizon), search or search:T (the search, T ms a move).
    #[arg(long)]
    a: Contender,
    /// B's policy, in the same words, or build:PATH: another build of this program (an
    /// earlier release) playing its pages' analysis, asked through `PATH analyse --turn N
    /// --json` move by move; B takes every seat A does not.
    #[arg(long)]
    b: String,
    /// With --b build:PATH: more options for each `analyse` it is asked, as one string
    /// (`--b-args "--playouts 70"`, to give it as much time as A).
    #[arg(long, allow_hyphen_values = true)]
    b_args: Option<String>,
    /// Games in all, rounded up to whole rotations of the seats.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Players at the table.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// The game: carcassonne, new-world or card-game; default: the one --preset is a
    /// rulebook of, else carcassonne.
    #[arg(long)]
    game: Option<GameKind>,
    /// The tile games' rulebook (second-edition, classic-2000, classic-2000-alternate,
    /// course, new-world); default: the game's own.
    #[arg(long, value_parser = game::preset)]
    preset: Option<Preset>,
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
    let b = match args.b.strip_prefix("build:") {
        Some(path) => {
            let extra = args.b_args.as_deref().unwrap_or_default();
            let extra = extra.split_whitespace().map(String::from).collect();
            Chooser::Outside(Box::new(Build::new(path.into(), extra)))
        }
        None if args.b_args.is_some() => return Err("--b-args goes with --b build:PATH".into()),
        None => timed(args.b.parse().map_err(|e: ContenderError| e.to_string())?).into(),
    };
    let MatchTable { table, rules, order } = table(args.game, args.preset)?;
    let settings = MatchSettings {
        a: timed(args.a).into(),
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
fn table(kind: Option<GameKind>, preset: Option<Preset>) -> Result<MatchTable, String> {
    match kind {
        Some(kind) => record::dispatch_kind!(kind, R => R::match_table(kind, preset)),
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

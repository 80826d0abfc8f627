//! `match`: two move choosers play each other over the same tile orders, seats rotated, and the
//! result says how much stronger one is, with its uncertainty.

use super::output::{emit, progress_bar};
use super::replay_cmd::{game_kind, preset};
use crate::analysis::arena::{Contender, MatchResult, MatchSettings, Table, play_match};
use crate::engine::GameKind;
use crate::record::RulesSpec;
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
        (c, _) => c,
    };
    let settings = MatchSettings {
        a: timed(args.a.parse()?),
        b: timed(args.b.parse()?),
        games: args.games,
        players: args.players,
        table: table(args.game, args.preset)?,
        seed: args.seed,
    };
    let r = play_match(&settings, &|done, total| progress_bar("playing", "games", done, total))?;
    emit(&if args.json {
        serde_json::to_string_pretty(&json(&settings, &r)).expect("JSON values serialise") + "\n"
    } else {
        text(&settings, &r)
    });
    Ok(())
}

fn json(s: &MatchSettings, r: &MatchResult) -> serde_json::Value {
    serde_json::json!({
        "a": s.a.to_string(),
        "b": s.b.to_string(),
        "players": s.players,
        "rules": rules_name(&s.table),
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

/// What the match is played at: a tile game under its rulebook, or the Card Game.
fn table(game: Option<&str>, preset_name: Option<&str>) -> Result<Table, String> {
    let preset_of = preset_name.map(preset).transpose()?;
    let game = match (game, preset_of) {
        (Some(name), _) => game_kind(name)?,
        (None, Some(p)) if p.is_new_world() => GameKind::NewWorld,
        (None, _) => GameKind::Carcassonne,
    };
    if game == GameKind::CardGame {
        return match preset_name {
            None => Ok(Table::CardGame),
            Some(_) => Err("--preset is for the tile games".into()),
        };
    }
    let preset = preset_of.unwrap_or(game.default_preset());
    if !game.plays(preset) {
        return Err(format!("{preset} is not a rulebook of {}", game.name()));
    }
    Ok(Table::Tiles(RulesSpec::new(preset)))
}

/// The rulebook's name, or the Card Game's.
fn rules_name(table: &Table) -> &'static str {
    match table {
        Table::Tiles(rules) => rules.preset.name(),
        Table::CardGame => GameKind::CardGame.name(),
    }
}

fn text(s: &MatchSettings, r: &MatchResult) -> String {
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
        match s.table {
            Table::Tiles(_) => words::count(r.games / u32::from(s.players), "tile order", "tile orders"),
            Table::CardGame => words::count(r.games / u32::from(s.players), "deal", "deals"),
        },
        rules_name(&s.table),
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

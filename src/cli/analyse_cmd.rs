//! `analyse`: every alternative of a turn (or of every turn), ranked, as a table or JSON.

use super::output::progress_bar;
use super::replay_cmd::read_bytes;
use crate::analysis::cards;
use crate::analysis::{self, Alternative, AnalysisOptions, GameAnalysis, TurnAnalysis, ValueBasis};
use crate::engine::{Figure, Location};
use crate::record::cards::CardRecord;
use crate::record::{self, AnyRecord};
use crate::record::{GameRecord, RecordedAction};
use crate::replay::words;
use std::fmt::Write as _;
use std::path::Path;

/// Rows of a turn's table before it is cut short (the played move is always shown).
const TABLE_ROWS: usize = 20;

pub struct AnalyseArgs<'a> {
    pub file: &'a Path,
    pub turn: Option<u32>,
    pub json: bool,
    pub playouts: Option<u32>,
    pub seed: u64,
}

pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let record =
        match record::parse_any(&read_bytes(args.file)?).map_err(|e| format!("{}: {e}", args.file.display()))? {
            AnyRecord::Cards(cards) => return run_cards(args, &cards),
            AnyRecord::Tiles(record, _) => record,
        };
    let mut opts = AnalysisOptions {
        seed: args.seed,
        ..AnalysisOptions::default()
    };
    if let Some(k) = args.playouts {
        opts.playouts_per_alternative = k;
    }
    let failed = |e: analysis::AnalysisError| {
        let why = match e {
            analysis::AnalysisError::Replay(e) => e.describe(&record),
            other => other.to_string(),
        };
        format!("{}: {why}", args.file.display())
    };
    let out = match args.turn {
        Some(n) => {
            let t = analysis::analyse_turn(&record, n, &opts).map_err(failed)?;
            if args.json {
                pretty(&t.report())
            } else {
                turn_table(&record, &t)
            }
        }
        None => {
            let g = analysis::analyse_game(&record, &opts, &|done, total| {
                progress_bar("analysing", "turns", done, total)
            })
            .map_err(failed)?;
            if args.json {
                pretty(&g.report())
            } else {
                game_table(&record, &g)
            }
        }
    };
    print!("{out}");
    Ok(())
}

/// A Card Game: one turn's actions with what they do now and their sampled values, or with
/// no `--turn` every turn's played move against the best.
fn run_cards(args: &AnalyseArgs, record: &CardRecord) -> Result<(), String> {
    let samples = args.playouts.unwrap_or(cards::DEFAULT_SAMPLES);
    let failed = |e: cards::CardAnalysisError| format!("{}: {}", args.file.display(), e.describe(record));
    let Some(turn) = args.turn else {
        let report = cards::analyse_game(record, samples, &|done, total| {
            progress_bar("analysing", "turns", done, total)
        })
        .map_err(failed)?;
        print!(
            "{}",
            if args.json {
                pretty(&report)
            } else {
                card_game_table(record, &report)
            }
        );
        return Ok(());
    };
    let t = cards::analyse_turn(record, turn, samples, args.seed)
        .map_err(failed)?
        .report(samples);
    if args.json {
        print!("{}", pretty(&t));
        return Ok(());
    }
    let name = &record.players[t.player as usize].name;
    let mut out = format!(
        "Turn {turn}: {name} to move; value: mean final margin over {samples} samples of what {name} cannot see\n"
    );
    writeln!(out, "{:>5}  {:<30} {:>8} {:>16}", "rank", "action", "secures", "value").unwrap();
    for (i, a) in t.alternatives.iter().enumerate() {
        let mark = if Some(i) == t.played { "*" } else { " " };
        let value = format!("{:+.1} ±{:.1}", a.value, a.stderr);
        writeln!(
            out,
            "{:>4}{mark}  {:<30} {:>8} {:>16}",
            i + 1,
            a.action,
            a.secures,
            value
        )
        .unwrap();
    }
    print!("{out}");
    Ok(())
}

/// Each player's points lost, then each turn's played move against the best.
fn card_game_table(record: &CardRecord, r: &cards::CardGameReport) -> String {
    let mut out = format!("Value: mean final margin over {} samples per action\n\n", r.samples);
    writeln!(
        out,
        "{:<14} {:>6} {:>6} {:>12} {:>9}",
        "player", "turns", "best", "points lost", "average"
    )
    .unwrap();
    for (p, s) in record.players.iter().zip(&r.players) {
        writeln!(
            out,
            "{:<14} {:>6} {:>6} {:>12.1} {:>9.2}",
            p.name, s.turns, s.best_moves, s.points_lost, s.average_points_lost
        )
        .unwrap();
    }
    writeln!(
        out,
        "\n{:>5}  {:<12} {:<32} {:<32} {:>6}",
        "turn", "player", "played", "best", "lost"
    )
    .unwrap();
    for t in &r.turns {
        let played = t.played.map_or("?", |i| t.alternatives[i].action.as_str());
        let best = t.alternatives.first().map_or("", |a| a.action.as_str());
        let lost = t.points_lost.map_or("–".into(), |l| format!("{l:.1}"));
        let name = &record.players[t.player as usize].name;
        writeln!(
            out,
            "{:>5}  {:<12} {:<32} {:<32} {:>6}",
            t.turn, name, played, best, lost
        )
        .unwrap();
    }
    out
}

fn pretty(v: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(v).expect("reports serialise") + "\n"
}

fn name(record: &GameRecord, p: u8) -> &str {
    record.players.get(p as usize).map_or("?", |p| p.name.as_str())
}

fn meeple_text(a: &RecordedAction) -> String {
    match a {
        RecordedAction::Pass => "-".into(),
        RecordedAction::RecallAbbot => "abbot recalled".into(),
        RecordedAction::Deploy { feature, at, figure } => {
            let who = if *figure == Figure::Abbot { "abbot on " } else { "" };
            match at {
                Location::Center => format!("{who}{feature}"),
                _ => format!("{who}{feature} {at}"),
            }
        }
    }
}

fn signed(v: &[i32]) -> String {
    v.iter().map(|x| format!("{x:+}")).collect::<Vec<_>>().join("/")
}

fn value_words(b: ValueBasis) -> &'static str {
    match b {
        ValueBasis::Playouts => "expected final margin (mover minus best opponent) over the playouts",
        ValueBasis::Heuristic => "the heuristic (no playouts)",
    }
}

fn alternative_row(a: &Alternative, played: bool) -> String {
    let e = &a.evaluation;
    let playouts = a.playouts.map_or("-".to_string(), |p| {
        format!("{:+.1} ±{:.1}", p.mean_margin, p.std_error)
    });
    format!(
        "{:>4}{} {:>9} {:>4}  {:<20} {:>9} {:>9} {:>9.1} {:>13} {:>8.1}\n",
        a.rank,
        if played { "*" } else { " " },
        a.placement.pos.to_string(),
        a.placement.rotation.degrees(),
        meeple_text(&a.meeple),
        signed(&e.immediate),
        signed(&e.if_ended_change),
        e.heuristic.value(),
        playouts,
        a.value
    )
}

/// One turn: every alternative ranked, the played one starred.
pub fn turn_table(record: &GameRecord, t: &TurnAnalysis) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Turn {}: {} draws {} ({}, {}); {} after it",
        t.turn,
        name(record, t.player),
        t.tile_name,
        words::count(t.placements_count as u32, "placement", "placements"),
        words::count(t.moves_count as u32, "move", "moves"),
        words::count(t.tiles_left, "tile left", "tiles left")
    );
    let _ = writeln!(out, "value: {}", value_words(t.value_basis));
    let _ = writeln!(
        out,
        "{:>5} {:>9} {:>4}  {:<20} {:>9} {:>9} {:>9} {:>13} {:>8}",
        "rank",
        "position",
        "rot",
        words::figures(record.game).0,
        "now",
        "if-ended",
        "heuristic",
        "playouts",
        "value"
    );
    for (i, a) in t.alternatives.iter().enumerate() {
        let played = t.played == Some(i);
        if i < TABLE_ROWS || played {
            out += &alternative_row(a, played);
        }
    }
    if t.alternatives.len() > TABLE_ROWS {
        let _ = writeln!(out, "  … {} more", t.alternatives.len() - TABLE_ROWS);
    }
    match (t.played_rank(), t.points_lost()) {
        (Some(r), Some(lost)) => {
            let _ = writeln!(out, "played (*): rank {r} of {}, {lost:.1} points lost", t.moves_count);
        }
        _ => {
            let _ = writeln!(out, "the move played is not among the alternatives");
        }
    }
    let dead: Vec<String> = t.dead_spots().map(|p| p.to_string()).collect();
    if !dead.is_empty() {
        let _ = writeln!(out, "dead spots after the move: {}", dead.join(" "));
    }
    out
}

/// The whole game: each turn's played rank and points lost, then each player's average.
pub fn game_table(record: &GameRecord, g: &GameAnalysis) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "value: {}", value_words(g.value_basis));
    if let Some(s) = g.shallower {
        let _ = writeln!(
            out,
            "a long game: each turn ran at most {} playouts, to fit what one analysis may cost",
            s.max_playouts_per_turn
        );
    }
    let _ = writeln!(
        out,
        "{:>4}  {:<12} {:<9} {:>5} {:>9}  {:>6}  {:<28} best",
        "turn", "player", "tile", "moves", "rank", "lost", "played"
    );
    for t in &g.turns {
        let describe = |a: Option<&Alternative>| {
            a.map_or("?".to_string(), |a| {
                format!(
                    "{} {} {}",
                    a.placement.pos,
                    a.placement.rotation.degrees(),
                    meeple_text(&a.meeple)
                )
            })
        };
        let rank = t.played_rank().map_or("?".to_string(), |r| r.to_string());
        let _ = writeln!(
            out,
            "{:>4}  {:<12} {:<9} {:>5} {:>9}  {:>6.1}  {:<28} {}",
            t.turn,
            name(record, t.player),
            t.tile_name,
            t.moves_count,
            rank,
            t.points_lost().unwrap_or(0.0),
            describe(t.played_alternative()),
            describe(t.best())
        );
    }
    let _ = writeln!(
        out,
        "\n{:<12} {:>6} {:>11} {:>12}",
        "player", "turns", "best moves", "average lost"
    );
    for (i, p) in g.players.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:<12} {:>6} {:>11} {:>12.2}",
            name(record, i as u8),
            p.turns,
            p.best_moves,
            p.average_points_lost
        );
    }
    out
}

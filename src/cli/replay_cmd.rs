//! `replay` and `export`: read a record, replay it, print a table, JSON, a `.jcz` or CSV.

use super::output::emit;
use crate::engine::{Event, Figure, GameKind, Preset, Score};
use crate::record::cards::CardRecord;
use crate::record::generate::{self, Policy};
use crate::record::{self, AnyRecord, GameRecord, MAX_RECORD_BYTES, RulesSpec, native};
use crate::replay::{self, Categories, Replay, TurnSnapshot, json, words};
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

/// Reads at most `MAX_RECORD_BYTES` (plus one, to tell a file that is too large).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

/// `replay` of a Card Game record: the table or the JSON document.
fn run_cards(path: &Path, record: &CardRecord, as_json: bool) -> Result<(), String> {
    let replay = replay::cards::replay(record).map_err(|e| format!("{}: {e}", path.display()))?;
    if as_json {
        let doc = replay::cards::to_json(record, &replay);
        emit(&(serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"));
    } else {
        emit(&replay::cards::table(record, &replay));
    }
    Ok(())
}

/// A rulebook by its name, or an error listing the names.
pub fn preset(name: &str) -> Result<Preset, String> {
    Preset::parse(name).ok_or_else(|| {
        let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
        format!("unknown preset {name:?}; the presets are {}", names.join(", "))
    })
}

pub fn game_kind(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown game {name:?}; the games are {}", names.join(", "))
    })
}

pub fn run(path: &Path, as_json: bool, preset_name: Option<&str>) -> Result<(), String> {
    let parsed = record::parse_any(&read_bytes(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut record = match parsed {
        AnyRecord::Cards(cards) if preset_name.is_none() => return run_cards(path, &cards, as_json),
        AnyRecord::Cards(_) => return Err(format!("{}: --preset is for the tile games", path.display())),
        AnyRecord::Tiles(record, _) => record,
    };
    if let Some(name) = preset_name {
        let preset = preset(name)?;
        if !record.game.plays(preset) {
            return Err(format!(
                "{}: {preset} is not a rulebook of {}",
                path.display(),
                record.game.name()
            ));
        }
        record.rules = record.rules.with_preset(preset);
    }
    let replay = replay::replay(&record, None).map_err(|e| format!("{}: {}", path.display(), e.describe(&record)))?;
    if preset_name.is_none() {
        cross_check(path, &record, &replay)?;
    } else if record.recorded_scores.is_some() {
        eprintln!(
            "note: {}: the scores the log recorded are not checked under another preset",
            path.display()
        );
    }
    if as_json {
        let doc = json::replay(&record, &replay);
        emit(&(serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"));
    } else {
        emit(&table(&record, &replay));
    }
    Ok(())
}

/// A Board Game Arena log carries BGA's own scores: a replay that disagrees is an error, since
/// it means a bug in the import or a rules difference.
fn cross_check(path: &Path, record: &GameRecord, replay: &Replay) -> Result<(), String> {
    replay::verify::recorded_scores(record, replay).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn export(path: &Path, to: &str) -> Result<(), String> {
    let parsed = record::parse_any(&read_bytes(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let failed = |e: String| format!("{}: {e}", path.display());
    let record = match parsed {
        AnyRecord::Cards(cards) => return export_cards(&cards, to).map_err(failed),
        AnyRecord::Tiles(record, _) => record,
    };
    match to {
        "json" => emit(&native::to_pretty_string(&record)),
        "jcz" => emit(&crate::export::jcz::to_string(&record).map_err(failed)?),
        "lab" => emit(&(record::lab::to_link(&record).map_err(|e| failed(e.to_string()))? + "\n")),
        "csv" => {
            let replay = replay::replay(&record, None).map_err(|e| failed(e.describe(&record)))?;
            cross_check(path, &record, &replay)?;
            emit(&crate::export::csv::scoring_csv(&record, &replay));
        }
        other => return Err(format!("cannot export to {other:?}; supported: json, jcz, csv, lab")),
    }
    Ok(())
}

fn export_cards(record: &CardRecord, to: &str) -> Result<(), String> {
    match to {
        "json" => {
            let doc = record::cards::to_value(record);
            emit(&(serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"));
        }
        "csv" => {
            let replay = replay::cards::replay(record).map_err(|e| e.to_string())?;
            emit(&crate::export::csv::card_scoring_csv(record, &replay));
        }
        other => return Err(format!("a Card Game exports to json or csv, not {other:?}")),
    }
    Ok(())
}

pub fn generate(
    seed: u64,
    players: u8,
    (game_name, preset_name): (&str, Option<&str>),
    policy: &str,
    river: bool,
    abbot: bool,
) -> Result<(), String> {
    let policy = match policy {
        "random" => Policy::Random,
        "greedy" => Policy::Greedy,
        "sampled" => Policy::Sampled,
        other => return Err(format!("unknown policy {other:?}; use random, greedy or sampled")),
    };
    let game = game_kind(game_name)?;
    if game == GameKind::CardGame {
        let tile_flags: Vec<&str> = [
            (river, "--river"),
            (abbot, "--abbot"),
            (preset_name.is_some(), "--preset"),
        ]
        .into_iter()
        .filter_map(|(given, flag)| given.then_some(flag))
        .collect();
        if !tile_flags.is_empty() {
            return Err(format!(
                "{} {} for the tile games; the Card Game has no River, Abbot or rulebook preset",
                tile_flags.join(" and "),
                if tile_flags.len() == 1 { "is" } else { "are" }
            ));
        }
        let record = generate::card_game(players, policy, seed)?;
        let doc = record::cards::to_value(&record);
        emit(&(serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"));
        return Ok(());
    }
    let preset = preset_name.map_or(Ok(game.default_preset()), preset)?;
    if !game.plays(preset) {
        return Err(format!("{preset} is not a rulebook of {}", game.name()));
    }
    let mut rules = RulesSpec::new(preset);
    rules.overrides.river = river.then_some(true);
    rules.overrides.abbot = abbot.then_some(true);
    rules.check_expansions()?;
    let record = generate::generate(rules, players, policy, seed)?;
    emit(&native::to_pretty_string(&record));
    Ok(())
}

fn player_name(record: &GameRecord, p: u8) -> &str {
    &record.players[p as usize].name
}

fn points_text(record: &GameRecord, events: &[Event]) -> String {
    let mut parts = Vec::new();
    for e in events {
        if let Event::Scored(s) = e {
            for p in s.players.iter() {
                parts.push(format!("{} +{} {}", player_name(record, p), s.points, s.feature));
            }
        }
    }
    parts.join(", ")
}

fn meeple_text(t: &TurnSnapshot) -> String {
    for e in &t.events {
        if let Event::MeepleDeployed {
            figure,
            feature,
            location,
            ..
        } = e
        {
            let who = if *figure == Figure::Abbot { "abbot on " } else { "" };
            return match location {
                crate::engine::Location::Center => format!("{who}{feature}"),
                _ => format!("{who}{feature} {location}"),
            };
        }
    }
    if t.mv.action == crate::engine::Action::RecallAbbot {
        return "abbot recalled".into();
    }
    "-".into()
}

fn score_line(record: &GameRecord, s: &Score) -> String {
    let who: Vec<&str> = s.players.iter().map(|p| player_name(record, p)).collect();
    let shared = if who.len() > 1 { " each (tie)" } else { "" };
    format!(
        "{} +{}{shared}: {} ({}) at {} {}",
        who.join(" and "),
        s.points,
        words::explanation(s),
        s.reason,
        s.pos,
        s.location
    )
}

/// The readable table: one row per turn, final scoring, and each player's breakdown.
pub fn table(record: &GameRecord, r: &Replay) -> String {
    let cat = &record.catalog;
    let mut out = String::new();
    let names: Vec<&str> = record.players.iter().map(|p| p.name.as_str()).collect();
    let _ = writeln!(out, "{} — rules: {}", names.join(" vs "), r.rules().preset);
    let _ = writeln!(
        out,
        "{:>4}  {:<12} {:<9} {:>9} {:>4}  {:<18} {:<28} scores",
        "turn", "player", "tile", "position", "rot", "meeple", "points"
    );
    for t in &r.turns {
        for e in &t.events {
            if let Event::TileDiscarded { tile, .. } = e {
                let _ = writeln!(
                    out,
                    "{:>4}  {:<12} {:<9} discarded: no legal placement",
                    "",
                    player_name(record, t.player),
                    cat.name(*tile)
                );
            }
        }
        let scores: Vec<String> = t.scores.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            out,
            "{:>4}  {:<12} {:<9} {:>9} {:>4}  {:<18} {:<28} {}",
            t.turn,
            player_name(record, t.player),
            cat.name(t.mv.tile),
            t.mv.placement.pos.to_string(),
            t.mv.placement.rotation.degrees(),
            meeple_text(t),
            points_text(record, &t.events),
            scores.join(" ")
        );
    }
    if r.finished {
        let _ = writeln!(out, "\nFinal scoring");
        for e in &r.final_events {
            if let Event::Scored(s) = e {
                let _ = writeln!(out, "  {}", score_line(record, s));
            }
        }
    } else {
        let _ = writeln!(out, "\nThe game is not over: no final scoring.");
    }
    let names_of = r.breakdown.first().map(|b| b.play.names()).unwrap_or_default();
    let header: String = names_of.iter().map(|n| format!(" {n:>8}")).collect();
    let _ = writeln!(out, "\n{:<12} {:<5}{header} {:>6}", "player", "", "total");
    for (i, b) in r.breakdown.iter().enumerate() {
        let row = |label: &str, c: &Categories| {
            let cells: String = c.iter().map(|(_, p)| format!(" {p:>8}")).collect();
            format!("{label:<5}{cells} {:>6}", c.total())
        };
        let _ = writeln!(out, "{:<12} {}", names[i], row("play", &b.play));
        let _ = writeln!(out, "{:<12} {}", "", row("end", &b.end));
        let width = 9 * names_of.len() + 7;
        let _ = writeln!(out, "{:<12} {:<5}{:>width$}", "", "total", r.final_scores[i]);
    }
    out
}

//! `replay` and `export`: read a record, replay it, print a table, JSON, a `.jcz` or CSV.

use super::output::{Align, aligned, emit};
use crate::engine::{Category, Event, Figure, GameKind, Preset, Score};
use crate::record::cards::CardRecord;
use crate::record::{self, AnyRecord, GameRecord, MAX_RECORD_BYTES, RulesSpec, native};
use crate::replay::{self, Categories, Replay, TurnSnapshot, json, words};
use crate::selfplay::{self, Policy};
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
    let replay = replay::cards::replay(record).map_err(|e| format!("{}: {}", path.display(), e.describe(record)))?;
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
        "jcz" if record.game == GameKind::NewWorld => return Err(failed(no_jcz("New World"))),
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
            let replay = replay::cards::replay(record).map_err(|e| e.describe(record))?;
            emit(&crate::export::csv::card_scoring_csv(record, &replay));
        }
        "jcz" => return Err(no_jcz("Card Game")),
        other => return Err(format!("a Card Game exports to json or csv, not {other:?}")),
    }
    Ok(())
}

/// Why New World and the Card Game have no `.jcz`: JCloisterZone plays the tile game only.
fn no_jcz(game: &str) -> String {
    format!("JCloisterZone has no {game}, only the tile game; export this game to json or csv")
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
        let record = selfplay::card_game(players, policy, seed)?;
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
    let record = selfplay::generate(rules, players, policy, seed)?;
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

/// The readable table: one row per turn, final scoring, and each player's breakdown. Columns
/// are as wide as their widest cell (New World's tile names are long).
pub fn table(record: &GameRecord, r: &Replay) -> String {
    let cat = &record.catalog;
    let names: Vec<&str> = record.players.iter().map(|p| p.name.as_str()).collect();
    let mut out = format!("{} — rules: {}\n", names.join(" vs "), r.rules().preset);
    let figure = words::figures(record.game).0;
    let header = ["turn", "player", "tile", "position", "rot", figure, "points", "scores"];
    let mut rows: Vec<Vec<String>> = vec![header.map(String::from).to_vec()];
    for t in &r.turns {
        for e in &t.events {
            if let Event::TileDiscarded { tile, .. } = e {
                let (who, tile) = (player_name(record, t.player), cat.name(*tile));
                rows.push(vec![
                    String::new(),
                    who.into(),
                    tile.into(),
                    "discarded: no legal placement".into(),
                ]);
            }
        }
        let scores: Vec<String> = t.scores.iter().map(|s| s.to_string()).collect();
        rows.push(vec![
            t.turn.to_string(),
            player_name(record, t.player).into(),
            cat.name(t.mv.tile).into(),
            t.mv.placement.pos.to_string(),
            t.mv.placement.rotation.degrees().to_string(),
            meeple_text(t),
            points_text(record, &t.events),
            scores.join(" "),
        ]);
    }
    use Align::{Left, Right};
    out += &aligned(&rows, &[Right, Left, Left, Right, Right, Left, Left, Left], 2);
    if r.finished {
        out += "\nFinal scoring\n";
        for e in &r.final_events {
            if let Event::Scored(s) = e {
                let _ = writeln!(out, "  {}", score_line(record, s));
            }
        }
    } else {
        out += "\nThe game is not over: no final scoring.\n";
    }
    out.push('\n');
    out += &breakdown_table(&names, r);
    out
}

/// Each player's points by category, during play and at the end, and the total.
fn breakdown_table(names: &[&str], r: &Replay) -> String {
    let categories = r.breakdown.first().map(|b| b.play.categories()).unwrap_or_default();
    let mut header = vec!["player".to_string(), String::new()];
    header.extend(categories.iter().map(|c| c.word().to_string()));
    header.push("total".into());
    let mut rows = vec![header];
    for (i, b) in r.breakdown.iter().enumerate() {
        let row = |name: &str, label: &str, c: &Categories| {
            let mut cells = vec![name.to_string(), label.to_string()];
            cells.extend(c.iter().map(|(_, p)| p.to_string()));
            cells.push(c.total().to_string());
            cells
        };
        rows.push(row(names[i], "play", &b.play));
        rows.push(row("", "end", &b.end));
        let mut total = vec![String::new(), "total".into()];
        total.extend(categories.iter().map(|_| String::new()));
        total.push(r.final_scores[i].to_string());
        rows.push(total);
    }
    let mut align = vec![Align::Left, Align::Left];
    align.extend(categories.iter().map(|_| Align::Right));
    align.push(Align::Right);
    aligned(&rows, &align, 2)
}

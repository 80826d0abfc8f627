//! The tile games' commands (Carcassonne and New World): replay tables, exports to every
//! format, placements ranked, games generated under a rulebook.

use super::analyse_cmd::AnalyseArgs;
use super::game::{Bots, Commands, MatchTable};
use super::judge::{self, figures};
use super::output::{Align, aligned};
use super::replay_cmd::ExportFormat;
use crate::analysis::arena::{self, Contender, Table};
use crate::analysis::win_chance::{self, CalibrationSettings, Sample, Scale};
use crate::analysis::{self, Alternative, AnalysisOptions, GameAnalysis, Sampler, TurnAnalysis, ValueBasis};
use crate::engine::{Category, Event, Figure, GameKind, Location, Preset, Score};
use crate::export::{Export, ExportError, csv};
use crate::record::{GameRecord, RecordedAction, RulesSpec, lab};
use crate::render::RenderError;
use crate::replay::{self, Categories, Replay, TurnSnapshot, json, words};
use crate::selfplay;
use std::fmt::Write as _;
use std::path::Path;

/// Rows of a turn's table before it is cut short (the played move is always shown).
const TABLE_ROWS: usize = 20;

impl Commands for GameRecord {
    /// Under another rulebook, the scores a log recorded are not checked: they were scored
    /// under its own.
    fn replay(&self, path: &Path, as_json: bool, preset: Option<Preset>) -> Result<String, String> {
        let mut record = self.clone();
        if let Some(preset) = preset {
            if !record.setup.game.plays(preset) {
                return Err(format!(
                    "{}: {preset} is not a rulebook of {}",
                    path.display(),
                    record.setup.game.name()
                ));
            }
            record.setup.rules = record.setup.rules.with_preset(preset);
        }
        let replay =
            replay::replay(&record, None).map_err(|e| format!("{}: {}", path.display(), e.describe(&record)))?;
        if preset.is_none() {
            cross_check(path, &record, &replay)?;
        } else if record.setup.recorded_scores.is_some() {
            eprintln!(
                "note: {}: the scores the log recorded are not checked under another preset",
                path.display()
            );
        }
        Ok(if as_json {
            serde_json::to_string_pretty(&json::replay(&record, &replay)).expect("JSON values serialise") + "\n"
        } else {
            table(&record, &replay)
        })
    }

    fn export(&self, path: &Path, to: ExportFormat) -> Result<String, String> {
        let failed = |e: String| format!("{}: {e}", path.display());
        match to {
            ExportFormat::Json => Ok(self.native_json()),
            ExportFormat::Jcz => self.jcz().map_err(|e| {
                failed(match e {
                    // The one tile game JCloisterZone does not play.
                    ExportError::GameNotInJcz(_) => super::replay_cmd::no_jcz("New World"),
                    ExportError::TileNotInJcz(_) => format!("the game cannot be written as .jcz: {e}"),
                    ExportError::Replay(why) => why,
                    ExportError::Unwritable(_) => e.to_string(),
                })
            }),
            ExportFormat::Lab => Ok(lab::to_link(self).map_err(|e| failed(e.to_string()))? + "\n"),
            ExportFormat::Csv => {
                let replay = replay::replay(self, None).map_err(|e| failed(e.describe(self)))?;
                cross_check(path, self, &replay)?;
                Ok(csv::scoring_csv(self, &replay))
            }
        }
    }

    fn analyse(&self, args: &AnalyseArgs) -> Result<String, String> {
        let mut opts = AnalysisOptions {
            seed: args.seed,
            sampler: args.sampler(),
            ..AnalysisOptions::default()
        };
        if let Some(k) = args.playouts {
            opts.playouts_per_alternative = Some(k);
        }
        let failed = |e: analysis::AnalysisError| {
            let why = match e {
                analysis::AnalysisError::Replay(e) => e.describe(self),
                other => other.to_string(),
            };
            format!("{}: {why}", args.file.display())
        };
        Ok(match args.turn {
            Some(n) => {
                let t = analysis::analyse_turn(self, n, &opts).map_err(failed)?;
                if args.json {
                    super::analyse_cmd::pretty(&t.report())
                } else {
                    turn_table(self, &t)
                }
            }
            None => {
                let g = analysis::analyse_game(self, &opts, &super::output::analysing).map_err(failed)?;
                if args.json {
                    super::analyse_cmd::pretty(&g.report())
                } else {
                    game_table(self, &g)
                }
            }
        })
    }

    fn judged(&self, sampler: Sampler, progress: analysis::Progress) -> Result<figures::Game, String> {
        let replay = replay::replay(self, None).map_err(|e| e.describe(self))?;
        let options = AnalysisOptions {
            sampler,
            ..AnalysisOptions::default()
        };
        let analysis = analysis::analyse_game(self, &options, progress).map_err(|e| e.to_string())?;
        // A game stopped early says nothing of what its open features would have become.
        let forecasts = match replay.finished {
            true => analysis::completion_forecasts(self, &replay.game).map_err(|e| e.to_string())?,
            false => Vec::new(),
        };
        Ok(figures::Game {
            turns: judge::tile_turns(&analysis.report()),
            results: judge::results(replay.finished, &replay.final_scores),
            completions: forecasts
                .iter()
                .map(|f| (f.chance.chance, f64::from(u8::from(f.completed))))
                .collect(),
        })
    }

    fn render_error(&self, e: RenderError) -> String {
        match e {
            RenderError::Replay(e) => e.describe(self),
            other => other.to_string(),
        }
    }

    fn generate(kind: GameKind, bots: &Bots) -> Result<String, String> {
        let mut rules = rules(Some(kind), bots.preset)?;
        rules.overrides.river = bots.river.then_some(true);
        rules.overrides.abbot = bots.abbot.then_some(true);
        rules.check_expansions()?;
        let record = selfplay::generate(rules, bots.players, bots.policy, bots.seed).map_err(|e| e.to_string())?;
        Ok(record.native_json())
    }

    fn match_table(kind: GameKind, preset: Option<Preset>) -> Result<MatchTable, String> {
        match_table(Some(kind), preset)
    }

    /// Every rulebook of the tile game; New World's coast and surveyors are not fitted.
    fn calibration(
        kind: GameKind,
        preset: Option<Preset>,
        policy: Option<Contender>,
        settings: &CalibrationSettings,
        progress: &dyn Fn(u32, u32),
    ) -> Result<(Vec<Sample>, Scale, &'static str), String> {
        let rules = rules(Some(kind), preset)?;
        let players = settings.players;
        let play = |seed| match policy {
            None => selfplay::generate(rules.clone(), players, selfplay::Policy::Greedy, seed),
            Some(contender) => arena::self_play_tiles(contender, &rules, players, seed),
        };
        let samples = win_chance::samples(settings, &play, progress).map_err(|e| e.to_string())?;
        Ok((samples, Scale::current(kind), "tiles"))
    }
}

/// How often the open features of `games` games played by `policy` (seeds from `seed`) were
/// completed by the end, by what the board showed of them before every turn (`calibrate
/// --completion`, which writes `analysis/completion_rates.json`).
pub fn completion_rates(
    kind: GameKind,
    preset: Option<Preset>,
    (policy, players): (Contender, u8),
    (games, seed): (u32, u64),
    progress: &dyn Fn(u32, u32),
) -> Result<Vec<(analysis::completion_rates::Cell, bool)>, String> {
    let rules = rules(Some(kind), preset)?;
    let mut rows = Vec::new();
    for g in 0..games {
        progress(g, games);
        let record = arena::self_play_tiles(policy, &rules, players, seed + u64::from(g)).map_err(|e| e.to_string())?;
        rows.extend(completion_rows(&record)?);
    }
    progress(games, games);
    Ok(rows)
}

/// Each open feature of each turn of `record`, by its calibration cell, and whether it was
/// completed by the end.
pub fn completion_rows(record: &GameRecord) -> Result<Vec<(analysis::completion_rates::Cell, bool)>, String> {
    let end = replay::replay(record, None).map_err(|e| e.describe(record))?.game;
    let forecasts = analysis::completion_forecasts(record, &end).map_err(|e| e.to_string())?;
    Ok(forecasts
        .iter()
        .filter_map(|f| Some((f.chance.cell?, f.completed)))
        .collect())
}

/// The rules of a tile game: `preset`, else the game's own, which must be one of `kind`'s
/// rulebooks; with no game named, the game `preset` is a rulebook of.
fn rules(kind: Option<GameKind>, preset: Option<Preset>) -> Result<RulesSpec, String> {
    let preset = preset.unwrap_or_else(|| kind.unwrap_or_default().default_preset());
    if let Some(kind) = kind
        && !kind.plays(preset)
    {
        return Err(format!("{preset} is not a rulebook of {}", kind.name()));
    }
    Ok(RulesSpec::new(preset))
}

/// A match of a tile game (with no game named, the one `preset` is a rulebook of), under its
/// rules, over shared tile orders.
pub fn match_table(kind: Option<GameKind>, preset: Option<Preset>) -> Result<MatchTable, String> {
    let rules = rules(kind, preset)?;
    Ok(MatchTable {
        rules: rules.preset.name(),
        table: Table::Tiles(rules),
        order: ("tile order", "tile orders"),
    })
}

/// A Board Game Arena log carries BGA's own scores: a replay that disagrees is an error, since
/// it means a bug in the import or a rules difference.
fn cross_check(path: &Path, record: &GameRecord, replay: &Replay) -> Result<(), String> {
    replay::verify::recorded_scores(record, replay).map_err(|e| format!("{}: {e}", path.display()))
}

fn name(record: &GameRecord, p: u8) -> &str {
    record.players.get(p as usize).map_or("?", |p| p.name.as_str())
}

fn action_text(a: &RecordedAction) -> String {
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
        action_text(&a.meeple),
        signed(&e.immediate),
        signed(&e.if_ended_change),
        e.heuristic.value(),
        playouts,
        a.value
    )
}

/// One turn: every alternative ranked, the played one starred.
fn turn_table(record: &GameRecord, t: &TurnAnalysis) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Turn {}: {} draws {} ({}, {}); {} after it",
        t.turn,
        name(record, t.player),
        t.facts.tile_name,
        words::count(t.facts.placements_count as u32, "placement", "placements"),
        words::count(t.facts.moves_count as u32, "move", "moves"),
        words::count(t.facts.tiles_left, "tile left", "tiles left")
    );
    let _ = writeln!(out, "value: {}", value_words(t.facts.value_basis));
    let _ = writeln!(
        out,
        "{:>5} {:>9} {:>4}  {:<20} {:>9} {:>9} {:>9} {:>13} {:>8}",
        "rank",
        "position",
        "rot",
        words::figures(record.setup.game).0,
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
            let _ = writeln!(
                out,
                "played (*): rank {r} of {}, {lost:.1} points lost",
                t.facts.moves_count
            );
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
fn game_table(record: &GameRecord, g: &GameAnalysis) -> String {
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
                    action_text(&a.meeple)
                )
            })
        };
        let rank = t.played_rank().map_or("?".to_string(), |r| r.to_string());
        let _ = writeln!(
            out,
            "{:>4}  {:<12} {:<9} {:>5} {:>9}  {:>6.1}  {:<28} {}",
            t.turn,
            name(record, t.player),
            t.facts.tile_name,
            t.facts.moves_count,
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

fn points_text(record: &GameRecord, events: &[Event]) -> String {
    let mut parts = Vec::new();
    for e in events {
        if let Event::Scored(s) = e {
            for p in s.players.iter() {
                parts.push(format!("{} +{} {}", name(record, p), s.points, s.feature));
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
                Location::Center => format!("{who}{feature}"),
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
    let who: Vec<&str> = s.players.iter().map(|p| name(record, p)).collect();
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
fn table(record: &GameRecord, r: &Replay) -> String {
    let cat = &record.setup.catalog;
    let names: Vec<&str> = record.players.iter().map(|p| p.name.as_str()).collect();
    let rules = crate::record::rules_spec::label(r.rules());
    let mut out = format!("{} — {rules} ({})\n", names.join(" vs "), r.rules().preset);
    let figure = words::figures(record.setup.game).0;
    let header = ["turn", "player", "tile", "position", "rot", figure, "points", "scores"];
    let mut rows: Vec<Vec<String>> = vec![header.map(String::from).to_vec()];
    for t in &r.turns {
        for e in &t.events {
            if let Event::TileDiscarded { tile, .. } = e {
                let (who, tile) = (name(record, t.player), cat.name(*tile));
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
            name(record, t.player).into(),
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

//! `bench judge`: does the analysis tell good play from bad? It analyses whole games at the
//! options the pages use (through `analysis::analyse_game` and `analysis::cards::analyse_game`
//! only, so it measures whatever analysis the pages have) and judges, per group of games,
//! what the reports say: games of bots (`match`'s policies, each in every seat: random, greedy
//! and the search by default) and the records given. The arithmetic, and what its interval is
//! over, is in [`figures`].
//!
//! The phases of the win-chance scores: in the tile games turns 1–24, 25–48 and 49 on; in the
//! Card Game the thirds of its turns.

pub(crate) mod figures;

use super::PlayoutsTo;
use super::game::{self, of_record};
use super::output::emit;
use super::replay_cmd::read_bytes;
use crate::analysis::Sampler;
use crate::analysis::arena::{self, Contender};
use crate::analysis::cards;
use crate::analysis::report::GameReport;
use crate::analysis::win_chance::outcome;
use crate::engine::GameKind;
use crate::record::{self, AnyRecord, lab};
use figures::{Phase, Summary, Turn};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// What `bench judge` is asked for.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Records to judge besides the bots' games, in any format `replay` reads, or CSV files
    /// of Carcassonne Lab links, one game a line.
    files: Vec<PathBuf>,
    /// Games of each bot.
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// The seed of the bots' first game (the next ones count up from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The bots' game, carcassonne, new-world or card-game.
    #[arg(long, default_value = "carcassonne")]
    game: GameKind,
    /// The bots, comma-separated, in `match`'s words (random, greedy, search, search:T,
    /// flat, …); each plays every seat of its games.
    #[arg(long, default_value = "random,greedy,search")]
    bots: BotList,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Where the tile analysis's playouts stop, `end` or `horizon` (default: the game's own,
    /// as the pages).
    #[arg(long, value_enum)]
    playouts_to: Option<PlayoutsTo>,
}

/// `--bots`: `match`'s policies, comma-separated.
#[derive(Clone, Debug)]
pub struct BotList(Vec<Contender>);

impl std::str::FromStr for BotList {
    type Err = arena::ContenderError;

    fn from_str(list: &str) -> Result<BotList, arena::ContenderError> {
        (list.split(',').map(str::trim))
            .filter(|b| !b.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map(BotList)
    }
}

/// A record, and the name progress and errors give it.
type Named = (String, AnyRecord);

/// Players in the bots' games, as in the real games the judge is measured on.
const PLAYERS: u8 = 2;

/// One group's games, judged.
struct Group {
    name: String,
    summary: Summary,
    seconds_per_game: f64,
}

pub fn run(args: &JudgeArgs) -> Result<(), String> {
    let kind = args.game;
    let sampler = super::sampler(args.playouts_to);
    let table = record::dispatch_kind!(kind, R => <R as game::Commands>::match_table(kind, None))?.table;
    let mut groups = Vec::new();
    for &bot in &args.bots.0 {
        let games = (0..args.games)
            .map(|i| {
                let seed = args.seed.wrapping_add(u64::from(i));
                let record = arena::self_play(bot, &table, PLAYERS, seed).map_err(|e| e.to_string())?;
                Ok((format!("{bot} game {} (seed {seed})", i + 1), record))
            })
            .collect::<Result<Vec<_>, String>>()?;
        groups.push(judge(bot.to_string(), &games, sampler)?);
    }
    for (name, records) in given_records(&args.files, kind)? {
        groups.push(judge(name, &records, sampler)?);
    }
    emit(&if args.json {
        serde_json::to_string_pretty(&json_doc(args, kind, &groups)).expect("JSON values serialise") + "\n"
    } else {
        text(args, kind, &groups)
    });
    Ok(())
}

/// The records in `files`, grouped by game: "records", or "records, GAME" for those not of
/// the bots' game.
fn given_records(files: &[PathBuf], kind: GameKind) -> Result<Vec<(String, Vec<Named>)>, String> {
    let mut groups: Vec<(GameKind, Vec<Named>)> = Vec::new();
    for path in files {
        for (name, record) in records_in(path)? {
            let of = record.kind();
            match groups.iter_mut().find(|(k, _)| *k == of) {
                Some((_, records)) => records.push((name, record)),
                None => groups.push((of, vec![(name, record)])),
            }
        }
    }
    Ok((groups.into_iter())
        .map(|(of, records)| match of == kind {
            true => ("records".to_string(), records),
            false => (format!("records, {}", of.name()), records),
        })
        .collect())
}

/// The record in a file, or, for a file that is no record but holds Carcassonne Lab links one
/// per line (as a CSV of games does), the game of each link.
pub(super) fn records_in(path: &std::path::Path) -> Result<Vec<Named>, String> {
    let bytes = read_bytes(path)?;
    let failed = match record::parse_any(&bytes) {
        Ok(record) => return Ok(vec![(path.display().to_string(), record)]),
        Err(e) => format!("{}: {e}", path.display()),
    };
    let text = String::from_utf8_lossy(&bytes);
    let links: Vec<(usize, &str)> = (text.lines().enumerate())
        .filter_map(|(i, line)| Some((i + 1, lab_link(line)?)))
        .collect();
    if links.is_empty() {
        return Err(failed);
    }
    (links.into_iter())
        .map(|(line, link)| {
            let name = format!("{} line {line}", path.display());
            let record = lab::parse(link).map_err(|e| format!("{name}: {e}"))?;
            Ok((name, AnyRecord::Tiles(record, record::Format::Lab)))
        })
        .collect()
}

/// A Carcassonne Lab link among a CSV line's fields: a quoted field first (a link's query holds
/// commas), else a bare one.
fn lab_link(line: &str) -> Option<&str> {
    let is_link = |f: &&str| f.contains("carcassonnelab.com") && lab::looks_like(f);
    (line.split('"').skip(1).step_by(2).find(is_link)).or_else(|| line.split(',').map(str::trim).find(is_link))
}

/// Analyses every game of a group and judges the reports.
fn judge(name: String, records: &[Named], sampler: Sampler) -> Result<Group, String> {
    let start = Instant::now();
    let mut games = Vec::new();
    for (i, (label, record)) in records.iter().enumerate() {
        let game_start = Instant::now();
        let judged = (of_record(record))
            .judged(sampler, &super::output::analysing)
            .map_err(|e| format!("{label}: {e}"))?;
        eprintln!(
            "judge: {name}: {} of {}: {label}: {} moves in {:.1} s",
            i + 1,
            records.len(),
            judged.turns.len(),
            game_start.elapsed().as_secs_f64()
        );
        games.push(judged);
    }
    Ok(Group {
        name,
        summary: figures::summarise(&games),
        seconds_per_game: start.elapsed().as_secs_f64() / records.len().max(1) as f64,
    })
}

/// Each player's result when the game was played to its end: 1 won, ½ first place shared, 0.
pub fn results(finished: bool, scores: &[i32]) -> Option<Vec<f64>> {
    finished.then(|| (0..scores.len() as u8).map(|p| outcome(scores, p)).collect())
}

/// A tile game's turns as its whole-game report (`analyse --json`) gives them.
pub fn tile_turns(report: &GameReport) -> Vec<Turn> {
    (report.turns.iter())
        .filter_map(|t| {
            Some(Turn {
                phase: match t.turn {
                    ..=24 => Phase::Early,
                    25..=48 => Phase::Middle,
                    _ => Phase::Late,
                },
                mover: t.player,
                points_lost: t.points_lost?,
                best_listed: t.best_move.as_ref()?.value,
                played_listed: t.played_move.as_ref()?.value,
                win_chance: t.win_chance,
            })
        })
        .collect()
}

/// A Card Game's turns as its whole-game report gives them.
pub fn card_turns(report: &cards::Report) -> Vec<Turn> {
    let total = report.turns.len() as u32;
    (report.turns.iter())
        .filter_map(|t| {
            Some(Turn {
                phase: match 3 * t.turn {
                    x if x <= total => Phase::Early,
                    x if x <= 2 * total => Phase::Middle,
                    _ => Phase::Late,
                },
                mover: t.player,
                points_lost: t.points_lost?,
                best_listed: t.alternatives.first()?.value,
                played_listed: t.alternatives.get(t.played?)?.value,
                win_chance: t.facts.win_chance,
            })
        })
        .collect()
}

fn json_doc(args: &JudgeArgs, kind: GameKind, groups: &[Group]) -> serde_json::Value {
    let groups: Vec<_> = (groups.iter())
        .map(|g| {
            let s = &g.summary;
            let chances = s.chances.as_ref().map(|c| {
                json!({
                    "positions": c.positions,
                    "log_loss": c.log_loss,
                    "by_phase": c.by_phase.map(|(positions, log_loss)| json!({"positions": positions, "log_loss": log_loss})),
                    "reliability": bins_json(&c.reliability, None),
                })
            });
            json!({
                "group": g.name,
                "games": s.games,
                "moves": s.moves,
                "mean_points_lost": s.mean_lost,
                "mean_points_lost_95": s.interval.map(|(lo, hi)| [lo, hi]),
                "first_choice": s.first_choice,
                "loss_over_listed_gap": s.loss_over_gap,
                "listed_first_with_loss": s.first_with_loss,
                "win_chances": chances,
                "completion_chances": s.completion.as_ref().map(|c| json!({
                    "forecasts": c.forecasts,
                    "brier": c.brier,
                    "share_completed": c.share,
                    "tolerance": figures::COMPLETION_TOLERANCE,
                    "reliability": bins_json(&c.reliability, Some(figures::COMPLETION_TOLERANCE)),
                })),
                "seconds_per_game": g.seconds_per_game,
            })
        })
        .collect();
    json!({
        "game": kind.name(),
        "players": PLAYERS,
        "games_per_bot": args.games,
        "seed": args.seed,
        "groups": groups,
        "debug_build": cfg!(debug_assertions),
    })
}

/// Ten bins of chances, as JSON; with a `tolerance`, each tenth that holds any says what its
/// games show of its miss against it ([`figures::Bin::against`]).
fn bins_json(bins: &[figures::Bin; 10], tolerance: Option<f64>) -> Vec<serde_json::Value> {
    (bins.iter().enumerate())
        .map(|(i, b)| {
            let mut bin = json!({
                "from": i as f64 / 10.0, "to": (i + 1) as f64 / 10.0, "count": b.count,
                "mean_predicted": b.mean_predicted, "observed": b.observed,
                "miss_interval": b.miss_interval.map(|(lo, hi)| [lo, hi]),
            });
            if let Some(tolerance) = tolerance.filter(|_| b.count > 0) {
                bin["verdict"] = b.against(tolerance).word().into();
            }
            bin
        })
        .collect()
}

/// The tenths holding chances, by what their games show of the miss against `tolerance`.
fn verdicts_text(bins: &[figures::Bin; 10], tolerance: f64) -> String {
    use figures::Verdict;
    let tenths = |verdict: Verdict| {
        let named: Vec<String> = (bins.iter().enumerate())
            .filter(|(_, b)| b.count > 0 && b.against(tolerance) == verdict)
            .map(|(i, _)| tenth_label(i))
            .collect();
        if named.is_empty() {
            "none".to_string()
        } else {
            named.join(", ")
        }
    };
    format!(
        "the miss against ±{:.0} points, by its 95% interval\n  within: {}\n  beyond: {}\n  \
         cannot tell (more games would): {}\n",
        tolerance * 100.0,
        tenths(Verdict::Within),
        tenths(Verdict::Beyond),
        tenths(Verdict::Unresolved)
    )
}

/// The `i`-th tenth of chance, as the tables name it: "30–40%".
fn tenth_label(i: usize) -> String {
    format!("{}–{}%", i * 10, i * 10 + 10)
}

/// Ten bins of chances as a table: how many fell in each tenth, their mean, what came of
/// them (`came`: "share won", "share completed"), and the miss in points with its interval
/// over games.
fn bins_text(bins: &[figures::Bin; 10], what: &str, came: &str) -> String {
    use super::output::{Align, aligned};
    let mut rows = vec![vec![
        "chance".to_string(),
        what.to_string(),
        "mean given".into(),
        came.to_string(),
        "miss, points".into(),
        "95% over games".into(),
    ]];
    let points = |x: f64| format!("{:+.1}", x * 100.0);
    for (i, b) in bins.iter().enumerate().filter(|(_, b)| b.count > 0) {
        rows.push(vec![
            tenth_label(i),
            b.count.to_string(),
            format!("{:.3}", b.mean_predicted),
            format!("{:.3}", b.observed),
            points(b.observed - b.mean_predicted),
            b.miss_interval
                .map_or("-".into(), |(lo, hi)| format!("{} to {}", points(lo), points(hi))),
        ]);
    }
    let right = Align::Right;
    aligned(&rows, &[Align::Left, right, right, right, right, right], 2)
}

/// The completion chances of each group that has some.
fn completion_text(groups: &[Group]) -> String {
    let mut out = String::new();
    for g in groups {
        let Some(c) = &g.summary.completion else { continue };
        out += &format!(
            "\ncompletion chances, {}: {} shown before a turn, against completed by the end; Brier {:.4} \
             (always saying the share completed, {:.3}: {:.4})\n",
            g.name,
            c.forecasts,
            c.brier,
            c.share,
            c.share * (1.0 - c.share)
        );
        out += &bins_text(&c.reliability, "features", "share completed");
        out += &verdicts_text(&c.reliability, figures::COMPLETION_TOLERANCE);
    }
    out
}

fn text(args: &JudgeArgs, kind: GameKind, groups: &[Group]) -> String {
    use super::output::{Align, aligned};
    let mut out = String::new();
    if cfg!(debug_assertions) {
        out += "warning: debug build; measure with `cargo run --release -- bench --judge`\n";
    }
    out += &format!(
        "{}, bots' games: {} of each, {PLAYERS} players, seeds from {}; the analysis at its defaults\n\n",
        kind.name(),
        args.games,
        args.seed
    );
    let pct = |n: usize, of: usize| format!("{n} ({:.0}%)", 100.0 * n as f64 / of.max(1) as f64);
    let mut rows = vec![
        [
            "group",
            "games",
            "moves",
            "lost/move",
            "95% interval",
            "first choice",
            "loss > gap",
            "first, lost",
            "s/game",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for g in groups {
        let s = &g.summary;
        rows.push(vec![
            g.name.clone(),
            s.games.to_string(),
            s.moves.to_string(),
            format!("{:.2}", s.mean_lost),
            s.interval.map_or("-".into(), |(lo, hi)| format!("{lo:.2} to {hi:.2}")),
            pct(s.first_choice, s.moves),
            s.loss_over_gap.to_string(),
            s.first_with_loss.to_string(),
            format!("{:.1}", g.seconds_per_game),
        ]);
    }
    let mut align = vec![Align::Left];
    align.extend([Align::Right; 8]);
    out += &aligned(&rows, &align, 2);
    let scored: Vec<_> = groups
        .iter()
        .filter_map(|g| Some((g, g.summary.chances.as_ref()?)))
        .collect();
    if scored.is_empty() {
        return out + &completion_text(groups);
    }
    out += "\nwin chances after the move played, log loss against how the games ended (always 50%: 0.693)\n";
    let mut rows = vec![
        ["group", "positions", "log loss", "early", "middle", "late"]
            .map(String::from)
            .to_vec(),
    ];
    for (g, c) in &scored {
        let mut row = vec![g.name.clone(), c.positions.to_string(), format!("{:.3}", c.log_loss)];
        row.extend((c.by_phase.iter()).map(|(n, l)| l.map_or("-".into(), |l| format!("{l:.3} ({n})"))));
        rows.push(row);
    }
    let mut align = vec![Align::Left];
    align.extend([Align::Right; 5]);
    out += &aligned(&rows, &align, 2);
    for (g, c) in &scored {
        out += &format!(
            "\nreliability, {}: the chances given by tenths, against the share won\n",
            g.name
        );
        out += &bins_text(&c.reliability, "positions", "share won");
    }
    out + &completion_text(groups)
}

#[cfg(test)]
mod tests {
    use super::lab_link;

    /// The shared fixture's form: a quoted link whose query holds commas, among other fields.
    #[test]
    fn a_lab_link_is_found_in_a_csv_line_whole() {
        let line = r#"362000028,,Friendly Matches,,1,2,N2xU,pavelbrin,2023-03-30,"https://www.carcassonnelab.com/#/0/0/abc/def?players=pavelbrin,N2xU&colors=red,blue""#;
        assert_eq!(
            lab_link(line),
            Some("https://www.carcassonnelab.com/#/0/0/abc/def?players=pavelbrin,N2xU&colors=red,blue")
        );
        assert_eq!(
            lab_link("7,https://carcassonnelab.com/#/0/0/abc/def"),
            Some("https://carcassonnelab.com/#/0/0/abc/def")
        );
        assert_eq!(lab_link("Game ID,Tournament,Edition,Round,URL"), None);
    }
}

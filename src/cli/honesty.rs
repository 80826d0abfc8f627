//! `bench honesty N`: how far what the analysis says is from the truth, and from itself.
//! - **Points lost.** On turns of greedy-bot games, a reference analysis with ten times the
//!   playouts finds the best move; with that move played instead (the record cut after it),
//!   the default analysis should report (almost) nothing lost. The bots' own moves are rarely
//!   best, so they are replaced rather than waited for.
//! - **Contradictions** (`analysis::contradictions`): whole games analysed at the pages'
//!   options, N of greedy bots in each game and the demo games (with `../shared/fixtures/bga`'s
//!   real games when they are there), counted by kind, with every suggested move checked
//!   legal on its position.

use super::output::progress_bar;
use crate::analysis::report::StoredAnalysis;
use crate::analysis::{self, AnalysisOptions, AnyReport, Contradictions, DEFAULT_MAX_PLAYOUTS_PER_TURN};
use crate::engine::{Move, Preset};
use crate::record::AnyRecord;
use crate::record::RulesSpec;
use crate::record::recorded;
use crate::selfplay::{Policy, generate};
use crate::web::what_if::with_alternative;
use std::time::Instant;

/// Every `STEP`-th turn of each game is checked.
const STEP: u32 = 5;

/// What `bench honesty` is asked for.
#[derive(clap::Args, Debug)]
pub struct HonestyArgs {
    /// Greedy-bot games to check, every 5th turn of each.
    #[arg(value_name = "N")]
    games: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &HonestyArgs) -> Result<(), String> {
    let HonestyArgs { games, json: as_json } = *args;
    let (checked_games, found) = contradictions(games)?;
    let lost = points_lost(games)?;
    if as_json {
        let doc = serde_json::json!({
            "points_lost": lost,
            "contradictions": {"games": checked_games, "total": found.total(), "by_kind": found},
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("JSON values serialise"));
    } else {
        print!("{}", lost_table(&lost));
        println!("contradictions in {checked_games} games     {}", found.total());
        println!("  ranks out of value order             {}", found.ranks);
        println!("  mistakes too close to call           {}", found.classes);
        println!("  accuracy against points lost (pairs) {}", found.accuracy);
        println!("  0% or 100% without a reason          {}", found.certainties);
        println!("  illegal suggestions                  {}", found.illegal);
    }
    Ok(())
}

/// The games checked for contradictions, and what they hold.
fn contradictions(games: u32) -> Result<(u32, Contradictions), String> {
    let mut records: Vec<AnyRecord> = crate::web::startup::DEMOS
        .iter()
        .map(|demo| crate::record::parse_any(demo).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let bga = std::path::Path::new("../shared/fixtures/bga");
    if let Ok(dir) = std::fs::read_dir(bga) {
        let mut paths: Vec<_> = dir.filter_map(|e| Some(e.ok()?.path())).collect();
        paths.sort();
        for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
            records.push(super::game::read(path)?);
        }
    }
    for g in 0..games {
        let seed = 2000 + u64::from(g);
        for preset in [Preset::SecondEdition, Preset::NewWorld] {
            let record = generate(RulesSpec::new(preset), 2, Policy::Greedy, seed).map_err(|e| e.to_string())?;
            records.push(AnyRecord::Tiles(record, crate::record::Format::Native));
        }
        let cards = crate::selfplay::card_game(2, Policy::Greedy, seed).map_err(|e| e.to_string())?;
        records.push(AnyRecord::Cards(cards));
    }
    let mut found = Contradictions::default();
    for (i, record) in records.iter().enumerate() {
        found += of_record(record)?;
        progress_bar("judging", "games", i as u32 + 1, records.len() as u32);
    }
    Ok((records.len() as u32, found))
}

/// One game's contradictions: its analysis at the pages' options, and its suggestions' legality.
fn of_record(record: &AnyRecord) -> Result<Contradictions, String> {
    let options = AnalysisOptions::default();
    let (report, illegal) = match record {
        AnyRecord::Tiles(r, _) => {
            let game = analysis::analyse_game(r, &options, &analysis::quiet).map_err(|e| e.to_string())?;
            let illegal = illegal_suggestions(r, &game)?;
            (AnyReport::Tiles(StoredAnalysis::of(&game)), illegal)
        }
        AnyRecord::Cards(_) => (
            analysis::analyse_any(record, &options, &analysis::quiet).map_err(|e| e.to_string())?,
            0,
        ),
    };
    let players = crate::record::dispatch!(record, r => r.players.len());
    let mut found = analysis::contradictions(&report, players);
    found.illegal = illegal;
    Ok(found)
}

/// Suggested moves the rules refuse on their turn's position.
fn illegal_suggestions(record: &crate::record::GameRecord, game: &analysis::GameAnalysis) -> Result<u32, String> {
    let mut illegal = 0;
    for t in &game.turns {
        let (before, _) = analysis::position_before(record, t.turn).map_err(|e| e.to_string())?;
        illegal += (t.alternatives.iter())
            .filter(|a| before.check_action(t.facts.tile, a.placement, a.action).is_err())
            .count() as u32;
    }
    Ok(illegal)
}

/// The points-lost check's figures.
#[derive(serde::Serialize)]
struct Lost {
    games: u32,
    turns_checked: u32,
    turns_with_best_played: u32,
    mean_points_lost_reported: f64,
    turns_with_points_lost: u32,
    default_seconds_per_turn: f64,
}

fn lost_table(l: &Lost) -> String {
    format!(
        "turns checked                         {}\n  with the reference's best move played {}\n\
         points lost reported there, mean       {:.3} (target ≤ 0.3)\n  turns reporting any loss             {}\n",
        l.turns_checked, l.turns_with_best_played, l.mean_points_lost_reported, l.turns_with_points_lost
    )
}

/// The points-lost check on `games` greedy-bot games.
fn points_lost(games: u32) -> Result<Lost, String> {
    let default = AnalysisOptions::default();
    let reference = AnalysisOptions {
        playouts_per_alternative: Some(default.per_alternative() * 10),
        max_playouts_per_turn: DEFAULT_MAX_PLAYOUTS_PER_TURN * 10,
        seed: 0x5eed,
        ..AnalysisOptions::default()
    };
    let (mut checked, mut agreed, mut lost_when_agreed, mut nonzero) = (0u32, 0u32, 0.0f64, 0u32);
    let mut seconds = 0.0;
    for g in 0..games {
        let record = generate(
            RulesSpec::new(Preset::SecondEdition),
            2,
            Policy::Greedy,
            1000 + u64::from(g),
        )
        .map_err(|e| e.to_string())?;
        let turns = record.turns();
        for n in (STEP..=turns).step_by(STEP as usize) {
            let truth = analysis::analyse_turn(&record, n, &reference).map_err(|e| e.to_string())?;
            let (before, played) = analysis::position_before(&record, n).map_err(|e| e.to_string())?;
            let Some(best) = truth.best() else { continue };
            let mv = Move {
                tile: played.tile,
                placement: best.placement,
                action: best.action,
            };
            let best_played = with_alternative(&record, n, recorded(&before, &mv));
            checked += 1;
            let start = Instant::now();
            let told = analysis::analyse_turn(&best_played, n, &default).map_err(|e| e.to_string())?;
            seconds += start.elapsed().as_secs_f64();
            let lost = told.points_lost().unwrap_or(0.0);
            agreed += 1;
            lost_when_agreed += lost;
            nonzero += u32::from(lost > 0.0);
        }
        progress_bar("checking", "games", g + 1, games);
    }
    Ok(Lost {
        games,
        turns_checked: checked,
        turns_with_best_played: agreed,
        mean_points_lost_reported: lost_when_agreed / f64::from(agreed.max(1)),
        turns_with_points_lost: nonzero,
        default_seconds_per_turn: seconds / f64::from(agreed.max(1)),
    })
}

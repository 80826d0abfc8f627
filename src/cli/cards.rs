//! The Card Game's commands: its replay table, its record and scoring written out, each
//! action weighed over samples of what the mover cannot see, games dealt to bots.

use super::analyse_cmd::{AnalyseArgs, pretty};
use super::game::{Bots, Commands, MatchTable};
use super::judge::{self, figures};
use super::replay_cmd::ExportFormat;
use crate::engine::cards::CardGame;

use crate::analysis::AnalysisError;
use crate::analysis::Sampler;
use crate::analysis::arena::{self, Contender, Table};
use crate::analysis::cards;
use crate::analysis::win_chance::{CalibrationSettings, Sample, Scale};
use crate::engine::{GameKind, Preset};
use crate::export::Export;
use crate::record::Record;
use crate::render::RenderError;
use crate::replay;
use crate::replay::cards::Refusal;
use crate::selfplay;
use std::fmt::Write as _;
use std::path::Path;

impl Commands for Record<CardGame> {
    fn replay(&self, path: &Path, as_json: bool, preset: Option<Preset>) -> Result<String, String> {
        if preset.is_some() {
            return Err(format!("{}: --preset is for the tile games", path.display()));
        }
        let replay = replay::cards::replay(self).map_err(|e| format!("{}: {}", path.display(), e.describe(self)))?;
        Ok(if as_json {
            let doc = replay::cards::to_json(self, &replay);
            serde_json::to_string_pretty(&doc).expect("JSON values serialise") + "\n"
        } else {
            replay::cards::table(self, &replay)
        })
    }

    fn export(&self, path: &Path, to: ExportFormat) -> Result<String, String> {
        let exported = match to {
            ExportFormat::Json => Ok(self.native_json() + "\n"),
            ExportFormat::Csv => self.scoring_csv().map_err(|e| e.to_string()),
            ExportFormat::Jcz => Err(super::replay_cmd::no_jcz("Card Game")),
            ExportFormat::Lab => Err(format!("a Card Game exports to json or csv, not {:?}", to.name())),
        };
        exported.map_err(|e| format!("{}: {e}", path.display()))
    }

    /// One turn's actions with what they do now and their sampled values, or with no turn
    /// every turn's played move against the best.
    fn analyse(&self, args: &AnalyseArgs) -> Result<String, String> {
        let samples = args.playouts.unwrap_or(cards::DEFAULT_SAMPLES);
        let failed = |e: AnalysisError<Refusal>| format!("{}: {}", args.file.display(), e.describe(self));
        let Some(turn) = args.turn else {
            let report = cards::analyse_game(self, samples, &super::output::analysing).map_err(failed)?;
            return Ok(if args.json {
                pretty(&report)
            } else {
                game_table(self, &report)
            });
        };
        let t = cards::analyse_turn(self, turn, samples, args.seed)
            .map_err(failed)?
            .report(samples);
        if args.json {
            return Ok(pretty(&t));
        }
        let name = &self.players[t.player as usize].name;
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
        Ok(out)
    }

    /// The Card Game plays its samples to the end whatever `_sampler` says: a game of cards
    /// is short.
    fn judged(&self, _sampler: Sampler, progress: crate::analysis::Progress) -> Result<figures::Game, String> {
        let replay = replay::cards::replay(self).map_err(|e| e.describe(self))?;
        let report = cards::analyse_game(self, cards::DEFAULT_SAMPLES, progress).map_err(|e| e.describe(self))?;
        Ok(figures::Game {
            turns: judge::card_turns(&report),
            results: judge::results(replay.finished, &replay.final_scores),
            completions: Vec::new(),
        })
    }

    fn render_error(&self, e: RenderError) -> String {
        e.to_string()
    }

    /// No River, Abbot or rulebook preset: a flag for them is refused, never ignored.
    fn generate(_: GameKind, bots: &Bots) -> Result<String, String> {
        let tile_flags: Vec<&str> = [
            (bots.river, "--river"),
            (bots.abbot, "--abbot"),
            (bots.preset.is_some(), "--preset"),
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
        let record = selfplay::card_game(bots.players, bots.policy, bots.seed).map_err(|e| e.to_string())?;
        Ok(record.native_json() + "\n")
    }

    fn match_table(kind: GameKind, preset: Option<Preset>) -> Result<MatchTable, String> {
        match preset {
            None => Ok(MatchTable {
                table: Table::CardGame,
                rules: kind.name(),
                order: ("deal", "deals"),
            }),
            Some(_) => Err("--preset is for the tile games".into()),
        }
    }

    /// The Card Game has one rulebook: `preset` is not asked.
    fn calibration(
        _: GameKind,
        _: Option<Preset>,
        policy: Option<Contender>,
        settings: &CalibrationSettings,
        progress: &dyn Fn(u32, u32),
    ) -> Result<(Vec<Sample>, Scale, &'static str), String> {
        let players = settings.players;
        let play = |seed| match policy {
            None => selfplay::card_game(players, selfplay::Policy::Sampled, seed),
            Some(contender) => arena::self_play_cards(contender, players, seed),
        };
        Ok((
            cards::chance_samples(settings, &play, progress).map_err(|e| e.to_string())?,
            Scale::current(crate::engine::GameKind::CardGame),
            "turns",
        ))
    }
}

/// Each player's points lost, then each turn's played move against the best.
fn game_table(record: &Record<CardGame>, r: &cards::Report) -> String {
    let mut out = format!(
        "Value: mean final margin over {} samples per action\n\n",
        r.head.samples
    );
    writeln!(
        out,
        "{:<14} {:>6} {:>6} {:>12} {:>9}",
        "player", "turns", "best", "points lost", "average"
    )
    .unwrap();
    for (p, s) in record.players.iter().zip(&r.head.players) {
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

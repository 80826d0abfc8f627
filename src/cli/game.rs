//! What the commands do per game: [`Commands`], with one implementation per game (`tiles` for
//! Carcassonne and New World, `cards` for the Card Game). A record read from a file reaches its
//! game's through [`of_record`]; a game named by `--game` through `record::dispatch_kind!`. The
//! command modules parse their arguments and write out what these give back; none of them
//! asks which game it holds.

use super::analyse_cmd::AnalyseArgs;
use super::judge::figures;
use super::replay_cmd::{ExportFormat, read_bytes};
use crate::analysis::Sampler;
use crate::analysis::arena::{Contender, Table};
use crate::analysis::win_chance::{CalibrationSettings, Sample, Scale};
use crate::engine::{GameKind, Preset};
use crate::record::{self, AnyRecord};
use crate::render::RenderError;
use crate::selfplay::Policy;
use std::path::Path;

/// What the commands do with a game of one kind.
pub trait Commands {
    /// `replay`: the table, or the JSON document; `preset` replays under another rulebook.
    fn replay(&self, path: &Path, json: bool, preset: Option<Preset>) -> Result<String, String>;

    /// `export --to`: the record in another format.
    fn export(&self, path: &Path, to: ExportFormat) -> Result<String, String>;

    /// `analyse`: one turn's alternatives, or every turn's played move against the best.
    fn analyse(&self, args: &AnalyseArgs) -> Result<String, String>;

    /// `bench judge`: the whole game analysed at the pages' options, as the judge reads the
    /// report, with how the game ended if it did.
    fn judged(&self, sampler: Sampler, progress: crate::analysis::Progress) -> Result<figures::Game, String>;

    /// Why `render` could not draw the game, with the record's names.
    fn render_error(&self, e: RenderError) -> String;

    /// `generate`: a game of `kind` played by bots, as its record.
    fn generate(kind: GameKind, bots: &Bots) -> Result<String, String>
    where
        Self: Sized;

    /// The table `match` plays `kind` at, under `preset` where the game has rulebooks.
    fn match_table(kind: GameKind, preset: Option<Preset>) -> Result<MatchTable, String>
    where
        Self: Sized;

    /// `calibrate`: positions of generated games of `kind`, valued, with how they ended; the
    /// scale in use; and what a game counts down in ("tiles"). The games are played by
    /// `policy` in every seat, else by the game's calibration bots.
    fn calibration(
        kind: GameKind,
        preset: Option<Preset>,
        policy: Option<Contender>,
        settings: &CalibrationSettings,
        progress: &dyn Fn(u32, u32),
    ) -> Result<(Vec<Sample>, Scale, &'static str), String>
    where
        Self: Sized;
}

/// A match's table, and how its report names it.
pub struct MatchTable {
    pub table: Table,
    /// The rulebook's name, or the Card Game's.
    pub rules: &'static str,
    /// What each seat rotation plays over, one and many: "tile order", "deal".
    pub order: (&'static str, &'static str),
}

/// What `generate` was asked for besides the game.
pub struct Bots {
    pub players: u8,
    pub policy: Policy,
    pub seed: u64,
    /// The tile games' options: a rulebook, The River, The Abbot.
    pub preset: Option<Preset>,
    pub river: bool,
    pub abbot: bool,
}

/// The record in the file at `path`, as its game's commands.
pub fn read(path: &Path) -> Result<AnyRecord, String> {
    record::parse_any(&read_bytes(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

/// A record's commands, by its game.
pub fn of_record(record: &AnyRecord) -> &dyn Commands {
    record::dispatch!(record, r => r as &dyn Commands)
}

/// A rulebook by its name, or an error listing the names: `--preset`'s parser.
pub fn preset(name: &str) -> Result<Preset, String> {
    Preset::parse(name).ok_or_else(|| {
        let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
        format!("unknown preset {name:?}; the presets are {}", names.join(", "))
    })
}

//! `replay`, `export` and `generate`: read a record, replay it, print a table, JSON, a `.jcz`
//! or CSV; or play a game with bots and print its record. What each game does is in
//! [`super::game::Commands`].

use super::game::{self, Bots, Commands};
use super::output::emit;
use crate::engine::{GameKind, Preset};
use crate::record::{self, MAX_RECORD_BYTES};
use crate::selfplay::Policy;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What `replay` is asked for.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A carcassonne-replay JSON record, a JCloisterZone .jcz save, a Board Game Arena log
    /// or course notation (detected from content).
    file: PathBuf,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    json: bool,
    /// Replay under another rules preset: second-edition, classic-2000,
    /// classic-2000-alternate or course.
    #[arg(long, value_parser = game::preset)]
    preset: Option<Preset>,
}

/// What `export` is asked for.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// A record in any format `replay` reads.
    file: PathBuf,
    /// Target format: json (the native carcassonne-replay/1 record), jcz (a JCloisterZone
    /// 5.x save), csv (the scoring events of the replayed game) or lab (a Carcassonne Lab
    /// link).
    #[arg(long, default_value = "json", value_parser = ExportFormat::parse)]
    to: ExportFormat,
}

/// The formats `export --to` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Json,
    Jcz,
    Csv,
    Lab,
}

impl ExportFormat {
    const ALL: [ExportFormat; 4] = [
        ExportFormat::Json,
        ExportFormat::Jcz,
        ExportFormat::Csv,
        ExportFormat::Lab,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Jcz => "jcz",
            ExportFormat::Csv => "csv",
            ExportFormat::Lab => "lab",
        }
    }

    fn parse(name: &str) -> Result<ExportFormat, String> {
        (ExportFormat::ALL.into_iter().find(|f| f.name() == name))
            .ok_or_else(|| format!("cannot export to {name:?}; supported: json, jcz, csv, lab"))
    }
}

/// What `generate` is asked for.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// Random seed: the same seed gives the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Players at the table.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// carcassonne, new-world (played on our sample tile set) or card-game.
    #[arg(long, default_value = "carcassonne")]
    game: GameKind,
    /// The rulebook; default: the game's own (second-edition, or new-world).
    #[arg(long, value_parser = game::preset)]
    preset: Option<Preset>,
    /// random, greedy (the most points now, of every move) or sampled (the best of three
    /// sampled placements, as the analysis's playouts play).
    #[arg(long, default_value = "greedy", value_parser = bot_policy)]
    policy: Policy,
    /// Play with The River.
    #[arg(long)]
    river: bool,
    /// Play with The Abbot.
    #[arg(long)]
    abbot: bool,
}

/// The bots `generate --policy` names.
fn bot_policy(name: &str) -> Result<Policy, String> {
    match name {
        "random" => Ok(Policy::Random),
        "greedy" => Ok(Policy::Greedy),
        "sampled" => Ok(Policy::Sampled),
        other => Err(format!("unknown policy {other:?}; use random, greedy or sampled")),
    }
}

/// Reads at most `MAX_RECORD_BYTES` (plus one, to tell a file that is too large).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

pub fn run(args: &ReplayArgs) -> Result<(), String> {
    let record = game::read(&args.file)?;
    emit(&game::of_record(&record).replay(&args.file, args.json, args.preset)?);
    Ok(())
}

pub fn export(args: &ExportArgs) -> Result<(), String> {
    let record = game::read(&args.file)?;
    emit(&game::of_record(&record).export(&args.file, args.to)?);
    Ok(())
}

/// Why New World and the Card Game have no `.jcz`: JCloisterZone plays the tile game only.
pub fn no_jcz(game: &str) -> String {
    format!("JCloisterZone has no {game}, only the tile game; export this game to json or csv")
}

pub fn generate(args: &GenerateArgs) -> Result<(), String> {
    let kind = args.game;
    let bots = Bots {
        players: args.players,
        policy: args.policy,
        seed: args.seed,
        preset: args.preset,
        river: args.river,
        abbot: args.abbot,
    };
    emit(&record::dispatch_kind!(kind, R => R::generate(kind, &bots))?);
    Ok(())
}

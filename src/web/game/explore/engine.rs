//! The engine's answers on the explore board ([`EngineAnswer`]), as the page shows them and
//! the API gives them, and those kept ([`Thoughts`]).

use crate::analysis::{Opinion, WinChance};
use crate::store::GameId;
use crate::web::view;
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// The engine's answer for one position, as the page shows it and the API gives it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct EngineAnswer {
    /// Samples each move had; 0: the heuristic alone (`/docs/analysis`).
    pub samples: u32,
    /// Legal moves weighed.
    pub moves: usize,
    /// How long the engine thought, in milliseconds.
    pub millis: u64,
    /// The best moves, best first.
    pub best: Vec<BestMove>,
    /// The mover's chance of winning with the best move, and its range over two standard
    /// errors of its value; none for the heuristic alone.
    pub win_chance: Option<ChanceAnswer>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct BestMove {
    /// The move as a line step (`record::TileLine`, `record::Line<CardMove>`), and the whole line with it played.
    pub step: String,
    pub line: String,
    pub words: String,
    /// The mover's expected final margin over the best opponent, in points.
    pub value: f64,
    pub std_error: Option<f64>,
    /// Where a tile game draws it as a ghost.
    #[serde(skip)]
    pub ghost: Option<GhostAt>,
}

/// Where a tile-game move puts its tile and figure, for the board to draw it as a ghost.
#[derive(Clone, Debug)]
pub struct GhostAt {
    pub pos: crate::engine::Pos,
    pub rotation: u16,
    pub action: crate::analysis::report::ActionReport,
}

#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct ChanceAnswer {
    pub chance: f64,
    pub low: f64,
    pub high: f64,
}

impl EngineAnswer {
    /// `opinion` with each best move written by `step` after the line `before`, and put in
    /// words by `words`.
    pub fn of<M>(
        opinion: &Opinion<M>,
        before: &str,
        step: impl Fn(&M) -> String,
        words: impl Fn(&M) -> String,
    ) -> EngineAnswer {
        EngineAnswer {
            samples: opinion.samples,
            moves: opinion.moves,
            millis: opinion.elapsed.as_millis() as u64,
            best: (opinion.best.iter())
                .map(|r| BestMove {
                    line: then(before, &step(&r.mv)),
                    step: step(&r.mv),
                    words: words(&r.mv),
                    value: r.value,
                    std_error: r.std_error,
                    ghost: None,
                })
                .collect(),
            win_chance: opinion
                .win_chance
                .map(|WinChance { chance, low, high }| ChanceAnswer { chance, low, high }),
        }
    }

    /// The value of a best move in words: "+3.2 ± 0.4 points", or "+3.2 points (heuristic)".
    pub fn value_words(&self, b: &BestMove) -> String {
        match b.std_error {
            Some(se) if self.samples > 0 => format!("{} ± {} points", signed(b.value), view::points(se)),
            _ => format!("{} points (heuristic)", signed(b.value)),
        }
    }

    /// What the values are and how sure they are, in words.
    pub fn basis(&self) -> String {
        match self.samples {
            0 => format!(
                "Values are the heuristic's (see the analysis reference), with no samples: the engine could not sample these {} moves within its {} ms.",
                self.moves,
                crate::analysis::ENGINE_BUDGET.as_millis()
            ),
            n => format!(
                "Values are the mover's expected final margin over the best opponent, from {n} samples a move over {} moves, in {} ms; ± is one standard error, and the chance's range two.",
                self.moves, self.millis
            ),
        }
    }

    pub fn chance_words(&self) -> Option<String> {
        let c = self.win_chance?;
        let pc = |x: f64| format!("{:.0}%", x * 100.0);
        Some(format!("{} ({} to {})", pc(c.chance), pc(c.low), pc(c.high)))
    }
}

fn signed(x: f64) -> String {
    let p = view::points(x);
    if x > 0.0 { format!("+{p}") } else { p }
}

/// The engine's answers kept, by game, turn and line (the position's key).
pub type Thoughts = Mutex<lru::LruCache<(GameId, u32, String), Arc<EngineAnswer>>>;

/// Engine answers kept at most: each is a few hundred bytes.
pub const THOUGHTS_KEPT: usize = 4096;

pub fn thoughts() -> Arc<Thoughts> {
    Arc::new(Mutex::new(lru::LruCache::new(
        std::num::NonZeroUsize::new(THOUGHTS_KEPT).expect("a cache holds something"),
    )))
}

/// `prefix` with `step` played after it, in notation.
pub fn then(prefix: &str, step: &str) -> String {
    if prefix.is_empty() {
        step.to_string()
    } else {
        format!("{prefix}~{step}")
    }
}

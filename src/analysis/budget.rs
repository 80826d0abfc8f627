//! What one game's analysis may cost, planned before it starts.
//!
//! Playouts cost the tiles they play, so a turn's work is its alternatives × their playouts ×
//! the tiles left to play: its *tile-steps*. A tile of a playout costs more on a board where a
//! drawn tile has more places to go, as the bots weigh every one: a tile-step is counted as
//! the average placements of a drawn tile there over [`TYPICAL_DRAW_PLACEMENTS`], a 72-tile
//! game's. A 72-tile game asks 14 to 17 million at the default options. A legal record of
//! hundreds of custom tiles asked a hundred times more (an hour of both cores for 512 tiles in
//! a line); one whose own draws have few places to go, on a board where the pack's other tiles
//! have hundreds, asked few tile-steps when they were not weighed by the board, and took two
//! minutes, while every other analysis waited in the queue. So a game whose analysis would
//! pass [`GAME_TILE_STEPS`] runs with fewer playouts per turn, as many as fit, down to
//! [`MIN_PLAYOUTS_PER_TURN`]; past that it is refused, saying why. The plan depends on the
//! record and the options only, so it is the same on any machine.

use super::options::{AnalysisError, AnalysisOptions, Sampler};
use super::positions::walk;
use crate::record::GameRecord;

/// Tile-steps one game's analysis may ask for: about two and a half 72-tile games.
pub const GAME_TILE_STEPS: u64 = 40_000_000;
/// The fewest playouts a turn is cut to before a game is refused (the default is 12,800).
pub const MIN_PLAYOUTS_PER_TURN: u32 = 800;

/// One turn's size: the moves its analysis weighs, and the tiles a playout from it plays.
/// What a tile of a playout to the horizon costs, in tile-steps of playouts to the end: the
/// weighed bot weighs a few moves per tile where a playout to the end mostly plays one at
/// random. Measured in a release build: the tile analysis took 90 ms a move with playouts to
/// the horizon (12,800 of 4 tiles) and 82 ms with playouts to the end (about 450,000
/// tile-steps), so a horizon tile costs about 10.
pub const HORIZON_TILE_COST: u32 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSize {
    pub moves: usize,
    pub tiles_left: u32,
    /// Tiles a playout to the search's horizon plays ([`super::Sampler::Horizon`]), at most.
    pub horizon: u32,
    /// The placements a tile drawn at random from the pack has here, on average: the bots that
    /// play a sample's tiles weigh each one.
    pub draw_placements: u32,
}

/// The placements a drawn tile has on average over a 72-tile base game (the demo's 71 turns:
/// 27), the board a tile-step's cost was measured on: a tile of a playout on a board with
/// more costs that many times more. Near the end of a line of 500 tiles a drawn tile has
/// about 1,000. (Measured in a release build, a turn of such a line with 12,800 samples took
/// 10 s where this model expects 8; one at 200 placements, 2.2 s where it expects 1.)
pub const TYPICAL_DRAW_PLACEMENTS: u32 = 27;

impl TurnSize {
    /// What one playout of this turn costs, in tile-steps of playouts to the end on a board
    /// of the usual size.
    fn playout_tiles(&self, sampler: Sampler) -> u64 {
        let tiles = match sampler {
            Sampler::ToTheEnd => self.tiles_left,
            Sampler::Horizon => self.tiles_left.min(self.horizon) * HORIZON_TILE_COST,
        };
        u64::from(tiles) * u64::from(self.draw_placements.max(TYPICAL_DRAW_PLACEMENTS))
            / u64::from(TYPICAL_DRAW_PLACEMENTS)
    }
}

/// The placements a tile drawn at random from `game`'s pack has, on average over its copies.
fn draw_placements(game: &crate::engine::Game) -> u32 {
    let mut out = Vec::new();
    let (mut placements, mut copies) = (0u64, 0u64);
    for (kind, &n) in game.pack().iter().enumerate().filter(|(_, n)| **n > 0) {
        game.placements(crate::engine::TileKindId(kind as u16), true, &mut out);
        placements += u64::from(n) * out.len() as u64;
        copies += u64::from(n);
    }
    (placements / copies.max(1)) as u32
}

/// How a game's analysis runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// With the options asked for.
    AsAsked,
    /// With a turn's playouts capped lower than asked, to fit the budget.
    Shallower(Shallower),
}

/// A cap on a turn's playouts, lower than the one asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Shallower {
    pub max_playouts_per_turn: u32,
    /// The cap asked for (0: none).
    pub asked: u32,
}

impl Plan {
    /// The options the analysis runs with.
    pub fn options(self, asked: &AnalysisOptions) -> AnalysisOptions {
        match self {
            Plan::AsAsked => asked.clone(),
            Plan::Shallower(s) => AnalysisOptions {
                max_playouts_per_turn: s.max_playouts_per_turn,
                ..asked.clone()
            },
        }
    }

    pub fn shallower(self) -> Option<Shallower> {
        match self {
            Plan::AsAsked => None,
            Plan::Shallower(s) => Some(s),
        }
    }
}

/// Every turn's size, from one walk of the record.
pub fn sizes(record: &GameRecord) -> Result<Vec<TurnSize>, AnalysisError> {
    let mut sizes = Vec::new();
    walk(record, |before, played, _| {
        sizes.push(TurnSize {
            moves: super::alternatives::enumerate(before, played.tile).1.len(),
            tiles_left: before.pack_left().saturating_sub(1),
            horizon: super::search::horizon(before) as u32,
            draw_placements: draw_placements(before),
        });
        Ok(true)
    })?;
    Ok(sizes)
}

/// The tile-steps an analysis with `opts` asks for.
pub fn tile_steps(sizes: &[TurnSize], opts: &AnalysisOptions) -> u64 {
    (sizes.iter())
        .map(|t| u64::from(opts.playouts_for(t.moves)) * t.moves as u64 * t.playout_tiles(opts.sampler))
        .sum()
}

/// The plan for a game of these turns: as asked when it fits [`GAME_TILE_STEPS`], else the
/// largest cap on a turn's playouts that fits, else an error saying why.
pub fn plan(sizes: &[TurnSize], asked: &AnalysisOptions) -> Result<Plan, AnalysisError> {
    if tile_steps(sizes, asked) <= GAME_TILE_STEPS {
        return Ok(Plan::AsAsked);
    }
    let with_cap = |cap: u32| AnalysisOptions {
        max_playouts_per_turn: cap,
        ..asked.clone()
    };
    let fits = |cap: u32| tile_steps(sizes, &with_cap(cap)) <= GAME_TILE_STEPS;
    if !fits(MIN_PLAYOUTS_PER_TURN) {
        return Err(AnalysisError::TooLong {
            turns: sizes.len() as u32,
            moves: sizes.iter().map(|t| t.moves).sum(),
            tile_steps: tile_steps(sizes, &with_cap(MIN_PLAYOUTS_PER_TURN)),
            min_playouts: MIN_PLAYOUTS_PER_TURN,
            limit: GAME_TILE_STEPS,
        });
    }
    // The most a turn asks, uncapped: the upper end of the search.
    let widest =
        (sizes.iter().max_by_key(|t| t.moves)).map_or(1, |t| t.moves as u64 * u64::from(asked.per_alternative()));
    let asked_cap = match asked.max_playouts_per_turn {
        0 => widest.min(u64::from(u32::MAX)) as u32,
        cap => cap,
    };
    // Tile-steps grow with the cap: the largest cap that fits lies between the two.
    let (mut fitting, mut over) = (MIN_PLAYOUTS_PER_TURN, asked_cap);
    while over - fitting > 1 {
        let mid = fitting + (over - fitting) / 2;
        if fits(mid) {
            fitting = mid;
        } else {
            over = mid;
        }
    }
    Ok(Plan::Shallower(Shallower {
        max_playouts_per_turn: fitting,
        asked: asked.max_playouts_per_turn,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(n: u32, moves: usize) -> Vec<TurnSize> {
        (0..n)
            .map(|i| TurnSize {
                moves,
                tiles_left: n - 1 - i,
                horizon: 4,
                draw_placements: TYPICAL_DRAW_PLACEMENTS,
            })
            .collect()
    }

    /// A 72-tile game of about 70 moves a turn, as real games have, runs as asked.
    #[test]
    fn a_real_game_runs_as_asked() {
        let sizes = turns(72, 70);
        let asked = AnalysisOptions::default();
        assert!(tile_steps(&sizes, &asked) < GAME_TILE_STEPS);
        assert_eq!(plan(&sizes, &asked), Ok(Plan::AsAsked));
    }

    /// A longer game gets the largest cap on a turn's playouts that fits the budget.
    #[test]
    fn a_long_game_runs_with_the_largest_cap_that_fits() {
        let sizes = turns(200, 300);
        let asked = AnalysisOptions::default();
        let Ok(Plan::Shallower(s)) = plan(&sizes, &asked) else {
            panic!("a 200-turn game of 300 moves a turn is over the budget")
        };
        assert_eq!(s.asked, asked.max_playouts_per_turn);
        let at = |cap| {
            tile_steps(
                &sizes,
                &Plan::Shallower(Shallower {
                    max_playouts_per_turn: cap,
                    asked: 0,
                })
                .options(&asked),
            )
        };
        assert!(at(s.max_playouts_per_turn) <= GAME_TILE_STEPS);
        assert!(at(s.max_playouts_per_turn + 1) > GAME_TILE_STEPS);
        assert!(s.max_playouts_per_turn < asked.max_playouts_per_turn);
    }

    /// 512 custom tiles in a line, about a thousand moves a turn near the end: even the
    /// fewest playouts to the end would ask more than the budget, so the analysis is refused.
    /// (Samples to the horizon play a few tiles each, whatever the game's length.)
    #[test]
    fn a_game_too_long_even_for_the_fewest_playouts_is_refused() {
        let sizes: Vec<_> = (0..512)
            .map(|i| TurnSize {
                moves: 2 * i as usize + 4,
                tiles_left: 511 - i,
                horizon: 4,
                draw_placements: TYPICAL_DRAW_PLACEMENTS,
            })
            .collect();
        let to_the_end = AnalysisOptions {
            sampler: Sampler::ToTheEnd,
            ..AnalysisOptions::default()
        };
        let err = plan(&sizes, &to_the_end).unwrap_err();
        assert!(matches!(err, AnalysisError::TooLong { turns: 512, .. }), "{err}");
        assert!(err.to_string().contains("512 turns"), "{err}");
    }

    /// A game whose own draws have few places to go, on a board where the pack's other tiles
    /// have hundreds (a record's tiles laid in a line 300 long, then its end capped 200 times):
    /// few moves a turn, but every tile a sample draws weighs hundreds of placements. Counted
    /// by the board, it is over the budget even at the fewest playouts; counted by tiles alone
    /// it ran as asked and took two minutes.
    #[test]
    fn a_tile_on_a_wide_board_costs_its_placements() {
        let trap: Vec<TurnSize> = (0..512u32)
            .map(|i| TurnSize {
                moves: if i < 300 { 2 * i as usize + 4 } else { 12 },
                tiles_left: 583 - i,
                horizon: 4,
                draw_placements: 4 * i.min(300) + 2,
            })
            .collect();
        let asked = AnalysisOptions::default();
        let weighed = tile_steps(&trap, &asked);
        let unweighed = tile_steps(
            &(trap.iter())
                .map(|t| TurnSize {
                    draw_placements: 0,
                    ..*t
                })
                .collect::<Vec<_>>(),
            &asked,
        );
        assert!(weighed > 20 * unweighed, "{weighed} against {unweighed}");
        assert!(matches!(plan(&trap, &asked), Err(AnalysisError::TooLong { .. })));
        // A board of the usual size costs what it did.
        assert_eq!(tile_steps(&turns(72, 70), &asked), {
            let small = (turns(72, 70).into_iter())
                .map(|t| TurnSize {
                    draw_placements: 5,
                    ..t
                })
                .collect::<Vec<_>>();
            tile_steps(&small, &asked)
        });
    }

    /// Without playouts a game costs no tile-steps at all, however long it is.
    #[test]
    fn the_heuristic_alone_always_runs_as_asked() {
        let asked = AnalysisOptions {
            playouts_per_alternative: Some(0),
            ..AnalysisOptions::default()
        };
        assert_eq!(plan(&turns(512, 2000), &asked), Ok(Plan::AsAsked));
    }
}

//! How often features were completed in played games, by what the board shows of them: the
//! calibration of the completion chance (`completion::feature_outlook`).
//!
//! The tiles-left model says whether closing tiles will come to a feature's owner. Whether the
//! feature is completed depends as much on play: owners leave features for better moves,
//! opponents block squares, nobody closes an unheld city. On ten real games its chances of
//! 90–100% came true 43% of the time. So the chance a page shows is the share completed, in
//! self-play of the analysis, of features in the same [`Cell`]: the same kind, held or not, about
//! as many tiles left and open spots, and the model's chance in the same band
//! (`completion_rates.json`, made by `calibrate --completion`).
//!
//! New World's kinds (towns, trails, farms) are calibrated on its own self-play
//! (`completion_rates_new_world.json`); its fields and plains have no chance to calibrate.

use crate::engine::FeatureKind;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::LazyLock;

/// Features a cell must have held to give its own share: fewer, and the share of its kind and
/// band, whatever the rest, is used.
const MIN_ROWS: u32 = 30;

/// What the chance of a feature is calibrated by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    pub kind: KindGroup,
    /// Whether anyone has a follower on it.
    pub held: bool,
    /// Tiles left in the pack: up to 6, 18, 36, or more (0 to 3).
    pub left: u8,
    /// Open spots: 1, 2, or 3 and more (1 to 3).
    pub spots: u8,
    /// The model's chance: below 5%, 50%, 80%, 95%, 99.5%, or above (0 to 5).
    pub band: u8,
}

/// The kinds calibrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KindGroup {
    City,
    Road,
    /// Cloisters and gardens: done when their eight neighbours are placed.
    Cloister,
    /// New World's towns.
    Town,
    /// New World's trails.
    Trail,
    /// New World's farms: done when surrounded, like a cloister.
    Farm,
}

impl KindGroup {
    /// Whether the search's learned evaluation reads the calibrated chance of this kind: the
    /// base game's, whose weights were fitted on it (analysis version 10). New World's weights
    /// were fitted on the model's chance, so its search keeps reading that.
    pub fn searched(self) -> bool {
        matches!(self, KindGroup::City | KindGroup::Road | KindGroup::Cloister)
    }
}

impl Cell {
    /// The cell of a feature of `kind`, `held` or not, with `left` tiles in the pack, `spots`
    /// open spots and the model's `chance`; `None` for a kind not calibrated.
    pub fn of(kind: FeatureKind, held: bool, left: u32, spots: usize, chance: f64) -> Option<Cell> {
        let kind = match kind {
            FeatureKind::City => KindGroup::City,
            FeatureKind::Road => KindGroup::Road,
            FeatureKind::Cloister | FeatureKind::Garden => KindGroup::Cloister,
            FeatureKind::Town => KindGroup::Town,
            FeatureKind::Trail => KindGroup::Trail,
            FeatureKind::Farm => KindGroup::Farm,
            FeatureKind::Field | FeatureKind::River | FeatureKind::Plains | FeatureKind::Crossing => return None,
        };
        let left = [6, 18, 36].iter().filter(|&&edge| left > edge).count() as u8;
        let band = [0.05, 0.5, 0.8, 0.95, 0.995]
            .iter()
            .filter(|&&edge| chance >= edge)
            .count() as u8;
        Some(Cell {
            kind,
            held,
            left,
            spots: spots.clamp(1, 3) as u8,
            band,
        })
    }

    /// The coarser cell a sparse one falls back to: its kind and band alone.
    fn pooled(self) -> (KindGroup, u8) {
        (self.kind, self.band)
    }
}

/// Features of one cell and how many of them were completed by the end of their game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub features: u32,
    pub completed: u32,
}

impl Tally {
    /// The share completed, kept off 0 and 1 by one imagined feature of each (Laplace): a
    /// cell where every feature was completed does not make a certainty.
    fn share(self) -> f64 {
        (f64::from(self.completed) + 1.0) / (f64::from(self.features) + 2.0)
    }

    fn add(&mut self, other: Tally) {
        self.features += other.features;
        self.completed += other.completed;
    }
}

/// The measured shares, with how they were made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletionRates {
    /// The command that made them.
    pub made_by: String,
    pub games: u32,
    pub cells: Vec<(Cell, Tally)>,
}

impl CompletionRates {
    /// Counts `rows` (each feature's cell before a turn, and whether it was completed by the
    /// end of its game) into cells.
    pub fn count(made_by: String, games: u32, rows: impl IntoIterator<Item = (Cell, bool)>) -> CompletionRates {
        let mut cells: Vec<(Cell, Tally)> = Vec::new();
        for (cell, completed) in rows {
            let at = match cells.iter().position(|(c, _)| *c == cell) {
                Some(at) => at,
                None => {
                    cells.push((cell, Tally::default()));
                    cells.len() - 1
                }
            };
            cells[at].1.add(Tally {
                features: 1,
                completed: u32::from(completed),
            });
        }
        cells.sort_by_key(|(c, _)| (c.kind as u8, c.held, c.left, c.spots, c.band));
        CompletionRates { made_by, games, cells }
    }

    /// The shares of its cells, worked out once for lookups: a turn page asks for hundreds.
    pub fn shares(&self) -> Shares {
        let mut pooled: HashMap<(KindGroup, u8), Tally> = HashMap::new();
        for (cell, t) in &self.cells {
            pooled.entry(cell.pooled()).or_default().add(*t);
        }
        Shares {
            own: (self.cells.iter())
                .filter(|(_, t)| t.features >= MIN_ROWS)
                .map(|(c, t)| (*c, t.share()))
                .collect(),
            pooled: pooled.into_iter().map(|(k, t)| (k, t.share())).collect(),
        }
    }
}

/// The share completed by cell, and by kind and band for the cells that held too few.
#[derive(Debug)]
pub struct Shares {
    own: HashMap<Cell, f64>,
    pooled: HashMap<(KindGroup, u8), f64>,
}

impl Shares {
    /// The share completed of features in `cell`, or of its kind and band where the cell held
    /// too few; `None` where neither held any.
    pub fn get(&self, cell: Cell) -> Option<f64> {
        (self.own.get(&cell).or_else(|| self.pooled.get(&cell.pooled()))).copied()
    }
}

/// The shipped shares: the base game's rates and New World's, whose kinds are apart.
static SHIPPED: LazyLock<Shares> = LazyLock::new(|| {
    let read = |json: &str| serde_json::from_str::<CompletionRates>(json).expect("the shipped rates read");
    let mut rates = read(include_str!("completion_rates.json"));
    rates
        .cells
        .extend(read(include_str!("completion_rates_new_world.json")).cells);
    rates.shares()
});

/// The share completed of features in `cell` in the shipped rates (see [`Shares::get`]).
pub fn shipped_share(cell: Cell) -> Option<f64> {
    SHIPPED.get(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn city(held: bool, band_chance: f64) -> Cell {
        Cell::of(FeatureKind::City, held, 40, 1, band_chance).unwrap()
    }

    /// A cell's own share where it held enough features, else its kind's and band's; never 0
    /// or 1, however the games went.
    #[test]
    fn a_sparse_cell_takes_its_kind_and_band_and_no_share_is_certain() {
        let rows = (std::iter::repeat_n((city(true, 0.99), true), 40))
            .chain(std::iter::repeat_n((city(false, 0.99), false), 10))
            .chain(std::iter::repeat_n((city(false, 0.99), true), 10));
        let shares = CompletionRates::count("test".into(), 1, rows).shares();
        assert_eq!(shares.get(city(true, 0.99)), Some(41.0 / 42.0), "its own 40");
        assert_eq!(
            shares.get(city(false, 0.99)),
            Some(51.0 / 62.0),
            "20 are too few: all 60"
        );
        assert_eq!(shares.get(city(true, 0.3)), None, "no city in that band");
        assert!(Cell::of(FeatureKind::Field, true, 40, 1, 0.5).is_none());
    }

    /// Bands, tiles left and spots fall where their edges say.
    #[test]
    fn cells_are_cut_at_their_edges() {
        let cell = |left, spots, chance| Cell::of(FeatureKind::Road, false, left, spots, chance).unwrap();
        assert_eq!(
            (cell(6, 1, 0.0).left, cell(7, 1, 0.0).left, cell(37, 1, 0.0).left),
            (0, 1, 3)
        );
        assert_eq!((cell(10, 0, 0.0).spots, cell(10, 5, 0.0).spots), (1, 3));
        assert_eq!(
            (cell(10, 1, 0.049).band, cell(10, 1, 0.05).band, cell(10, 1, 1.0).band),
            (0, 1, 5)
        );
        assert_eq!(
            Cell::of(FeatureKind::Garden, true, 10, 4, 0.7).unwrap().kind,
            KindGroup::Cloister
        );
    }

    /// New World's towns, trails and farms have shares of their own games; its search keeps
    /// reading the model's chance, the base game's the calibrated one.
    #[test]
    fn new_worlds_kinds_are_calibrated_on_its_own_games() {
        for kind in [FeatureKind::Town, FeatureKind::Trail, FeatureKind::Farm] {
            let cell = Cell::of(kind, true, 20, 1, 0.9).unwrap();
            assert!(shipped_share(cell).is_some(), "{kind:?}");
            assert!(!cell.kind.searched(), "{kind:?}");
        }
        assert!(Cell::of(FeatureKind::Road, false, 20, 2, 0.5).unwrap().kind.searched());
        assert_eq!(Cell::of(FeatureKind::Plains, true, 20, 1, 0.5), None);
    }

    /// The shipped rates read, and say a held city the model is sure of is far from sure.
    #[test]
    fn the_shipped_rates_read() {
        assert!(!SHIPPED.own.is_empty());
        let sure = shipped_share(Cell::of(FeatureKind::City, true, 40, 2, 0.999).unwrap()).unwrap();
        assert!(sure < 0.9, "{sure}");
    }
}

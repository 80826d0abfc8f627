//! Score categories: each game's enum of the kinds of points a breakdown splits its scores
//! into. Code names a category by its variant, so a misspelt one does not compile; the words
//! are for people and for the keys of the JSON contract (`replay --json`), nothing else.

use super::tile::FeatureKind;

/// A category of a game's score breakdown ([`Position::Category`](super::Position::Category)).
pub trait Category: Copy + Eq + std::fmt::Debug + 'static {
    /// Its word: a column heading, and its key in the JSON contract.
    fn word(self) -> &'static str;
}

/// The words of `categories`, in order.
pub fn words<C: Category>(categories: &[C]) -> Vec<&'static str> {
    categories.iter().map(|c| c.word()).collect()
}

/// The categories of the tile games. One `Game` plays both the tile game and New World, so
/// one enum holds both games' categories, and each game lists its own five
/// ([`TileCategory::CARCASSONNE`], [`TileCategory::NEW_WORLD`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileCategory {
    Road,
    City,
    Cloister,
    Garden,
    /// Farmers on fields, scored at the end.
    Field,
    Trail,
    Town,
    Farm,
    Plains,
    /// New World's surveyor bonus, 4 points per surveyor in a scored settler's column.
    Surveyor,
}

impl TileCategory {
    /// The tile game's categories, in order: one per kind of feature that scores.
    pub const CARCASSONNE: [TileCategory; 5] = [
        TileCategory::Road,
        TileCategory::City,
        TileCategory::Cloister,
        TileCategory::Garden,
        TileCategory::Field,
    ];
    /// New World's categories, in order: its kinds of feature that score, and the surveyor
    /// bonus.
    pub const NEW_WORLD: [TileCategory; 5] = [
        TileCategory::Trail,
        TileCategory::Town,
        TileCategory::Farm,
        TileCategory::Plains,
        TileCategory::Surveyor,
    ];

    /// The category a feature of `kind` scores in; `None` for the river and crossings,
    /// which never score.
    pub fn of(kind: FeatureKind) -> Option<TileCategory> {
        Some(match kind {
            FeatureKind::Road => TileCategory::Road,
            FeatureKind::City => TileCategory::City,
            FeatureKind::Cloister => TileCategory::Cloister,
            FeatureKind::Garden => TileCategory::Garden,
            FeatureKind::Field => TileCategory::Field,
            FeatureKind::Trail => TileCategory::Trail,
            FeatureKind::Town => TileCategory::Town,
            FeatureKind::Farm => TileCategory::Farm,
            FeatureKind::Plains => TileCategory::Plains,
            FeatureKind::River | FeatureKind::Crossing => return None,
        })
    }
}

impl Category for TileCategory {
    fn word(self) -> &'static str {
        match self {
            TileCategory::Road => "road",
            TileCategory::City => "city",
            TileCategory::Cloister => "cloister",
            TileCategory::Garden => "garden",
            TileCategory::Field => "field",
            TileCategory::Trail => "trail",
            TileCategory::Town => "town",
            TileCategory::Farm => "farm",
            TileCategory::Plains => "plains",
            TileCategory::Surveyor => "surveyor",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;

    /// Each tile game lists one category per kind of feature it scores, named as the feature
    /// is, so the breakdown's keys read as the events' `feature` does; New World adds the
    /// surveyor bonus.
    #[test]
    fn each_tile_game_has_a_category_per_kind_of_feature_it_scores() {
        let games = [
            (GameKind::Carcassonne, TileCategory::CARCASSONNE),
            (GameKind::NewWorld, TileCategory::NEW_WORLD),
        ];
        for (game, listed) in games {
            let mut of_features: Vec<_> = game
                .feature_kinds()
                .iter()
                .filter_map(|&k| TileCategory::of(k))
                .collect();
            for &kind in game.feature_kinds() {
                if let Some(c) = TileCategory::of(kind) {
                    assert_eq!(c.word(), kind.word());
                }
            }
            if game == GameKind::NewWorld {
                of_features.push(TileCategory::Surveyor);
            }
            of_features.sort_by_key(|c| listed.iter().position(|l| l == c));
            assert_eq!(of_features, listed, "{game:?}");
        }
    }
}

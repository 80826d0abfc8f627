//! Whether the completion chances the board shows come true: at every turn of a finished
//! record, each open feature's chance (`board_features`, as the turn page shows it), paired
//! with whether the feature was completed by the end of the game. `bench judge` scores them.
//!
//! A feature merged into another is completed when the feature it became is: its squares
//! were closed. A cloister or garden is completed when its eight neighbours were placed.

use super::board_features::{Outlook, board_features};
use super::completion::CompletionChance;
use super::options::AnalysisError;
use super::positions::walk;
use crate::engine::{FeatureKind, Game, SegId};
use crate::record::GameRecord;

/// One chance the board showed, and what came of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    /// The turn about to be played when the chance was shown.
    pub turn: u32,
    pub kind: FeatureKind,
    /// The chance shown, the model's, and what made it like the features it was measured on.
    pub chance: CompletionChance,
    pub completed: bool,
}

/// Every chance of completion the board showed before each turn of `record`, which ended as
/// `end` (the replay's last position).
pub fn completion_forecasts(record: &GameRecord, end: &Game) -> Result<Vec<Forecast>, AnalysisError> {
    let mut out = Vec::new();
    walk(record, |before, _, turn| {
        for f in board_features(before) {
            if let Outlook::Open { chance } = f.outlook {
                out.push(Forecast {
                    turn,
                    kind: f.kind,
                    chance,
                    completed: completed(end, f.root, f.kind),
                });
            }
        }
        Ok(true)
    })?;
    Ok(out)
}

/// Whether the feature of segment `s` is completed in `game`.
fn completed(game: &Game, s: SegId, kind: FeatureKind) -> bool {
    match kind.is_inner() {
        true => game.surrounding(game.segment_place(s).0) == 8,
        false => game.features().is_complete(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::engine::bots::Policy;
    use crate::record::RulesSpec;
    use crate::selfplay::generate;

    /// Every open feature the board shows before a turn is forecast once, and judged by the
    /// game's end: in a whole game some open cities are completed later and some are not.
    #[test]
    fn every_open_feature_is_forecast_and_judged_by_the_end() {
        let record = generate(RulesSpec::new(Preset::SecondEdition), 2, Policy::Greedy, 4).unwrap();
        let end = crate::replay::replay(&record, None).unwrap().game;
        let forecasts = completion_forecasts(&record, &end).unwrap();
        assert!(
            (forecasts.iter()).all(|f| (0.0..=1.0).contains(&f.chance.chance) && (0.0..=1.0).contains(&f.chance.model))
        );
        let (at_ten, _) = crate::analysis::position_before(&record, 10).unwrap();
        let open = (board_features(&at_ten).iter())
            .filter(|f| matches!(f.outlook, Outlook::Open { .. }))
            .count();
        assert_eq!(forecasts.iter().filter(|f| f.turn == 10).count(), open);
        let cities = |completed| (forecasts.iter()).any(|f| f.kind == FeatureKind::City && f.completed == completed);
        assert!(
            cities(true) && cities(false),
            "some open cities were completed later, some never"
        );
    }
}
